import { describe, expect, it } from 'vitest';
import { fakeClient, orgConfig, planKind, readContext, type OrgConfigInput } from '../plan/fixtures.js';
import type { RemoteCollection } from '../../src/kinds/shared/collections.js';
import { spacesModule, type RemoteSpaces } from '../../src/kinds/spaces/spaces.js';
import type { RemoteSpace } from '../../src/kinds/shared/space-list.js';

const collections: RemoteCollection[] = [
  { id: 'c_prod', title: 'Product' },
  { id: 'c_api', title: 'API', parent: 'c_prod' },
];
const listed: RemoteSpace[] = [
  { id: 'space_api', title: 'API reference', emoji: '📘', editMode: 'live', parent: 'c_api', organization: 'org_acme' },
  { id: 'space_guides', title: 'Guides', editMode: 'live', organization: 'org_acme' },
  { id: 'space_other', title: 'Other', organization: 'org_acme' },
];
const deleted: RemoteSpace = { id: 'space_old', title: 'Old docs', organization: 'org_acme', deletedAt: '2025-01-01T00:00:00Z', editMode: 'live' };
const remote = (extra: Partial<RemoteSpaces> = {}): RemoteSpaces => ({ spaces: [...listed, deleted], listed: listed.length, missing: [], collections, ...extra });

type Row = [string, string, string, unknown?];
const rows = (kp: ReturnType<typeof planKind>): Row[] =>
  kp.steps.map((s) => [s.address, s.action, `${s.requests[0].method} ${s.requests[0].path}`, ...(s.requests[0].body === undefined ? [] : [s.requests[0].body])] as Row);

const cases: Array<{ name: string; config: OrgConfigInput; remote?: RemoteSpaces; steps: Row[]; problems?: string[] }> = [
  {
    name: 'plans nothing when settings and placement match (absent fields unmanaged)',
    config: { spaces: [{ id: 'space_api', emoji: '📘', collection: 'Product/API' }, { id: 'space_guides', collection: null }] },
    steps: [],
  },
  {
    name: 'PATCHes the differing settings only',
    config: { spaces: [{ id: 'space_api', title: 'API', emoji: '📘', editMode: 'locked' }] },
    steps: [['spaces["space_api"]', 'update', 'PATCH /v1/spaces/space_api', { title: 'API', editMode: 'locked' }]],
  },
  {
    name: 'moves into a collection by path, and to the top level with null',
    config: { spaces: [{ id: 'space_guides', collection: 'Product' }, { id: 'space_api', collection: null }] },
    steps: [
      ['spaces["space_guides"]', 'move', 'POST /v1/spaces/space_guides/move', { parent: 'c_prod' }],
      ['spaces["space_api"]', 'move', 'POST /v1/spaces/space_api/move', { parent: null }],
    ],
  },
  {
    name: 'moves into a collection the plan creates, through a ref, after it',
    config: { collections: [{ title: 'Internal' }], spaces: [{ id: 'space_guides', collection: 'Internal' }] },
    steps: [['spaces["space_guides"]', 'move', 'POST /v1/spaces/space_guides/move', { parent: '{{ref:org_acme/collections["Internal"]}}' }]],
  },
  {
    name: 'follows a collection the config renames',
    config: { collections: [{ id: 'c_prod', title: 'Products', collections: [{ title: 'API' }] }], spaces: [{ id: 'space_api', collection: 'Products/API' }] },
    steps: [],
  },
  {
    name: 'restores a deleted space the config names, before updating it',
    config: { spaces: [{ id: 'space_old', editMode: 'locked', collection: 'Product' }] },
    steps: [
      ['spaces["space_old"]', 'restore', 'POST /v1/spaces/space_old/restore'],
      ['spaces["space_old"]', 'update', 'PATCH /v1/spaces/space_old', { editMode: 'locked' }],
      ['spaces["space_old"]', 'move', 'POST /v1/spaces/space_old/move', { parent: 'c_prod' }],
    ],
  },
  {
    name: 'reports a space that does not exist, and a collection that exists nowhere',
    config: { spaces: [{ id: 'space_nope', title: 'X' }, { id: 'space_guides', collection: 'Nowhere/Else' }] },
    remote: remote({ missing: ['space_nope'] }),
    steps: [],
    problems: [
      'spaces["space_nope"]: space space_nope does not exist (check the id, or leave it out to create a space by title)',
      'spaces["space_guides"]: collection "Nowhere/Else" of space space_guides exists neither in the config nor in organization org_acme',
    ],
  },
  {
    name: 'reports a placement in a collection the plan deletes',
    config: { collections: [{ title: 'Product' }], prune: ['collections'], spaces: [{ id: 'space_guides', collection: 'Product/API' }] },
    steps: [],
    problems: ['spaces["space_guides"]: collection "Product/API" of space space_guides is not in the config, and collections are pruned: the plan deletes it'],
  },
  {
    name: 'matches a space without id by title within its collection (settings compared as for ids)',
    config: { spaces: [{ title: 'API reference', collection: 'Product/API', emoji: '📗' }] },
    steps: [['spaces["Product/API/API reference"]', 'update', 'PATCH /v1/spaces/space_api', { emoji: '📗' }]],
  },
  {
    name: 'creates a space without id that matches no remote space, in its collection, then sets defaultLevel',
    config: { spaces: [{ title: 'Handbook', collection: 'Product', emoji: '📙', editMode: 'locked', language: 'fr', defaultLevel: 'read' }] },
    steps: [
      ['spaces["Product/Handbook"]', 'create', 'POST /v1/orgs/org_acme/spaces', { title: 'Handbook', emoji: '📙', parent: 'c_prod', language: 'fr', editMode: 'locked' }],
      ['spaces["Product/Handbook"]', 'update', 'PATCH /v1/spaces/{{ref:org_acme/spaces["Product/Handbook"]}}', { defaultLevel: 'read' }],
    ],
  },
  {
    name: 'creates a space with the same title in another collection (the natural key holds the collection)',
    config: { spaces: [{ title: 'Guides', collection: 'Product' }] },
    steps: [['spaces["Product/Guides"]', 'create', 'POST /v1/orgs/org_acme/spaces', { title: 'Guides', parent: 'c_prod' }]],
  },
  {
    name: 'creates a space in a collection this plan creates, after it',
    config: { collections: [{ title: 'New' }], spaces: [{ title: 'Guides', collection: 'New' }] },
    steps: [['spaces["New/Guides"]', 'create', 'POST /v1/orgs/org_acme/spaces', { title: 'Guides', parent: '{{ref:org_acme/collections["New"]}}' }]],
  },
  {
    name: 'deletes the spaces the config does not name when spaces are pruned (restorable for 7 days)',
    config: { spaces: [{ id: 'space_api' }, { title: 'Guides', collection: null }], prune: ['spaces'] },
    steps: [['spaces["space_other"]', 'delete', 'DELETE /v1/spaces/space_other']],
  },
];

describe('spaces', () => {
  it.each(cases)('$name', (c) => {
    const kp = planKind(spacesModule, orgConfig(c.config), c.remote ?? remote());
    expect(rows(kp)).toEqual(c.steps);
    expect(kp.problems.map((p) => `${p.address}: ${p.message}`)).toEqual(c.problems ?? []);
    for (const s of kp.steps) expect(kp.fingerprints[s.address]).toMatch(/^[0-9a-f]{64}$/);
  });

  it('makes a created space wait for its collection, and notes the restore window on deletes', () => {
    const created = planKind(spacesModule, orgConfig({ collections: [{ title: 'New' }], spaces: [{ title: 'Guides', collection: 'New' }] }), remote());
    expect(created.steps[0].needs).toEqual(['collections["New"]:create']);
    expect(created.steps[0].requests[0]).toMatchObject({ capture: true, lookup: { path: '/v1/orgs/org_acme/spaces', match: { title: 'Guides' } } });
    const pruned = planKind(spacesModule, orgConfig({ spaces: [], prune: ['spaces'] }), remote());
    expect(pruned.steps.map((s) => s.address)).toEqual(['spaces["space_api"]', 'spaces["space_guides"]', 'spaces["space_other"]']);
    expect(pruned.steps[0].notes?.[0]).toContain('7 days');
  });

  it('makes the update and move of a restored space wait for the restore only', () => {
    const kp = planKind(spacesModule, orgConfig({ spaces: [{ id: 'space_old', editMode: 'locked', collection: 'Product' }] }), remote());
    expect(kp.steps.map((s) => s.needs)).toEqual([[], ['spaces["space_old"]:restore'], ['spaces["space_old"]:restore', 'collections["Product"]:create']]);
    expect(kp.steps[0]).toMatchObject({ before: { deletedAt: '2025-01-01T00:00:00Z' }, after: { deletedAt: null } });
  });

  it('counts the listed spaces the config does not name as unmanaged', () => {
    const kp = planKind(spacesModule, orgConfig({ spaces: [{ id: 'space_api' }] }), remote());
    expect(kp.unmanaged).toHaveLength(2);
    expect(kp.remoteCount).toBe(3);
  });

  it('reads the list, and one GET only for a named space the list lacks', async () => {
    const client = fakeClient(
      { '/v1/orgs/org_acme/spaces': listed, '/v1/orgs/org_acme/collections': collections },
      { '/v1/spaces/space_old': deleted },
    );
    const cfg = orgConfig({ spaces: [{ id: 'space_api', collection: 'Product/API' }, { id: 'space_old' }, { id: 'space_gone' }] });
    const r = await spacesModule.read(readContext(cfg, client));
    expect(client.calls.sort()).toEqual([
      'GET /v1/orgs/org_acme/collections?nested=true',
      'GET /v1/orgs/org_acme/spaces',
      'GET /v1/spaces/space_gone',
      'GET /v1/spaces/space_old',
    ]);
    expect(r?.missing).toEqual(['space_gone']);
    expect(r?.spaces.map((s) => s.id)).toEqual(['space_api', 'space_guides', 'space_other', 'space_old']);
  });

  it('does not read collections when no space is placed in one', async () => {
    const client = fakeClient({ '/v1/orgs/org_acme/spaces': listed });
    await spacesModule.read(readContext(orgConfig({ spaces: [{ id: 'space_api', collection: null }] }), client));
    expect(client.calls).toEqual(['GET /v1/orgs/org_acme/spaces']);
  });
});
