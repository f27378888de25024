import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build.js';
import { orgConfig, planKind, type OrgConfigInput } from '../plan/fixtures.js';
import { collectionsModule } from '../../src/kinds/collections/collections.js';
import { resolveCollections, type RemoteCollection } from '../../src/kinds/shared/collections.js';

const remote: RemoteCollection[] = [
  { id: 'c_prod', title: 'Product', description: 'Everything product', defaultLevel: 'read' },
  { id: 'c_api', title: 'API', parent: 'c_prod', defaultLevel: null },
  { id: 'c_arch', title: 'Archive' },
  { id: 'c_2023', title: '2023', parent: 'c_arch' },
];

type Row = [string, string, ...string[]];
const rows = (kp: ReturnType<typeof planKind>): Row[] =>
  kp.steps.map((s) => [s.address, s.action, ...s.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body ?? null)}`)] as Row);

const cases: Array<{ name: string; config: OrgConfigInput; steps: Row[]; unmanaged: number }> = [
  {
    name: 'plans nothing when the tree matches (absent fields unmanaged)',
    config: { collections: [{ title: 'Product', collections: [{ title: 'API' }] }] },
    steps: [],
    unmanaged: 2,
  },
  {
    name: 'creates nested collections, the child with a ref to its new parent, and PATCHes settings in the same step',
    config: { collections: [{ title: 'Internal', description: 'Staff only', collections: [{ title: 'HR', defaultLevel: 'read' }] }] },
    steps: [
      ['collections["Internal"]', 'create', 'POST /v1/orgs/org_acme/collections {"title":"Internal"}', 'PATCH /v1/collections/{{ref:org_acme/collections["Internal"]}} {"description":"Staff only"}'],
      [
        'collections["Internal/HR"]',
        'create',
        'POST /v1/orgs/org_acme/collections {"title":"HR","parent":"{{ref:org_acme/collections[\\"Internal\\"]}}"}',
        'PATCH /v1/collections/{{ref:org_acme/collections["Internal/HR"]}} {"defaultLevel":"read"}',
      ],
    ],
    unmanaged: 4,
  },
  {
    name: 'updates only the differing fields; null clears a description, sent as "" (the description is a string in the API)',
    config: { collections: [{ title: 'Product', description: null, defaultLevel: 'read', collections: [{ title: 'API', defaultLevel: 'inherit' }] }] },
    steps: [
      ['collections["Product"]', 'update', 'PATCH /v1/collections/c_prod {"description":""}'],
      ['collections["Product/API"]', 'update', 'PATCH /v1/collections/c_api {"defaultLevel":"inherit"}'],
    ],
    unmanaged: 2,
  },
  {
    name: 'renames by id, keeping the children matched under the renamed parent',
    config: { collections: [{ id: 'c_prod', title: 'Products', collections: [{ title: 'API' }] }] },
    steps: [['collections["Products"]', 'update', 'PATCH /v1/collections/c_prod {"title":"Products"}']],
    unmanaged: 2,
  },
  {
    name: 'renames by renamedFrom (a path) and moves by id',
    config: { collections: [{ title: 'Old stuff', renamedFrom: 'Archive', collections: [{ id: 'c_api', title: 'API' }] }, { title: 'Product' }] },
    steps: [
      ['collections["Old stuff"]', 'update', 'PATCH /v1/collections/c_arch {"title":"Old stuff"}'],
      ['collections["Old stuff/API"]', 'move', 'POST /v1/collections/c_api/move {"parent":"c_arch"}'],
    ],
    unmanaged: 1,
  },
  {
    name: 'moves a collection to the top level with parent null',
    config: { collections: [{ id: 'c_2023', title: '2023' }] },
    steps: [['collections["2023"]', 'move', 'POST /v1/collections/c_2023/move {"parent":null}']],
    unmanaged: 3,
  },
  {
    name: 'a different path without id or renamedFrom is a new collection (and the old one is left alone unless pruned)',
    config: { collections: [{ title: 'Archive' }, { title: 'Product', collections: [{ title: '2023' }] }] },
    steps: [['collections["Product/2023"]', 'create', 'POST /v1/orgs/org_acme/collections {"title":"2023","parent":"c_prod"}']],
    unmanaged: 2,
  },
  {
    name: 'deletes what the config leaves out when pruned, children as their own steps',
    config: { collections: [{ title: 'Product' }], prune: ['collections'] },
    steps: [
      ['collections["Product/API"]', 'delete', 'DELETE /v1/collections/c_api null'],
      ['collections["Archive"]', 'delete', 'DELETE /v1/collections/c_arch null'],
      ['collections["Archive/2023"]', 'delete', 'DELETE /v1/collections/c_2023 null'],
    ],
    unmanaged: 0,
  },
];

describe('collections', () => {
  it.each(cases)('$name', (c) => {
    const kp = planKind(collectionsModule, orgConfig(c.config), { collections: remote });
    expect(rows(kp)).toEqual(c.steps);
    expect(kp.unmanaged).toHaveLength(c.unmanaged);
    expect(Object.keys(kp.fingerprints).sort()).toEqual([...new Set(kp.steps.map((s) => s.address))].sort());
  });

  it('orders a pruned parent after its children and after the moves out of it and of the spaces in it', () => {
    const cfg = orgConfig({
      collections: [{ id: 'c_2023', title: 'Y2023' }],
      spaces: [{ id: 'space_a', collection: null }, { id: 'space_b', collection: null }],
      prune: ['collections'],
    });
    // space_a is in Archive now; space_b at the top level (a delete need not wait for it).
    const spaces = { spaces: [{ id: 'space_a', parent: 'c_arch' }, { id: 'space_b', parent: null }], listed: 2, missing: [] };
    const kp = planKind(collectionsModule, cfg, { collections: remote, spaces: spaces.spaces });
    const archive = kp.steps.find((s) => s.address === 'collections["Archive"]');
    expect(archive?.needs).toEqual(['collections["Y2023"]', 'spaces["space_a"]']);
    const product = kp.steps.find((s) => s.address === 'collections["Product"]');
    expect(product?.needs).toEqual(['collections["Product/API"]:delete']);
    const plan = buildPlan({
      toolVersion: 'x',
      createdAt: 'x',
      configHash: 'x',
      configPaths: [],
      orgs: [{ org: 'org_acme', kinds: { collections: kp }, safety: { maxDeletes: 10, maxDeletePercent: 100 }, protect: [] }],
    });
    expect(plan.steps.map((s) => s.id)).toEqual([
      'org_acme/collections["Y2023"]:move',
      'org_acme/collections["Y2023"]:update',
      'org_acme/collections["Archive"]:delete',
      'org_acme/collections["Product/API"]:delete',
      'org_acme/collections["Product"]:delete',
    ]);
  });

  it('looks a created collection up by title and parent (null at the top level)', () => {
    const kp = planKind(collectionsModule, orgConfig({ collections: [{ title: 'Product', collections: [{ title: 'SDK' }] }, { title: 'Top' }] }), { collections: remote });
    expect(kp.steps[0].requests[0]).toMatchObject({ capture: true, lookup: { path: '/v1/orgs/org_acme/collections', match: { title: 'SDK', parent: 'c_prod' } } });
    expect(kp.steps[1].requests[0].lookup).toEqual({ path: '/v1/orgs/org_acme/collections', match: { title: 'Top', parent: null } });
  });

  it('leaves a collection that a renamedFrom path names to that rename, not to the child of a renamed parent', () => {
    // Archive/2023 would stay the child of the renamed Archive; the config says it became Recent.
    const r = resolveCollections([{ title: 'Old stuff', renamedFrom: 'Archive', collections: [{ title: '2023' }] }, { title: 'Recent', renamedFrom: 'Archive/2023' }], remote);
    expect(r.entries.map((e) => [e.path, e.remote?.id, e.matchedBy])).toEqual([
      ['Old stuff', 'c_arch', 'renamedFrom'],
      ['Old stuff/2023', undefined, undefined],
      ['Recent', 'c_2023', 'renamedFrom'],
    ]);
  });

  it('matches every renamedFrom among siblings before any title', () => {
    // API was renamed Reference and a new API created: the later entry's rename keeps c_api.
    const r = resolveCollections([{ title: 'Product', collections: [{ title: 'API' }, { title: 'Reference', renamedFrom: 'API' }] }], remote);
    expect(r.entries.map((e) => [e.path, e.remote?.id, e.matchedBy])).toEqual([
      ['Product', 'c_prod', 'key'],
      ['Product/API', undefined, undefined],
      ['Product/Reference', 'c_api', 'renamedFrom'],
    ]);
  });

  it('deletes a pruned collection at an address of its own when a collection under another parent takes its path', () => {
    // Product is renamed from Archive: Product/API is created under c_arch, and the pruned c_api,
    // under the old Product (c_prod, pruned too), is never its sibling.
    const config = orgConfig({ collections: [{ title: 'Product', renamedFrom: 'Archive', collections: [{ title: 'API' }, { title: '2023' }] }], prune: ['collections'] });
    const kp = planKind(collectionsModule, config, { collections: remote });
    const deletes = kp.steps.filter((s) => s.action === 'delete').map((s) => s.address);
    expect(deletes.sort()).toEqual(['collections["Product"]', 'collections["Product/API#c_api"]']);
    // The old Product's delete waits for its child's; the rename onto its path waits for it.
    const del = kp.steps.find((s) => s.address === 'collections["Product"]' && s.action === 'delete');
    expect(del?.needs).toEqual(['collections["Product/API#c_api"]:delete']);
    expect(kp.steps.find((s) => s.action === 'create')?.address).toBe('collections["Product/API"]');
  });

  it('resolves renamedFrom as a sibling title under the matched parent', () => {
    const r = resolveCollections([{ title: 'Product', collections: [{ title: 'Reference', renamedFrom: 'API' }] }], remote);
    expect(r.entries.map((e) => [e.path, e.remote?.id, e.matchedBy])).toEqual([
      ['Product', 'c_prod', 'key'],
      ['Product/Reference', 'c_api', 'renamedFrom'],
    ]);
  });
  it('names a second collection at a managed path PATH#ID, nested too, and prunes it there', () => {
    const twins = [...remote, { id: 'c_api2', title: 'API', parent: 'c_prod' }];
    const config = { collections: [{ title: 'Product', collections: [{ title: 'API' }] }] };
    const kept = planKind(collectionsModule, orgConfig(config), { collections: twins });
    expect(kept.duplicates).toEqual(['collections["Product/API#c_api2"]']);
    expect(kept.unmanaged).toContain('collections["Product/API#c_api2"]');
    expect(kept.notes?.join('\n')).toContain('c_api2 has the same key');
    const pruned = planKind(collectionsModule, orgConfig({ ...config, prune: ['collections'] }), { collections: twins });
    expect(rows(pruned).filter((r) => r[1] === 'delete').map((r) => r[0]).sort()).toEqual(['collections["Archive"]', 'collections["Archive/2023"]', 'collections["Product/API#c_api2"]']);
  });

  it('observes each matched collection in a create\'s terms (its parent by path), for a saved create found done', () => {
    const kp = planKind(collectionsModule, orgConfig({ collections: [{ title: 'Product', collections: [{ title: 'API' }] }] }), { collections: remote });
    expect(kp.observed).toEqual({
      'collections["Product"]': { title: 'Product', parent: null, description: 'Everything product', defaultLevel: 'read' },
      'collections["Product/API"]': { title: 'API', parent: 'Product', description: null, defaultLevel: null },
    });
  });
});
