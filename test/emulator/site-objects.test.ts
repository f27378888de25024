/** Sites themselves in the emulator: list (paged, filtered), create, update, publish, delete. */
import { describe, expect, it } from 'vitest';
import { ORG, SITE, useEmulator } from './helpers.js';
import { refusedRequestsExpected } from '../conformance/session.js';

// Bad requests on purpose: their refusals are not checked (docs/conformance.md).
refusedRequestsExpected('the emulator\'s own tests send bad requests on purpose');

const start = useEmulator();

describe('sites', () => {
  it('lists the sites a page at a time, with the Site object', async () => {
    const api = await start();
    const page = await api.get(`${ORG}/sites?limit=1`);
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.next.page).toEqual(expect.any(String));
    const all = await api.all(`${ORG}/sites`);
    expect(all.map((s) => s.id)).toEqual(['site_docs', 'site_internal', 'site_status']);
    expect(all[0]).toMatchObject({ object: 'site', id: 'site_docs', title: 'Docs', type: 'ultimate', visibility: 'public', published: true, adaptiveContent: { enabled: false } });
    expect(all[1].published).toBe(false);
  });

  it.each([
    ['title=Docs', ['site_docs']],
    ['published=false', ['site_internal', 'site_status']],
    ['type=ultimate', ['site_docs', 'site_internal', 'site_status']],
    ['type=basic', []],
    ['space=space_guides', ['site_docs']],
  ])('filters by %s', async (query, ids) => {
    const api = await start();
    expect((await api.all(`${ORG}/sites?${query}`)).map((s) => s.id)).toEqual(ids);
  });

  it('creates a site (201, Location), updates it, publishes and unpublishes it, deletes it (205, then 204)', async () => {
    const api = await start();
    const made = await api.post(`${ORG}/sites`, { title: 'Portal', type: 'premium', visibility: 'unlisted', spaces: ['space_api'] });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ object: 'site', title: 'Portal', type: 'premium', visibility: 'unlisted', published: false, siteSpaces: 1 });
    const path = `${ORG}/sites/${made.body.id}`;
    expect(made.headers.get('location')).toBe(`${api.emu.url}${path}`);
    expect((await api.get(`${path}/structure`)).body).toMatchObject({ type: 'siteSpaces', structure: [{ space: { id: 'space_api' } }] });

    const patched = await api.patch(path, { title: 'Dev portal', basename: 'dev', adaptiveContent: { enabled: true }, defaultLevel: 'read', proxy: 'acme.com/docs' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'Dev portal', basename: 'dev', adaptiveContent: { enabled: true }, defaultLevel: 'read', proxy: { origin: 'acme.com/docs' } });
    expect((await api.patch(path, { proxy: null })).body.proxy).toBeUndefined();

    expect((await api.post(`${path}/publish`)).body).toMatchObject({ published: true, urls: { published: expect.any(String) } });
    expect((await api.post(`${path}/unpublish`)).body.published).toBe(false);

    expect((await api.del(path)).status).toBe(205);
    expect((await api.del(path)).status).toBe(204);
    expect((await api.get(path)).status).toBe(404);
  });

  it('sets the default section by id, and refuses one the site does not have', async () => {
    const api = await start();
    const s = await api.post(`${SITE}/sections`, { spaceId: 'space_api', title: 'API' });
    expect((await api.patch(SITE, { defaultSiteSection: s.body.id })).status).toBe(200);
    expect((await api.all(`${SITE}/sections`)).filter((x) => x.default).map((x) => x.id)).toEqual([s.body.id]);
    expect((await api.patch(SITE, { defaultSiteSection: 'sec_nope' })).status).toBe(400);
  });

  it.each([
    [{ title: 'x' }],
    [{ visibility: 'secret' }],
    [{ type: 'free' }],
    [{ spaces: ['space_nope'] }],
  ])('refuses the create %j with 400', async (body) => {
    const api = await start();
    expect((await api.post(`${ORG}/sites`, body)).status).toBe(400);
  });

  it.each([[{ basename: '' }], [{ proxy: 'not a proxy' }], [{ type: 'basic' }], [{ adaptiveContent: true }]])('refuses the update %j with 400', async (body) => {
    const api = await start();
    expect((await api.patch(SITE, body)).status).toBe(400);
  });

  it('refuses writes with a read-only token (403)', async () => {
    const api = await start(undefined, 'read-token');
    expect((await api.post(`${ORG}/sites`, { title: 'Nope' })).status).toBe(403);
    expect((await api.post(`${SITE}/publish`)).status).toBe(403);
  });
});
