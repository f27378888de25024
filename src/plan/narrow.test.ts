/**
 * A targeted plan reads less and says the same: on a generated world (src/bench), for targets
 * naming single addresses, a few at a time, and prefixes, the narrowed plan's steps and fingerprints
 * are those the whole plan selects for the same targets, with fewer requests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../api/client.js';
import { makeDrift } from '../bench/drift.js';
import { generate } from '../bench/generate.js';
import { loadWorldConfig } from '../bench/world-io.js';
import { startEmulator } from '../emulator/server.js';
import { checkTargets } from './fingerprint.js';
import { planOrgs } from './run.js';
import { selectTargets } from './targets.js';
import type { Plan } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'docplane-narrow-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const opts = { toolVersion: 'test', now: new Date('2025-01-01T00:00:00Z') };

function expectSameSelection(narrowed: Plan, whole: Plan, targets: string[]): void {
  const steps = selectTargets(whole.steps, targets);
  expect(narrowed.steps.map((s) => s.id).sort()).toEqual(steps.map((s) => s.id).sort());
  const prints = Object.fromEntries(Object.entries(whole.fingerprints).filter(([a]) => steps.some((s) => `${s.org}/${s.address}` === a)));
  expect(narrowed.fingerprints).toEqual(prints);
  for (const s of narrowed.steps) expect(s).toEqual(whole.steps.find((w) => w.id === s.id));
}

describe('targeted plans read only what their addresses need', () => {
  for (const which of ['seed', 'drifted'] as const) {
    it(`selects what the whole plan selects (${which} world)`, async () => {
      const world = generate(0.05, 5);
      const config = await loadWorldConfig(world, join(dir, which));
      const emulator = await startEmulator({ port: 0, state: which === 'seed' ? world.seedState : world.fullState, seed: 1 });
      const client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 2 });
      try {
        if (which === 'drifted') await makeDrift(world, client, 0.1);
        const before = emulator.requestCount();
        const whole = await planOrgs(config, client, opts);
        const wholeRequests = emulator.requestCount() - before;
        expect(whole.steps.length).toBeGreaterThan(0);
        const addresses = [...new Set(whole.steps.map((s) => `${s.org}/${s.address}`))];
        const picks = [...addresses.filter((_, i) => i % Math.max(1, Math.floor(addresses.length / 25)) === 0), 'teams', 'sites["*"].sections'];
        const groups = [...picks.map((a) => [a]), picks.slice(0, 6)];
        for (const targets of groups) {
          const start = emulator.requestCount();
          const narrowed = await planOrgs(config, client, { ...opts, targets });
          expectSameSelection(narrowed, whole, targets);
          expect(emulator.requestCount() - start).toBeLessThanOrEqual(wholeRequests);
        }
      } finally {
        await client.close();
        await emulator.close();
      }
    });
  }
});

describe('a check of known steps reads only their kinds', () => {
  it('says the same of the steps as a whole plan, with fewer requests than a targeted plan, and reads no other kind of their sites', async () => {
    const world = generate(0.05, 7);
    const config = await loadWorldConfig(world, join(dir, 'check'));
    const paths: string[] = [];
    const emulator = await startEmulator({ port: 0, state: world.fullState, seed: 1, onExchange: (x) => paths.push(x.path.split('?')[0]) });
    const client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 2 });
    try {
      await makeDrift(world, client, 0.2);
      const whole = await planOrgs(config, client, opts);
      const kinds = new Set(whole.steps.map((s) => s.kind));
      expect(kinds.has('sections') || kinds.has('siteSpaces')).toBe(true);
      // Every kind's steps checked alone, then all of them at once.
      const groups = [...[...kinds].map((k) => whole.steps.filter((s) => s.kind === k)), whole.steps];
      for (const steps of groups) {
        const saved = { ...whole, steps, fingerprints: Object.fromEntries(Object.entries(whole.fingerprints).filter(([a]) => steps.some((s) => `${s.org}/${s.address}` === a))) };
        const check = checkTargets(steps);
        let start = emulator.requestCount();
        const fresh = await planOrgs(config, client, { ...opts, ...check });
        const checkRequests = emulator.requestCount() - start;
        // It reads the same objects: each fingerprint of the steps is the whole plan's.
        expect(Object.fromEntries(Object.keys(saved.fingerprints).map((a) => [a, fresh.fingerprints[a]]))).toEqual(saved.fingerprints);
        for (const s of steps) expect(fresh.steps.find((f) => f.id === s.id)).toEqual(s);
        start = emulator.requestCount();
        await planOrgs(config, client, { ...opts, targets: check.targets });
        expect(checkRequests).toBeLessThanOrEqual(emulator.requestCount() - start);
      }
      // A structure step's check reads its site's structure: not its share links, grants or other blocks.
      const structural = whole.steps.filter((s) => s.kind === 'sections' || s.kind === 'siteSpaces');
      paths.length = 0;
      await planOrgs(config, client, { ...opts, ...checkTargets(structural) });
      expect(paths.some((p) => p.endsWith('/structure'))).toBe(true);
      expect(paths.filter((p) => /\/(share-links|permissions\/\w+|redirects|customization|publishing\/auth)$/.test(p))).toEqual([]);
    } finally {
      await client.close();
      await emulator.close();
    }
  });
});
