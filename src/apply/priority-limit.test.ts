import { describe, expect, it } from 'vitest';
import { priorityLimit } from './priority-limit.js';

const tick = () => new Promise<void>((r) => setTimeout(r, 1));

describe('priorityLimit', () => {
  it('never runs more than the limit at once', async () => {
    const limit = priorityLimit(3);
    let active = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        limit(async () => {
          active++;
          peak = Math.max(peak, active);
          await tick();
          active--;
        }, i % 4),
      ),
    );
    expect(peak).toBe(3);
  });

  it('starts the highest priority first, then in arrival order', async () => {
    const limit = priorityLimit(1);
    const started: string[] = [];
    const job = (name: string, priority: number) =>
      limit(async () => {
        started.push(name);
        await tick();
      }, priority);
    await Promise.all([job('a', 1), job('b', 5), job('c', 1), job('d', 5), job('e', 9)]);
    expect(started).toEqual(['e', 'b', 'd', 'a', 'c']);
  });

  it('a job queued later with a higher priority goes before the ones waiting', async () => {
    const limit = priorityLimit(1);
    const started: string[] = [];
    const job = (name: string, priority: number) =>
      limit(async () => {
        started.push(name);
        await tick();
      }, priority);
    const first = [job('low-1', 0), job('low-2', 0), job('low-3', 0)];
    await tick();
    await Promise.all([...first, job('urgent', 10)]);
    expect(started.indexOf('urgent')).toBe(1);
  });

  it('passes results and errors through, and frees the slot after an error', async () => {
    const limit = priorityLimit(1);
    await expect(limit(async () => 42, 0)).resolves.toBe(42);
    await expect(limit(async () => Promise.reject(new Error('boom')), 0)).rejects.toThrow('boom');
    await expect(limit(async () => 'after', 0)).resolves.toBe('after');
    // A job that throws before it returns a promise: its error, and the slot given back.
    const throwing = (): Promise<never> => {
      throw new Error('at once');
    };
    await expect(limit(throwing, 0)).rejects.toThrow('at once');
    await expect(limit(async () => 'still', 0)).resolves.toBe('still');
  });
});

describe('applyPlan with the priority limit', () => {
  it('runs a long chain of steps alongside a crowd of independent ones, not after them', async () => {
    const { applyPlan } = await import('./executor.js');
    const { FakeClient, makePlan, makeStep } = await import('./fake-client.test-support.js');
    const ORG = 'org_p';
    // 40 independent updates queued from the start, and a chain of 10 steps, each waiting on the one
    // before (as site sections are created one after the other).
    const crowd = Array.from({ length: 40 }, (_, i) => makeStep(ORG, `members["m${i}"]`, 'update', [{ method: 'PATCH', path: `/m${i}` }]));
    const chain: ReturnType<typeof makeStep>[] = [];
    for (let i = 0; i < 10; i++) {
      chain.push(makeStep(ORG, `teams["c${i}"]`, 'update', [{ method: 'PATCH', path: `/c${i}` }], i > 0 ? [chain[i - 1].id] : []));
    }
    const client = new FakeClient(() => ({ status: 200, headers: {}, body: {} }), 2);
    const result = await applyPlan(makePlan([...crowd, ...chain]), client, { concurrency: 2 });
    expect(result.failed).toEqual([]);
    const paths = client.calls.map((c) => c.path);
    // With a first-come line the chain would start after the crowd (it comes later in plan order)
    // and the run would take 40/2 + 10 rounds. Longest chain first, each link goes as soon as the
    // one before is done, alongside the crowd: 25 rounds. (Its last link, with nothing after it, ties
    // with the crowd.)
    expect(paths.indexOf('/c0')).toBeLessThan(2);
    for (let i = 1; i < 9; i++) expect(paths.indexOf(`/c${i}`) - paths.indexOf(`/c${i - 1}`)).toBeLessThanOrEqual(3);
    expect(paths.indexOf('/c8')).toBeLessThan(25);
  });
});
