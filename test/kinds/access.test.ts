/** Access on collections, spaces and sites: one step per team or user grant, old role → new role. */
import { describe, expect, it } from 'vitest';
import { fakeClient, orgConfig, planKind, readContext, type OrgConfigInput } from '../plan/fixtures.js';
import { collectionAccessModule, siteAccessModule, spaceAccessModule } from '../../src/kinds/access/index.js';
import type { RemoteAccess } from '../../src/kinds/access/plan.js';
import type { RemoteGrants } from '../../src/kinds/access/grants.js';
import type { RemoteMember } from '../../src/kinds/shared/members.js';
import type { KindSpec } from '../../src/kinds/kind.js';

const member = (id: string, role: string | null = 'read'): RemoteMember => ({ id, role, user: { id, email: `${id.replace('u_', '')}@acme.com` } });
const members = [member('u_alice', 'admin'), member('u_bob'), member('u_carol')];
const teams = [{ id: 't_eng', title: 'Engineering' }, { id: 't_sup', title: 'Support' }];
const grants = (t: Record<string, string>, u: Record<string, string> = {}): RemoteGrants => ({
  teams: Object.entries(t).map(([id, permission]) => ({ permission, team: { id, title: teams.find((x) => x.id === id)?.title } })),
  users: Object.entries(u).map(([id, permission]) => ({ permission, user: { id, email: `${id.replace('u_', '')}@acme.com` } })),
});

type Row = [string, string, string, unknown?];
const rows = (kp: ReturnType<typeof planKind>): Row[] =>
  kp.steps.map((s) => [s.address, s.action, `${s.requests[0].method} ${s.requests[0].path}`, ...(s.requests[0].body === undefined ? [] : [s.requests[0].body])] as Row);

interface Case {
  name: string;
  module: KindSpec<RemoteAccess | undefined>;
  config: OrgConfigInput;
  remote: Omit<RemoteAccess, 'teams' | 'members'>;
  steps: Row[];
  problems?: string[];
}

const SITE = '/v1/orgs/org_acme/sites/site_docs/permissions';
const cases: Case[] = [
  {
    name: 'plans nothing when the grants are as configured',
    module: spaceAccessModule,
    config: { spaces: [{ id: 's1', access: { teams: { Engineering: 'edit' }, users: { 'alice@acme.com': 'admin' } } }] },
    remote: { objects: [{ address: 'spaces["s1"]', title: 'T', id: 's1', access: { teams: { Engineering: 'edit' }, users: { 'alice@acme.com': 'admin' } } }], grants: { s1: grants({ t_eng: 'edit' }, { u_alice: 'admin' }) } },
    steps: [],
  },
  {
    name: 'invites, changes and removes grants on a space, per team and per user',
    module: spaceAccessModule,
    config: {},
    remote: {
      objects: [{ address: 'spaces["s1"]', title: 'T', id: 's1', access: { teams: { Engineering: 'read', Support: 'comment' }, users: { 'alice@acme.com': 'admin' } } }],
      grants: { s1: grants({ t_eng: 'edit' }, { u_alice: 'admin', u_bob: 'edit' }) },
    },
    steps: [
      ['spaces["s1"].access.teams["Engineering"]', 'update', 'PATCH /v1/spaces/s1/permissions/teams/t_eng', { role: 'read' }],
      ['spaces["s1"].access.teams["Support"]', 'create', 'POST /v1/spaces/s1/permissions', { role: 'comment', teams: ['t_sup'] }],
      ['spaces["s1"].access.users["bob@acme.com"]', 'delete', 'DELETE /v1/spaces/s1/permissions/users/u_bob'],
    ],
  },
  {
    name: 'manages collection grants by the collection path; an empty access removes every grant',
    module: collectionAccessModule,
    config: {},
    remote: { objects: [{ address: 'collections["Product/API"]', title: 'T', id: 'c_api', access: {} }], grants: { c_api: grants({ t_sup: 'read' }, { u_carol: 'comment' }) } },
    steps: [
      ['collections["Product/API"].access.teams["Support"]', 'delete', 'DELETE /v1/collections/c_api/permissions/teams/t_sup'],
      ['collections["Product/API"].access.users["carol@acme.com"]', 'delete', 'DELETE /v1/collections/c_api/permissions/users/u_carol'],
    ],
  },
  {
    name: 'grants on a site go under the organization',
    module: siteAccessModule,
    config: {},
    remote: { objects: [{ address: 'sites["site_docs"]', title: 'T', id: 'site_docs', access: { users: { 'bob@acme.com': 'read' } } }], grants: { site_docs: grants({}) } },
    steps: [['sites["site_docs"].access.users["bob@acme.com"]', 'create', `POST ${SITE}`, { role: 'read', users: ['u_bob'] }]],
  },
  {
    name: 'a team of the config created by this plan is named by ref, and so is a space created by this plan',
    module: spaceAccessModule,
    config: { teams: [{ title: 'Docs' }] },
    remote: { objects: [{ address: 'spaces["Handbook"]', title: 'T', access: { teams: { Docs: 'edit' } } }], grants: {} },
    steps: [['spaces["Handbook"].access.teams["Docs"]', 'create', 'POST /v1/spaces/{{ref:org_acme/spaces["Handbook"]}}/permissions', { role: 'edit', teams: ['{{ref:org_acme/teams["Docs"]}}'] }]],
  },
  {
    name: 'reports unknown teams and users, and a plan that removes the last direct admin; a person this plan invites is granted by the invite\'s answer',
    module: spaceAccessModule,
    config: { members: [{ user: 'zed@acme.com', role: 'read' }] },
    remote: {
      objects: [{ address: 'spaces["s1"]', title: 'T', id: 's1', access: { teams: { Nobody: 'read' }, users: { 'zed@acme.com': 'read', 'yan@acme.com': 'read' } } }],
      grants: { s1: grants({}, { u_alice: 'admin' }) },
    },
    steps: [
      ['spaces["s1"].access.users["zed@acme.com"]', 'create', 'POST /v1/spaces/s1/permissions', { role: 'read', users: ['{{ref:org_acme/members["zed@acme.com"]#users.0|id}}'] }],
      ['spaces["s1"].access.users["alice@acme.com"]', 'delete', 'DELETE /v1/spaces/s1/permissions/users/u_alice'],
    ],
    problems: [
      'spaces["s1"].access: teams "Nobody" names a team that exists neither in the config nor in organization org_acme',
      'spaces["s1"].access: users "yan@acme.com" is not a member of organization org_acme: list their email under members (this plan then invites them and grants this access at once), or remove them from this access',
      'spaces["s1"].access: the plan would leave spaces["s1"] without a direct admin; keep at least one team or user with role admin in its access',
    ],
  },
];

describe('access', () => {
  it.each(cases)('$name', (c) => {
    const kp = planKind(c.module, orgConfig(c.config), { ...c.remote, teams, members });
    expect(rows(kp)).toEqual(c.steps);
    expect(kp.problems.map((p) => `${p.address}: ${p.message}`)).toEqual(c.problems ?? []);
    for (const s of kp.steps) expect(kp.fingerprints[s.address]).toMatch(/^[0-9a-f]{64}$/);
  });

  it('makes a grant wait for its object and its team, and counts the remote grants', () => {
    const kp = planKind(spaceAccessModule, orgConfig({ teams: [{ title: 'Docs' }] }), {
      objects: [{ address: 'spaces["Handbook"]', title: 'T', access: { teams: { Docs: 'edit' } } }],
      grants: {},
      teams,
      members,
    });
    expect(kp.steps[0].needs).toEqual(['spaces["Handbook"]', 'teams["Docs"]']);
    const counted = planKind(spaceAccessModule, orgConfig(), { objects: [{ address: 'spaces["s1"]', title: 'T', id: 's1', access: {} }], grants: { s1: grants({ t_eng: 'read' }, { u_bob: 'read' }) }, teams, members });
    expect(counted.remoteCount).toBe(2);
    expect(counted.steps[0]).toMatchObject({ before: { role: 'read' }, after: null });
  });

  it('says who can do what after the plan on each object whose access changes, with the members a team grant reaches', () => {
    const teamsWithCounts = [{ id: 't_eng', title: 'Engineering', members: 4 }, { id: 't_sup', title: 'Support', members: 2 }];
    const kp = planKind(spaceAccessModule, orgConfig({ teams: [{ title: 'Support', members: ['bob@acme.com', { user: 'carol@acme.com', role: 'owner' }] }] }), {
      objects: [
        { address: 'spaces["s1"]', title: 'Handbook', id: 's1', access: { teams: { Engineering: 'edit', Support: 'admin' }, users: { 'alice@acme.com': 'admin' } } },
        { address: 'spaces["s2"]', title: 'Same', id: 's2', access: { users: { 'alice@acme.com': 'read' } } },
      ],
      grants: { s1: grants({ t_eng: 'edit' }, { u_alice: 'admin', u_bob: 'read' }), s2: grants({}, { u_alice: 'read' }) },
      teams: teamsWithCounts,
      members,
    });
    // s2 does not change: no result for it.
    expect(kp.access).toEqual([
      {
        address: 'spaces["s1"]',
        title: 'Handbook',
        rows: [
          { who: 'team', name: 'Engineering', before: 'edit', after: 'edit', memberCount: 4 },
          { who: 'team', name: 'Support', before: null, after: 'admin', members: ['bob@acme.com', 'carol@acme.com'] },
          { who: 'user', name: 'alice@acme.com', before: 'admin', after: 'admin' },
          { who: 'user', name: 'bob@acme.com', before: 'read', after: null },
        ],
      },
    ]);
  });

  it('reads two lists per object whose access the config gives, and none for the others', async () => {
    const client = fakeClient({
      '/v1/orgs/org_acme/teams': teams,
      '/v1/orgs/org_acme/members': members,
      '/v1/spaces/s1/permissions/teams': [],
      '/v1/spaces/s1/permissions/users': [],
      '/v1/orgs/org_acme/sites/site_docs/permissions/teams': [],
      '/v1/orgs/org_acme/sites/site_docs/permissions/users': [],
    });
    const cfg = orgConfig({
      spaces: [{ id: 's1', access: { teams: { Engineering: 'read' } } }, { id: 's2' }],
      sites: [{ id: 'site_docs', access: { users: { 'bob@acme.com': 'read' } } }, { id: 'site_other' }],
    });
    await spaceAccessModule.read(readContext(cfg, client));
    await siteAccessModule.read(readContext(cfg, client));
    expect(client.calls.sort()).toEqual([
      'GET /v1/orgs/org_acme/members',
      'GET /v1/orgs/org_acme/sites/site_docs/permissions/teams',
      'GET /v1/orgs/org_acme/sites/site_docs/permissions/users',
      'GET /v1/orgs/org_acme/teams',
      'GET /v1/spaces/s1/permissions/teams',
      'GET /v1/spaces/s1/permissions/users',
    ]);
    const none = fakeClient({});
    expect(await collectionAccessModule.read(readContext(orgConfig({ collections: [{ title: 'A' }] }), none))).toBeUndefined();
    expect(none.calls).toEqual([]);
  });
});
