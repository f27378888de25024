/**
 * Property: under a random fault schedule — 5xx answers and connection resets, each striking before
 * or after the emulator made the change (a lost answer is not a lost write), and a rate limit
 * answering 429 — applying (and applying again, as a user would after a partial failure) ends with
 * the desired state: the next plan is empty and no natural key is held twice (no duplicate from a
 * create whose answer was lost); and a request refused with a 429 is sent again no sooner than its
 * `Retry-After` said. fast-check prints the seed and the counterexample (fault rates and the
 * emulator's fault seed included) on failure; rerun one with DOCPLANE_FC_SEED=<seed>.
 *
 * The client, the apply and the emulator's rate limit share a virtual clock: the waits are asked for
 * and checked, not waited.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { virtualClock } from '../../src/api/virtual-clock.test-support.js';
import { applyPlan } from '../../src/apply/executor.js';
import { startEmulator } from '../../src/emulator/server.js';
import { planOrgs } from '../../src/plan/run.js';
import type { Plan } from '../../src/plan/types.js';
import { currentArb, desiredArb, duplicates, loadDocument, renameCollides } from './universe.js';

const opts = { toolVersion: 'robustness' };
/** Applies in a row at most: a user runs apply again after a partial failure. */
const MAX_ROUNDS = 5;

const faultsArb = fc.record({
  // Picked from a few levels rather than drawn: fast-check biases numbers towards 0 in early runs.
  faultRate: fc.constantFrom(0, 0.05, 0.1, 0.15, 0.2),
  resetRate: fc.constantFrom(0, 0.05, 0.1, 0.15, 0.2),
  // Now and then a rate limit low enough to be met by a plan of a few dozen requests.
  rateLimit: fc.option(fc.integer({ min: 40, max: 150 }), { nil: undefined, freq: 3 }),
  faultSeed: fc.nat(2 ** 31 - 1),
});

describe('apply under random fault schedules', () => {
  it('converges with no duplicates (40 random worlds × fault schedules)', async () => {
    let struck = 0;
    let rateLimited = 0;
    await fc.assert(
      fc.asyncProperty(currentArb, desiredArb, faultsArb, async (current, desired, faults) => {
        // Renames the plan refuses, and the planner's known gaps, are the other test's business.
        const collides = renameCollides(current, desired);
        fc.pre(!collides.teams && !collides.collections && !collides.shareLinks);
        // Protected keys the config gives away are refused by the plan: the other test's business too.
        const config = await loadDocument({ ...desired, protect: undefined });
        const clock = virtualClock();
        // Per request (method, path and body): when a 429 allows it again.
        const allowedAt = new Map<string, number>();
        const early: string[] = [];
        const emulator = await startEmulator({
          now: () => new Date(clock.now()),
          onExchange: ({ method, path, requestBody, status, responseHeaders }) => {
            const key = `${method} ${path} ${JSON.stringify(requestBody)}`;
            const at = clock.now();
            const allowed = allowedAt.get(key);
            if (allowed !== undefined && at < allowed) early.push(`${key} again ${allowed - at} ms before its Retry-After`);
            allowedAt.delete(key);
            if (status === 429) {
              rateLimited++;
              allowedAt.set(key, at + Number(responseHeaders['retry-after']) * 1000);
            }
          },
          port: 0,
          state: current,
          seed: faults.faultSeed,
          faultRate: faults.faultRate,
          resetRate: faults.resetRate,
          ...(faults.rateLimit !== undefined ? { rateLimit: faults.rateLimit } : {}),
        });
        const client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 2, maxAttempts: 10, timeoutMs: 5000, maxWaitMs: 2000, clock });
        try {
          const rounds: string[] = [];
          let plan: Plan | undefined;
          for (let round = 0; round < MAX_ROUNDS; round++) {
            try {
              plan = await planOrgs(config, client, opts);
            } catch (err) {
              // Reads gave up after their retries: as a user would, run again.
              rounds.push(`plan failed: ${(err as Error).message}`);
              continue;
            }
            expect(plan.problems).toEqual([]);
            if (plan.steps.length === 0) break;
            const result = await applyPlan(plan, client, { concurrency: 4, backoffBaseMs: 2, maxWaitMs: 2000, clock });
            rounds.push(`${result.applied.length} applied, ${result.failed.length} failed: ${result.failed.map((f) => f.message).join('; ')}`);
          }
          expect(plan?.steps.map((s) => s.id) ?? ['never planned'], `after ${rounds.length} rounds:\n${rounds.join('\n')}`).toEqual([]);
          expect(await duplicates(client)).toEqual([]);
          expect(early).toEqual([]);
          if (faults.faultRate + faults.resetRate > 0.05) struck++;
        } finally {
          await client.close();
          await emulator.close();
        }
      }),
      { numRuns: 40, endOnFailure: true },
    );
    // Most runs had faults worth the name, and some met the rate limit.
    expect(struck).toBeGreaterThan(20);
    expect(rateLimited).toBeGreaterThan(0);
  });
});
