/**
 * `plan --base` says what the whole plan says of what changed, and reads less: on a generated world
 * (src/bench) where the base config was applied, random edits of the config (entries changed, added,
 * removed, renamed, in every unit), with and without drift behind docplane's back, with and without
 * `prune`, the pull request's plan has exactly the whole plan's steps for the targets it chose; without
 * drift; and every step the change brings to the whole plan (a step the base config's whole plan
 * does not have) is among them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../api/client.js';
import type { ApiClient } from '../api/types.js';
import { makeDrift } from '../bench/drift.js';
import { generate, type BenchWorld } from '../bench/generate.js';
import { writeConfig } from '../bench/world-io.js';
import { loadConfig } from '../config/load.js';
import type { LoadedConfig } from '../config/types.js';
import { stableStringify } from '../core/json.js';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';
import { baseDifference } from './base.js';
import { planOrgs } from './run.js';
import { selectTargets } from './targets.js';
import type { Plan } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'docplane-base-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const opts = { toolVersion: 'test', now: new Date('2025-01-01T00:00:00Z') };

type Doc = Record<string, unknown>;
type Entry = Record<string, unknown>;

const list = (doc: Doc, k: string): Entry[] => (doc[k] as Entry[] | undefined) ?? [];

/** Replaces a team's title wherever the config names it (access keys, SAML default teams). */
function renameTeamRefs(value: unknown, from: string, to: string | undefined): void {
  if (Array.isArray(value)) {
    for (const v of value) renameTeamRefs(v, from, to);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const o = value as Entry;
  if (o.defaultTeam === from) {
    if (to === undefined) delete o.defaultTeam;
    else o.defaultTeam = to;
  }
  const teams = (o.access as { teams?: Record<string, unknown> } | undefined)?.teams;
  if (teams && from in teams) {
    if (to !== undefined) teams[to] = teams[from];
    delete teams[from];
  }
  for (const v of Object.values(o)) renameTeamRefs(v, from, to);
}

/** One edit a pull request could make, chosen by `which` and placed by `n`. */
const EDITS: Array<(doc: Doc, n: number) => void> = [
  (doc, n) => {
    const m = list(doc, 'members');
    const e = m[1 + (n % (m.length - 1))];
    e.role = e.role === 'edit' ? 'read' : 'edit';
  },
  (doc, n) => {
    const m = list(doc, 'members');
    m.splice(1 + (n % (m.length - 1)), 1);
  },
  (doc, n) => list(doc, 'members').push({ user: `new${n}@bench.example`, role: 'read' }),
  (doc, n) => {
    const t = list(doc, 'teams');
    (t[n % t.length].members as unknown[]).pop();
  },
  (doc, n) => {
    const t = list(doc, 'teams');
    const team = t[n % t.length];
    const from = team.title as string;
    const to = `${from} renamed`;
    renameTeamRefs(doc, from, to);
    team.title = to;
    team.renamedFrom = from;
  },
  (doc, n) => list(doc, 'teams').push({ title: `New team ${n}`, members: [list(doc, 'members')[1].user] }),
  (doc, n) => {
    const t = list(doc, 'teams');
    const [team] = t.splice(n % t.length, 1);
    renameTeamRefs(doc, team.title as string, undefined);
  },
  (doc, n) => {
    const c = list(doc, 'collections');
    c[n % c.length].description = `${c[n % c.length].description as string} (edited)`;
  },
  (doc, n) => {
    const c = list(doc, 'collections')[n % list(doc, 'collections').length];
    c.collections = [...((c.collections as Entry[]) ?? []), { title: `New topic ${n}` }];
  },
  (doc, n) => {
    const s = list(doc, 'spaces');
    s[n % s.length].title = `${s[n % s.length].title as string} v2`;
  },
  (doc, n) => {
    const sites = list(doc, 'sites').filter((s) => Array.isArray(s.sections) && (s.sections as unknown[]).length > 0);
    const section = (sites[n % sites.length].sections as Entry[])[n % (sites[n % sites.length].sections as Entry[]).length];
    section.title = `${section.title as string} v2`;
  },
  (doc, n) => {
    const sites = list(doc, 'sites');
    const site = sites[n % sites.length];
    site.shareLinks = [...((site.shareLinks as Entry[]) ?? []), { name: `pr-link-${n}`, active: true }];
  },
  (doc, n) => {
    const s = list(doc, 'saml');
    if (s.length > 0) s[n % s.length].ssoURL = `https://idp-new${n}.bench.example/sso`;
  },
  (doc, n) => {
    const i = list(doc, 'integrations');
    if (i.length > 0) i[n % i.length].description = `Edited integration ${n}`;
  },
  (doc, n) => {
    const t = list(doc, 'translations');
    if (t.length > 0) t[n % t.length].instructions = `Translate carefully (${n}).`;
  },
  (doc, n) => {
    const t = list(doc, 'translations');
    if (t.length > 0) t.splice(n % t.length, 1);
  },
  (doc) => {
    (doc.organization as Entry).title = 'Bench Org (renamed)';
  },
  (doc, n) => {
    const sites = list(doc, 'sites').filter((s) => Array.isArray(s.shareLinks) && (s.shareLinks as unknown[]).length > 0);
    if (sites.length > 0) (sites[n % sites.length].shareLinks as unknown[]).splice(0, 1);
  },
];

/** The removals, where prune decides between a delete and nothing: drawn as often as the rest together. */
const REMOVALS = [1, 6, 15, 17];

async function load(world: BenchWorld, doc: Doc, name: string): Promise<LoadedConfig> {
  const file = writeConfig({ ...world, config: doc as unknown as BenchWorld['config'] }, join(dir, name));
  return loadConfig({ path: file, cwd: dir, env: {} });
}

const ids = (plan: Plan) => plan.steps.map((s) => s.id).sort();
/** A step as it reads, whatever else is in its plan (its dependencies are other steps). */
const sameStep = ({ dependsOn: _, ...step }: Plan['steps'][number]) => stableStringify(step);

describe('plan --base against the whole plan', () => {
  it('gives the whole plan\'s steps for the touched entries, reading less, on random edits of a generated world', async () => {
    const world = generate(0.02, 9);
    let wholeRequests = 0;
    let baseRequests = 0;
    // Plans only read: one emulator per world (as applied, and drifted), one base config per prune,
    // and one whole plan of each base config on each world, shared by the runs.
    const remotes = new Map<boolean, { emulator: RunningEmulator; client: ApiClient }>();
    const remote = async (drift: boolean) => {
      let r = remotes.get(drift);
      if (!r) {
        const emulator = await startEmulator({ port: 0, state: world.fullState, seed: 1 });
        r = { emulator, client: createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 2 }) };
        if (drift) await makeDrift(world, r.client, 0.1);
        remotes.set(drift, r);
      }
      return r;
    };
    const memo = new Map<string, Promise<unknown>>();
    const once = <T>(key: string, make: () => Promise<T>): Promise<T> => {
      if (!memo.has(key)) memo.set(key, make());
      return memo.get(key) as Promise<T>;
    };
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            edits: fc.array(fc.tuple(fc.oneof(fc.nat(EDITS.length - 1), fc.constantFrom(...REMOVALS)), fc.nat(1000)), { minLength: 1, maxLength: 3 }),
            drift: fc.boolean(),
            prune: fc.boolean(),
          }),
          async ({ edits, drift, prune }) => {
            const before = structuredClone(world.config) as unknown as Doc;
            if (prune) before.prune = ['teams', 'shareLinks', 'collections'];
            const after = structuredClone(before);
            for (const [which, n] of edits) EDITS[which](after, n);
            const baseConfig = await once(`base ${prune}`, () => load(world, before, `base-${prune}`));
            const head = await load(world, after, 'head');
            const difference = baseDifference(baseConfig, head);
            expect(difference.whole).toBeUndefined();

            const { emulator, client } = await remote(drift);
            let start = emulator.requestCount();
            const whole = await planOrgs(head, client, opts);
            const wholeN = emulator.requestCount() - start;
            start = emulator.requestCount();
            const pr = await planOrgs(head, client, { ...opts, targets: difference.targets, base: { from: 'base' } });
            const prN = emulator.requestCount() - start;
            wholeRequests += wholeN;
            baseRequests += prN;

            // The steps of the chosen targets, exactly as the whole plan has them.
            const selected = selectTargets(whole.steps, difference.targets);
            expect(ids(pr)).toEqual(selected.map((s) => s.id).sort());
            for (const s of pr.steps) expect(s).toEqual(whole.steps.find((w) => w.id === s.id));
            expect(prN).toBeLessThanOrEqual(wholeN);
            // Every step the change brings (one the base config's whole plan, against the same
            // remote, does not have as it is) is in the pull request's plan.
            const baseWhole = await once(`whole ${prune} ${drift}`, () => planOrgs(baseConfig, client, opts));
            const was = new Set(baseWhole.steps.map(sameStep));
            const chosen = new Set(pr.steps.map((s) => s.id));
            for (const s of whole.steps.filter((w) => !was.has(sameStep(w)))) expect(chosen.has(s.id), `${s.id} is left out`).toBe(true);
          },
        ),
        { numRuns: 10 },
      );
    } finally {
      for (const { emulator, client } of remotes.values()) {
        await client.close();
        await emulator.close();
      }
    }
    expect(baseRequests).toBeLessThan(wholeRequests / 2);
  });

  it('asks for a whole plan when a setting of the whole config changes, and names it', async () => {
    const world = generate(0.02, 9);
    const before = structuredClone(world.config) as unknown as Doc;
    const baseConfig = await load(world, before, 'base-w');
    const cases: Array<[(d: Doc) => void, string]> = [
      [(d) => (d.prune = ['teams']), 'prune of organization org_bench changed'],
      [(d) => (d.safety = { maxDeletes: 3 }), 'safety of organization org_bench changed'],
      [(d) => (d.protect = ['teams["Team 0000"]']), 'protect of organization org_bench changed'],
      [(d) => (d.api = { url: 'http://127.0.0.1:9' }), 'api.url changed'],
      [(d) => ((d.organization as Entry).id = 'org_other'), 'organization org_other was added'],
    ];
    for (const [change, why] of cases) {
      const after = structuredClone(before);
      change(after);
      expect(baseDifference(baseConfig, await load(world, after, 'head-w')).whole).toBe(why);
    }
    expect(baseDifference(baseConfig, baseConfig)).toEqual({ targets: [] });
  });

  it('follows renames and prune: a renamed team is read under its new title; a removed one is deleted only where teams are pruned', async () => {
    const world = generate(0.02, 9);
    const before = structuredClone(world.config) as unknown as Doc;
    const renamed = structuredClone(before);
    EDITS[4](renamed, 0);
    const baseConfig = await load(world, before, 'base-r');
    expect(baseDifference(baseConfig, await load(world, renamed, 'head-r')).targets).toContain('org_bench/teams["Team 0000 renamed"]');

    const removed = structuredClone(before);
    (removed.teams as Entry[]).splice(1, 1);
    renameTeamRefs(removed, 'Team 0001', undefined);
    expect(baseDifference(baseConfig, await load(world, removed, 'head-r')).targets).not.toContain('org_bench/teams["Team 0001"]');
    const prunedBase = await load(world, { ...before, prune: ['teams'] }, 'base-r');
    expect(baseDifference(prunedBase, await load(world, { ...removed, prune: ['teams'] }, 'head-r')).targets).toContain('org_bench/teams["Team 0001"]');
  });
});
