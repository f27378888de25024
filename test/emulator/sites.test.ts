/** Site sections, section groups, site spaces, share links and the structure sort. */
import { describe, expect, it } from 'vitest';
import { ORG, SITE, useEmulator } from './helpers.js';
import type { TestApi } from './helpers.js';
import { refusedRequestsExpected } from '../conformance/session.js';

// Bad requests on purpose: their refusals are not checked (docs/conformance.md).
refusedRequestsExpected('the emulator\'s own tests send bad requests on purpose');

const start = useEmulator();

/** The site's structure as the lists show it: sections (with group title) and their site spaces' space ids. */
async function layout(api: TestApi, site = SITE) {
  const sections = await api.all(`${site}/sections`);
  const groups = await api.all(`${site}/section-groups`);
  const groupTitle = new Map(groups.map((g) => [g.id, g.title]));
  return sections.map((s) => `${s.sectionGroup ? `${groupTitle.get(s.sectionGroup)}/` : ''}${s.path}[${s.siteSpaces.map((ss: any) => ss.space.id).join(',')}]`);
}

async function section(api: TestApi, spaceId: string, title: string | null = null) {
  const r = await api.post(`${SITE}/sections`, { spaceId, title });
  expect(r.status).toBe(201);
  return r.body;
}

describe('sections', () => {
  it('creates a section at the end with a unique slug path and its first site space', async () => {
    const api = await start();
    const a = await section(api, 'space_api', 'API Reference');
    expect(a).toMatchObject({
      object: 'site-section',
      title: 'API Reference',
      path: 'api-reference',
      default: false,
      draft: false,
      siteSpaces: [{ object: 'site-space', path: 'api-reference', section: a.id, space: { id: 'space_api' }, default: true, draft: false }],
    });
    const b = await section(api, 'space_guides_v2', 'Guides');
    expect(b.path).toBe('guides-2');
    const c = await section(api, 'space_changelog');
    expect([c.title, c.path]).toEqual(['Changelog', 'changelog']);
    expect(await layout(api)).toEqual(['guides[space_guides]', 'api-reference[space_api]', 'guides-2[space_guides_v2]', 'changelog[space_changelog]']);
    const first = (await api.all(`${SITE}/sections`))[0];
    expect(first.default).toBe(true);
  });

  it('patches path, description, condition (null removes) and icon', async () => {
    const api = await start();
    const s = await section(api, 'space_api', 'API');
    const r = await api.patch(`${SITE}/sections/${s.id}`, { path: 'api', description: 'The API', condition: 'visitor.claims.plan == "pro"', icon: 'code' });
    expect(r.body).toMatchObject({ path: 'api', description: 'The API', condition: 'visitor.claims.plan == "pro"', icon: 'code' });
    const cleared = await api.patch(`${SITE}/sections/${s.id}`, { condition: null, description: null });
    expect(cleared.body.condition).toBeUndefined();
    expect(cleared.body.description).toBeUndefined();
    expect(cleared.body.icon).toBe('code');
    expect((await api.patch(`${SITE}/sections/${s.id}`, { path: 'guides' })).body.error.message).toMatch(/^path: guides is already the path of section/);
  });

  it('enforces the limits of the API description on sections and the required spaceId', async () => {
    const api = await start();
    const cases: [string, unknown, string][] = [
      ['POST', {}, 'spaceId: required'],
      ['POST', { spaceId: 'space_nope' }, 'spaceId: no space space_nope in organization org_acme'],
      ['POST', { spaceId: 'space_globex' }, 'spaceId: no space space_globex in organization org_acme'],
      ['POST', { spaceId: 'space_api', title: 'A' }, 'title: at least 2 characters'],
      ['POST', { spaceId: 'space_api', title: 'x'.repeat(129) }, 'title: at most 128 characters'],
      ['POST', { spaceId: 'space_api', icon: 'x'.repeat(51) }, 'icon: at most 50 characters'],
      ['PATCH', { path: '' }, 'path: must not be empty'],
      ['PATCH', { path: 'x'.repeat(101) }, 'path: at most 100 characters'],
      ['PATCH', { description: 'x'.repeat(257) }, 'description: at most 256 characters'],
      ['PATCH', { condition: 'x'.repeat(1025) }, 'condition: at most 1024 characters'],
      ['PATCH', { title: 'x' }, 'title: at least 2 characters'],
    ];
    const guides = (await api.all(`${SITE}/sections`))[0];
    for (const [method, body, message] of cases) {
      const path = method === 'POST' ? `${SITE}/sections` : `${SITE}/sections/${guides.id}`;
      const r = await api.request(method, path, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toBe(message);
    }
    expect((await api.patch(`${SITE}/sections/sec_nope`, { title: 'Nope' })).status).toBe(404);
    expect((await api.get(`${ORG}/sites/site_nope/sections`)).status).toBe(404);
  });

  it('deletes a section with its site spaces and takes it out of its group (205, then 204)', async () => {
    const api = await start();
    const s = await section(api, 'space_api', 'API');
    const g = (await api.post(`${SITE}/section-groups`, { title: 'Reference', sections: [s.id] })).body;
    const ssId = s.siteSpaces[0].id;
    expect((await api.del(`${SITE}/sections/${s.id}`)).status).toBe(205);
    expect((await api.del(`${SITE}/sections/${s.id}`)).status).toBe(204);
    expect((await api.all(`${SITE}/site-spaces`)).map((x) => x.id)).not.toContain(ssId);
    const group = (await api.all(`${SITE}/section-groups`)).find((x) => x.id === g.id);
    expect(group).toMatchObject({ sections: [], children: [] });
  });
});

describe('site spaces', () => {
  it('adds site spaces to a section (spaceId required), patches and deletes them', async () => {
    const api = await start();
    const guides = (await api.all(`${SITE}/sections`))[0];
    const add = await api.post(`${SITE}/site-spaces`, { spaceId: 'space_guides_v2', sectionId: guides.id });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({ object: 'site-space', path: 'guides-v2', section: guides.id, default: false, space: { id: 'space_guides_v2', title: 'Guides v2' } });
    expect((await api.post(`${SITE}/site-spaces`, { sectionId: guides.id })).body.error.message).toBe('spaceId: required');
    expect((await api.post(`${SITE}/site-spaces`, { spaceId: 'space_api', sectionId: 'sec_nope' })).body.error.message).toMatch(/^sectionId: no section/);
    const patched = await api.patch(`${SITE}/site-spaces/${add.body.id}`, { path: 'v2', condition: 'true' });
    expect(patched.body).toMatchObject({ path: 'v2', condition: 'true' });
    expect((await api.patch(`${SITE}/site-spaces/${add.body.id}`, { condition: null })).body.condition).toBeUndefined();
    expect((await api.patch(`${SITE}/site-spaces/${add.body.id}`, { path: 'guides' })).body.error.message).toMatch(/^path: guides is already/);
    expect((await api.patch(`${SITE}/site-spaces/${add.body.id}`, { spaceId: 'space_api' })).body.space.id).toBe('space_api');
    expect((await api.del(`${SITE}/site-spaces/${add.body.id}`)).status).toBe(205);
    expect((await api.del(`${SITE}/site-spaces/${add.body.id}`)).status).toBe(204);
  });

  it('adds to the default section when sectionId is absent, and at the root of a site without sections', async () => {
    const api = await start();
    const r = await api.post(`${SITE}/site-spaces`, { spaceId: 'space_api' });
    expect(r.body.section).toBe((await api.all(`${SITE}/sections`))[0].id);
    const root = await api.post(`${ORG}/sites/site_internal/site-spaces`, { spaceId: 'space_handbook' });
    expect(root.status).toBe(201);
    expect(root.body.section).toBeUndefined();
    expect((await api.all(`${ORG}/sites/site_internal/site-spaces`)).map((x) => x.space.id)).toEqual(['space_handbook']);
  });

  it('filters by default, and follows the section’s defaultSiteSpace', async () => {
    const api = await start();
    const guides = (await api.all(`${SITE}/sections`))[0];
    const v2 = (await api.post(`${SITE}/site-spaces`, { spaceId: 'space_guides_v2', sectionId: guides.id })).body;
    expect((await api.all(`${SITE}/site-spaces?default=true`)).map((x) => x.space.id)).toEqual(['space_guides']);
    expect((await api.all(`${SITE}/site-spaces?default=false`)).map((x) => x.space.id)).toEqual(['space_guides_v2']);
    await api.patch(`${SITE}/sections/${guides.id}`, { defaultSiteSpace: v2.id });
    expect((await api.all(`${SITE}/site-spaces?default=true`)).map((x) => x.space.id)).toEqual(['space_guides_v2']);
    expect((await api.patch(`${SITE}/sections/${guides.id}`, { defaultSiteSpace: 'sitesp_nope' })).status).toBe(400);
  });
});

describe('section groups', () => {
  it('creates a group at the end holding the given sections in order, taken from where they were', async () => {
    const api = await start();
    const a = await section(api, 'space_api', 'API');
    const c = await section(api, 'space_changelog', 'Changelog');
    const g = await api.post(`${SITE}/section-groups`, { title: 'Reference', icon: 'box', sections: [c.id, a.id] });
    expect(g.status).toBe(201);
    expect(g.body).toMatchObject({ object: 'site-section-group', title: 'Reference', icon: 'box', draft: false });
    // Both `sections` (deprecated) and `children` are section objects in the live description.
    expect(g.body.sections.map((s: any) => s.id)).toEqual([c.id, a.id]);
    expect(g.body.children.map((s: any) => s.id)).toEqual([c.id, a.id]);
    expect(g.body.sections[0]).toMatchObject({ object: 'site-section', id: c.id, sectionGroup: g.body.id });
    expect(await layout(api)).toEqual(['guides[space_guides]', 'Reference/changelog[space_changelog]', 'Reference/api[space_api]']);
    expect((await api.post(`${SITE}/section-groups`, { title: 'X', sections: ['sec_nope'] })).body.error.message).toMatch(/^sections\[0\]: no section/);
  });

  it('enforces the group title and icon limits', async () => {
    const api = await start();
    expect((await api.post(`${SITE}/section-groups`, {})).body.error.message).toBe('title: required');
    expect((await api.post(`${SITE}/section-groups`, { title: '' })).body.error.message).toBe('title: must not be empty');
    expect((await api.post(`${SITE}/section-groups`, { title: 'x'.repeat(101) })).body.error.message).toBe('title: at most 100 characters');
    expect((await api.post(`${SITE}/section-groups`, { title: 'T', icon: 'x'.repeat(51) })).body.error.message).toBe('icon: at most 50 characters');
    const g = (await api.post(`${SITE}/section-groups`, { title: 'T' })).body;
    expect((await api.patch(`${SITE}/section-groups/${g.id}`, { title: 'x'.repeat(101) })).status).toBe(400);
    expect((await api.patch(`${SITE}/section-groups/${g.id}`, { title: 'U', icon: null })).body).toMatchObject({ title: 'U' });
    expect((await api.patch(`${SITE}/section-groups/grp_nope`, { title: 'U' })).status).toBe(404);
  });

  it('moves a section into a group by its own PATCH (siteSectionGroupId) and back after the group with null', async () => {
    const api = await start();
    const a = await section(api, 'space_api', 'API');
    const g = (await api.post(`${SITE}/section-groups`, { title: 'Reference' })).body;
    await section(api, 'space_changelog', 'Changelog');
    const added = await api.patch(`${SITE}/sections/${a.id}`, { siteSectionGroupId: g.id });
    expect(added.status).toBe(200);
    expect(added.body.sectionGroup).toBe(g.id);
    expect((await api.patch(`${SITE}/sections/${a.id}`, { siteSectionGroupId: 'grp_nope' })).body.error.message).toMatch(/^siteSectionGroupId: no section group/);
    expect(await layout(api)).toEqual(['guides[space_guides]', 'Reference/api[space_api]', 'changelog[space_changelog]']);
    const guides = (await api.all(`${SITE}/sections`))[0];
    await api.patch(`${SITE}/sections/${guides.id}`, { siteSectionGroupId: g.id });
    const out = await api.patch(`${SITE}/sections/${a.id}`, { siteSectionGroupId: null });
    expect(out.status).toBe(200);
    expect(out.body.sectionGroup).toBeUndefined();
    expect(await layout(api)).toEqual(['Reference/guides[space_guides]', 'api[space_api]', 'changelog[space_changelog]']);
    // A section can also be created in a group.
    const inGroup = await api.post(`${SITE}/sections`, { spaceId: 'space_handbook', title: 'Handbook', siteSectionGroupId: g.id });
    expect(inGroup.body.sectionGroup).toBe(g.id);
    // Groups move by parentSectionGroupId; the emulator has no nested groups (null keeps it at the root).
    expect((await api.patch(`${SITE}/section-groups/${g.id}`, { parentSectionGroupId: null })).status).toBe(200);
    expect((await api.patch(`${SITE}/section-groups/${g.id}`, { parentSectionGroupId: g.id })).status).toBe(400);
  });

  it('has no section-group sections endpoints (the live description has none): 404 as any unknown path', async () => {
    const api = await start();
    const a = await section(api, 'space_api', 'API');
    const g = (await api.post(`${SITE}/section-groups`, { title: 'Reference' })).body;
    const post = await api.post(`${SITE}/section-groups/${g.id}/sections`, { sectionId: a.id });
    expect(post.status).toBe(404);
    expect(post.body.error.code).toBe(404);
    expect((await api.del(`${SITE}/section-groups/${g.id}/sections/${a.id}`)).status).toBe(404);
    expect(api.emu.world.orgs.get('org_acme')!.sites.get('site_docs')!.groups.get(g.id)!.children).toEqual([]);
  });

  it('deletes a group, putting its sections back where the group stood', async () => {
    const api = await start();
    const a = await section(api, 'space_api', 'API');
    const c = await section(api, 'space_changelog', 'Changelog');
    const g = (await api.post(`${SITE}/section-groups`, { title: 'Reference', sections: [a.id, c.id] })).body;
    await api.patch(`${SITE}/structure/sort`, { item: { type: 'site-section-group', id: g.id }, position: { before: { type: 'site-section', id: (await api.all(`${SITE}/sections`))[0].id } } });
    expect(await layout(api)).toEqual(['Reference/api[space_api]', 'Reference/changelog[space_changelog]', 'guides[space_guides]']);
    expect((await api.del(`${SITE}/section-groups/${g.id}`)).status).toBe(205);
    expect((await api.del(`${SITE}/section-groups/${g.id}`)).status).toBe(204);
    expect(await layout(api)).toEqual(['api[space_api]', 'changelog[space_changelog]', 'guides[space_guides]']);
  });
});

describe('PATCH SITE/structure/sort', () => {
  async function world(api: TestApi) {
    const guides = (await api.all(`${SITE}/sections`))[0];
    const a = await section(api, 'space_api', 'API');
    const c = await section(api, 'space_changelog', 'Changelog');
    const h = await section(api, 'space_handbook', 'Handbook');
    const g = (await api.post(`${SITE}/section-groups`, { title: 'Reference', sections: [a.id, c.id] })).body;
    const v2 = (await api.post(`${SITE}/site-spaces`, { spaceId: 'space_guides_v2', sectionId: guides.id })).body;
    return { guides, a, c, h, g, v2 };
  }
  const sort = (api: TestApi, item: [string, string], where: 'before' | 'after', target: [string, string]) =>
    api.patch(`${SITE}/structure/sort`, { item: { type: item[0], id: item[1] }, position: { [where]: { type: target[0], id: target[1] } } });

  it('orders top-level sections and groups', async () => {
    const api = await start();
    const w = await world(api);
    expect(await layout(api)).toEqual(['guides[space_guides,space_guides_v2]', 'handbook[space_handbook]', 'Reference/api[space_api]', 'Reference/changelog[space_changelog]']);
    const r = await sort(api, ['site-section', w.h.id], 'after', ['site-section-group', w.g.id]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: 'site-section', id: w.h.id });
    expect(await layout(api)).toEqual(['guides[space_guides,space_guides_v2]', 'Reference/api[space_api]', 'Reference/changelog[space_changelog]', 'handbook[space_handbook]']);
    const g = await sort(api, ['site-section-group', w.g.id], 'before', ['site-section', w.guides.id]);
    expect(g.body).toMatchObject({ object: 'site-section-group', id: w.g.id });
    expect((await api.all(`${SITE}/section-groups`))[0].id).toBe(w.g.id);
    expect(await layout(api)).toEqual(['Reference/api[space_api]', 'Reference/changelog[space_changelog]', 'guides[space_guides,space_guides_v2]', 'handbook[space_handbook]']);
  });

  it('orders sections within a group, and refuses to move one between the root and a group (sorting changes sibling order only)', async () => {
    const api = await start();
    const w = await world(api);
    const inside = await sort(api, ['site-section', w.c.id], 'before', ['site-section', w.a.id]);
    expect(inside.status).toBe(200);
    expect(await layout(api)).toEqual(['guides[space_guides,space_guides_v2]', 'handbook[space_handbook]', 'Reference/changelog[space_changelog]', 'Reference/api[space_api]']);
    const before = await layout(api);
    const into = await sort(api, ['site-section', w.h.id], 'before', ['site-section', w.c.id]);
    expect(into.status).toBe(400);
    expect(into.body.error.message).toMatch(/sibling order only/);
    expect((await sort(api, ['site-section', w.a.id], 'after', ['site-section', w.guides.id])).status).toBe(400);
    expect((await sort(api, ['site-section', w.a.id], 'after', ['site-section-group', w.g.id])).status).toBe(400);
    expect(await layout(api)).toEqual(before);
    // The way: the section's own PATCH, then the sort.
    await api.patch(`${SITE}/sections/${w.h.id}`, { siteSectionGroupId: w.g.id });
    expect((await sort(api, ['site-section', w.h.id], 'before', ['site-section', w.c.id])).status).toBe(200);
    const group = (await api.all(`${SITE}/section-groups`))[0];
    expect(group.sections.map((s: any) => s.id)).toEqual([w.h.id, w.c.id, w.a.id]);
  });

  it('orders site spaces in a section, and refuses to move one to another section', async () => {
    const api = await start();
    const w = await world(api);
    const first = w.guides.siteSpaces[0].id;
    const r = await sort(api, ['site-space', w.v2.id], 'before', ['site-space', first]);
    expect(r.body).toMatchObject({ object: 'site-space', id: w.v2.id, section: w.guides.id });
    expect(await layout(api)).toContain('guides[space_guides_v2,space_guides]');
    const across = await sort(api, ['site-space', w.v2.id], 'after', ['site-space', w.a.siteSpaces[0].id]);
    expect(across.status).toBe(400);
    expect((await api.all(`${SITE}/site-spaces`)).map((x) => x.space.id)).toEqual(['space_guides_v2', 'space_guides', 'space_handbook', 'space_api', 'space_changelog']);
  });

  it('serves the whole tree in one request (GET SITE/structure), consistent with the lists', async () => {
    const api = await start();
    const w = await world(api);
    const r = await api.get(`${SITE}/structure`);
    expect(r.status).toBe(200);
    expect(r.body.type).toBe('sections');
    expect(r.body.structure.map((x: any) => `${x.object}:${x.id}`)).toEqual([`site-section:${w.guides.id}`, `site-section:${w.h.id}`, `site-section-group:${w.g.id}`]);
    const groups = await api.all(`${SITE}/section-groups`);
    expect(r.body.structure[2]).toEqual(groups[0]);
    const sections = await api.all(`${SITE}/sections`);
    expect(r.body.structure[0]).toEqual(sections[0]);
    const flat = r.body.structure.flatMap((x: any) => (x.object === 'site-section' ? [x] : x.children));
    expect(flat).toEqual(sections);
    expect(flat.flatMap((s: any) => s.siteSpaces)).toEqual(await api.all(`${SITE}/site-spaces`));
    const internal = await api.get(`${ORG}/sites/site_internal/structure`);
    expect(internal.body).toEqual({ type: 'siteSpaces', structure: await api.all(`${ORG}/sites/site_internal/site-spaces`) });
    expect((await api.get(`${ORG}/sites/site_nope/structure`)).status).toBe(404);
  });

  it('answers 400 for incompatible pairs, unknown ids, a missing or double position', async () => {
    const api = await start();
    const w = await world(api);
    const bad: [string, [string, string], 'before' | 'after', [string, string]][] = [
      ['site-space next to a section', ['site-space', w.v2.id], 'before', ['site-section', w.a.id]],
      ['section next to a site space', ['site-section', w.h.id], 'after', ['site-space', w.v2.id]],
      ['group inside a group', ['site-section-group', w.g.id], 'after', ['site-section', w.a.id]],
      ['unknown item', ['site-section', 'sec_nope'], 'after', ['site-section', w.a.id]],
      ['unknown target', ['site-section', w.h.id], 'after', ['site-section', 'sec_nope']],
      ['itself', ['site-section', w.h.id], 'after', ['site-section', w.h.id]],
    ];
    const before = await layout(api);
    for (const [why, item, where, target] of bad) {
      const r = await sort(api, item, where, target);
      expect(r.status, why).toBe(400);
      expect(r.body.error.code).toBe(400);
    }
    expect(await layout(api)).toEqual(before);
    const none = await api.patch(`${SITE}/structure/sort`, { item: { type: 'site-section', id: w.h.id }, position: {} });
    expect(none.body.error.message).toBe('position: before or after is required');
    const both = await api.patch(`${SITE}/structure/sort`, {
      item: { type: 'site-section', id: w.h.id },
      position: { before: { type: 'site-section', id: w.a.id }, after: { type: 'site-section', id: w.c.id } },
    });
    expect(both.status).toBe(400);
    expect((await api.patch(`${SITE}/structure/sort`, { item: { type: 'page', id: 'x' }, position: {} })).body.error.message).toMatch(/^item\.type: must be one of/);
  });

  it('still serves the deprecated moves of sections and site spaces', async () => {
    const api = await start();
    const w = await world(api);
    const r = await api.post(`${SITE}/sections/${w.h.id}/move`, { position: { before: { type: 'site-section', siteSection: w.guides.id } } });
    expect(r.status).toBe(200);
    expect((await layout(api))[0]).toBe('handbook[space_handbook]');
    await api.post(`${SITE}/site-spaces/${w.v2.id}/move`, { position: { before: { type: 'site-space', siteSpace: w.guides.siteSpaces[0].id } } });
    expect(await layout(api)).toContain('guides[space_guides_v2,space_guides]');
    expect((await api.post(`${SITE}/sections/${w.h.id}/move`, { position: { before: { type: 'site-space', siteSpace: 'x' } } })).status).toBe(400);
  });
});

describe('share links', () => {
  it('creates an active link, patches and deletes it, with the name limit', async () => {
    const api = await start();
    const r = await api.post(`${SITE}/share-links`, { name: 'partner-acme' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ object: 'share-link', name: 'partner-acme', active: true });
    expect(typeof r.body.createdAt).toBe('string');
    expect((await api.patch(`${SITE}/share-links/${r.body.id}`, { active: false })).body.active).toBe(false);
    expect((await api.patch(`${SITE}/share-links/${r.body.id}`, { name: 'x'.repeat(51) })).body.error.message).toBe('name: at most 50 characters');
    expect((await api.post(`${SITE}/share-links`, {})).body.error.message).toBe('name: required');
    expect((await api.post(`${SITE}/share-links`, { name: 'x'.repeat(51) })).body.error.message).toBe('name: at most 50 characters');
    expect((await api.all(`${SITE}/share-links`)).map((l) => [l.name, l.active])).toEqual([
      ['old-link', true],
      ['partner-acme', false],
    ]);
    expect((await api.del(`${SITE}/share-links/${r.body.id}`)).status).toBe(205);
    expect((await api.del(`${SITE}/share-links/${r.body.id}`)).status).toBe(204);
    expect((await api.patch(`${SITE}/share-links/link_nope`, { active: true })).status).toBe(404);
  });
});
