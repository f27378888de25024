/**
 * The emulator's access, invites and createSpace as the live description says: grants by object id
 * (a moved space keeps its direct grants), a deleted team loses its grants, a user removed from the
 * organization loses theirs; every exchange checked against the description.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { createRecorder } from '../conformance/recorder.js';
import { refusedRequestsExpected } from '../conformance/session.js';
import { client, demoState, type TestApi } from './helpers.js';

refusedRequestsExpected('the emulator\'s own tests send bad requests on purpose (the 400 probes)');

const ORG = '/v1/orgs/org_acme';
const OWN = /\/permissions|\/invites|^POST \/orgs\/\{organizationId\}\/spaces$/;

describe('emulator: access, invites, createSpace', () => {
  let emu: RunningEmulator;
  let api: TestApi;
  const recorder = createRecorder();
  beforeAll(async () => {
    emu = await startEmulator({ state: demoState(), onExchange: recorder.record });
    api = client(emu);
  });
  afterAll(() => emu.close());

  const teamId = (title: string) => [...emu.world.orgs.get('org_acme')!.teams.values()].find((t) => t.title === title)!.id;

  it('invites teams and users on a space, lists, updates and removes them', async () => {
    const eng = teamId('Legacy');
    expect((await api.post('/v1/spaces/space_api/permissions', { role: 'edit', teams: [eng] })).status).toBe(204);
    expect((await api.post('/v1/spaces/space_api/permissions', { role: 'admin', users: ['u_carol'] })).status).toBe(204);
    const teams = await api.get(`/v1/spaces/space_api/permissions/teams?limit=1000`);
    expect(teams.body.items.map((i: any) => [i.team.title, i.permission])).toEqual([['Legacy', 'edit']]);
    const users = await api.get(`/v1/spaces/space_api/permissions/users?limit=1000`);
    expect(users.body.items.map((i: any) => [i.user.email, i.permission])).toEqual([['carol@acme.com', 'admin']]);
    expect((await api.patch(`/v1/spaces/space_api/permissions/teams/${eng}`, { role: 'read' })).status).toBe(204);
    expect((await api.patch('/v1/spaces/space_api/permissions/teams/t_nope', { role: 'read' })).status).toBe(404);
    expect((await api.del('/v1/spaces/space_api/permissions/users/u_carol')).status).toBe(205);
    expect((await api.del('/v1/spaces/space_api/permissions/users/u_carol')).status).toBe(204);
    expect((await api.post('/v1/spaces/space_api/permissions', { role: 'read', teams: ['t_nope'] })).status).toBe(400);
    expect((await api.post('/v1/spaces/space_nope/permissions', { role: 'read', users: ['u_bob'] })).status).toBe(404);
    expect((await api.post('/v1/spaces/space_api/permissions', { role: 'read' })).status).toBe(400);
  });

  it('shows inherited access in the aggregate: a space in a collection gets the collection grants', async () => {
    const archive = [...emu.world.collections.values()].find((c) => c.org === 'org_acme' && c.title === 'Archive')!.id;
    expect((await api.post('/v1/spaces/space_api/move', { parent: archive })).status).toBe(200);
    expect((await api.post(`/v1/collections/${archive}/permissions`, { role: 'comment', users: ['u_judy'] })).status).toBe(204);
    const agg = await api.get('/v1/spaces/space_api/permissions/aggregate?limit=1000');
    const roles = Object.fromEntries(agg.body.items.map((i: any) => [i.user.email, i.permission]));
    expect(roles['judy@acme.com']).toBe('comment');
    expect(roles['heidi@acme.com']).toBe('read'); // a member of Legacy, granted read above
  });

  it('a moved space keeps its direct grants; a deleted team and a removed member lose theirs', async () => {
    expect((await api.post('/v1/spaces/space_api/move', { parent: null })).status).toBe(200);
    expect((await api.get('/v1/spaces/space_api/permissions/teams?limit=1000')).body.items).toHaveLength(1);
    expect((await api.post('/v1/spaces/space_api/permissions', { role: 'read', users: ['u_ivan'] })).status).toBe(204);
    expect((await api.del(`${ORG}/teams/${teamId('Legacy')}`)).status).toBe(205);
    expect((await api.get('/v1/spaces/space_api/permissions/teams?limit=1000')).body.items).toEqual([]);
    expect((await api.del(`${ORG}/members/u_ivan`)).status).toBe(205);
    expect((await api.get('/v1/spaces/space_api/permissions/users?limit=1000')).body.items).toEqual([]);
  });

  it('manages access on a site, under the organization', async () => {
    const base = `${ORG}/sites/site_docs/permissions`;
    expect((await api.put(`${ORG}/teams`, { title: 'Support' })).status).toBe(201);
    expect((await api.post(base, { role: 'read', teams: [teamId('Support')] })).status).toBe(204);
    expect((await api.post(base, { role: 'admin', users: ['u_alice'] })).status).toBe(204);
    expect((await api.get(`${base}/teams?limit=1000`)).body.items.map((i: any) => i.permission)).toEqual(['read']);
    expect((await api.patch(`${base}/users/u_alice`, { role: 'edit' })).status).toBe(204);
    expect((await api.get(`${base}/users?limit=1000`)).body.items.map((i: any) => i.permission)).toEqual(['edit']);
    expect((await api.get(`${base}/aggregate?limit=1000`)).status).toBe(200);
    expect((await api.del(`${base}/teams/${teamId('Support')}`)).status).toBe(205);
    expect((await api.get(`${ORG}/sites/site_nope/permissions/teams?limit=1000`)).status).toBe(404);
  });

  it('invites people by email: members at once, not invited twice', async () => {
    const r = await api.post(`${ORG}/invites`, { emails: [{ email: 'zoe@acme.com', role: 'edit' }, 'bob@acme.com'], role: 'read' });
    expect(r.status).toBe(200);
    expect(r.body.invited).toBe(1);
    const zoe = r.body.users[0];
    expect((await api.get(`${ORG}/members/${zoe}`)).body.role).toBe('edit');
    expect((await api.post(`${ORG}/invites`, { emails: ['zoe@acme.com'] })).body).toEqual({ users: [], invited: 0 });
    expect((await api.post(`${ORG}/invites`, { emails: ['not-an-email'] })).status).toBe(400);
  });

  it('creates a space in a collection (201 with Location)', async () => {
    const parent = [...emu.world.collections.values()].find((c) => c.org === 'org_acme')!.id;
    const r = await api.post(`${ORG}/spaces`, { title: 'Handbook', emoji: '📙', parent, language: 'fr', editMode: 'locked' });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toContain(`/v1/spaces/${r.body.id}`);
    expect(r.body).toMatchObject({ title: 'Handbook', emoji: '📙', editMode: 'locked', parent });
    expect((await api.post(`${ORG}/spaces`, { title: 'X', parent: 'c_nope' })).status).toBe(400);
  });

  it('answered as the live description says', () => {
    // The 400s answer requests this test made invalid on purpose; everything else must conform.
    const own = recorder.problemCounts({ collapseIndices: true }).filter((p) => OWN.test(p.endpoint) && !p.statuses.every((s) => s === 400));
    expect(own.map((p) => `${p.endpoint} ${p.statuses.join(',')}: ${p.problem.message}`)).toEqual([]);
    expect(recorder.summary().unknown).toBe(0);
  });
});
