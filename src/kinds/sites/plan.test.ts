import { describe, expect, it } from 'vitest';
import type { SiteT } from './schema.js';
import type { OrgConfig } from '../../model/desired.js';
import { fingerprint } from '../../core/json.js';
import type { Kind } from '../../model/step.js';
import { readContextFor, sharedPlans, type DraftStep, type PlanContext } from '../kind.js';
import { planSite, planSites, type SitePlans } from './plan.js';
import { structureSite, type RemoteSite } from './remote.js';
import { parseSiteInfo } from '../shared/sites.js';
import { sectionGroupsModule, sectionsModule, shareLinksModule, siteSpacesModule } from './index.js';

const ORG = 'org_acme';
const BASE = '/v1/orgs/org_acme/sites/site_docs';
const A = 'sites["site_docs"]';

interface RawSection {
  id: string;
  path: string;
  title?: string;
  group?: string;
  description?: string;
  icon?: string;
  condition?: string;
  /** `space` or `space:path` per site space; ids are ss_<space>. */
  spaces?: string[];
}

/**
 * A remote site from API-shaped objects, through the same parser as the real read: its structure
 * (a group stands where its first section is; a group without sections last) and its share links.
 */
function remote(sections: RawSection[] = [], groups: Array<{ id: string; title: string; icon?: string; sections?: string[] }> = [], links: Array<{ id: string; name?: string; active?: boolean }> = []): RemoteSite {
  const raw = sections.map((s) => ({
    object: 'site-section',
    id: s.id,
    title: s.title ?? s.path.toUpperCase(),
    path: s.path,
    description: s.description,
    icon: s.icon,
    condition: s.condition,
    draft: false,
    ...(s.group ? { sectionGroup: s.group } : {}),
    siteSpaces: (s.spaces ?? [`space_${s.path}`]).map((x) => {
      const [space, path] = x.split(':');
      return { object: 'site-space', id: `ss_${space}`, path: path ?? space, space: { object: 'space', id: space, title: space }, section: s.id };
    }),
  }));
  const members = (g: (typeof groups)[number]) => g.sections ?? sections.filter((s) => s.group === g.id).map((s) => s.id);
  const groupOf = new Map(groups.flatMap((g) => members(g).map((id) => [id, g] as const)));
  const groupItem = (g: (typeof groups)[number]) => ({
    object: 'site-section-group',
    id: g.id,
    title: g.title,
    icon: g.icon,
    children: members(g).map((id) => raw.find((r) => r.id === id)),
  });
  const structure: unknown[] = [];
  const placed = new Set<string>();
  for (const r of raw) {
    const g = groupOf.get(r.id);
    if (!g) structure.push(r);
    else if (!placed.has(g.id)) {
      placed.add(g.id);
      structure.push(groupItem(g));
    }
  }
  for (const g of groups) if (!placed.has(g.id)) structure.push(groupItem(g));
  return structureSite('site_docs', { type: 'sections', structure }, links.map((l) => ({ object: 'share-link', createdAt: 'x', ...l })));
}

/** The listed site the tests plan: no site field of the config differs from it. */
const INFO = parseSiteInfo({ id: 'site_docs', title: 'Docs', type: 'ultimate', visibility: 'public', published: true, defaultLevel: 'read' });

function plan(site: Omit<SiteT, 'id'>, current: RemoteSite, prune: Kind[] = []): SitePlans {
  return planSite({ org: ORG, site: { id: 'site_docs', ...site }, remote: current, prunes: (k) => prune.includes(k), base: '/v1/orgs/org_acme/sites/site_docs', info: INFO });
}

function all(p: SitePlans): DraftStep[] {
  return [...p.sections.steps, ...p.siteSpaces.steps, ...p.sectionGroups.steps, ...p.shareLinks.steps];
}

/** `action address` of every step, for compact golden lists. */
function summary(p: SitePlans): string[] {
  return all(p).map((s) => `${s.action} ${s.address}`);
}

function step(p: SitePlans, address: string, action?: string): DraftStep {
  const found = all(p).find((s) => s.address === address && (action === undefined || s.action === action));
  if (!found) throw new Error(`no step at ${address}: ${summary(p).join('; ')}`);
  return found;
}

const sec = (path: string, extra: Partial<SiteT['sections'] extends (infer S)[] | undefined ? S : never> = {}) => ({
  path,
  title: path.toUpperCase(),
  space: `space_${path}`,
  ...extra,
});

const sortBody = (item: [string, string], where: 'before' | 'after', target: [string, string]) => ({
  item: { type: item[0], id: item[1] },
  position: { [where]: { type: target[0], id: target[1] } },
});

describe('sections', () => {
  it('plans nothing when the site is as configured', () => {
    const p = plan({ sections: [sec('guides'), sec('api')] }, remote([{ id: 's1', path: 'guides' }, { id: 's2', path: 'api' }]));
    expect(summary(p)).toEqual([]);
    expect(p.sections.remoteCount).toBe(2);
    expect(p.siteSpaces.remoteCount).toBe(2);
  });

  it('creates a section: POST with spaceId, title, icon, then PATCH path, description, condition', () => {
    const p = plan(
      { sections: [sec('guides', { icon: 'book', description: 'All guides', condition: 'visitor.claims.pro' })] },
      remote(),
    );
    const s = step(p, `${A}.sections["guides"]`, 'create');
    expect(s.kind).toBe('sections');
    expect(s.before).toBeNull();
    expect(s.after).toEqual({ path: 'guides', title: 'GUIDES', space: 'space_guides', icon: 'book', description: 'All guides', condition: 'visitor.claims.pro' });
    expect(s.requests).toEqual([
      {
        method: 'POST',
        path: `${BASE}/sections`,
        body: { spaceId: 'space_guides', title: 'GUIDES', icon: 'book' },
        capture: true,
        lookup: { path: `${BASE}/sections`, match: { title: 'GUIDES', 'siteSpaces.0.space.id': 'space_guides' } },
      },
      {
        method: 'PATCH',
        path: `${BASE}/sections/{{ref:org_acme/${A}.sections["guides"]}}`,
        body: { path: 'guides', description: 'All guides', condition: 'visitor.claims.pro' },
      },
    ]);
    expect(p.sections.fingerprints[s.address]).toBe(fingerprint(null));
    expect(summary(p)).toEqual([`create ${A}.sections["guides"]`]);
  });

  it('sets up the first site space of a created section in the same step, through the ref to its id', () => {
    const p = plan({ sections: [sec('guides', { siteSpaces: [{ space: 'space_guides', path: 'v1', condition: 'x' }] })] }, remote());
    const s = step(p, `${A}.sections["guides"]`, 'create');
    expect(s.requests[2]).toEqual({
      method: 'PATCH',
      path: `${BASE}/site-spaces/{{ref:org_acme/${A}.sections["guides"]#siteSpaces.0.id}}`,
      body: { path: 'v1', condition: 'x' },
    });
    expect(s.after?.siteSpace).toEqual({ path: 'v1', condition: 'x' });
    expect(summary(p)).toEqual([`create ${A}.sections["guides"]`]);
  });

  it('chains creates in the desired order (each is appended at the end of the top level)', () => {
    const p = plan({ sections: [sec('a'), sec('b'), sec('c')] }, remote());
    expect(step(p, `${A}.sections["a"]`).needs).toEqual([]);
    expect(step(p, `${A}.sections["b"]`).needs).toEqual([`${A}.sections["a"]:create`]);
    expect(step(p, `${A}.sections["c"]`).needs).toEqual([`${A}.sections["b"]:create`]);
    // Appended in this order they are already in place: no sort step.
    expect(summary(p)).not.toContain(`sort ${A}.structure`);
  });

  it.each([
    {
      name: 'a changed title and icon',
      config: sec('guides', { title: 'Guides!', icon: 'book' }),
      current: { id: 's1', path: 'guides', title: 'GUIDES' },
      before: { title: 'GUIDES', icon: null },
      after: { title: 'Guides!', icon: 'book' },
    },
    {
      name: 'null removes a condition and a description',
      config: sec('guides', { condition: null, description: null }),
      current: { id: 's1', path: 'guides', condition: 'x', description: 'd' },
      before: { condition: 'x', description: 'd' },
      after: { condition: null, description: null },
    },
    {
      name: 'absent fields are unmanaged',
      config: sec('guides'),
      current: { id: 's1', path: 'guides', condition: 'x', description: 'd', icon: 'i' },
      before: undefined,
      after: undefined,
    },
  ])('updates $name with a PATCH of the differing fields', ({ config, current, before, after }) => {
    const p = plan({ sections: [config] }, remote([current]));
    if (!after) {
      expect(summary(p)).toEqual([]);
      return;
    }
    const s = step(p, `${A}.sections["guides"]`, 'update');
    expect(s.before).toEqual(before);
    expect(s.after).toEqual(after);
    expect(s.remoteId).toBe('s1');
    expect(s.requests).toEqual([{ method: 'PATCH', path: `${BASE}/sections/s1`, body: after }]);
    expect(s.changes.map((c) => c.path).sort()).toEqual(Object.keys(after).sort());
    expect(p.sections.fingerprints[s.address]).toBeDefined();
    expect(p.sections.fingerprints[s.address]).not.toBe(fingerprint(null));
  });

  it.each([
    { how: 'id', config: sec('handbook', { id: 's1' }) },
    { how: 'renamedFrom', config: sec('handbook', { renamedFrom: 'guides' }) },
  ])('renames a section matched by $how (a path change, no delete and create)', ({ config }) => {
    const p = plan({ sections: [{ ...config, space: 'space_guides', title: 'GUIDES' }] }, remote([{ id: 's1', path: 'guides' }]), ['sections']);
    expect(summary(p)).toEqual([`update ${A}.sections["handbook"]`]);
    expect(step(p, `${A}.sections["handbook"]`).requests).toEqual([{ method: 'PATCH', path: `${BASE}/sections/s1`, body: { path: 'handbook' } }]);
  });

  it('deletes unlisted sections only when sections are pruned, and counts them unmanaged otherwise', () => {
    const current = remote([{ id: 's1', path: 'guides' }, { id: 's2', path: 'old', description: 'gone' }]);
    const kept = plan({ sections: [sec('guides')] }, current);
    expect(summary(kept)).toEqual([]);
    expect(kept.sections.unmanaged).toHaveLength(1);

    const pruned = plan({ sections: [sec('guides')] }, current, ['sections']);
    expect(summary(pruned)).toEqual([`delete ${A}.sections["old"]`]);
    const d = step(pruned, `${A}.sections["old"]`, 'delete');
    expect(d.requests).toEqual([{ method: 'DELETE', path: `${BASE}/sections/s2` }]);
    expect(d.before).toMatchObject({ path: 'old', description: 'gone' });
    expect(d.after).toBeNull();
    expect(pruned.sections.unmanaged).toHaveLength(0);
    // The site spaces of a deleted section go with it: no step of their own.
    expect(pruned.siteSpaces.steps).toEqual([]);
  });

  it('manages no section of a site whose config has no sections key, even when pruned', () => {
    const p = plan({ shareLinks: [] }, remote([{ id: 's1', path: 'guides' }]), ['sections', 'siteSpaces', 'sectionGroups']);
    expect(summary(p)).toEqual([]);
    expect(p.sections.unmanaged).toHaveLength(1);
  });

  it('an empty sections list under prune deletes every section', () => {
    const p = plan({ sections: [] }, remote([{ id: 's1', path: 'a' }, { id: 's2', path: 'b' }]), ['sections']);
    expect(summary(p)).toEqual([`delete ${A}.sections["a"]`, `delete ${A}.sections["b"]`]);
  });

  it('a path taken from a section that is renamed away waits for that rename; a swap does not loop', () => {
    const current = remote([{ id: 's1', path: 'a' }, { id: 's2', path: 'b' }]);
    const chain = plan({ sections: [sec('b', { id: 's1', title: 'A', space: 'space_a' }), sec('c', { id: 's2', title: 'B', space: 'space_b' })] }, current);
    expect(step(chain, `${A}.sections["b"]`, 'update').needs).toEqual([`${A}.sections["c"]:update`]);
    expect(step(chain, `${A}.sections["c"]`, 'update').needs).toEqual([]);
    const swap = plan({ sections: [sec('b', { id: 's1', title: 'A', space: 'space_a' }), sec('a', { id: 's2', title: 'B', space: 'space_b' })] }, current);
    const needs = all(swap).flatMap((s) => s.needs);
    expect(needs.length).toBeLessThanOrEqual(1);
  });
});

describe('site spaces', () => {
  const G = `${A}.sections["guides"]`;

  it('adds, updates and deletes so that a present list is the whole truth', () => {
    const p = plan(
      { sections: [sec('guides', { siteSpaces: [{ space: 'space_guides' }, { space: 'space_v2', path: 'v2' }, { space: 'space_x', path: 'new-x', condition: 'c' }] })] },
      remote([{ id: 's1', path: 'guides', spaces: ['space_guides', 'space_old', 'space_x:x'] }]),
    );
    expect(summary(p).sort()).toEqual(
      [`create ${G}.siteSpaces["space_v2"]`, `delete ${G}.siteSpaces["space_old"]`, `update ${G}.siteSpaces["space_x"]`, `sort ${G}.siteSpaces`].sort(),
    );
    const add = step(p, `${G}.siteSpaces["space_v2"]`, 'create');
    expect(add.kind).toBe('siteSpaces');
    expect(add.requests).toEqual([
      {
        method: 'POST',
        path: `${BASE}/site-spaces`,
        body: { spaceId: 'space_v2', sectionId: 's1' },
        capture: true,
        lookup: { path: `${BASE}/site-spaces`, match: { 'space.id': 'space_v2', section: 's1' } },
      },
      { method: 'PATCH', path: `${BASE}/site-spaces/{{ref:org_acme/${G}.siteSpaces["space_v2"]}}`, body: { path: 'v2' } },
    ]);
    expect(step(p, `${G}.siteSpaces["space_x"]`, 'update').requests).toEqual([
      { method: 'PATCH', path: `${BASE}/site-spaces/ss_space_x`, body: { path: 'new-x', condition: 'c' } },
    ]);
    expect(step(p, `${G}.siteSpaces["space_old"]`, 'delete').requests).toEqual([{ method: 'DELETE', path: `${BASE}/site-spaces/ss_space_old` }]);
    // After the delete and the add (appended), the order is guides, x, v2: one move puts x after v2.
    const sort = step(p, `${G}.siteSpaces`, 'sort');
    expect(sort.before).toEqual({ order: ['space_guides', 'space_x', 'space_v2'] });
    expect(sort.after).toEqual({ order: ['space_guides', 'space_v2', 'space_x'] });
    expect(sort.requests).toEqual([
      {
        method: 'PATCH',
        path: `${BASE}/structure/sort`,
        body: sortBody(['site-space', 'ss_space_x'], 'after', ['site-space', `{{ref:org_acme/${G}.siteSpaces["space_v2"]}}`]),
      },
    ]);
    expect(sort.needs).toEqual(expect.arrayContaining([G, `${G}.siteSpaces["space_v2"]`, `${G}.siteSpaces["space_old"]`]));
  });

  it('adds to a section created in the same plan, after its create, chained in list order', () => {
    const p = plan({ sections: [sec('guides', { siteSpaces: [{ space: 'space_a' }, { space: 'space_b' }] })] }, remote());
    const a = step(p, `${G}.siteSpaces["space_a"]`, 'create');
    const b = step(p, `${G}.siteSpaces["space_b"]`, 'create');
    expect(a.needs).toEqual([`${G}:create`]);
    expect(b.needs).toEqual([`${G}:create`, `${G}.siteSpaces["space_a"]:create`]);
    expect(a.requests[0].body).toEqual({ spaceId: 'space_a', sectionId: `{{ref:org_acme/${G}}}` });
    // The section's own space comes first, then a and b as appended: no sort.
    expect(summary(p)).not.toContain(`sort ${G}.siteSpaces`);
  });

  it('sorts when the list puts the section\'s own space elsewhere than first', () => {
    const p = plan({ sections: [sec('guides', { siteSpaces: [{ space: 'space_v2' }, { space: 'space_guides' }] })] }, remote([{ id: 's1', path: 'guides', spaces: ['space_guides', 'space_v2'] }]));
    expect(summary(p)).toEqual([`sort ${G}.siteSpaces`]);
    expect(step(p, `${G}.siteSpaces`).requests).toHaveLength(1);
    expect(step(p, `${G}.siteSpaces`).remoteId).toBe('s1');
  });

  it('without a list: adds the section\'s own space if missing, leaves the rest unmanaged', () => {
    const p = plan({ sections: [sec('guides')] }, remote([{ id: 's1', path: 'guides', spaces: ['space_other', 'space_more'] }]));
    expect(summary(p)).toEqual([`create ${G}.siteSpaces["space_guides"]`]);
    expect(p.siteSpaces.unmanaged).toHaveLength(2);
  });

  it('without a list but with siteSpaces pruned: the section holds its own space only', () => {
    const p = plan({ sections: [sec('guides')] }, remote([{ id: 's1', path: 'guides', spaces: ['space_guides', 'space_more'] }]), ['siteSpaces']);
    expect(summary(p)).toEqual([`delete ${G}.siteSpaces["space_more"]`]);
    expect(p.siteSpaces.unmanaged).toHaveLength(0);
  });

  it('matches a site space by id before space id', () => {
    const p = plan({ sections: [sec('guides', { siteSpaces: [{ space: 'space_guides' }, { id: 'ss_space_old', space: 'space_old', path: 'p' }] })] }, remote([{ id: 's1', path: 'guides', spaces: ['space_guides', 'space_old:q'] }]));
    expect(summary(p)).toEqual([`update ${G}.siteSpaces["space_old"]`]);
  });

  it('a path freed by a delete in the same section is taken after the delete', () => {
    const p = plan({ sections: [sec('guides', { siteSpaces: [{ space: 'space_guides' }, { space: 'space_new', path: 'v2' }] })] }, remote([{ id: 's1', path: 'guides', spaces: ['space_guides', 'space_old:v2'] }]));
    expect(step(p, `${G}.siteSpaces["space_new"]`, 'create').needs).toContain(`${G}.siteSpaces["space_old"]:delete`);
  });
});

describe('section groups', () => {
  const P = `${A}.sectionGroups["Products"]`;

  it('creates a group with its sections (ids and refs to sections created in the plan)', () => {
    const p = plan(
      { sections: [sec('a'), sec('b')], sectionGroups: [{ title: 'Products', icon: 'box', sections: ['b', 'a'] }] },
      remote([{ id: 's1', path: 'a' }]),
    );
    const g = step(p, P, 'create');
    expect(g.kind).toBe('sectionGroups');
    expect(g.requests).toEqual([
      {
        method: 'POST',
        path: `${BASE}/section-groups`,
        body: { title: 'Products', icon: 'box', sections: [`{{ref:org_acme/${A}.sections["b"]}}`, 's1'] },
        capture: true,
        lookup: { path: `${BASE}/section-groups`, match: { title: 'Products' } },
      },
    ]);
    expect(g.after).toEqual({ title: 'Products', icon: 'box', sections: ['b', 'a'] });
    expect(g.needs).toEqual([`${A}.sections["b"]:create`, `${A}.sections["b"]:create`]);
    // The group takes both sections and lands at the end, which is where it should be: no sort.
    expect(summary(p)).toEqual([`create ${A}.sections["b"]`, `create ${P}`]);
  });

  it('updates the title and icon of a group renamed by renamedFrom', () => {
    const p = plan({ sectionGroups: [{ title: 'Products', renamedFrom: 'Old', icon: 'box' }] }, remote([], [{ id: 'g1', title: 'Old' }]));
    const s = step(p, P, 'update');
    expect(s.requests).toEqual([{ method: 'PATCH', path: `${BASE}/section-groups/g1`, body: { title: 'Products', icon: 'box' } }]);
    expect(s.before).toEqual({ title: 'Old', icon: null });
  });

  it('moves a section into a group and out of it by its own update (siteSectionGroupId), not by a sort', () => {
    const current = remote(
      [
        { id: 's1', path: 'a', group: 'g1' },
        { id: 's3', path: 'c', group: 'g1' },
        { id: 's2', path: 'b' },
      ],
      [{ id: 'g1', title: 'Products' }],
    );
    const p = plan({ sections: [sec('a'), sec('b'), sec('c')], sectionGroups: [{ title: 'Products', sections: ['a', 'b'] }] }, current);
    const s = step(p, P, 'update');
    expect(s.requests).toEqual([
      { method: 'PATCH', path: `${BASE}/sections/s2`, body: { siteSectionGroupId: 'g1' } },
      { method: 'PATCH', path: `${BASE}/sections/s3`, body: { siteSectionGroupId: null } },
    ]);
    expect(s.before).toEqual({ sections: ['a', 'c'] });
    expect(s.after).toEqual({ sections: ['a', 'b'] });
    expect(summary(p)).toEqual([`update ${P}`]);
  });

  it('moves a section into an empty group by its own update; no group-sections endpoint is used', () => {
    const p = plan({ sections: [sec('a')], sectionGroups: [{ title: 'Products', sections: ['a'] }] }, remote([{ id: 's1', path: 'a' }], [{ id: 'g1', title: 'Products' }]));
    expect(step(p, P, 'update').requests).toEqual([{ method: 'PATCH', path: `${BASE}/sections/s1`, body: { siteSectionGroupId: 'g1' } }]);
    const all = Object.values(p).flatMap((kp) => kp.steps.flatMap((st) => st.requests.map((r) => r.path)));
    expect(all.filter((path) => /section-groups\/[^/]+\/sections/.test(path))).toEqual([]);
  });

  it('a group without a sections list manages its title only', () => {
    const current = remote([{ id: 's1', path: 'a', group: 'g1' }], [{ id: 'g1', title: 'Products' }]);
    expect(summary(plan({ sections: [sec('a')], sectionGroups: [{ title: 'Products' }] }, current))).toEqual([]);
  });

  it('deletes unlisted groups when pruned; counts them otherwise', () => {
    const current = remote([{ id: 's1', path: 'a', group: 'g1' }], [{ id: 'g1', title: 'Old' }]);
    const kept = plan({ sectionGroups: [] }, current);
    expect(summary(kept)).toEqual([]);
    expect(kept.sectionGroups.unmanaged).toHaveLength(1);
    const pruned = plan({ sectionGroups: [] }, current, ['sectionGroups']);
    expect(summary(pruned)).toEqual([`delete ${A}.sectionGroups["Old"]`]);
    expect(step(pruned, `${A}.sectionGroups["Old"]`).requests).toEqual([{ method: 'DELETE', path: `${BASE}/section-groups/g1` }]);
    expect(step(pruned, `${A}.sectionGroups["Old"]`).before).toEqual({ title: 'Old', icon: null, sections: ['a'] });
  });

  it('reports a section path that exists nowhere', () => {
    const p = plan({ sectionGroups: [{ title: 'Products', sections: ['nope'] }] }, remote());
    expect(p.sectionGroups.problems).toEqual([
      { org: ORG, address: P, message: 'section group "Products" lists section "nope", which is neither in the config nor on site site_docs', reference: { field: 'sections', key: 'nope' } },
    ]);
  });

  it('may list a remote section the config does not define', () => {
    const p = plan({ sectionGroups: [{ title: 'Products', sections: ['a'] }] }, remote([{ id: 's1', path: 'a' }]));
    expect(step(p, P, 'create').requests[0].body).toEqual({ title: 'Products', sections: ['s1'] });
  });
});

describe('the structure kinds through the analyser', () => {
  const twins = remote([{ id: 's1', path: 'guides' }], [{ id: 'g1', title: 'Learn', sections: ['s1'] }, { id: 'g2', title: 'Learn', sections: [] }]);

  it('names a second group of a managed title KEY#ID, lists it as a duplicate, and never takes the managed one\'s address', () => {
    const kept = plan({ sections: [sec('guides')], sectionGroups: [{ title: 'Learn', sections: ['guides'] }] }, twins);
    expect(kept.sectionGroups.duplicates).toEqual([`${A}.sectionGroups["Learn#g2"]`]);
    expect(kept.sectionGroups.unmanaged).toEqual([`${A}.sectionGroups["Learn#g2"]`]);
    expect(kept.sectionGroups.notes?.[0]).toContain('g2 has the same key');
    const pruned = plan({ sections: [sec('guides')], sectionGroups: [{ title: 'Learn', sections: ['guides'] }] }, twins, ['sectionGroups']);
    expect(summary(pruned)).toEqual([`delete ${A}.sectionGroups["Learn#g2"]`]);
  });

  it('observes matched sections, groups and site spaces in their creates\' terms (a saved create found done is held to them)', () => {
    const p = plan({ sections: [sec('guides')], sectionGroups: [{ title: 'Learn', sections: ['guides'] }] }, twins);
    expect(p.sections.observed?.[`${A}.sections["guides"]`]).toMatchObject({ title: 'GUIDES', path: 'guides' });
    expect(p.sectionGroups.observed?.[`${A}.sectionGroups["Learn"]`]).toEqual({ title: 'Learn', icon: null });
    expect(p.siteSpaces.observed?.[`${A}.sections["guides"].siteSpaces["space_guides"]`]).toMatchObject({ space: 'space_guides', path: 'space_guides' });
  });

  it('refuses a rename onto a path an unmanaged section holds (not pruned), and plans the rest', () => {
    const p = plan({ sections: [sec('api', { id: 's1' })] }, remote([{ id: 's1', path: 'guides' }, { id: 's2', path: 'api' }]));
    expect(p.sections.problems.map((x) => x.address)).toEqual([`${A}.sections["api"]`]);
    expect(p.sections.problems[0].message).toContain('would leave two sections with that name');
  });
});

describe('share links', () => {
  const L = `${A}.shareLinks["partner"]`;

  it.each([
    {
      name: 'create, active by default',
      config: [{ name: 'partner' }],
      current: [],
      expected: [`create ${L}`],
      requests: [{ method: 'POST', path: `${BASE}/share-links`, body: { name: 'partner' }, capture: true, lookup: { path: `${BASE}/share-links`, match: { name: 'partner' } } }],
    },
    {
      name: 'create inactive: POST then PATCH active false',
      config: [{ name: 'partner', active: false }],
      current: [],
      expected: [`create ${L}`],
      requests: [
        { method: 'POST', path: `${BASE}/share-links`, body: { name: 'partner' }, capture: true, lookup: { path: `${BASE}/share-links`, match: { name: 'partner' } } },
        { method: 'PATCH', path: `${BASE}/share-links/{{ref:org_acme/${L}}}`, body: { active: false } },
      ],
    },
    {
      name: 'switch off',
      config: [{ name: 'partner', active: false }],
      current: [{ id: 'l1', name: 'partner', active: true }],
      expected: [`update ${L}`],
      requests: [{ method: 'PATCH', path: `${BASE}/share-links/l1`, body: { active: false } }],
    },
    {
      name: 'rename by id',
      config: [{ id: 'l1', name: 'partner' }],
      current: [{ id: 'l1', name: 'old', active: true }],
      expected: [`update ${L}`],
      requests: [{ method: 'PATCH', path: `${BASE}/share-links/l1`, body: { name: 'partner' } }],
    },
    {
      name: 'rename by renamedFrom',
      config: [{ renamedFrom: 'old', name: 'partner' }],
      current: [{ id: 'l1', name: 'old' }],
      expected: [`update ${L}`],
      requests: [{ method: 'PATCH', path: `${BASE}/share-links/l1`, body: { name: 'partner' } }],
    },
    { name: 'no change (missing active reads as active)', config: [{ name: 'partner', active: true }], current: [{ id: 'l1', name: 'partner' }], expected: [], requests: undefined },
  ])('$name', ({ config, current, expected, requests }) => {
    const p = plan({ shareLinks: config }, remote([], [], current));
    expect(summary(p)).toEqual(expected);
    if (requests) expect(all(p)[0].requests).toEqual(requests);
  });

  it('deletes unlisted links when pruned (unnamed ones by id); counts them otherwise', () => {
    const current = remote([], [], [{ id: 'l1', name: 'old' }, { id: 'l2' }, { id: 'l3', name: 'old' }]);
    expect(plan({ shareLinks: [] }, current).shareLinks.unmanaged).toEqual([`${A}.shareLinks["old"]`, `${A}.shareLinks["l2"]`, `${A}.shareLinks["old#l3"]`]);
    const p = plan({ shareLinks: [] }, current, ['shareLinks']);
    expect(summary(p)).toEqual([`delete ${A}.shareLinks["old"]`, `delete ${A}.shareLinks["l2"]`, `delete ${A}.shareLinks["old#l3"]`]);
  });
});

describe('structure order', () => {
  const S = `${A}.structure`;

  it('follows the config: a group stands at its first section, holding its sections in its own order', () => {
    const current = remote(
      [
        { id: 'sb', path: 'b' },
        { id: 'sa', path: 'a' },
        { id: 'sd', path: 'd', group: 'g1' },
        { id: 'sc', path: 'c', group: 'g1' },
      ],
      [{ id: 'g1', title: 'G' }],
    );
    const p = plan({ sections: [sec('a'), sec('c'), sec('b'), sec('d')], sectionGroups: [{ title: 'G', sections: ['c', 'd'] }] }, current);
    // Desired top level: a, G[c, d], b.
    const s = step(p, S, 'sort');
    expect(s.kind).toBe('sections');
    expect(s.before).toEqual({ order: ['sections["b"]', 'sections["a"]', 'sectionGroups["G"]'], groups: { G: ['d', 'c'] } });
    expect(s.after).toEqual({ order: ['sections["a"]', 'sectionGroups["G"]', 'sections["b"]'], groups: { G: ['c', 'd'] } });
    expect(s.requests.map((r) => r.body)).toEqual([
      sortBody(['site-section', 'sb'], 'after', ['site-section-group', 'g1']),
      sortBody(['site-section', 'sd'], 'after', ['site-section', 'sc']),
    ]);
    expect(summary(p)).toEqual([`sort ${S}`]);
  });

  it('places created sections from the end, where the create left them', () => {
    const p = plan({ sections: [sec('new'), sec('a')] }, remote([{ id: 'sa', path: 'a' }]));
    const s = step(p, S, 'sort');
    expect(s.requests.map((r) => r.body)).toEqual([sortBody(['site-section', 'sa'], 'after', ['site-section', `{{ref:org_acme/${A}.sections["new"]}}`])]);
    expect(s.needs).toEqual(expect.arrayContaining([`${A}.sections["new"]`, `${A}.sections["a"]`]));
  });

  it('orders only managed items; unmanaged ones keep their place and need no move', () => {
    const current = remote([{ id: 'sx', path: 'x' }, { id: 'sb', path: 'b' }, { id: 'sy', path: 'y' }, { id: 'sa', path: 'a' }]);
    const p = plan({ sections: [sec('a'), sec('b')] }, current);
    expect(step(p, S).requests.map((r) => r.body)).toEqual([sortBody(['site-section', 'sb'], 'after', ['site-section', 'sa'])]);
    expect(step(p, S).before).toEqual({ order: ['sections["b"]', 'sections["a"]'] });
    expect(plan({ sections: [sec('b'), sec('a')] }, current).sections.steps).toEqual([]);
  });

  it('puts groups without sections last, in config order', () => {
    const current = remote([{ id: 'sa', path: 'a' }], [{ id: 'g2', title: 'Two' }, { id: 'g1', title: 'One' }]);
    const p = plan({ sections: [sec('a')], sectionGroups: [{ title: 'One', sections: [] }, { title: 'Two', sections: [] }] }, current);
    expect(step(p, S).requests.map((r) => r.body)).toEqual([sortBody(['site-section-group', 'g2'], 'after', ['site-section-group', 'g1'])]);
  });

  it('a pruned section and a pruned group leave the order of the rest as it is', () => {
    const current = remote([{ id: 'sa', path: 'a' }, { id: 'so', path: 'old', group: 'g9' }, { id: 'sb', path: 'b' }], [{ id: 'g9', title: 'Old' }]);
    const p = plan({ sections: [sec('a'), sec('b')], sectionGroups: [] }, current, ['sections', 'sectionGroups']);
    expect(summary(p).sort()).toEqual([`delete ${A}.sectionGroups["Old"]`, `delete ${A}.sections["old"]`]);
  });
});

describe('planSites and the modules', () => {
  const desired = (sites: SiteT[], prune: OrgConfig['prune'] = []): OrgConfig => ({
    organization: { id: ORG },
    sites,
    prune,
    safety: { maxDeletes: 10, maxDeletePercent: 25, keepSsoMembers: true },
    protect: [],
    locations: {},
  });
  const ctx = (config: OrgConfig): PlanContext => ({ org: ORG, desired: config, prunes: (k) => config.prune.includes(k), shared: sharedPlans() });

  it('reports a site that does not exist, once, and plans nothing for it', () => {
    const config = desired([{ id: 'site_nope', sections: [sec('a')], shareLinks: [{ name: 'x' }] }]);
    const p = planSites(ctx(config), { list: [INFO], sites: [] });
    expect(p.sites.problems).toEqual([
      { org: ORG, address: 'sites["site_nope"]', message: 'site site_nope does not exist in organization org_acme (check the id, or leave it out to create the site by title)' },
    ]);
    expect([...p.sections.problems, ...p.siteSpaces.problems, ...p.sectionGroups.problems, ...p.shareLinks.problems]).toEqual([]);
    expect(all(p)).toEqual([]);
  });

  it('each module keeps its own kind', () => {
    const config = desired([{ id: 'site_docs', sections: [sec('a', { siteSpaces: [{ space: 'space_a' }, { space: 'space_b' }] })], sectionGroups: [{ title: 'G', sections: ['a'] }], shareLinks: [{ name: 'x' }] }]);
    const r = { list: [INFO], sites: [{ id: 'site_docs', site: remote() }] };
    const c = ctx(config);
    expect(sectionsModule.plan(c, r).steps.map((s) => s.kind)).toEqual(['sections']);
    expect(siteSpacesModule.plan(c, r).steps.map((s) => s.kind)).toEqual(['siteSpaces']);
    expect(sectionGroupsModule.plan(c, r).steps.map((s) => s.kind)).toEqual(['sectionGroups']);
    expect(shareLinksModule.plan(c, r).steps.map((s) => s.kind)).toEqual(['shareLinks']);
  });

  it('reads each site once, with its structure and its share links, however many modules ask', async () => {
    const calls: string[] = [];
    const client = {
      request: async (_method: string, path: string) => {
        calls.push(path);
        return { status: 200, headers: {}, body: { type: 'sections', structure: [] } };
      },
      listAll: async (path: string) => {
        calls.push(path);
        return path.endsWith('/sites') ? [{ id: 'site_docs', title: 'Docs' }, { id: 'site_internal', title: 'Internal' }] : [];
      },
    };
    const readCtx = readContextFor(desired([{ id: 'site_docs' }, { id: 'site_internal' }]), client as never);
    const results = await Promise.all([sectionsModule, siteSpacesModule, sectionGroupsModule, shareLinksModule].map((m) => m.read(readCtx)));
    expect(results[0].sites.map((s) => s.id)).toEqual(['site_docs', 'site_internal']);
    expect(calls.sort()).toEqual(
      ['/v1/orgs/org_acme/sites', ...['site_docs', 'site_internal'].flatMap((s) => ['structure', 'share-links'].map((l) => `/v1/orgs/org_acme/sites/${s}/${l}`))].sort(),
    );
  });
});
