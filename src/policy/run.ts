/**
 * Running policies: resource policies over each entry of their config key (as loadConfig has it,
 * after interpolation and the schema), steps policies over each step of a plan. A rule never sees a
 * secret: values from `${env:…}`/`${file:…}`, certificates and integration secrets read as
 * "(sensitive)", and a saved plan's `{{secret:NAME}}` placeholders too.
 */
import type { CelInput } from '@bufbuild/cel';
import { maskSecrets, MASK, type Secret } from '../core/secrets.js';
import type { Plan, PlanProblem, Step } from '../plan/types.js';
import { child, Problems, type Item, type Origin } from '../source/origin.js';
import type { RawIssue } from '../source/yaml.js';
import { policyLocation, type CompiledPolicy, type PolicySet } from './compile.js';

/**
 * A JSON-like value as CEL input: mappings as maps (so that `size`, `in` and the macros work on
 * them), whole numbers as CEL ints (so that `size(self.members) <= 2` and `self.n + 1` type as the
 * rule's author expects), other numbers as doubles; undefined fields are left out.
 */
export function toCel(value: unknown): CelInput {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  if (typeof value === 'object') {
    const map = new Map<string, CelInput>();
    for (const [k, v] of Object.entries(value)) if (v !== undefined) map.set(k, toCel(v));
    return map;
  }
  return null;
}

/**
 * What one evaluation of a rule may cost, and what every evaluation of one policy run (validate's
 * resource policies, a plan's steps policies) may cost together, in @bufbuild/cel iterations as
 * src/policy/compile.ts meters them: a second or so of evaluation each at most (docs/policies.md).
 */
export const RULE_COST_LIMIT = 200_000;
export const RUN_COST_LIMIT = 2_000_000;

/** What a policy run has spent so far. */
export interface CostBudget {
  used: number;
}

/** A policy that cost too much: the policy's own fault, said at its rule. */
export class PolicyCostError extends Error {
  constructor(
    readonly policy: CompiledPolicy,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Why `value` breaks the policy, or undefined when it complies; throws PolicyCostError when the
 * evaluation passes RULE_COST_LIMIT or the run's budget passes RUN_COST_LIMIT.
 */
export function verdict(policy: CompiledPolicy, value: unknown, budget: CostBudget = { used: 0 }): string | undefined {
  const left = RUN_COST_LIMIT - budget.used;
  const evaluation = policy.evaluate(toCel(value), Math.min(RULE_COST_LIMIT, left));
  budget.used += evaluation.cost;
  if (evaluation.overrun) {
    const message =
      left <= RULE_COST_LIMIT
        ? `policy ${JSON.stringify(policy.name)}: the policies together cost more than ${RUN_COST_LIMIT.toLocaleString('en')} (CEL iterations) in one run; this rule's evaluation passed it: write fewer or cheaper rules`
        : `policy ${JSON.stringify(policy.name)}: the rule costs more than ${RULE_COST_LIMIT.toLocaleString('en')} (CEL iterations) for one entry: nested macros over lists multiply; write a cheaper rule`;
    throw new PolicyCostError(policy, message);
  }
  const result = evaluation.result;
  if (result === true) return undefined;
  const said = policy.message ?? `the rule is false: ${policy.rule}`;
  if (result === false) return `policy ${JSON.stringify(policy.name)}: ${said}`;
  // A CelError is an Error: the evaluator reports what went wrong as a value, never by throwing.
  const why = result instanceof Error ? `the rule could not be evaluated (${result.message})` : `the rule gave ${String(result)}, not a bool`;
  return `policy ${JSON.stringify(policy.name)}: ${said} — ${why}`;
}

/** Every string under a value shown as (sensitive), keeping its shape (a map of secrets keeps its keys). */
function maskAll(value: unknown): unknown {
  if (typeof value === 'string') return MASK;
  if (Array.isArray(value)) return value.map(maskAll);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskAll(v)]));
  return value;
}

/** An entry as rules see it: secret values and the fields a kind declares secret masked. */
function masked(value: unknown, secrets: readonly Secret[], secretFields: readonly string[]): unknown {
  const out = maskSecrets(value, secrets);
  if (secretFields.length === 0 || out === null || typeof out !== 'object' || Array.isArray(out)) return out;
  const copy: Record<string, unknown> = { ...(out as Record<string, unknown>) };
  for (const field of secretFields) if (field in copy) copy[field] = maskAll(copy[field]);
  return copy;
}

/** One organization of a merged config, as resource policies read it. */
export interface PolicyOrg {
  organization: Record<string, unknown>;
  origin: Origin;
  lists: ReadonlyMap<string, readonly Item<unknown>[]>;
}

/**
 * Runs the resource policies over every organization's entries: an error-severity violation is a
 * problem at the entry (in `problems`); the warnings are returned, at their entries too.
 */
export function checkResources(
  set: PolicySet,
  orgs: readonly PolicyOrg[],
  options: { secrets: readonly Secret[]; secretFields: (configKey: string) => readonly string[] },
  problems: Problems,
): RawIssue[] {
  const warnings = new Problems();
  const resources = set.policies.filter((p) => p.resource !== 'steps');
  if (resources.length === 0) return [];
  const budget: CostBudget = { used: 0 };
  try {
    for (const org of orgs) {
      for (const policy of resources) {
        const entries: readonly Item<unknown>[] =
          policy.resource === 'organization' ? [{ value: org.organization, origin: org.origin }] : (org.lists.get(policy.resource) ?? []);
        const fields = options.secretFields(policy.resource);
        for (const entry of entries) {
          const broken = verdict(policy, masked(entry.value, options.secrets, fields), budget);
          if (broken !== undefined) (policy.severity === 'error' ? problems : warnings).at(entry.origin, broken);
        }
      }
    }
  } catch (e) {
    if (!(e instanceof PolicyCostError)) throw e;
    problems.at(child(e.policy.origin, 'rule'), e.message);
  }
  return warnings.issues;
}

const PLACEHOLDER = /\{\{secret:[^}]+\}\}/g;

/** A step as rules see it: `org`, `kind`, `action`, `address`, `before`, `after`, `changes`, secrets masked. */
function stepView(step: Step, secrets: readonly Secret[]): unknown {
  const view = { org: step.org, kind: step.kind, action: step.action, address: step.address, before: step.before, after: step.after, changes: step.changes };
  return JSON.parse(JSON.stringify(maskSecrets(view, secrets)).replace(PLACEHOLDER, MASK));
}

/**
 * The plan with the steps policies run over its steps: a violation of an error policy is a plan
 * problem naming the step and the policy (so the plan cannot be saved or applied); a warning is a
 * note of the plan.
 */
export function checkSteps(plan: Plan, set: PolicySet | undefined, secrets: readonly Secret[]): Plan {
  const policies = (set?.policies ?? []).filter((p) => p.resource === 'steps');
  if (policies.length === 0) return plan;
  const problems: PlanProblem[] = [];
  const notes: string[] = [];
  const several = plan.orgs.length > 1;
  const budget: CostBudget = { used: 0 };
  try {
    for (const step of plan.steps) {
      const view = stepView(step, secrets);
      for (const policy of policies) {
        const broken = verdict(policy, view, budget);
        if (broken === undefined) continue;
        if (policy.severity === 'error') problems.push({ org: step.org, address: step.address, message: `${step.action}: ${broken}`, location: policyLocation(policy) });
        else notes.push(`warning: ${several ? `${step.org}/` : ''}${step.address} (${step.action}): ${broken}`);
      }
    }
  } catch (e) {
    if (!(e instanceof PolicyCostError)) throw e;
    problems.push({ org: plan.orgs[0] ?? '', address: 'policies', message: e.message, location: policyLocation(e.policy) });
  }
  if (problems.length === 0 && notes.length === 0) return plan;
  return {
    ...plan,
    problems: [...plan.problems, ...problems],
    ...(notes.length > 0 ? { notes: [...(plan.notes ?? []), ...notes] } : {}),
  };
}
