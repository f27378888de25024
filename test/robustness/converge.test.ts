/**
 * Property: whatever the current state and whatever the desired state (over every kind), planning,
 * applying the plan and planning again finds nothing left to do, with no problem, no failed step and
 * no two resources with one natural key. Runs against the emulator over real HTTP on loopback with
 * the planner's planOrgs and the executor's applyPlan, the ones the CLI uses. fast-check prints the
 * seed and the counterexample on failure; rerun one with DOCPLANE_FC_SEED=<seed>.
 *
 * The gaps the property found (renames onto held keys, path swaps, dependency cycles between a
 * pruned collection and what takes its path) are fixed and kept as plain tests below; the property
 * expects a plan problem for a rename onto a key another remote resource keeps (universe.ts
 * renameCollides).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { applyPlan } from '../../src/apply/executor.js';
import type { ConfigDocumentT } from '../../src/config/schema.js';
import { startEmulator, type EmulatorState } from '../../src/emulator/server.js';
import { planOrgs } from '../../src/plan/run.js';
import { currentArb, desiredArb, duplicates, loadDocument, ORG, renameCollides, SITE, SPACES, USERS } from './universe.js';

const opts = { toolVersion: 'robustness' };

interface RoundTrip {
  /** kind:action of every step of the first plan. */
  planned: string[];
  problems: string[];
  /** Rules of the first plan's safety violations (`protect`: deletes left out). */
  violations: string[];
  failed: string[];
  /** Steps of the plan after the apply. */
  left: string[];
  duplicates: string[];
}

/** Plan, apply, plan again, against an emulator seeded with `current`. */
async function roundTrip(current: EmulatorState, desired: ConfigDocumentT, emulatorSeed = 1): Promise<RoundTrip> {
  const config = await loadDocument(desired);
  const emulator = await startEmulator({ port: 0, state: current, seed: emulatorSeed });
  const client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 1 });
  try {
    const plan = await planOrgs(config, client, opts);
    const out: RoundTrip = {
      planned: plan.steps.map((s) => `${s.kind}:${s.action}`),
      problems: plan.problems.map((p) => `${p.address}: ${p.message}`),
      violations: plan.violations.map((v) => v.rule),
      failed: [],
      left: [],
      duplicates: [],
    };
    if (out.problems.length > 0) return out;
    const result = await applyPlan(plan, client, { concurrency: 4 });
    out.failed = result.failed.map((f) => `${f.step}: ${f.message}`);
    const again = await planOrgs(config, client, opts);
    out.left = again.steps.map((s) => `${s.id} ${JSON.stringify(s.changes)}`);
    out.duplicates = await duplicates(client);
    return out;
  } finally {
    await client.close();
    await emulator.close();
  }
}

/**
 * What the generator must reach in the random runs: creates, updates, deletes, moves and sorts of
 * most kinds, and a delete left out by `protect`. A property that planned nothing would prove nothing.
 */
const EXPECTED = ['teams:create', 'teams:delete', 'teamMembers:update', 'collections:create', 'collections:delete', 'spaces:move', 'sections:create', 'sections:sort', 'siteSpaces:create', 'sectionGroups:create', 'shareLinks:update', 'saml:create', 'translations:update', 'integrations:publish', 'members:update', 'collectionAccess:create', 'spaceAccess:create', 'spaceAccess:update', 'spaceAccess:delete', 'spaceGitSync:update', 'installations:create', 'installations:update', 'installations:delete', 'installationTargets:create', 'installationTargets:update', 'installationTargets:delete', 'openapiSpecs:create', 'openapiSpecs:update', 'openapiSpecs:delete', 'glossary:update', 'violation:protect'];

/** Runs per round, and rounds at most: more rounds only while a case of EXPECTED is still missing. */
const RUNS = 150;
const MAX_ROUNDS = 4;

describe('plan → apply → plan is empty, for random current and desired states', () => {
  it(`converges over every kind (${RUNS} random pairs, more until every expected case is reached)`, async () => {
    const covered = new Set<string>();
    const property = fc.asyncProperty(currentArb, desiredArb, fc.nat(1000), async (current, desired, emulatorSeed) => {
      const r = await roundTrip(current, desired, emulatorSeed);
      for (const p of r.planned) covered.add(p);
      for (const v of r.violations) covered.add(`violation:${v}`);
      const collides = renameCollides(current, desired);
      if (collides.teams || collides.shareLinks || collides.collections) {
        // A rename onto a key another remote resource keeps: refused by the plan, nothing applied.
        expect(r.problems.join('\n')).toMatch(/renamed|rename/i);
        return;
      }
      if (desired.protect && r.problems.length > 0 && r.problems.every((p) => / is protected and stays: remove the protect entry|: is kept \(protect\), but this plan renames or moves what holds it/.test(p))) {
        // A key the config gives away is protected: refused by the plan, nothing applied.
        return;
      }
      expect(r.problems, 'the plan has problems').toEqual([]);
      expect(r.failed, 'failed steps').toEqual([]);
      expect(r.left, 'steps left after the apply').toEqual([]);
      expect(r.duplicates, 'natural keys held twice').toEqual([]);
    });
    // A rare case (a protected delete: ~1 seed in 50 reached none in 150 runs) must not fail a run
    // whose every pair converged: the property draws another round, from the next seed, until every
    // case is reached. Each round's seed follows from DOCPLANE_FC_SEED when it is set, so CI stays
    // reproducible; fast-check prints the seed of a failing round.
    const first = fc.readConfigureGlobal().seed ?? Math.floor(Math.random() * 2 ** 31);
    const missing = () => EXPECTED.filter((e) => !covered.has(e));
    for (let round = 0; round < MAX_ROUNDS && (round === 0 || missing().length > 0); round++) {
      await fc.assert(property, { numRuns: RUNS, seed: first + round, endOnFailure: true });
    }
    for (const expected of EXPECTED) expect(covered, `no run planned ${expected} in ${MAX_ROUNDS} × ${RUNS} runs`).toContain(expected);
  });
});

// ---- gaps the property found, fixed ------------------------------------------------------------------------------------

function world(extra: Record<string, unknown>): EmulatorState {
  return {
    users: USERS,
    organizations: [
      {
        id: ORG,
        title: 'Robust Org',
        members: USERS.map((u, i) => ({ user: u.id, role: i === 0 ? 'admin' : 'read' })),
        spaces: SPACES,
        sites: [{ id: SITE, title: 'Robust Site' }],
        ...extra,
      },
    ],
  } as EmulatorState;
}

function config(extra: Partial<ConfigDocumentT>): ConfigDocumentT {
  return { version: 1, organization: { id: ORG }, ...extra } as ConfigDocumentT;
}

describe('renames onto a key that another resource holds', () => {
  it('renaming a team onto the title of an unmanaged team is a plan problem, not a duplicate', async () => {
    const current = world({ teams: [{ title: 'Gold' }, { title: 'Red' }] });
    const desired = config({ teams: [{ title: 'Red', renamedFrom: 'Gold' }] });
    const r = await roundTrip(current, desired);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(/two teams/);
    expect(r.duplicates).toEqual([]);
  });
});

describe('renames onto the key of a protected resource', () => {
  it('renaming a team onto the title of a pruned but protected team is a plan problem, not a duplicate', async () => {
    const current = world({ teams: [{ title: 'Gold' }, { title: 'Red' }] });
    const desired = config({ teams: [{ title: 'Red', renamedFrom: 'Gold' }], prune: ['teams'], protect: ['teams["Red"]'] });
    const r = await roundTrip(current, desired);
    expect(r.problems).toEqual([expect.stringMatching(/^teams\["Red"\]: needs teams\["Red"\] deleted first, but that one is protected and stays/)]);
    expect(r.duplicates).toEqual([]);
  });
});

describe('paths taken from a protected site space', () => {
  it('a site space taking the path of one that a protected section keeps is a plan problem, not a refused request (seed 356368)', async () => {
    const current = world({
      sites: [{ id: SITE, title: 'Robust Site', sections: [{ title: 'Guides', path: 'guides', siteSpaces: [{ space: 'space_2' }, { space: 'space_6', path: 'v1' }, { space: 'space_7', path: 'v2' }] }] }],
    });
    const desired = config({
      sites: [{ id: SITE, sections: [{ path: 'guides', title: 'Guides', space: 'space_2', siteSpaces: [{ space: 'space_6', path: 'v2' }] }] }],
      protect: [`sites["${SITE}"].sections["guides"]`],
    });
    const r = await roundTrip(current, desired);
    expect(r.problems).toEqual([
      `sites["${SITE}"].sections["guides"].siteSpaces["space_6"]: needs sites["${SITE}"].sections["guides"].siteSpaces["space_7"] deleted first, but that one is protected and stays: remove the protect entry, or change the config so that it need not go`,
    ]);
  });
});

describe('a structure that counts on a protected group going', () => {
  it('sorting a section of a pruned but protected group at the top level is a plan problem, not a refused sort (seed 483072)', async () => {
    const current = world({
      sites: [
        {
          id: SITE,
          title: 'Robust Site',
          sections: [
            { title: 'FAQ', path: 'faq', siteSpaces: [{ space: 'space_4' }] },
            { title: 'API', path: 'api', siteSpaces: [{ space: 'space_3' }] },
          ],
          sectionGroups: [
            { title: 'Group B', sections: ['faq'] },
            { title: 'Group A', sections: ['api'] },
          ],
        },
      ],
    });
    const desired = config({
      sites: [{ id: SITE, sections: [{ path: 'api', title: 'API', space: 'space_3' }, { path: 'faq', title: 'FAQ', space: 'space_4' }], sectionGroups: [] }],
      prune: ['sectionGroups'],
      protect: [`sites["${SITE}"].sectionGroups["Group A"]`],
    });
    const r = await roundTrip(current, desired);
    expect(r.problems).toEqual([
      `sites["${SITE}"].structure: needs sites["${SITE}"].sectionGroups["Group A"] deleted first, but that one is protected and stays: remove the protect entry, or change the config so that it need not go`,
    ]);
  });
});

describe('a protected collection whose parent is renamed', () => {
  it('is a plan problem unless protect also names its new path; then the next plan keeps it (seed 847346)', async () => {
    const current = world({ collections: [{ title: 'Gamma', collections: [{ title: 'One' }] }] });
    const desired = (protect: string[]) => config({ collections: [{ title: 'Alpha', renamedFrom: 'Gamma' }], prune: ['collections'], protect });
    const refused = await roundTrip(current, desired(['collections["Gamma/One"]']));
    expect(refused.problems).toEqual([
      'collections["Gamma/One"]: is kept (protect), but this plan renames or moves what holds it: it becomes collections["Alpha/One"], which protect does not name, so the next plan would delete it; protect collections["Alpha/One"] too, or add it to the config',
    ]);
    const kept = await roundTrip(current, desired(['collections["Gamma/One"]', 'collections["Alpha/One"]']));
    expect(kept.problems).toEqual([]);
    expect(kept.violations).toEqual(['protect']);
    expect(kept.failed).toEqual([]);
    expect(kept.left).toEqual([]);
  });
});

describe('renames onto a pruned collection path', () => {
  it('renaming a collection onto the path of a pruned one, with a space moved into it, plans without a cycle', async () => {
    const current = world({ collections: [{ title: 'Alpha' }, { title: 'Gamma' }] });
    const desired = config({
      collections: [{ title: 'Alpha', renamedFrom: 'Gamma' }],
      spaces: [{ id: 'space_6', collection: 'Alpha' }],
      prune: ['collections'],
    });
    const r = await roundTrip(current, desired);
    expect(r.failed).toEqual([]);
    expect(r.left).toEqual([]);
  });
});

describe('a collection renamed onto an unmanaged path', () => {
  it('renaming a collection onto the path of an unmanaged one is a plan problem, not a duplicate', async () => {
    const current = world({ collections: [{ title: 'Beta' }, { title: 'Gamma' }] });
    const desired = config({ collections: [{ title: 'Beta', renamedFrom: 'Gamma' }] });
    const r = await roundTrip(current, desired);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(/two collections/);
    expect(r.duplicates).toEqual([]);
  });
});

describe('a child of a renamed collection renamed away by path', () => {
  it('moves the renamed child out and creates the one the renamed parent keeps', async () => {
    const current = world({ collections: [{ title: 'Alpha', collections: [{ title: 'One' }] }] });
    const desired = config({ collections: [{ title: 'Beta', renamedFrom: 'Alpha', collections: [{ title: 'One' }] }, { title: 'Gamma', renamedFrom: 'Alpha/One' }] });
    const r = await roundTrip(current, desired);
    expect(r.planned).toEqual(expect.arrayContaining(['collections:create', 'collections:move']));
    expect(r.problems).toEqual([]);
    expect(r.failed).toEqual([]);
    expect(r.left).toEqual([]);
    expect(r.duplicates).toEqual([]);
  });

  it('renaming it onto the path of an unmanaged collection is a plan problem (seed 1076555667)', async () => {
    const current = world({ collections: [{ title: 'Alpha', collections: [{ title: 'One' }] }, { title: 'Gamma' }] });
    const desired = config({ collections: [{ title: 'Beta', renamedFrom: 'Alpha', collections: [{ title: 'One' }] }, { title: 'Gamma', renamedFrom: 'Alpha/One' }] });
    const r = await roundTrip(current, desired);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(/^collections\["Gamma"\]: renaming to "Gamma" would leave two collections/);
  });
});

describe('a pruned collection whose path a new one under a renamed parent takes', () => {
  it('moves the space from the old one into the new one, then deletes the old, without a cycle (seed 118798)', async () => {
    const current = world({ collections: [{ title: 'Gamma', collections: [{ title: 'One' }] }, { title: 'Beta' }], spaces: SPACES.map((s) => (s.id === 'space_8' ? { ...s, collection: 'Gamma/One' } : s)) });
    const desired = config({
      collections: [{ title: 'Gamma', renamedFrom: 'Beta', collections: [{ title: 'One' }] }],
      spaces: [{ id: 'space_8', collection: 'Gamma/One' }],
      prune: ['collections'],
    });
    const r = await roundTrip(current, desired);
    expect(r.problems).toEqual([]);
    expect(r.planned).toEqual(expect.arrayContaining(['collections:create', 'spaces:move', 'collections:delete', 'collections:update']));
    expect(r.failed).toEqual([]);
    expect(r.left).toEqual([]);
    expect(r.duplicates).toEqual([]);
  });
});

describe('path swaps of sections and site spaces', () => {
  it('swapping the paths of two sections of a site converges', async () => {
    const current = world({
      sites: [
        {
          id: SITE,
          title: 'Robust Site',
          sections: [
            { id: 'sec_g', title: 'Guides', path: 'guides', siteSpaces: [{ space: 'space_2' }] },
            { id: 'sec_r', title: 'Reference', path: 'reference', siteSpaces: [{ space: 'space_3' }] },
          ],
        },
      ],
    });
    const desired = config({
      sites: [
        {
          id: SITE,
          sections: [
            { id: 'sec_g', path: 'reference', title: 'Guides', space: 'space_2' },
            { id: 'sec_r', path: 'guides', title: 'Reference', space: 'space_3' },
          ],
        },
      ],
    });
    const r = await roundTrip(current, desired);
    expect(r.problems).toEqual([]);
    expect(r.failed).toEqual([]);
    expect(r.left).toEqual([]);
    expect(r.duplicates).toEqual([]);
  });

  it('swapping the paths of two site spaces of a section converges', async () => {
    const current = world({
      sites: [
        {
          id: SITE,
          title: 'Robust Site',
          sections: [{ title: 'Guides', path: 'guides', siteSpaces: [{ space: 'space_2' }, { space: 'space_6', path: 'v1' }, { space: 'space_7', path: 'v2' }] }],
        },
      ],
    });
    const desired = config({
      sites: [{ id: SITE, sections: [{ path: 'guides', title: 'Guides', space: 'space_2', siteSpaces: [{ space: 'space_6', path: 'v2' }, { space: 'space_7', path: 'v1' }] }] }],
    });
    const r = await roundTrip(current, desired);
    expect(r.failed).toEqual([]);
    expect(r.left).toEqual([]);
  });
});
