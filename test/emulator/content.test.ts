/** Collections (API 4.1) and spaces (API 4.7). */
import { describe, expect, it } from 'vitest';
import { ORG, demoState, useEmulator } from './helpers.js';
import { refusedRequestsExpected } from '../conformance/session.js';

// Bad requests on purpose: their refusals are not checked (docs/conformance.md).
refusedRequestsExpected('the emulator\'s own tests send bad requests on purpose');

const start = useEmulator();

async function collectionIds(api: Awaited<ReturnType<ReturnType<typeof useEmulator>>>) {
  const list = await api.all(`${ORG}/collections?nested=true`);
  return Object.fromEntries(list.map((c) => [c.title, c]));
}

describe('collections', () => {
  it('lists every collection with its parent when nested, only the top level otherwise', async () => {
    const api = await start();
    const nested = await api.all(`${ORG}/collections?nested=true`);
    expect(nested.map((c) => [c.title, c.parent])).toEqual([
      ['Archive', undefined],
      ['2023', nested[0].id],
    ]);
    expect(nested[0]).toMatchObject({ object: 'collection', organization: 'org_acme', defaultLevel: null, permissions: { view: true } });
    expect(await api.all(`${ORG}/collections`)).toHaveLength(2);
    expect((await api.all(`${ORG}/collections?nested=false`)).map((c) => c.title)).toEqual(['Archive']);
  });

  it('creates top-level and child collections, then patches them', async () => {
    const api = await start();
    const product = await api.post(`${ORG}/collections`, { title: 'Product' });
    expect(product.status).toBe(201);
    expect(product.headers.get('location')).toBe(`${api.emu.url}/v1/collections/${product.body.id}`);
    const child = await api.post(`${ORG}/collections`, { title: 'API', parent: product.body.id });
    expect(child.body.parent).toBe(product.body.id);
    const patched = await api.patch(`/v1/collections/${product.body.id}`, { description: 'Everything product', defaultLevel: 'inherit' });
    expect(patched.body).toMatchObject({ title: 'Product', description: 'Everything product', defaultLevel: 'inherit' });
    // `description: null` is refused as the live service does (a string); the empty string clears it.
    const nulled = await api.patch(`/v1/collections/${product.body.id}`, { description: null });
    expect(nulled.status).toBe(400);
    expect(nulled.body.error.message).toBe('description: must not be null');
    const cleared = await api.patch(`/v1/collections/${product.body.id}`, { description: '' });
    expect(cleared.status).toBe(200);
    expect(cleared.body.description).toBeUndefined();
    expect((await api.get(`/v1/collections/${child.body.id}`)).body.title).toBe('API');
  });

  it('enforces title and description limits and a known parent', async () => {
    const api = await start();
    expect((await api.post(`${ORG}/collections`, { title: 'x'.repeat(51) })).body.error.message).toBe('title: at most 50 characters');
    expect((await api.post(`${ORG}/collections`, { title: 'A', parent: 'col_nope' })).body.error.message).toBe('parent: no collection col_nope in organization org_acme');
    const { Archive } = await collectionIds(api);
    expect((await api.patch(`/v1/collections/${Archive.id}`, { description: 'x'.repeat(101) })).body.error.message).toBe('description: at most 100 characters');
    expect((await api.patch(`/v1/collections/${Archive.id}`, { defaultLevel: 'owner' })).status).toBe(400);
    expect((await api.get('/v1/collections/col_nope')).status).toBe(404);
  });

  it('moves a collection, refusing a move into its own subtree', async () => {
    const api = await start();
    const { Archive, '2023': y2023 } = await collectionIds(api);
    const top = await api.post(`/v1/collections/${y2023.id}/move`, { parent: null });
    expect(top.status).toBe(200);
    expect(top.body.parent).toBeUndefined();
    const under = await api.post(`/v1/collections/${Archive.id}/move`, { parent: y2023.id });
    expect(under.body.parent).toBe(y2023.id);
    const cycle = await api.post(`/v1/collections/${y2023.id}/move`, { parent: Archive.id });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error.message).toMatch(/^parent: .*itself or one of its descendants/);
    expect((await api.post(`/v1/collections/${y2023.id}/move`, {})).body.error.message).toBe('parent: required');
  });

  it('deletes a collection with its descendants; their spaces move to the top level', async () => {
    const api = await start();
    const { Archive, '2023': y2023 } = await collectionIds(api);
    await api.post('/v1/spaces/space_old/move', { parent: y2023.id });
    expect((await api.all(`/v1/collections/${y2023.id}/spaces`)).map((s) => s.id)).toEqual(['space_old']);
    expect((await api.del(`/v1/collections/${Archive.id}`)).status).toBe(205);
    expect((await api.del(`/v1/collections/${Archive.id}`)).status).toBe(204);
    expect(await api.all(`${ORG}/collections`)).toEqual([]);
    expect((await api.get('/v1/spaces/space_old')).body.parent).toBeUndefined();
  });

  it('transfers a collection with its subtree and spaces to another organization', async () => {
    const api = await start();
    const { Archive, '2023': y2023 } = await collectionIds(api);
    await api.post('/v1/spaces/space_old/move', { parent: y2023.id });
    expect((await api.post(`/v1/collections/${Archive.id}/transfer`, {})).body.error.message).toBe('organization: required');
    expect((await api.post(`/v1/collections/${Archive.id}/transfer`, { organization: 'org_nope' })).status).toBe(400);
    const r = await api.post(`/v1/collections/${Archive.id}/transfer`, { organization: 'org_globex' });
    expect(r.body.organization).toBe('org_globex');
    // A transfer that changes nothing: 409 (transferCollection); so is a move to where it is (moveCollection).
    const again = await api.post(`/v1/collections/${Archive.id}/transfer`, { organization: 'org_globex' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/would not result in any update/);
    const stay = await api.post(`/v1/collections/${Archive.id}/move`, { parent: null });
    expect(stay.status).toBe(409);
    expect((await api.all('/v1/orgs/org_globex/collections')).map((c) => c.title)).toEqual(['Archive', '2023']);
    expect((await api.all('/v1/orgs/org_globex/spaces')).map((s) => s.id)).toEqual(['space_globex', 'space_old']);
    expect((await api.all(`${ORG}/spaces`)).map((s) => s.id)).not.toContain('space_old');
  });
});

describe('spaces', () => {
  it('lists the organization’s spaces and gets one', async () => {
    const api = await start();
    const spaces = await api.all(`${ORG}/spaces`);
    expect(spaces.map((s) => s.id)).toEqual(['space_guides', 'space_guides_v2', 'space_api', 'space_changelog', 'space_handbook', 'space_runbooks', 'space_old', 'space_style']);
    const api2 = (await api.get('/v1/spaces/space_api')).body;
    expect(api2).toMatchObject({ object: 'space', id: 'space_api', title: 'API reference', organization: 'org_acme', editMode: 'live', visibility: 'private' });
    expect(api2.deletedAt).toBeUndefined();
  });

  it('patches settings and checks their values', async () => {
    const api = await start();
    const r = await api.patch('/v1/spaces/space_handbook', { emoji: '📘', editMode: 'locked', title: 'Handbook 2', defaultLevel: 'read', language: 'en' });
    expect(r.body).toMatchObject({ emoji: '📘', editMode: 'locked', title: 'Handbook 2', defaultLevel: 'read', language: 'en' });
    expect((await api.patch('/v1/spaces/space_handbook', { editMode: 'frozen' })).body.error.message).toBe('editMode: must be one of "live", "locked"');
    expect((await api.patch('/v1/spaces/space_handbook', { visibility: 'public' })).body.error.message).toBe('visibility: unknown field');
  });

  it('soft-deletes a space (205, then 204), still answers GET with deletedAt, and restores it', async () => {
    const api = await start();
    expect((await api.del('/v1/spaces/space_old')).status).toBe(205);
    expect((await api.del('/v1/spaces/space_old')).status).toBe(204);
    expect((await api.del('/v1/spaces/space_never')).status).toBe(204);
    const gone = await api.get('/v1/spaces/space_old');
    expect(gone.status).toBe(200);
    expect(typeof gone.body.deletedAt).toBe('string');
    expect((await api.all(`${ORG}/spaces`)).map((s) => s.id)).not.toContain('space_old');
    expect((await api.patch('/v1/spaces/space_old', { title: 'x' })).body.error.message).toMatch(/deleted: restore it first/);
    const restored = await api.post('/v1/spaces/space_old/restore');
    expect(restored.status).toBe(200);
    expect(restored.body.deletedAt).toBeUndefined();
    expect((await api.all(`${ORG}/spaces`)).map((s) => s.id)).toContain('space_old');
    expect((await api.post('/v1/spaces/space_old/restore')).status).toBe(400);
  });

  it('forgets a space deleted more than 7 days ago: 404 for GET and restore', async () => {
    const state = demoState();
    const old = new Date(Date.now() - 8 * 24 * 3600 * 1000).toISOString();
    const recent = new Date(Date.now() - 6 * 24 * 3600 * 1000).toISOString();
    state.organizations![0].spaces!.push({ id: 'space_gone', title: 'Gone', deletedAt: old }, { id: 'space_recent', title: 'Recent', deletedAt: recent });
    const api = await start({ state });
    expect((await api.get('/v1/spaces/space_gone')).status).toBe(404);
    expect((await api.post('/v1/spaces/space_gone/restore')).status).toBe(404);
    expect((await api.post('/v1/spaces/space_recent/restore')).status).toBe(200);
  });

  it('moves a space into a collection and back, and orders it by position', async () => {
    const api = await start();
    const { Archive } = await collectionIds(api);
    const moved = await api.post('/v1/spaces/space_old/move', { parent: Archive.id });
    expect(moved.body.parent).toBe(Archive.id);
    await api.post('/v1/spaces/space_api/move', { parent: Archive.id, position: { before: { type: 'space', space: 'space_old' } } });
    expect((await api.all(`/v1/collections/${Archive.id}/spaces`)).map((s) => s.id)).toEqual(['space_api', 'space_old']);
    const top = await api.post('/v1/spaces/space_old/move', { parent: null });
    expect(top.body.parent).toBeUndefined();
    const noop = await api.post('/v1/spaces/space_old/move', { parent: null });
    // 409, as the live description documents for a move that changes nothing (moveSpace).
    expect(noop.status).toBe(409);
    expect(noop.body.error.message).toMatch(/would not result in any update/);
    expect((await api.post('/v1/spaces/space_old/move', { parent: 'col_nope' })).body.error.message).toBe('parent: no collection col_nope in organization org_acme');
    expect((await api.post('/v1/spaces/space_nope/move', { parent: null })).status).toBe(404);
    const badPos = await api.post('/v1/spaces/space_old/move', { parent: Archive.id, position: { after: { type: 'space', space: 'space_guides' } } });
    expect(badPos.status).toBe(400);
    expect(badPos.body.error.message).toMatch(/^position: /);
  });

  it('has no space transfer: the live description has no such path (404, as the live service answers)', async () => {
    const api = await start();
    const r = await api.post('/v1/spaces/space_old/transfer', { organization: 'org_globex' });
    expect(r.status).toBe(404);
    expect(api.emu.world.spaces.get('space_old')!.org).toBe('org_acme');
  });
});
