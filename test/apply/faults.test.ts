/**
 * The executor against the emulator's injected faults: 5xx answers and connection resets that strike
 * before or after the write (the change kept, the answer lost), and a rate limit. A lost answer must
 * never become a duplicate, and every step must end applied. The waits (backoffs, the rate limit's)
 * are on a virtual clock that the client, the apply and the emulator share: asked for, not waited.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { virtualClock } from '../../src/api/virtual-clock.test-support.js';
import { applyPlan, type ApplyEvent } from '../../src/apply/executor.js';
import { makePlan, makeStep, teamCreate } from '../../src/apply/fake-client.test-support.js';
import { startEmulator, type EmulatorState } from '../../src/emulator/server.js';

const ORG = 'org_f';
const state: EmulatorState = {
  tokens: [{ token: 'dev-token', access: 'write' }],
  users: [{ id: 'u_alice', email: 'alice@f.com', displayName: 'Alice' }],
  organizations: [{ id: ORG, title: 'Fault Inc', members: [{ user: 'u_alice', role: 'admin' }] }],
} as EmulatorState;

/** `n` team creates, each followed by a membership change through the created id (so ids must flow). */
function teamsPlan(n: number) {
  const steps = [];
  for (let i = 0; i < n; i++) {
    const create = teamCreate(ORG, `Team ${String(i).padStart(2, '0')}`);
    steps.push(create);
    steps.push(
      makeStep(ORG, `${create.address}.members`, 'update', [
        { method: 'PUT', path: `/v1/orgs/${ORG}/teams/{{ref:${ORG}/${create.address}}}/members`, body: { add: ['u_alice'] } },
      ], [create.id], 'teamMembers'),
    );
  }
  return makePlan(steps);
}

const tmp = mkdtempSync(join(tmpdir(), 'docplane-faults-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('apply under injected faults', () => {
  it('creates 50 teams with faults striking before and after the write: no duplicates, every step applied (20 seeds)', async () => {
    let foundByLookup = 0;
    let resent = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const clock = virtualClock();
      const emulator = await startEmulator({ port: 0, state, faultRate: 0.1, resetRate: 0.1, seed });
      const client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 2, maxAttempts: 8, timeoutMs: 5000, clock });
      try {
        const events: ApplyEvent[] = [];
        const result = await applyPlan(teamsPlan(50), client, { concurrency: 8, backoffBaseMs: 2, onEvent: (e) => events.push(e), clock });
        expect(result.failed, `seed ${seed}`).toEqual([]);
        expect(result.skipped).toEqual([]);
        expect(result.applied).toHaveLength(100);
        const teams = [...emulator.world.orgs.get(ORG)!.teams.values()];
        const titles = teams.map((t) => t.title);
        expect(new Set(titles).size, `seed ${seed}: duplicate titles`).toBe(titles.length);
        expect(titles).toHaveLength(50);
        // Every team got its member through the id that flowed from its create (found or answered).
        expect(teams.every((t) => t.members.has('u_alice')), `seed ${seed}`).toBe(true);
        foundByLookup += events.filter((e) => e.type === 'lookup-found').length;
        resent += events.filter((e) => e.type === 'retry').length;
      } finally {
        await client.close();
        await emulator.close();
      }
    }
    // The runs did meet both cases: a write whose answer was lost, and one that never happened.
    expect(foundByLookup).toBeGreaterThan(0);
    expect(resent).toBeGreaterThan(0);
  });

  it('a rate-limited run finishes with no failed step', async () => {
    const logFile = join(tmp, 'rate.log');
    let met = 0;
    const clock = virtualClock();
    const start = clock.now();
    const emulator = await startEmulator({
      port: 0,
      state,
      now: () => new Date(clock.now()),
      // Fewer requests per window than apply sends at once (--concurrency 8) before it has read a
      // rate-limit header: the first burst meets the limit however slowly the machine runs.
      rateLimit: { limit: 6, windowSeconds: 2 },
      seed: 7,
      logFile,
      onExchange: (x) => {
        if (x.status === 429 || x.responseHeaders['x-ratelimit-remaining'] === '0') met++;
      },
    });
    const client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 2, clock });
    try {
      const result = await applyPlan(teamsPlan(10), client, { concurrency: 8, backoffBaseMs: 2, clock });
      expect(result.failed).toEqual([]);
      expect(result.applied).toHaveLength(20);
      const titles = [...emulator.world.orgs.get(ORG)!.teams.values()].map((t) => t.title);
      expect(new Set(titles).size).toBe(10);
      expect(titles).toHaveLength(10);
      // 20 requests at 6 per 2 s: the run spans at least three windows of the clock.
      expect(clock.now() - start).toBeGreaterThanOrEqual(6000);
    } finally {
      await client.close();
      await emulator.close();
    }
    expect(readFileSync(logFile, 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(20);
    // The limit was met (and waited out): the run above is a real test of it. The client paces by
    // the rate-limit headers, so meeting it shows as a window used up (or a 429), not only as 429s.
    expect(met).toBeGreaterThan(0);
  });
});
