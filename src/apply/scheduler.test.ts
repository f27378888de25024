/** The scheduler through applyPlan: dependencies, the concurrency limit, skips, stops. */
import { describe, expect, it } from 'vitest';
import { applyPlan, type ApplyEvent } from './executor.js';
import { apiError, FakeClient, makePlan, makeStep, ok } from './fake-client.test-support.js';

const ORG = 'org_t';

describe('applyPlan: scheduling', () => {
  it('starts a step only when its dependencies are done, and independent steps in plan order', async () => {
    const log: string[] = [];
    const client = new FakeClient((call) => {
      log.push(`${call.method} ${call.path}`);
      return ok({ id: call.path.split('/').pop() });
    });
    const a = makeStep(ORG, 'teams["A"]', 'update', [{ method: 'PATCH', path: '/a1' }, { method: 'PATCH', path: '/a2' }]);
    const b = makeStep(ORG, 'teams["B"]', 'update', [{ method: 'PATCH', path: '/b' }], [a.id]);
    const c = makeStep(ORG, 'teams["C"]', 'update', [{ method: 'PATCH', path: '/c' }]);
    const d = makeStep(ORG, 'teams["D"]', 'update', [{ method: 'PATCH', path: '/d' }], [b.id, c.id]);
    const result = await applyPlan(makePlan([a, b, c, d]), client, { concurrency: 1 });
    expect(result.applied.map((o) => o.step)).toEqual([a.id, b.id, c.id, d.id]);
    expect(result.failed).toEqual([]);
    // Concurrency 1, the longest remaining chain first: a (a1, a2, b, d: 4 requests) before c (c, d: 2),
    // then c before b (equal chains: c was queued first).
    expect(log).toEqual(['PATCH /a1', 'PATCH /a2', 'PATCH /c', 'PATCH /b', 'PATCH /d']);
    expect(log.indexOf('PATCH /b')).toBeGreaterThan(log.indexOf('PATCH /a2'));
    expect(log.indexOf('PATCH /d')).toBeGreaterThan(log.indexOf('PATCH /b'));
    expect(result.applied.find((o) => o.step === a.id)?.requests).toBe(2);
  });

  it('keeps at most `concurrency` requests in flight, and does use that many', async () => {
    const client = new FakeClient(() => ok({}), 3);
    const steps = Array.from({ length: 30 }, (_, i) =>
      makeStep(ORG, `teams["T${i}"]`, 'update', [
        { method: 'PATCH', path: `/t${i}/1` },
        { method: 'PATCH', path: `/t${i}/2` },
      ]),
    );
    const result = await applyPlan(makePlan(steps), client, { concurrency: 4 });
    expect(result.applied).toHaveLength(30);
    expect(client.calls).toHaveLength(60);
    expect(client.maxInFlight).toBe(4);
  });

  it('sends a step’s requests in order, never two of one step at once', async () => {
    const order: string[] = [];
    const client = new FakeClient((call) => {
      order.push(call.path);
      return ok({});
    }, 2);
    const step = makeStep(ORG, 'teams["A"]', 'update', [1, 2, 3, 4].map((n) => ({ method: 'PATCH' as const, path: `/a/${n}` })));
    await applyPlan(makePlan([step]), client, { concurrency: 8 });
    expect(order).toEqual(['/a/1', '/a/2', '/a/3', '/a/4']);
    expect(client.maxInFlight).toBe(1);
  });

  it('reports a dependency cycle as failed steps instead of waiting forever', async () => {
    const client = new FakeClient(() => ok({}));
    const a = makeStep(ORG, 'teams["A"]', 'update', [{ method: 'PATCH', path: '/a' }], [`${ORG}/teams["B"]:update`]);
    const b = makeStep(ORG, 'teams["B"]', 'update', [{ method: 'PATCH', path: '/b' }], [a.id]);
    const c = makeStep(ORG, 'teams["C"]', 'update', [{ method: 'PATCH', path: '/c' }]);
    const result = await applyPlan(makePlan([a, b, c]), client, { concurrency: 2 });
    expect(result.applied.map((o) => o.step)).toEqual([c.id]);
    expect(result.failed.map((o) => o.step)).toEqual([a.id, b.id]);
    expect(result.failed[0].message).toMatch(/cycle/);
  });

  it('an empty plan finishes at once with nothing to report', async () => {
    const client = new FakeClient(() => ok({}));
    const result = await applyPlan(makePlan([]), client, { concurrency: 2 });
    expect(result).toMatchObject({ applied: [], failed: [], skipped: [] });
    expect(client.calls).toHaveLength(0);
  });
});

describe('applyPlan: failures', () => {
  it('skips the dependents of a failed step transitively; everything else goes on', async () => {
    const client = new FakeClient((call) => {
      if (call.path === '/a') throw apiError(call, 400, 'title: must be at most 64 characters');
      return ok({});
    });
    const a = makeStep(ORG, 'teams["A"]', 'update', [{ method: 'PATCH', path: '/a' }]);
    const b = makeStep(ORG, 'teams["B"]', 'update', [{ method: 'PATCH', path: '/b' }], [a.id]);
    const c = makeStep(ORG, 'teams["C"]', 'update', [{ method: 'PATCH', path: '/c' }], [b.id]);
    const d = makeStep(ORG, 'teams["D"]', 'update', [{ method: 'PATCH', path: '/d' }]);
    const e = makeStep(ORG, 'teams["E"]', 'update', [{ method: 'PATCH', path: '/e' }], [d.id]);
    const events: ApplyEvent['type'][] = [];
    const result = await applyPlan(makePlan([a, b, c, d, e]), client, { concurrency: 2, onEvent: (ev) => events.push(ev.type) });
    expect(result.applied.map((o) => o.step)).toEqual([d.id, e.id]);
    expect(result.failed).toEqual([expect.objectContaining({ step: a.id, message: 'PATCH /a → 400: title: must be at most 64 characters', requests: 1 })]);
    expect(result.skipped.map((o) => [o.step, o.cause])).toEqual([
      [b.id, a.id],
      [c.id, a.id],
    ]);
    expect(client.calls.map((x) => x.path).sort()).toEqual(['/a', '/d', '/e']);
    expect(result.stopped).toBeUndefined();
    expect(events.filter((t) => t === 'step-skipped')).toHaveLength(2);
  });

  it.each([401, 403])('a %i stops the run at once: no new request, in-flight ones finish', async (status) => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const client = new FakeClient(async (call) => {
      if (call.path === '/slow') {
        await gate;
        return ok({});
      }
      if (call.path === '/denied') {
        setTimeout(release, 10);
        throw apiError(call, status, 'token is read-only');
      }
      return ok({});
    });
    const slow = makeStep(ORG, 'teams["Slow"]', 'update', [{ method: 'PATCH', path: '/slow' }, { method: 'PATCH', path: '/slow2' }]);
    const denied = makeStep(ORG, 'teams["Denied"]', 'update', [{ method: 'PATCH', path: '/denied' }]);
    const later = Array.from({ length: 5 }, (_, i) => makeStep(ORG, `teams["L${i}"]`, 'update', [{ method: 'PATCH', path: `/l${i}` }]));
    const result = await applyPlan(makePlan([slow, denied, ...later]), client, { concurrency: 2 });
    expect(result.stopped).toEqual({
      reason: status === 401 ? 'unauthorized' : 'forbidden',
      message: `PATCH /denied → ${status}: token is read-only`,
      method: 'PATCH',
      path: '/denied',
    });
    expect(client.calls.map((c) => c.path)).toEqual(['/slow', '/denied']);
    expect(result.applied).toEqual([]);
    expect(result.failed.map((o) => [o.step, o.message])).toEqual([
      [slow.id, 'interrupted after 1 of its 2 requests: the run stopped'],
      [denied.id, `PATCH /denied → ${status}: token is read-only`],
    ]);
    expect(result.skipped.map((o) => o.step)).toEqual(later.map((s) => s.id));
    expect(result.skipped[0].message).toBe('not run: the run stopped');
  });

  it('an abort signal stops the run: nothing new is sent', async () => {
    const controller = new AbortController();
    const client = new FakeClient((call) => {
      if (call.path === '/first') controller.abort();
      return ok({});
    });
    const steps = ['first', 'second', 'third'].map((n) => makeStep(ORG, `teams["${n}"]`, 'update', [{ method: 'PATCH', path: `/${n}` }]));
    const result = await applyPlan(makePlan(steps), client, { concurrency: 1, signal: controller.signal });
    expect(client.calls.map((c) => c.path)).toEqual(['/first']);
    expect(result.applied.map((o) => o.step)).toEqual([steps[0].id]);
    expect(result.skipped).toHaveLength(2);
    expect(result.stopped).toEqual({ reason: 'interrupted', message: 'the apply was cancelled' });
  });

  it('starts at most twice `concurrency` steps at a time: the others wait unstarted, and are skipped when the run stops', async () => {
    const controller = new AbortController();
    let running = 0;
    let most = 0;
    const client = new FakeClient((call) => {
      if (call.path === '/t20/1') controller.abort();
      return ok({});
    }, 2);
    const steps = Array.from({ length: 40 }, (_, i) =>
      makeStep(ORG, `teams["T${i}"]`, 'update', [
        { method: 'PATCH', path: `/t${i}/1` },
        { method: 'PATCH', path: `/t${i}/2` },
      ]),
    );
    const result = await applyPlan(makePlan(steps), client, {
      concurrency: 3,
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'step-start') most = Math.max(most, ++running);
        else if (e.type === 'step-done' || e.type === 'step-failed') running--;
      },
    });
    expect(most).toBe(6);
    expect(result.applied.length + result.failed.length + result.skipped.length).toBe(40);
    // Steps admitted or queued when the abort came do not start.
    expect(client.calls.length).toBeLessThan(60);
    expect(result.skipped.length).toBeGreaterThan(10);
    expect(result.skipped.every((o) => o.message === 'not run: the run stopped')).toBe(true);
  });
});
