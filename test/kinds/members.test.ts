import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/json.js';
import { orgConfig, planKind, type OrgConfigInput } from '../plan/fixtures.js';
import { membersModule } from '../../src/kinds/members/members.js';
import type { RemoteMember } from '../../src/kinds/shared/members.js';

const member = (id: string, role: string | null, extra: Partial<RemoteMember> = {}): RemoteMember => ({
  id,
  role,
  user: { id, email: `${id.replace('u_', '')}@acme.com` },
  sso: false,
  ...extra,
});
const remote = [member('u_alice', 'admin'), member('u_bob', 'admin'), member('u_carol', 'create'), member('u_mallory', 'read', { sso: true }), member('u_oscar', null)];

interface Case {
  name: string;
  config: OrgConfigInput;
  remote?: RemoteMember[];
  steps: Array<[string, string, string, unknown?]>; // address, action, METHOD path, body
  problems?: string[];
  unmanaged: number;
}

const cases: Case[] = [
  {
    name: 'makes a member an SSO member (setUserAsSSOMemberForOrganization), with a role change in the same step',
    config: { members: [{ user: 'carol@acme.com', role: 'edit', sso: true }, { user: 'bob@acme.com', role: 'admin', sso: true }, { user: 'mallory@acme.com', role: 'read', sso: true }] },
    steps: [
      ['members["carol@acme.com"]', 'update', 'PATCH /v1/orgs/org_acme/members/u_carol', { role: 'edit' }],
      ['members["bob@acme.com"]', 'update', 'POST /v1/orgs/org_acme/members/u_bob/sso'],
    ],
    unmanaged: 2,
  },
  {
    name: 'changes a role with PATCH, by email in any case and by user id',
    config: { members: [{ user: 'Carol@ACME.com', role: 'edit' }, { user: 'u_oscar', role: 'read' }, { user: 'alice@acme.com', role: 'admin' }] },
    steps: [
      ['members["Carol@ACME.com"]', 'update', 'PATCH /v1/orgs/org_acme/members/u_carol', { role: 'edit' }],
      ['members["u_oscar"]', 'update', 'PATCH /v1/orgs/org_acme/members/u_oscar', { role: 'read' }],
    ],
    unmanaged: 2,
  },
  {
    name: 'makes a member a guest with an explicit null',
    config: { members: [{ user: 'carol@acme.com', role: null }] },
    steps: [['members["carol@acme.com"]', 'update', 'PATCH /v1/orgs/org_acme/members/u_carol', { role: null }]],
    unmanaged: 4,
  },
  {
    name: 'invites a member who is not in the organization, by email',
    config: { members: [{ user: 'zed@acme.com', role: 'read' }] },
    steps: [['members["zed@acme.com"]', 'create', 'POST /v1/orgs/org_acme/invites', { emails: [{ email: 'zed@acme.com', role: 'read' }], sso: false }]],
    unmanaged: 5,
  },
  {
    name: 'does not invite again a member the invitation already added',
    config: { members: [{ user: 'zed@acme.com', role: 'read' }] },
    remote: [...remote, member('u_zed', 'read')],
    steps: [],
    unmanaged: 5,
  },
  {
    name: 'reports a user id that names no member (an id cannot be invited)',
    config: { members: [{ user: 'u_zed', role: 'read' }] },
    steps: [],
    problems: ['members["u_zed"]: u_zed is not a member of organization org_acme; a user id cannot be invited: list the person\'s email under members to invite them, or remove them from the config'],
    unmanaged: 5,
  },
  {
    name: 'prunes the members the config leaves out, keeping SSO members',
    config: { members: [{ user: 'alice@acme.com', role: 'admin' }], prune: ['members'] },
    steps: [
      ['members["bob@acme.com"]', 'delete', 'DELETE /v1/orgs/org_acme/members/u_bob'],
      ['members["carol@acme.com"]', 'delete', 'DELETE /v1/orgs/org_acme/members/u_carol'],
      ['members["oscar@acme.com"]', 'delete', 'DELETE /v1/orgs/org_acme/members/u_oscar'],
    ],
    unmanaged: 1,
  },
  {
    name: 'prunes SSO members too when keepSsoMembers is false',
    config: { members: [{ user: 'alice@acme.com', role: 'admin' }, { user: 'bob@acme.com', role: 'admin' }, { user: 'carol@acme.com', role: 'create' }, { user: 'u_oscar', role: null }], prune: ['members'], safety: { keepSsoMembers: false } },
    steps: [['members["mallory@acme.com"]', 'delete', 'DELETE /v1/orgs/org_acme/members/u_mallory']],
    unmanaged: 0,
  },
  {
    name: 'refuses to leave the organization without an admin (demotion)',
    config: { members: [{ user: 'alice@acme.com', role: 'read' }, { user: 'bob@acme.com', role: 'edit' }] },
    steps: [
      ['members["alice@acme.com"]', 'update', 'PATCH /v1/orgs/org_acme/members/u_alice', { role: 'read' }],
      ['members["bob@acme.com"]', 'update', 'PATCH /v1/orgs/org_acme/members/u_bob', { role: 'edit' }],
    ],
    problems: ['members: the plan would leave organization org_acme without an admin; keep at least one member with role admin'],
    unmanaged: 3,
  },
  {
    name: 'refuses to leave the organization without an admin (prune)',
    config: { members: [{ user: 'carol@acme.com', role: 'create' }], prune: ['members'] },
    steps: [
      ['members["alice@acme.com"]', 'delete', 'DELETE /v1/orgs/org_acme/members/u_alice'],
      ['members["bob@acme.com"]', 'delete', 'DELETE /v1/orgs/org_acme/members/u_bob'],
      ['members["oscar@acme.com"]', 'delete', 'DELETE /v1/orgs/org_acme/members/u_oscar'],
    ],
    problems: ['members: the plan would leave organization org_acme without an admin; keep at least one member with role admin'],
    unmanaged: 1,
  },
  {
    name: 'counts a protected admin as kept',
    config: { members: [{ user: 'carol@acme.com', role: 'create' }], prune: ['members'], protect: ['members["alice@acme.com"]'] },
    steps: [
      ['members["alice@acme.com"]', 'delete', 'DELETE /v1/orgs/org_acme/members/u_alice'],
      ['members["bob@acme.com"]', 'delete', 'DELETE /v1/orgs/org_acme/members/u_bob'],
      ['members["oscar@acme.com"]', 'delete', 'DELETE /v1/orgs/org_acme/members/u_oscar'],
    ],
    unmanaged: 1,
  },
  {
    name: 'reports a member named twice',
    config: { members: [{ user: 'alice@acme.com', role: 'admin' }, { user: 'u_alice', role: 'admin' }] },
    steps: [],
    problems: ['members["alice@acme.com"]: members["alice@acme.com"] and members["u_alice"] name one object (u_alice, by id and by its key): keep one entry, or the plan would create a second object'],
    unmanaged: 4,
  },
  {
    name: 'manages nothing when the config has no members key',
    config: {},
    steps: [],
    unmanaged: 0,
  },
];

describe('members', () => {
  it.each(cases)('$name', (c) => {
    const cfg = orgConfig(c.config);
    const kp = planKind(membersModule, cfg, cfg.members === undefined ? undefined : (c.remote ?? remote));
    expect(kp.steps.map((s) => [s.address, s.action, `${s.requests[0].method} ${s.requests[0].path}`, ...(s.requests[0].body === undefined ? [] : [s.requests[0].body])])).toEqual(c.steps);
    expect(kp.problems.map((p) => `${p.address}: ${p.message}`)).toEqual(c.problems ?? []);
    expect(kp.unmanaged).toHaveLength(c.unmanaged);
    for (const s of kp.steps) expect(kp.fingerprints[s.address]).toMatch(/^[0-9a-f]{64}$/);
  });

  it('shows before and after and fingerprints the normalized member', () => {
    const kp = planKind(membersModule, orgConfig({ members: [{ user: 'carol@acme.com', role: 'edit' }] }), remote);
    expect(kp.steps[0]).toMatchObject({ before: { role: 'create' }, after: { role: 'edit' }, changes: [{ path: 'role', kind: 'change', before: 'create', after: 'edit' }], remoteId: 'u_carol' });
    expect(kp.fingerprints['members["carol@acme.com"]']).toBe(fingerprint({ id: 'u_carol', email: 'carol@acme.com', role: 'create', sso: false }));
    expect(kp.remoteCount).toBe(5);
  });
});

describe('the SSO flag', () => {
  it('is one-way: a config that asks to unset it gets a note and no step', () => {
    const kp = planKind(membersModule, orgConfig({ members: [{ user: 'mallory@acme.com', role: 'read', sso: false }] }), remote);
    expect(kp.steps).toEqual([]);
    expect(kp.notes).toEqual([
      'members["mallory@acme.com"]: sso: false cannot be applied: the API makes a member an SSO member (setUserAsSSOMemberForOrganization) but never undoes it; change it in the app, or remove sso from the entry',
    ]);
  });

  it('a step that sets it sends the role first and then the flag, and says it is one-way', () => {
    const kp = planKind(membersModule, orgConfig({ members: [{ user: 'carol@acme.com', role: 'edit', sso: true }] }), remote);
    expect(kp.steps[0]).toMatchObject({
      before: { role: 'create', sso: false },
      after: { role: 'edit', sso: true },
      requests: [
        { method: 'PATCH', path: '/v1/orgs/org_acme/members/u_carol', body: { role: 'edit' } },
        { method: 'POST', path: '/v1/orgs/org_acme/members/u_carol/sso' },
      ],
      notes: ['one-way: the API makes the member an SSO member, and cannot make them a non-SSO member again'],
    });
  });
});
