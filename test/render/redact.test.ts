import { describe, expect, it } from 'vitest';
import { RICH_SECRETS, RICH_SENSITIVE_LITERALS, richPlan } from './fixtures/rich-plan.js';
import type { Plan, Step } from '../../src/plan/types.js';
import { renderPlan } from '../../src/render/index.js';
import { maskPlan, maskSensitiveFields, scriptSummary, sensitivityOfPath } from '../../src/render/redact.js';

/** Every form a secret value could take in an output: as is, JSON-escaped, and each of its lines. */
function forms(value: string): string[] {
  const out = [value, JSON.stringify(value).slice(1, -1)];
  for (const line of value.split('\n')) if (line.length >= 10 && !line.startsWith('-----')) out.push(line);
  return out;
}

describe('no secret appears in any rendering', () => {
  const formats = [
    { format: 'text', color: false },
    { format: 'text', color: true },
    { format: 'markdown', color: false },
    { format: 'json', color: false },
  ] as const;
  for (const f of formats) {
    it(`${f.format}${f.color ? ' (colour)' : ''}`, () => {
      const output = renderPlan(richPlan(), { ...f, secrets: RICH_SECRETS });
      for (const secret of RICH_SECRETS) for (const form of forms(secret.value)) expect(output).not.toContain(form);
      // Sensitive by field name alone: not in the secrets list, masked all the same.
      for (const literal of RICH_SENSITIVE_LITERALS) expect(output).not.toContain(literal);
      expect(output).toContain('(sensitive)');
    });
  }

  it('the fixture really holds the secrets (so the test above can fail)', () => {
    const raw = JSON.stringify(richPlan());
    for (const secret of RICH_SECRETS) expect(raw).toContain(JSON.stringify(secret.value).slice(1, -1));
    for (const literal of RICH_SENSITIVE_LITERALS) expect(raw).toContain(literal);
  });
});

describe('maskPlan', () => {
  it('does not mutate the plan it is given', () => {
    const plan = richPlan();
    const before = JSON.stringify(plan);
    maskPlan(plan, RICH_SECRETS);
    expect(JSON.stringify(plan)).toBe(before);
  });

  it('masks sensitive fields by name even with no secrets declared', () => {
    const step: Step = {
      id: 'o/saml["X"]:create',
      org: 'o',
      address: 'saml["X"]',
      kind: 'saml',
      action: 'create',
      before: null,
      after: { label: 'X', certificate: 'CERTDATA' },
      changes: [{ path: 'certificate', kind: 'add', after: 'CERTDATA' }],
      requests: [{ method: 'POST', path: '/v1/orgs/o/saml', body: { label: 'X', certificate: 'CERTDATA' } }],
      dependsOn: [],
    };
    const plan: Plan = { ...richPlan(), steps: [step] };
    const masked = maskPlan(plan, []);
    expect(JSON.stringify(masked)).not.toContain('CERTDATA');
    expect(masked.steps[0].after).toEqual({ label: 'X', certificate: '(sensitive)' });
    expect(masked.steps[0].requests[0].body).toEqual({ label: 'X', certificate: '(sensitive)' });
  });

  it('masks secret values by value wherever they stand (paths, notes, problems)', () => {
    const plan: Plan = {
      ...richPlan(),
      problems: [{ org: 'org_acme', address: 'teams["x"]', message: 'token sk-live-9f8e7d6c5b4a rejected' }],
    };
    const masked = maskPlan(plan, RICH_SECRETS);
    expect(masked.problems[0].message).toBe('token (sensitive) rejected');
  });
});

describe('maskSensitiveFields', () => {
  it('keeps the names of secrets, masks their values, summarises scripts, at any depth', () => {
    expect(
      maskSensitiveFields({
        a: { secrets: { API_KEY: 'x', OTHER: 'y' }, script: 'one\ntwo\n', certificate: null },
        list: [{ certificate: 'c' }],
        secrets: 'flat',
        script: 42,
      }),
    ).toEqual({
      a: { secrets: { API_KEY: '(sensitive)', OTHER: '(sensitive)' }, script: '(script, 2 lines)', certificate: null },
      list: [{ certificate: '(sensitive)' }],
      secrets: '(sensitive)',
      script: '(sensitive)',
    });
  });

  it('counts script lines', () => {
    expect(scriptSummary('')).toBe('(script, 0 lines)');
    expect(scriptSummary('x')).toBe('(script, 1 line)');
    expect(scriptSummary('a\r\nb\r\nc')).toBe('(script, 3 lines)');
  });
});

describe('sensitivityOfPath', () => {
  it.each([
    ['certificate', 'secret'],
    ['config.certificate', 'secret'],
    ['secrets', 'secrets'],
    ['secrets.API_KEY', 'secret'],
    ['secrets["API KEY"]', 'secret'],
    ['script', 'script'],
    ['title', null],
    ['members["script"]', null],
    ['members["certificate@acme.com"].role', null],
  ] as const)('%s → %s', (path, expected) => {
    expect(sensitivityOfPath(path)).toBe(expected);
  });
});
