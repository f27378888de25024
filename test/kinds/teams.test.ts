import { describe, expect, it } from 'vitest';
import { fakeClient, orgConfig, planKind, readContext, type FakeClient, type OrgConfigInput } from '../plan/fixtures.js';
import type { Query } from '../../src/api/types.js';
import type { Importer } from '../../src/kinds/kind.js';
import { teamsUnit } from '../../src/kinds/teams/index.js';
import type { RemoteMember } from '../../src/kinds/shared/members.js';
import { teamMembersModule, type RemoteTeamMember, type RemoteTeamMembers } from '../../src/kinds/teams/team-members.js';
import { teamsModule } from '../../src/kinds/teams/teams.js';
import type { RemoteTeam } from '../../src/kinds/shared/teams.js';

const m = (id: string, role = 'read'): RemoteMember => ({ id, role, user: { id, email: `${id.slice(2)}@acme.com` } });
const members = [m('u_alice', 'admin'), m('u_bob'), m('u_carol'), m('u_dave'), m('u_heidi')];
const teams: RemoteTeam[] = [
  { id: 't_eng', title: 'Engineering', members: 2 },
  { id: 't_legacy', title: 'Legacy', members: 1 },
  { id: 't_ops', title: 'Ops', members: 0 },
];
const tm = (id: string, role: 'owner' | 'member' = 'member'): RemoteTeamMember => ({ organization: members.find((x) => x.id === id) as RemoteMember, team: { role } });

type Row = [string, string, string, unknown?];
const rows = (kp: ReturnType<typeof planKind>): Row[] =>
  kp.steps.map((s) => [s.address, s.action, s.requests.map((r) => `${r.method} ${r.path}`).join(' + '), ...(s.requests[0].body === undefined ? [] : [s.requests[0].body])] as Row);

describe('teams', () => {
  const cases: Array<{ name: string; config: OrgConfigInput; steps: Row[]; unmanaged: number }> = [
    {
      name: 'creates a team with its members (user ids) and a lookup by title',
      config: { teams: [{ title: 'Engineering' }, { title: 'Support', members: ['bob@acme.com', { user: 'u_carol', role: 'owner' }, 'nobody@acme.com'] }] },
      steps: [['teams["Support"]', 'create', 'PUT /v1/orgs/org_acme/teams', { title: 'Support', members: ['u_bob', 'u_carol'] }]],
      unmanaged: 2,
    },
    {
      name: 'renames by id',
      config: { teams: [{ id: 't_legacy', title: 'Heritage' }] },
      steps: [['teams["Heritage"]', 'update', 'PATCH /v1/orgs/org_acme/teams/t_legacy', { title: 'Heritage' }]],
      unmanaged: 2,
    },
    {
      name: 'renames by renamedFrom',
      config: { teams: [{ title: 'Operations', renamedFrom: 'Ops' }] },
      steps: [['teams["Operations"]', 'update', 'PATCH /v1/orgs/org_acme/teams/t_ops', { title: 'Operations' }]],
      unmanaged: 2,
    },
    {
      name: 'deletes the teams the config leaves out when teams are pruned',
      config: { teams: [{ title: 'Engineering' }], prune: ['teams'] },
      steps: [
        ['teams["Legacy"]', 'delete', 'DELETE /v1/orgs/org_acme/teams/t_legacy'],
        ['teams["Ops"]', 'delete', 'DELETE /v1/orgs/org_acme/teams/t_ops'],
      ],
      unmanaged: 0,
    },
    {
      name: 'with an empty pruned list, deletes every team',
      config: { teams: [], prune: ['teams'] },
      steps: [
        ['teams["Engineering"]', 'delete', 'DELETE /v1/orgs/org_acme/teams/t_eng'],
        ['teams["Legacy"]', 'delete', 'DELETE /v1/orgs/org_acme/teams/t_legacy'],
        ['teams["Ops"]', 'delete', 'DELETE /v1/orgs/org_acme/teams/t_ops'],
      ],
      unmanaged: 0,
    },
  ];
  it.each(cases)('$name', (c) => {
    const kp = planKind(teamsModule, orgConfig(c.config), { teams, members });
    expect(rows(kp)).toEqual(c.steps);
    expect(kp.unmanaged).toHaveLength(c.unmanaged);
    expect(Object.keys(kp.fingerprints).sort()).toEqual([...new Set(kp.steps.map((s) => s.address))].sort());
  });

  it('gives every create a capture and a lookup, and keeps deletes of two remote teams of one title apart', () => {
    const kp = planKind(teamsModule, orgConfig({ teams: [{ title: 'New' }], prune: ['teams'] }), {
      teams: [{ id: 't1', title: 'Dup' }, { id: 't2', title: 'Dup' }],
    });
    expect(kp.steps[0].requests[0]).toMatchObject({ capture: true, lookup: { path: '/v1/orgs/org_acme/teams', match: { title: 'New' } } });
    expect(kp.steps.map((s) => s.address)).toEqual(['teams["New"]', 'teams["Dup"]', 'teams["Dup#t2"]']);
  });
});

describe('team members', () => {
  const remote = (lists: Record<string, RemoteTeamMember[]>): RemoteTeamMembers => ({ teams, members, lists });

  it('adds, removes and sets roles in one PUT per team whose list is present', () => {
    const cfg = orgConfig({
      teams: [{ title: 'Engineering', members: [{ user: 'alice@acme.com', role: 'owner' }, 'bob@acme.com', 'DAVE@acme.com'] }, { title: 'Ops' }],
    });
    const kp = planKind(teamMembersModule, cfg, remote({ t_eng: [tm('u_alice'), tm('u_bob', 'owner'), tm('u_heidi')] }));
    expect(rows(kp)).toEqual([
      [
        'teams["Engineering"].members',
        'update',
        'PUT /v1/orgs/org_acme/teams/t_eng/members',
        { add: ['u_dave'], remove: ['u_heidi'], memberships: { u_alice: { role: 'owner' }, u_bob: { role: 'member' } } },
      ],
    ]);
    expect(kp.steps[0].needs).toEqual(['teams["Engineering"]']);
    expect(kp.steps[0].changes).toEqual([
      { path: 'members["alice@acme.com"].role', kind: 'change', before: 'member', after: 'owner' },
      { path: 'members["bob@acme.com"].role', kind: 'change', before: 'owner', after: 'member' },
      { path: 'members["dave@acme.com"]', kind: 'add', after: { user: 'dave@acme.com', role: 'member' } },
      { path: 'members["heidi@acme.com"]', kind: 'remove', before: { user: 'heidi@acme.com', role: 'member' } },
    ]);
  });

  it('plans nothing when the membership matches, and an empty list removes everyone', () => {
    const same = orgConfig({ teams: [{ title: 'Engineering', members: ['alice@acme.com', { user: 'u_bob', role: 'owner' }] }] });
    expect(planKind(teamMembersModule, same, remote({ t_eng: [tm('u_alice'), tm('u_bob', 'owner')] })).steps).toEqual([]);
    const none = orgConfig({ teams: [{ title: 'Engineering', members: [] }] });
    expect(rows(planKind(teamMembersModule, none, remote({ t_eng: [tm('u_alice'), tm('u_bob', 'owner')] })))).toEqual([
      ['teams["Engineering"].members', 'update', 'PUT /v1/orgs/org_acme/teams/t_eng/members', { remove: ['u_alice', 'u_bob'] }],
    ]);
  });

  it('for a team created by the plan, sets only the owners, with a ref to the create', () => {
    const cfg = orgConfig({ teams: [{ title: 'Support', members: [{ user: 'carol@acme.com', role: 'owner' }, 'bob@acme.com'] }] });
    const kp = planKind(teamMembersModule, cfg, remote({}));
    expect(rows(kp)).toEqual([
      ['teams["Support"].members', 'update', 'PUT /v1/orgs/org_acme/teams/{{ref:org_acme/teams["Support"]}}/members', { memberships: { u_carol: { role: 'owner' } } }],
    ]);
    expect(kp.fingerprints['teams["Support"].members']).toBeDefined();
    const plain = orgConfig({ teams: [{ title: 'Support', members: ['bob@acme.com'] }] });
    expect(planKind(teamMembersModule, plain, remote({})).steps).toEqual([]);
  });

  it('reports a user who is not in the organization', () => {
    const cfg = orgConfig({ teams: [{ title: 'Engineering', members: ['alice@acme.com', 'zed@acme.com'] }] });
    const kp = planKind(teamMembersModule, cfg, remote({ t_eng: [tm('u_alice')] }));
    expect(kp.steps).toEqual([]);
    expect(kp.problems).toEqual([
      {
        org: 'org_acme',
        address: 'teams["Engineering"].members',
        message: 'team "Engineering": zed@acme.com is not a member of organization org_acme; list their email under members (this plan then invites them and uses them at once), or remove them from the config',
        reference: { field: 'members', key: 'zed@acme.com' },
      },
    ]);
  });

  it('reads teams and members once, and one member list per existing team whose list is present', async () => {
    const client = fakeClient({
      '/v1/orgs/org_acme/teams': teams,
      '/v1/orgs/org_acme/members': members,
      '/v1/orgs/org_acme/teams/t_eng/members': [tm('u_alice')],
    });
    const cfg = orgConfig({ teams: [{ title: 'Engineering', members: ['alice@acme.com'] }, { title: 'Ops' }, { title: 'New', members: ['bob@acme.com'] }] });
    const ctx = readContext(cfg, client);
    const [t, tms] = await Promise.all([teamsModule.read(ctx), teamMembersModule.read(ctx)]);
    expect(t?.teams).toHaveLength(3);
    expect(tms?.lists).toEqual({ t_eng: [tm('u_alice')] });
    expect(client.calls.sort()).toEqual(['GET /v1/orgs/org_acme/members', 'GET /v1/orgs/org_acme/teams', 'GET /v1/orgs/org_acme/teams/t_eng/members']);
  });

  it('asks for the teams’ member lists without waiting for the organization’s member list (plan and import)', async () => {
    const config = orgConfig({ teams: [{ title: 'Engineering', members: ['alice@acme.com'] }] });
    const reads: Array<(client: FakeClient) => Promise<unknown>> = [
      (client) => teamMembersModule.read(readContext(config, client)),
      (client) => (teamsUnit.importer as Importer).read({ ...readContext(config, client), sites: [] }),
    ];
    for (const read of reads) {
      const client = fakeClient({
        '/v1/orgs/org_acme/teams': teams,
        '/v1/orgs/org_acme/members': members,
        '/v1/orgs/org_acme/teams/t_eng/members': [tm('u_alice')],
        '/v1/orgs/org_acme/teams/t_legacy/members': [],
        '/v1/orgs/org_acme/teams/t_ops/members': [],
      });
      // The organization's member list (many pages, one after the other, on a large organization)
      // answers only once a team's list was asked for: a read that waited for it would never end.
      let asked!: () => void;
      const teamListAsked = new Promise<void>((resolve) => (asked = resolve));
      const listAll = client.listAll.bind(client);
      client.listAll = async <T>(path: string, query?: Query): Promise<T[]> => {
        if (path.startsWith('/v1/orgs/org_acme/teams/')) asked();
        if (path === '/v1/orgs/org_acme/members') await teamListAsked;
        return listAll<T>(path, query);
      };
      const state = (await read(client)) as { lists: Record<string, unknown> };
      expect(state.lists.t_eng).toEqual([tm('u_alice')]);
    }
  });

  it('reads nothing when no team lists members', async () => {
    const client = fakeClient({});
    expect(await teamMembersModule.read(readContext(orgConfig({ teams: [{ title: 'A' }] }), client))).toBeUndefined();
    expect(client.calls).toEqual([]);
  });
});

describe('remote duplicates of a key', () => {
  it('names both ids in a note and says how to resolve it, when the kind is not pruned', () => {
    const remote = { teams: [{ id: 't1', title: 'Docs' }, { id: 't2', title: 'Docs' }] };
    const kp = planKind(teamsModule, orgConfig({ teams: [{ title: 'Docs' }] }), remote);
    expect(kp.steps).toEqual([]);
    expect(kp.unmanaged).toEqual(['teams["Docs#t2"]']);
    expect(kp.notes).toEqual([
      'teams["Docs"] matches t1, but t2 has the same key (shown as teams["Docs#t2"], unmanaged): pin the one to manage with `id: t1`, and rename or delete the other in the app, or prune teams to delete it',
    ]);
  });
});
