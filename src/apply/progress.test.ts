import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { applyPlan } from './executor.js';
import { apiError, FakeClient, makePlan, makeStep, ok } from './fake-client.test-support.js';
import { createProgressReporter } from './progress.js';

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

const ORG = 'org_p';

function planWithFailure() {
  const a = makeStep(ORG, 'teams["A"]', 'create', [
    { method: 'PUT', path: '/a', capture: true },
    { method: 'PATCH', path: '/a2', body: { k: 'hush-hush-value' } },
  ]);
  const b = makeStep(ORG, 'teams["B"]', 'update', [{ method: 'PATCH', path: '/b' }]);
  const c = makeStep(ORG, 'teams["C"]', 'update', [{ method: 'PATCH', path: '/c' }], [b.id]);
  return makePlan([a, b, c]);
}

const client = () =>
  new FakeClient((call) => {
    if (call.path === '/b') throw apiError(call, 400, 'rejected hush-hush-value');
    return ok({ id: 'x' });
  });

describe('progress reporter', () => {
  it('without a terminal: one plain line per finished step, secrets masked', async () => {
    const out = capture();
    const reporter = createProgressReporter({ stream: out.stream, interactive: false, color: false, secrets: [{ name: 'env:K', value: 'hush-hush-value' }] });
    await applyPlan(planWithFailure(), client(), { concurrency: 1, onEvent: (e) => reporter.onEvent(e) });
    reporter.done();
    const lines = out.text().trimEnd().split('\n');
    expect(lines).toEqual([
      '✗ update teams["B"]: PATCH /b → 400: rejected (sensitive)',
      '- skipped update teams["C"] (needs org_p/teams["B"]:update)',
      '✓ create teams["A"] (2 requests)',
    ]);
  });

  it('on a terminal: a spinner with the count and the current address, failures above it', async () => {
    const out = capture();
    Object.assign(out.stream, { isTTY: true, columns: 100, cursorTo: () => true, moveCursor: () => true, clearLine: () => true });
    const reporter = createProgressReporter({ stream: out.stream, interactive: true, color: false, secrets: [{ name: 'env:K', value: 'hush-hush-value' }], multiOrg: true });
    await applyPlan(planWithFailure(), client(), { concurrency: 1, onEvent: (e) => reporter.onEvent(e) });
    reporter.done();
    const text = out.text();
    expect(text).toContain('applying 0/3 · org_p/teams["B"]');
    expect(text).toMatch(/applying 3\/3/);
    expect(text).toContain('✗ update org_p/teams["B"]: PATCH /b → 400: rejected (sensitive)');
    expect(text).not.toContain('hush-hush-value');
    expect(text).not.toContain('✓ create');
  });

  it('on a terminal that reports no width: plain lines rather than a spinner that cannot redraw', async () => {
    const out = capture();
    Object.assign(out.stream, { isTTY: true, columns: 0, cursorTo: () => true, moveCursor: () => true, clearLine: () => true });
    const reporter = createProgressReporter({ stream: out.stream, interactive: true, color: false, secrets: [] });
    await applyPlan(planWithFailure(), client(), { concurrency: 1, onEvent: (e) => reporter.onEvent(e) });
    reporter.done();
    expect(out.text()).not.toContain('applying');
    expect(out.text()).toContain('✓ create teams["A"] (2 requests)');
  });
});
