/** The emulator's site redirects, customization and publishing auth, as the live description says. */
import { describe, expect, it } from 'vitest';
import { refusedRequestsExpected } from '../conformance/session.js';
import { SITE, useEmulator } from './helpers.js';

// Bad requests on purpose: their refusals are not checked (docs/conformance.md).
refusedRequestsExpected('the emulator\'s own tests send bad requests on purpose');

const start = useEmulator();
const ext = (url: string) => ({ kind: 'external', url });

describe('redirects', () => {
  it('creates (201, no Location), lists live and drafts apart, updates, deletes (205, then 204)', async () => {
    const api = await start();
    const seeded = await api.all(`${SITE}/redirects`);
    expect(seeded.map((r) => r.source)).toEqual(['/legacy']);
    const made = await api.post(`${SITE}/redirects`, { source: '/old/*', destination: ext('https://x.test/'), permanent: true });
    expect(made.status).toBe(201);
    expect(made.headers.get('location')).toBeNull();
    expect(made.body).toMatchObject({ object: 'site-redirect', source: '/old/*', permanent: true, captureWildcard: false, draft: false, destination: ext('https://x.test/') });
    const draft = await api.post(`${SITE}/redirects`, { source: '/old/*', destination: ext('https://y.test/'), draft: true });
    expect(draft.status).toBe(201);
    expect((await api.all(`${SITE}/redirects?orderBy=source`)).map((r) => r.source)).toEqual(['/legacy', '/old/*']);
    expect((await api.all(`${SITE}/redirects?draft=true`)).map((r) => r.id)).toEqual([draft.body.id]);

    const patched = await api.patch(`${SITE}/redirects/${made.body.id}`, { destination: ext('https://z.test/'), captureWildcard: true });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ destination: ext('https://z.test/'), captureWildcard: true });
    expect(typeof patched.body.updatedAt).toBe('string');
    expect((await api.del(`${SITE}/redirects/${made.body.id}`)).status).toBe(205);
    expect((await api.del(`${SITE}/redirects/${made.body.id}`)).status).toBe(204);
  });

  const refusals: Array<[string, unknown]> = [
    ['a source without a leading slash', { source: 'old', destination: ext('https://x.test/') }],
    ['a wildcard that is not last', { source: '/a/*/b', destination: ext('https://x.test/') }],
    ['a live source taken', { source: '/legacy', destination: ext('https://x.test/') }],
    ['a section the site lacks', { source: '/s', destination: { kind: 'site-section', siteSectionId: 'sec_nope' } }],
    ['an unknown field', { source: '/s', destination: ext('https://x.test/'), colour: 'red' }],
  ];
  for (const [name, body] of refusals) {
    it(`refuses ${name} (400)`, async () => {
      const api = await start();
      expect((await api.post(`${SITE}/redirects`, body)).status).toBe(400);
    });
  }
});

describe('customization', () => {
  it('answers the seeded document; a PUT replaces it whole and sets updatedAt', async () => {
    const api = await start();
    const doc = (await api.get(`${SITE}/customization`)).body;
    expect(doc).toMatchObject({ title: 'Docs', styling: { theme: 'clean' }, pagination: { enabled: true } });
    const { updatedAt: _read, ...input } = doc;
    const put = await api.put(`${SITE}/customization`, { ...input, styling: { ...input.styling, theme: 'bold' } });
    expect(put.status).toBe(200);
    expect(put.body.styling.theme).toBe('bold');
    expect(put.body.updatedAt).toBeDefined();
    expect((await api.get(`${SITE}/customization`)).body.styling.theme).toBe('bold');
  });

  it('refuses a PUT without a required field (400) and keeps the document', async () => {
    const api = await start();
    const { updatedAt: _read, pagination: _p, ...input } = (await api.get(`${SITE}/customization`)).body;
    expect((await api.put(`${SITE}/customization`, input)).status).toBe(400);
    expect((await api.get(`${SITE}/customization`)).body.pagination).toEqual({ enabled: true });
  });

  it('a site never customized answers the defaults', async () => {
    const api = await start();
    const doc = (await api.get('/v1/orgs/org_acme/sites/site_internal/customization')).body;
    expect(doc).toMatchObject({ title: 'Internal', themes: { default: 'system', toggeable: true } });
    expect(doc.updatedAt).toBeUndefined();
  });
});

describe('publishing auth', () => {
  it('answers a custom backend and a private key made once per site; a PATCH changes backend and URLs', async () => {
    const api = await start();
    const first = (await api.get(`${SITE}/publishing/auth`)).body;
    expect(first).toMatchObject({ object: 'publishing-auth', backend: 'custom' });
    expect(first.privateKey).toMatch(/^[0-9a-f]{64}$/);
    const other = (await api.get('/v1/orgs/org_acme/sites/site_internal/publishing/auth')).body;
    expect(other.privateKey).not.toBe(first.privateKey);

    const patched = await api.patch(`${SITE}/publishing/auth`, { backend: 'integration', fallbackURL: 'https://x.test/login' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ backend: 'integration', fallbackURL: 'https://x.test/login', privateKey: first.privateKey });
    const unset = await api.patch(`${SITE}/publishing/auth`, { backend: 'integration', fallbackURL: null });
    expect(unset.body.fallbackURL).toBeUndefined();
  });

  it('refuses a PATCH without a backend (400)', async () => {
    const api = await start();
    expect((await api.patch(`${SITE}/publishing/auth`, { fallbackURL: 'https://x.test/' })).status).toBe(400);
  });
});
