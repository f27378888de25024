/**
 * The emulator's invite links (`/orgs/{org}/link-invites`), as the live description says: the list
 * (paged; every item carries `role`), create in its three shapes, get, update of the role or the
 * level, delete (205, then 204), the seeds of the state file, and what a deleted collection or space
 * does to its link. Every exchange passes the conformance check (test/conformance/setup.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseEmulatorState, startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { refusedRequestsExpected } from '../conformance/session.js';
import { client } from './helpers.js';

refusedRequestsExpected('the emulator\'s own tests send bad requests on purpose');

const STATE = {
  tokens: [
    { token: 'dev-token', access: 'write', user: 'u_alice' },
    { token: 'read-token', access: 'read' },
  ],
  users: [{ id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' }],
  organizations: [
    {
      id: 'org_acme',
      title: 'Acme',
      members: [{ user: 'u_alice', role: 'admin' }],
      collections: [{ id: 'col_archive', title: 'Archive', collections: [{ id: 'col_2023', title: '2023' }] }],
      spaces: [{ id: 'space_guides', title: 'Guides' }],
      linkInvites: [
        { id: 'invite_org', role: 'read' },
        { id: 'invite_space', space: 'space_guides', level: 'comment' },
        { id: 'invite_col', collection: 'Archive/2023', level: null },
      ],
    },
  ],
};

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function api() {
  emu = await startEmulator({ port: 0, state: parseEmulatorState(STATE) });
  return client(emu);
}

const BASE = '/v1/orgs/org_acme/link-invites';

describe('invite links in the emulator', () => {
  it('lists the seeded links, each with role (null for a content link) and its space or collection whole', async () => {
    const a = await api();
    const list = await a.get(`${BASE}?limit=1000`);
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      { object: 'invite', id: 'invite_org', role: 'read', redundant: true },
      expect.objectContaining({ object: 'invite', id: 'invite_space', role: null, level: 'comment', space: expect.objectContaining({ object: 'space', id: 'space_guides' }) }),
      expect.objectContaining({ object: 'invite', id: 'invite_col', role: null, level: null, collection: expect.objectContaining({ object: 'collection', id: 'col_2023', parent: 'col_archive' }) }),
    ]);
    const page = await a.get(`${BASE}?limit=2`);
    expect(page.body.items).toHaveLength(2);
    expect(page.body.next.page).toEqual(expect.any(String));
  });

  it('creates a link in each of its three shapes, and refuses a body of none or of two', async () => {
    const a = await api();
    const org = await a.post(BASE, { role: null });
    expect(org.status).toBe(201);
    expect(org.body).toEqual({ object: 'invite', id: expect.stringMatching(/^invite_/), role: null, redundant: true });
    const space = await a.post(BASE, { level: 'edit', space: 'space_guides' });
    expect(space.body).toMatchObject({ level: 'edit', space: { id: 'space_guides' } });
    expect(space.body).not.toHaveProperty('role');
    expect((await a.post(BASE, { level: 'read', collection: 'col_archive' })).body).toMatchObject({ level: 'read', collection: { id: 'col_archive' } });
    expect((await a.post(BASE, { level: 'read', space: 'space_nope' })).status).toBe(400);
    expect((await a.post(BASE, { level: 'read', collection: 'col_nope' })).status).toBe(400);
    expect((await a.post(BASE, { role: 'owner' })).status).toBe(400);
    expect((await a.post(BASE, { role: 'read', level: 'read', space: 'space_guides' })).status).toBe(400);
    expect((await a.post(BASE, {})).status).toBe(400);
    expect((await client(emu!, 'read-token').post(BASE, { role: 'read' })).status).toBe(403);
  });

  it('gets one link; updates the role of the organization\'s and the level of a content link, not the other way', async () => {
    const a = await api();
    expect((await a.get(`${BASE}/invite_space`)).body).toMatchObject({ id: 'invite_space', level: 'comment' });
    expect((await a.get(`${BASE}/invite_nope`)).status).toBe(404);
    expect((await a.patch(`${BASE}/invite_org`, { role: 'admin' })).body).toMatchObject({ id: 'invite_org', role: 'admin' });
    expect((await a.patch(`${BASE}/invite_space`, { level: null })).body).toMatchObject({ id: 'invite_space', level: null });
    expect((await a.patch(`${BASE}/invite_org`, { level: 'read' })).status).toBe(400);
    expect((await a.patch(`${BASE}/invite_col`, { role: 'read' })).status).toBe(400);
    expect((await a.patch(`${BASE}/invite_nope`, { role: 'read' })).status).toBe(404);
  });

  it('deletes: 205, then 204; a deleted collection takes its link, a deleted space hides its own', async () => {
    const a = await api();
    expect((await a.del(`${BASE}/invite_org`)).status).toBe(205);
    expect((await a.del(`${BASE}/invite_org`)).status).toBe(204);
    expect((await a.del('/v1/collections/col_archive')).status).toBe(205);
    expect((await a.del('/v1/spaces/space_guides')).status).toBe(205);
    expect((await a.get(`${BASE}?limit=1000`)).body.items).toEqual([]);
    expect((await a.get(`${BASE}/invite_space`)).status).toBe(404);
  });

  it('refuses a seed that names what the organization lacks, at its place in the file', async () => {
    const bad = structuredClone(STATE) as { organizations: Array<Record<string, unknown>> };
    bad.organizations[0].linkInvites = [{ id: 'invite_x', collection: 'Nowhere', level: 'read' }];
    await expect(startEmulator({ port: 0, state: parseEmulatorState(bad) })).rejects.toThrow('organizations[0].linkInvites[0].collection: no collection Nowhere in org_acme');
    expect(() => parseEmulatorState({ ...bad, organizations: [{ ...bad.organizations[0], linkInvites: [{ level: 'read' }] }] })).toThrow(/linkInvites/);
  });
});
