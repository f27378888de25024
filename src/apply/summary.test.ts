import { describe, expect, it } from 'vitest';
import type { ApplyResult, StepOutcome } from './types.js';
import { convergenceLine, renderApplySummary } from './summary.js';

const outcome = (address: string, extra: Partial<StepOutcome> = {}): StepOutcome => ({
  step: `org_a/${address}:create`,
  org: 'org_a',
  address,
  kind: 'teams',
  action: 'create',
  requests: 1,
  ...extra,
});

const result: ApplyResult = {
  applied: [outcome('teams["A"]', { requests: 2 })],
  failed: [outcome('teams["B"]', { message: 'PUT /v1/orgs/org_a/teams → 400: title: bad s3cr3t-value' })],
  skipped: [outcome('teams["B"].members', { action: 'update', cause: 'org_a/teams["B"]:create', message: 'not run: it needs org_a/teams["B"]:create, which failed' })],
  durationMs: 12,
};
const secrets = [{ name: 'env:X', value: 's3cr3t-value' }];

describe('renderApplySummary', () => {
  it('text: counts, failures with their messages, skipped with their cause, convergence', () => {
    const text = renderApplySummary(result, { format: 'text', secrets, color: false, convergence: { converged: false, remaining: 1, addresses: ['org_a/teams["B"]'] } });
    expect(text).toBe(
      [
        'Apply: 1 applied, 1 failed, 1 skipped.',
        'Failed:',
        '  ✗ create teams["B"]: PUT /v1/orgs/org_a/teams → 400: title: bad (sensitive)',
        'Skipped:',
        '  - update teams["B"].members (needs org_a/teams["B"]:create, which failed)',
        'not converged: 1 change left',
        '  ~ org_a/teams["B"]',
        '',
      ].join('\n'),
    );
    expect(text).not.toContain(String.fromCharCode(27));
  });

  it('text: a stopped run and a converged one', () => {
    const stopped: ApplyResult = {
      applied: [],
      failed: [],
      skipped: [],
      stopped: { reason: 'interrupted', message: 'the apply was cancelled' },
      durationMs: 1,
    };
    expect(renderApplySummary(stopped, { format: 'text', secrets: [], color: false })).toBe('Apply: 0 applied, 0 failed, 0 skipped.\nRun interrupted: the apply was cancelled\n');
    const good: ApplyResult = { applied: [outcome('teams["A"]')], failed: [], skipped: [], durationMs: 1 };
    expect(renderApplySummary(good, { format: 'text', secrets: [], color: true, multiOrg: true, convergence: { converged: true, remaining: 0, addresses: [] } })).toContain('converged: no changes left');
  });

  it('a refused token: the API’s answer is left to the error line; the summary says the status once per step', () => {
    const message = 'PATCH /v1/orgs/o → 403: read-only token';
    const denied: ApplyResult = {
      applied: [],
      failed: [outcome('teams["A"]', { message, status: 403 }), outcome('teams["B"]', { message: 'PUT /v1/orgs/o/teams → 403: read-only token', status: 403 })],
      skipped: [outcome('teams["C"]', { message: 'not run: the run stopped' })],
      stopped: { reason: 'forbidden', message, method: 'PATCH', path: '/v1/orgs/o' },
      durationMs: 1,
    };
    const text = renderApplySummary(denied, { format: 'text', secrets: [], color: false });
    expect(text).toBe(
      [
        'Apply: 0 applied, 2 failed, 1 skipped.',
        'Failed:',
        '  ✗ create teams["A"]: denied (403)',
        '  ✗ create teams["B"]: denied (403)',
        'Skipped:',
        '  - create teams["C"] (the run stopped)',
        'Run stopped: the token may not make changes (403)',
        '',
      ].join('\n'),
    );
    expect(text).not.toContain('read-only token');
    const unauthorized = renderApplySummary({ ...denied, stopped: { reason: 'unauthorized', message, method: 'PATCH', path: '/v1/orgs/o' } }, { format: 'text', secrets: [], color: false });
    expect(unauthorized).toContain('Run stopped: the API did not accept the token (401)');
    // Programs get the whole answer, as before.
    const json = JSON.parse(renderApplySummary(denied, { format: 'json', secrets: [], color: false }));
    expect(json.stopped).toBe(`stopped: ${message}`);
    expect(json.failed[0].message).toBe(message);
  });

  it('json: a stable document with every outcome, masked', () => {
    const json = JSON.parse(renderApplySummary(result, { format: 'json', secrets, color: true }));
    expect(json).toMatchObject({
      formatVersion: 1,
      summary: { applied: 1, failed: 1, skipped: 1 },
      stopped: null,
      convergence: null,
      durationMs: 12,
    });
    expect(json.failed[0].message).toBe('PUT /v1/orgs/org_a/teams → 400: title: bad (sensitive)');
    expect(json.skipped[0].cause).toBe('org_a/teams["B"]:create');
    expect(JSON.stringify(json)).not.toContain('s3cr3t-value');
  });
});

describe('convergenceLine', () => {
  it('is "converged" only when nothing is left, nothing failed and no twin was found', () => {
    expect(convergenceLine({ converged: true, remaining: 0, addresses: [] })).toBe('converged: no changes left');
    expect(convergenceLine({ converged: false, remaining: 0, addresses: [], failed: 2 })).toBe('not converged: 0 changes left, 2 steps failed');
    expect(convergenceLine({ converged: false, remaining: 1, addresses: ['o/teams["A"]'], duplicates: ['o/teams["A#t2"]'] })).toBe(
      'not converged: 1 change left, 1 duplicate (another resource with the key of one this apply manages: two applies at once?)',
    );
  });
});
