/**
 * Access, invites and space creation through the emulator: each desired state applied, then the
 * plan has no changes left; a grant changed or removed through the API behind docplane's back is
 * planned and restored by apply; every exchange passes the conformance check against the live
 * description.
 */
import { describe, expect, it } from 'vitest';
import { convertOrg, fileNamer } from '../../src/import/convert.js';
import { readOrgState } from '../../src/import/read.js';
import { configYaml } from '../../src/import/yaml.js';
import { client as testClient } from '../emulator/helpers.js';
import { emulatorScenario } from './scenario.js';

const STATE = {
  tokens: [{ token: 'dev-token', access: 'write', user: 'u_alice' }],
  users: [
    { id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' },
    { id: 'u_bob', email: 'bob@acme.com', displayName: 'Bob' },
    { id: 'u_carol', email: 'carol@acme.com', displayName: 'Carol' },
  ],
  organizations: [
    {
      id: 'org_acme',
      title: 'Acme',
      members: [{ user: 'u_alice', role: 'admin' }, { user: 'u_bob', role: 'read' }, { user: 'u_carol', role: 'read' }],
      teams: [{ id: 't_eng', title: 'Engineering', members: ['u_bob'] }, { id: 't_sup', title: 'Support' }],
      collections: [{ id: 'c_prod', title: 'Product' }],
      spaces: [{ id: 'space_api', title: 'API', collection: 'Product' }],
      access: [{ space: 'space_api', teams: { Support: 'read' }, users: { u_carol: 'edit' } }],
    },
  ],
};

const STAGE_1 = `version: 1
organization: { id: org_acme }
members:
  - { user: alice@acme.com, role: admin }
  - { user: dave@acme.com, role: read }          # invited
teams:
  - title: Engineering
  - title: Docs                                  # created, then granted
collections:
  - title: Product
    access: { teams: { Engineering: edit } }
  - title: New
    access: { teams: { Docs: admin } }
spaces:
  - id: space_api
    access:
      teams: { Engineering: admin }
      users: { bob@acme.com: read }
  - title: Handbook                              # created in a collection created by the same plan
    collection: New
    emoji: "📙"
    access: { teams: { Docs: edit } }
`;

describe('access, invites and spaces created, through the emulator', () => {
  const sc = emulatorScenario(STATE, 'access');
  const { recorder } = sc;
  const planFor = sc.planFor;

  const converge = sc.converge;

  const grantsOf = (key: string) => {
    const g = sc.emulator.world.grants.get(key);
    const org = sc.emulator.world.orgs.get('org_acme')!;
    return {
      teams: Object.fromEntries([...(g?.teams ?? [])].map(([id, r]) => [org.teams.get(id)?.title, r])),
      users: Object.fromEntries([...(g?.users ?? [])].map(([id, r]) => [sc.emulator.world.users.get(id)?.email, r])),
    };
  };

  it('grants, invites and creates, then plans no changes', async () => {
    const plan = await converge(STAGE_1);
    expect(plan.steps.map((s) => `${s.action} ${s.address}`)).toEqual(
      expect.arrayContaining([
        'create members["dave@acme.com"]',
        'create spaces["New/Handbook"]',
        'create spaces["space_api"].access.teams["Engineering"]',
        'delete spaces["space_api"].access.teams["Support"]',
        'delete spaces["space_api"].access.users["carol@acme.com"]',
        'create spaces["New/Handbook"].access.teams["Docs"]',
        'create collections["New"].access.teams["Docs"]',
      ]),
    );
    const org = sc.emulator.world.orgs.get('org_acme')!;
    const dave = [...sc.emulator.world.users.values()].find((u) => u.email === 'dave@acme.com');
    expect(dave && org.members.get(dave.id)?.role).toBe('read');
    const handbook = [...sc.emulator.world.spaces.values()].find((s) => s.title === 'Handbook')!;
    expect(sc.emulator.world.collections.get(handbook.parent!)?.title).toBe('New');
    expect(grantsOf('space:space_api')).toEqual({ teams: { Engineering: 'admin' }, users: { 'bob@acme.com': 'read' } });
    expect(grantsOf(`space:${handbook.id}`)).toEqual({ teams: { Docs: 'edit' }, users: {} });
    expect(grantsOf('collection:c_prod')).toEqual({ teams: { Engineering: 'edit' }, users: {} });
  });

  it('plans and restores a grant changed or removed through the API behind its back', async () => {
    const api = testClient(sc.emulator);
    expect((await api.patch('/v1/spaces/space_api/permissions/teams/t_eng', { role: 'read' })).status).toBe(204);
    expect((await api.del('/v1/spaces/space_api/permissions/users/u_bob')).status).toBe(205);
    const { plan } = await planFor(STAGE_1);
    expect(plan.steps.map((s) => [s.action, s.address, s.changes.map((c) => `${c.path}: ${String(c.before)} → ${String(c.after)}`)])).toEqual([
      ['update', 'spaces["space_api"].access.teams["Engineering"]', ['role: read → admin']],
      ['create', 'spaces["space_api"].access.users["bob@acme.com"]', ['role: undefined → read']],
    ]);
    await converge(STAGE_1);
    expect(grantsOf('space:space_api')).toEqual({ teams: { Engineering: 'admin' }, users: { 'bob@acme.com': 'read' } });
  });

  /** The permissions lists read while `run` runs. */
  async function permissionReads(run: () => Promise<unknown>): Promise<string[]> {
    const from = recorder.exchanges.length;
    await run();
    return recorder.exchanges.slice(from).map((e) => `${e.method} ${e.path.split('?')[0]}`).filter((e) => e.includes('/permissions'));
  }

  it('reads two lists per object whose access the config manages (the formula of docs/benchmarks.md)', async () => {
    // 2 collections + 2 spaces with access: 2 × 4.
    const reads = await permissionReads(() => planFor(STAGE_1));
    expect(reads).toHaveLength(8);
    expect(reads.every((r) => r.startsWith('GET ') && /\/permissions\/(teams|users)$/.test(r))).toBe(true);
  });

  it('imports the grants of every collection and space, and the import plans no changes', async () => {
    let state: Awaited<ReturnType<typeof readOrgState>> | undefined;
    const reads = await permissionReads(async () => (state = await readOrgState(sc.client, 'org_acme', [])));
    // Import reads every object: 2 collections + 2 spaces, two lists each.
    expect(reads).toHaveLength(2 * (sc.emulator.world.collections.size + sc.emulator.world.spaces.size));
    const written = convertOrg(state!, fileNamer());
    const doc = written.document as Record<string, Array<Record<string, unknown>>>;
    expect(doc.spaces.find((s) => s.id === 'space_api')?.access).toEqual({ teams: { Engineering: 'admin' }, users: { 'bob@acme.com': 'read' } });
    expect(doc.collections.find((c) => c.title === 'Product')?.access).toEqual({ teams: { Engineering: 'edit' } });
    const { plan } = await planFor(configYaml('org_acme', written.document));
    expect(plan.problems).toEqual([]);
    expect(plan.steps.map((s) => `${s.action} ${s.address}`)).toEqual([]);
  });

  it('a grant changed behind the back of an imported config is planned as that change', async () => {
    const written = convertOrg(await readOrgState(sc.client, 'org_acme', []), fileNamer());
    const yaml = configYaml('org_acme', written.document);
    const teamId = [...sc.emulator.world.orgs.get('org_acme')!.teams.values()].find((t) => t.title === 'Docs')!.id;
    const api = testClient(sc.emulator);
    const newId = [...sc.emulator.world.collections.values()].find((c) => c.title === 'New')!.id;
    expect((await api.del(`/v1/collections/${newId}/permissions/teams/${teamId}`)).status).toBe(205);
    const { plan } = await planFor(yaml);
    expect(plan.steps.map((s) => `${s.action} ${s.address}`)).toEqual(['create collections["New"].access.teams["Docs"]']);
    await converge(yaml);
  });

  it('removes every grant of an object whose access is empty; absent access is not read', async () => {
    const yaml = STAGE_1.replace('  - title: Product\n    access: { teams: { Engineering: edit } }', '  - title: Product\n    access: {}');
    await converge(yaml);
    expect(grantsOf('collection:c_prod')).toEqual({ teams: {}, users: {} });
    const before = recorder.exchanges.length;
    await planFor('version: 1\norganization: { id: org_acme }\nspaces:\n  - id: space_api\n');
    const paths = recorder.exchanges.slice(before).map((e) => e.path);
    expect(paths.filter((p) => p.includes('/permissions'))).toEqual([]);
  });

  // The exchanges of this unit's endpoints; the shapes of the others are checked by their own tests.
  const OWN = /\/permissions|\/invites|^POST \/orgs\/\{organizationId\}\/spaces$/;

  it('sent and received only what the live description allows', () => {
    const endpoints = new Set(recorder.exchanges.map((e) => `${e.method} ${e.path.split('?')[0]}`));
    expect([...endpoints].some((e) => e.startsWith('POST') && e.endsWith('/invites'))).toBe(true);
    const own = recorder.problemCounts({ collapseIndices: true }).filter((p) => OWN.test(p.endpoint));
    expect(own.map((p) => `${p.endpoint}: ${p.problem.message}`)).toEqual([]);
    expect(recorder.summary().unknown).toBe(0);
  });
});
