import { describe, expect, it } from 'vitest';
import { RICH_SECRETS, RICH_SENSITIVE_LITERALS, richPlan } from './fixtures/rich-plan.js';
import type { Plan, Step } from '../../src/plan/types.js';
import { renderPlan } from '../../src/render/index.js';
import { maskPlan, maskSensitiveFields, scriptSummary, sensitivityOfPath } from '../../src/render/redact.js';
import { fromSecretPlaceholders } from '../../src/core/secrets.js';
import { serializePlan } from '../../src/plan/file.js';

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

  /** A plan whose team is named by a secret: the secret stands in addresses (JSON-escaped there), ids and fingerprint keys. */
  function keyedBy(secret: string): Plan {
    const address = `teams[${JSON.stringify(secret)}]`;
    const base = richPlan();
    const step: Step = { ...base.steps[0], id: `org_acme/${address}:create`, address, after: { title: secret }, changes: [{ path: 'title', kind: 'add', after: secret }] };
    return { ...base, steps: [step], fingerprints: { [`org_acme/${address}`]: 'fp1' }, notes: [`created ${secret}`] };
  }

  it('masks a secret in fingerprint keys and addresses, as is and JSON-escaped', () => {
    const secret = 'Team "Quoted" sk-9f8e7d';
    const masked = maskPlan(keyedBy(secret), [{ name: 'env:TEAM', value: secret }]);
    const text = JSON.stringify(masked);
    for (const form of forms(secret)) expect(text).not.toContain(form);
    expect(Object.keys(masked.fingerprints)).toEqual(['org_acme/teams["(sensitive)"]']);
    expect(masked.steps[0].address).toBe('teams["(sensitive)"]');
  });

  it('masks a multi-line secret whole, escaped, with CRLF line breaks, and line by line', () => {
    const secret = 'first line of it\nsecond line here';
    const plan = keyedBy(secret);
    const withForms: Plan = { ...plan, notes: [`as CRLF: ${secret.replace('\n', '\r\n')}`, 'a line alone: second line here'] };
    const secrets = [{ name: 'file:k.txt', value: secret }];
    const text = JSON.stringify(maskPlan(withForms, secrets));
    for (const form of [...forms(secret), 'first line of it', 'second line here']) expect(text).not.toContain(form);
    for (const format of ['text', 'json', 'markdown'] as const) {
      const out = renderPlan(withForms, { format, color: false, secrets });
      for (const form of [...forms(secret), 'second line here']) expect(out).not.toContain(form);
    }
  });

  it("writes a plan file with placeholders in keys and escaped forms, which apply reads back exactly", () => {
    const secret = 'line one of it\n"line two"';
    const plan = keyedBy(secret);
    const secrets = [{ name: 'env:TEAM', value: secret }];
    const file = serializePlan(plan, secrets);
    for (const form of forms(secret)) expect(file).not.toContain(form);
    expect(file).toContain('"org_acme/teams[\\"{{secret-json:env:TEAM}}\\"]": "fp1"');
    expect(fromSecretPlaceholders(JSON.parse(file), secrets)).toEqual(JSON.parse(JSON.stringify(plan)));
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
