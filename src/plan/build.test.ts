import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BugError } from '../core/errors.js';
import type { DraftStep, KindPlan } from '../kinds/kind.js';
import { buildPlan, rank, type BuildPlanInput, type OrgDraft } from './build.js';
import type { Action, Kind } from './types.js';

function draft(kind: Kind, address: string, action: Action, needs: string[] = []): DraftStep {
  return { address, kind, action, before: null, after: null, changes: [], requests: [{ method: 'GET', path: `/x/${address}` }], needs };
}

function kp(steps: DraftStep[], extra: Partial<KindPlan> = {}): KindPlan {
  const fingerprints: Record<string, string> = {};
  for (const s of steps) fingerprints[s.address] = `fp-${s.address}`;
  return { steps, unmanaged: [], remoteCount: 0, problems: [], fingerprints, ...extra };
}

function org(kinds: OrgDraft['kinds'], extra: Partial<OrgDraft> = {}): OrgDraft {
  return { org: 'org_acme', kinds, safety: { maxDeletes: 10, maxDeletePercent: 25 }, protect: [], ...extra };
}

function input(orgs: OrgDraft[], extra: Partial<BuildPlanInput> = {}): BuildPlanInput {
  return { toolVersion: '0.1.0', createdAt: '2025-01-01T00:00:00.000Z', configHash: 'h', configPaths: ['/c.yaml'], orgs, ...extra };
}

const ids = (plan: { steps: { id: string }[] }) => plan.steps.map((s) => s.id);

/** A rich organization: collections nested, a team and the SAML provider naming it, deletes of nested collections, a restore. */
function richOrg(name = 'org_acme'): OrgDraft {
  return org(
    {
      teams: kp([draft('teams', 'teams["Eng"]', 'create'), draft('teams', 'teams["Old"]', 'delete')], { remoteCount: 3, unmanaged: ['teams["Legacy"]'] }),
      teamMembers: kp([draft('teamMembers', 'teams["Eng"].members', 'update', ['teams["Eng"]'])]),
      collections: kp([
        draft('collections', 'collections["A/B"]', 'create', ['collections["A"]']),
        draft('collections', 'collections["A"]', 'create'),
        draft('collections', 'collections["X/Y"]', 'delete'),
        draft('collections', 'collections["X"]', 'delete', ['collections["X/Y"]:delete', 'spaces["s1"]']),
      ]),
      spaces: kp([
        draft('spaces', 'spaces["s1"]', 'move', ['spaces["s1"]:restore', 'collections["A/B"]']),
        draft('spaces', 'spaces["s1"]', 'restore'),
        draft('spaces', 'spaces["s1"]', 'update', ['spaces["s1"]:restore']),
      ]),
      saml: kp([draft('saml', 'saml["Okta"]', 'create', ['teams["Eng"]'])]),
      sections: kp([draft('sections', 'sites["d"].sections["g"]', 'create'), draft('sections', 'sites["d"].structure', 'sort', ['sites["d"].sections["g"]'])]),
    },
    { org: name },
  );
}

describe('buildPlan ordering', () => {
  it('puts parents before children, a team before the SAML provider naming it, deletes of children before parents', () => {
    const plan = buildPlan(input([richOrg()]));
    const at = (id: string) => ids(plan).indexOf(id);
    expect(at('org_acme/collections["A"]:create')).toBeLessThan(at('org_acme/collections["A/B"]:create'));
    expect(at('org_acme/teams["Eng"]:create')).toBeLessThan(at('org_acme/saml["Okta"]:create'));
    expect(at('org_acme/teams["Eng"]:create')).toBeLessThan(at('org_acme/teams["Eng"].members:update'));
    expect(at('org_acme/collections["X/Y"]:delete')).toBeLessThan(at('org_acme/collections["X"]:delete'));
    expect(at('org_acme/spaces["s1"]:move')).toBeLessThan(at('org_acme/collections["X"]:delete'));
    expect(at('org_acme/spaces["s1"]:restore')).toBe(0);
    expect(at('org_acme/sites["d"].structure:sort')).toBeGreaterThan(at('org_acme/sites["d"].sections["g"]:create'));
    // Deletes come after the rest (rank), sorts after creates.
    expect(plan.steps.slice(-3).map((s) => s.action)).toEqual(['delete', 'delete', 'delete']);
    expect(plan.steps.find((s) => s.id === 'org_acme/collections["X"]:delete')?.dependsOn).toEqual([
      'org_acme/collections["X/Y"]:delete',
      'org_acme/spaces["s1"]:move',
      'org_acme/spaces["s1"]:restore',
      'org_acme/spaces["s1"]:update',
    ]);
  });

  it('resolves ADDRESS:ACTION needs to that step only and never makes a step depend on itself', () => {
    const plan = buildPlan(input([richOrg()]));
    const move = plan.steps.find((s) => s.id === 'org_acme/spaces["s1"]:move');
    expect(move?.dependsOn).toEqual(['org_acme/collections["A/B"]:create', 'org_acme/spaces["s1"]:restore']);
    const restore = plan.steps.find((s) => s.id === 'org_acme/spaces["s1"]:restore');
    expect(restore?.dependsOn).toEqual([]);
  });

  it('makes what takes an address wait for the delete of its old occupant', () => {
    const plan = buildPlan(input([org({ teams: kp([draft('teams', 'teams["B"]', 'update'), draft('teams', 'teams["B"]', 'delete')]) })]));
    expect(ids(plan)).toEqual(['org_acme/teams["B"]:delete', 'org_acme/teams["B"]:update']);
  });

  it('gives the same plan for shuffled inputs', () => {
    const reference = JSON.stringify(buildPlan(input([richOrg('org_b'), richOrg('org_a')])));
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        let s = seed;
        const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
        const shuffle = <T>(xs: T[]) => xs.map((x) => [rnd(), x] as const).sort((a, b) => a[0] - b[0]).map(([, x]) => x);
        const orgs = shuffle([richOrg('org_b'), richOrg('org_a')]).map((o) => ({
          ...o,
          kinds: Object.fromEntries(shuffle(Object.entries(o.kinds)).map(([k, v]) => [k, { ...v, steps: shuffle(v?.steps ?? []) }])),
        }));
        expect(JSON.stringify(buildPlan(input(orgs)))).toBe(reference);
      }),
      { numRuns: 50 },
    );
  });

  it('orders organizations by id, each one whole', () => {
    const plan = buildPlan(input([richOrg('org_b'), richOrg('org_a')]));
    expect(plan.orgs).toEqual(['org_a', 'org_b']);
    const firstB = plan.steps.findIndex((s) => s.org === 'org_b');
    expect(plan.steps.slice(firstB).every((s) => s.org === 'org_b')).toBe(true);
  });

  it('reports a cycle as a bug naming the steps, without looping', () => {
    const o = org({ teams: kp([draft('teams', 'teams["A"]', 'create', ['teams["B"]']), draft('teams', 'teams["B"]', 'create', ['teams["A"]'])]) });
    expect(() => buildPlan(input([o]))).toThrow(BugError);
    expect(() => buildPlan(input([o]))).toThrow(/cycle: org_acme\/teams\["A"\]:create → org_acme\/teams\["B"\]:create → org_acme\/teams\["A"\]:create/);
  });

  it('refuses two steps with one id', () => {
    const o = org({ teams: kp([draft('teams', 'teams["A"]', 'create'), draft('teams', 'teams["A"]', 'create')]) });
    expect(() => buildPlan(input([o]))).toThrow(/two steps of the plan have the id/);
  });

  it('ranks restores first, then creates and updates in kind order, sorts, deletes children kinds first', () => {
    expect(rank('restore', 'spaces')).toBeLessThan(rank('create', 'organization'));
    expect(rank('create', 'teams')).toBeLessThan(rank('create', 'saml'));
    expect(rank('create', 'sections')).toBeLessThan(rank('create', 'siteSpaces'));
    expect(rank('sort', 'sections')).toBeGreaterThan(rank('create', 'translations'));
    expect(rank('delete', 'siteSpaces')).toBeLessThan(rank('delete', 'sections'));
    expect(rank('delete', 'saml')).toBeLessThan(rank('delete', 'teams'));
  });
});

describe('buildPlan --target', () => {
  it('keeps the targeted steps and, transitively, what they depend on', () => {
    const plan = buildPlan(input([richOrg()], { targets: ['saml["Okta"]'] }));
    expect(ids(plan)).toEqual(['org_acme/teams["Eng"]:create', 'org_acme/saml["Okta"]:create']);
    const deep = buildPlan(input([richOrg()], { targets: ['collections["X"]'] }));
    expect(ids(deep)).toEqual([
      'org_acme/spaces["s1"]:restore',
      'org_acme/collections["A"]:create',
      'org_acme/collections["A/B"]:create',
      'org_acme/spaces["s1"]:move',
      'org_acme/spaces["s1"]:update',
      'org_acme/collections["X/Y"]:delete',
      'org_acme/collections["X"]:delete',
    ]);
  });

  it('selects by prefix, by glob and by organization', () => {
    expect(ids(buildPlan(input([richOrg()], { targets: ['sites["d"]'] })))).toEqual([
      'org_acme/sites["d"].sections["g"]:create',
      'org_acme/sites["d"].structure:sort',
    ]);
    expect(ids(buildPlan(input([richOrg()], { targets: ['teams["E*"]'] })))).toEqual(['org_acme/teams["Eng"]:create', 'org_acme/teams["Eng"].members:update']);
    const two = buildPlan(input([richOrg('org_a'), richOrg('org_b')], { targets: ['org_b/teams["Old"]'] }));
    expect(ids(two)).toEqual(['org_b/teams["Old"]:delete']);
    expect(two.fingerprints).toEqual({ 'org_b/teams["Old"]': 'fp-teams["Old"]' });
  });
});

describe('buildPlan safety', () => {
  it('leaves protected deletes out, and deletes that would take a protected child with them', () => {
    const plan = buildPlan(input([{ ...richOrg(), protect: ['collections["X/*"]'] }]));
    expect(ids(plan).filter((id) => id.endsWith(':delete'))).toEqual(['org_acme/teams["Old"]:delete']);
    expect(plan.violations).toEqual([
      { rule: 'protect', message: 'org_acme: collections["X"] was kept: deleting it would also delete the protected collections["X/Y"]', steps: ['org_acme/collections["X"]:delete'] },
      { rule: 'protect', message: 'org_acme: collections["X/Y"] is protected: its delete was left out of the plan (kept)', steps: ['org_acme/collections["X/Y"]:delete'] },
    ]);
  });

  it('protects a delete at KEY#ID (a second resource with that key) when the pattern names the key', () => {
    const twin = { ...draft('teams', 'teams["Red#t_2"]', 'delete'), remoteId: 't_2' };
    // A `#` that is part of the key, not a remote id, is not taken off.
    const hash = { ...draft('teams', 'teams["C#"]', 'delete'), remoteId: 't_3' };
    const plan = buildPlan(input([org({ teams: kp([twin, hash, draft('teams', 'teams["Red"]', 'update')]) }, { protect: ['teams["Red"]', 'teams["C"]'] })]));
    expect(ids(plan)).toEqual(['org_acme/teams["Red"]:update', 'org_acme/teams["C#"]:delete']);
    expect(plan.violations.map((v) => v.steps)).toEqual([['org_acme/teams["Red#t_2"]:delete']]);
  });

  it('refuses a rename onto the key of a protected resource that the plan would have deleted', () => {
    const plan = buildPlan(input([org({ teams: kp([draft('teams', 'teams["Red"]', 'delete'), draft('teams', 'teams["Red"]', 'update')]) }, { protect: ['teams["Red"]'] })]));
    expect(plan.problems).toEqual([{ org: 'org_acme', address: 'teams["Red"]', message: 'needs teams["Red"] deleted first, but that one is protected and stays: remove the protect entry, or change the config so that it need not go' }]);
    expect(plan.violations.map((v) => v.rule)).toEqual(['protect']);
  });

  it('counts deletes against maxDeletes and maxDeletePercent (kinds with at least 10 remote resources)', () => {
    const deletes = (n: number) => Array.from({ length: n }, (_, i) => draft('teams', `teams["t${i}"]`, 'delete'));
    const over = buildPlan(input([org({ teams: kp(deletes(3), { remoteCount: 10 }) }, { safety: { maxDeletes: 2, maxDeletePercent: 25 } })]));
    expect(over.violations.map((v) => [v.rule, v.message, v.steps.length])).toEqual([
      ['maxDeletes', 'org_acme: 3 deletes exceed safety.maxDeletes (2)', 3],
      ['maxDeletePercent', 'org_acme: 3 of 10 teams (30%) would be deleted, above safety.maxDeletePercent (25%)', 3],
    ]);
    // Fewer than 10 remote resources: no percentage rule; at the limit: nothing.
    expect(buildPlan(input([org({ teams: kp(deletes(3), { remoteCount: 9 }) })])).violations).toEqual([]);
    expect(buildPlan(input([org({ teams: kp(deletes(2), { remoteCount: 8 }) }, { safety: { maxDeletes: 2, maxDeletePercent: 25 } })])).violations).toEqual([]);
  });
});

describe('buildPlan counts and fingerprints', () => {
  it('sums actions and unmanaged resources and keeps a fingerprint per step address', () => {
    const plan = buildPlan(input([richOrg()]));
    expect(plan.summary).toEqual({ create: 5, update: 2, delete: 3, other: 3, unmanaged: 1 });
    expect(plan.unmanaged).toEqual({ org_acme: { teams: ['teams["Legacy"]'] } });
    expect(Object.keys(plan.fingerprints).sort()).toEqual([...new Set(plan.steps.map((s) => `${s.org}/${s.address}`))].sort());
    expect(plan.formatVersion).toBe(1);
    expect(plan.configHash).toBe('h');
  });

  it('collects the problems and notes of every kind', () => {
    const plan = buildPlan(
      input([org({ members: kp([], { problems: [{ org: 'org_acme', address: 'members["x"]', message: 'not a member' }], notes: ['a note'] }) })]),
    );
    expect(plan.problems).toEqual([{ org: 'org_acme', address: 'members["x"]', message: 'not a member' }]);
    expect(plan.notes).toEqual(['org_acme: a note']);
  });
});

describe('buildPlan at the size of a large config', () => {
  it('plans 130,000 teams and their members without overflowing the stack', () => {
    const n = 130_000;
    const teams: DraftStep[] = [];
    const members: DraftStep[] = [];
    for (let i = 0; i < n; i++) {
      teams.push(draft('teams', `teams["T${i}"]`, 'create'));
      members.push(draft('teamMembers', `teams["T${i}"].members`, 'update', [`teams["T${i}"]`]));
    }
    const plan = buildPlan(input([org({ teams: kp(teams), teamMembers: kp(members) })]));
    expect(plan.steps).toHaveLength(2 * n);
    expect(plan.summary.create).toBe(n);
    expect(plan.steps.findIndex((s) => s.address === 'teams["T0"].members')).toBeGreaterThan(plan.steps.findIndex((s) => s.address === 'teams["T0"]'));
  });

  it('names a cycle at the end of a chain of 130,000 steps', () => {
    const n = 130_000;
    const chain: DraftStep[] = [];
    // C0 needs C1 needs … needs C(n-1), which needs C0.
    for (let i = 0; i < n; i++) chain.push(draft('collections', `collections["C${i}"]`, 'create', [`collections["C${(i + 1) % n}"]`]));
    expect(() => buildPlan(input([org({ collections: kp(chain) })]))).toThrow(/^the plan's steps depend on each other in a cycle: org_acme\/collections\["C0"\]:create → /);
  });
});

