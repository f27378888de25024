import { describe, expect, it } from 'vitest';
import { makePlan, makeStep } from '../apply/fake-client.test-support.js';
import { DocplaneError, ExitCode, SafetyError } from '../core/errors.js';
import { assertApplicable, assertNoProblems } from './refusal.js';
import type { Plan } from './types.js';

const del = makeStep('org_a', 'teams["Old"]', 'delete', [{ method: 'DELETE', path: '/v1/orgs/org_a/teams/t1' }]);
const clean = makePlan([del]);
const withProblems: Plan = {
  ...clean,
  problems: [
    { org: 'org_a', address: 'members["zed@a.com"]', message: 'zed@a.com is not a member' },
    { org: 'org_a', address: 'sites["nope"]', message: 'no such site' },
  ],
};
const unsafe: Plan = {
  ...clean,
  violations: [
    { rule: 'maxDeletes', message: '1 delete, more than 0', steps: [del.id] },
    { rule: 'protect', message: 'kept teams["Keep"]', steps: [] },
  ],
};

function thrown(fn: () => void): DocplaneError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DocplaneError) return err;
    throw err;
  }
  throw new Error('nothing was thrown');
}

describe('assertApplicable', () => {
  it('lets a plan without problems or broken rules through, and one whose only violation is `protect`', () => {
    expect(() => assertApplicable(clean, { force: false })).not.toThrow();
    expect(() => assertApplicable({ ...clean, violations: [unsafe.violations[1]] }, { force: false })).not.toThrow();
  });

  it('refuses a plan with problems with exit 1, even with force, naming the first', () => {
    for (const force of [false, true]) {
      const err = thrown(() => assertApplicable(withProblems, { force }));
      expect(err.code).toBe('PLAN_PROBLEMS');
      expect(err.exitCode).toBe(ExitCode.failure);
      expect(err.message).toBe('the plan has 2 problems; nothing was applied (first: org_a/members["zed@a.com"]: zed@a.com is not a member)');
    }
  });

  it('refuses a broken safety rule with exit 3 unless force', () => {
    const err = thrown(() => assertApplicable(unsafe, { force: false }));
    expect(err).toBeInstanceOf(SafetyError);
    expect(err.exitCode).toBe(ExitCode.refused);
    expect(err.message).toBe('the plan breaks a safety rule: maxDeletes: 1 delete, more than 0');
    expect(() => assertApplicable(unsafe, { force: true })).not.toThrow();
  });
});

describe('assertNoProblems for plan', () => {
  it('says no plan file was written', () => {
    const err = thrown(() => assertNoProblems(withProblems, { for: 'plan' }));
    expect(err.message).toBe('the plan has 2 problems; first: org_a/members["zed@a.com"]: zed@a.com is not a member');
    expect(err.hint).toContain('no plan file was written');
    expect(() => assertNoProblems(unsafe, { for: 'plan' })).not.toThrow();
  });
});
