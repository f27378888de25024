/**
 * What makes a plan unfit to apply, decided on the plan alone: problems (things it cannot do) and
 * broken safety rules. `apply` asks it of a fresh plan and of a saved one alike; `plan` refuses to
 * save a plan with problems.
 */
import { DocplaneError, SafetyError } from '../core/errors.js';
import type { Plan, PlanProblem } from './types.js';

/**
 * A problem as a config error reads: `file:line:column: ADDRESS.FIELD: message` when the planner
 * knows where the config says it, else `ADDRESS: message` (with `ORG/` when `withOrg`).
 */
export function problemText(problem: PlanProblem, withOrg: boolean): string {
  const what = `${withOrg ? `${problem.org}/` : ''}${problem.address}${problem.field ? `.${problem.field}` : ''}`;
  const at = problem.location ? `${problem.location.file}:${problem.location.line}:${problem.location.column}: ` : '';
  return `${at}${what}: ${problem.message}`;
}

/**
 * Refuses a plan that has problems (exit 1). `for` says who refuses: `apply` (nothing was applied)
 * or `plan` (no plan file was written).
 */
export function assertNoProblems(plan: Plan, options: { for: 'apply' | 'plan' }): void {
  if (plan.problems.length === 0) return;
  const n = plan.problems.length;
  const first = plan.problems[0];
  const counted = `the plan has ${n === 1 ? '1 problem' : `${n} problems`}`;
  const where = problemText(first, !first.location);
  if (options.for === 'plan') {
    throw new DocplaneError('PLAN_PROBLEMS', `${counted}; first: ${where}`, {
      hint: 'Fix the config (or the organization) and plan again; no plan file was written.',
    });
  }
  throw new DocplaneError('PLAN_PROBLEMS', `${counted}; nothing was applied (first: ${where})`, {
    hint: 'Fix the config (or the organization) so that the plan has no problems, then run apply again.',
  });
}

/**
 * Refuses a plan that must not be applied: one with problems (exit 1), or one that breaks a safety
 * rule other than `protect` — which only reports what it kept — unless `force` (exit 3).
 */
export function assertApplicable(plan: Plan, options: { force: boolean }): void {
  assertNoProblems(plan, { for: 'apply' });
  const broken = plan.violations.filter((v) => v.rule !== 'protect');
  if (broken.length === 0 || options.force) return;
  const what = broken.map((v) => `${v.rule}: ${v.message}`).join('; ');
  throw new SafetyError(`the plan breaks ${broken.length === 1 ? 'a safety rule' : `${broken.length} safety rules`}: ${what}`);
}
