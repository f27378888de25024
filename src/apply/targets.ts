/**
 * `apply PLANFILE --target ADDR`: the part of a saved plan that the targets select, as `plan
 * --target` selects it (src/plan/targets.ts): the steps at the targeted addresses and, transitively,
 * every step they depend on. Only those steps' remote objects are checked for staleness, so a
 * change elsewhere does not refuse them.
 */
import { selectTargets } from '../plan/targets.js';
import type { Plan, PlanSummary } from '../plan/types.js';

export function narrowToTargets(plan: Plan, targets: readonly string[]): Plan {
  if (targets.length === 0) return plan;
  // Plan order is kept: a step still comes after what it depends on.
  const steps = selectTargets(plan.steps, targets);
  const keep = new Set(steps.map((s) => s.id));
  const addresses = new Set(steps.map((s) => `${s.org}/${s.address}`));
  const summary: PlanSummary = { create: 0, update: 0, delete: 0, other: 0, unmanaged: plan.summary.unmanaged };
  for (const s of steps) {
    if (s.action === 'create' || s.action === 'update' || s.action === 'delete') summary[s.action] += 1;
    else summary.other += 1;
  }
  return {
    ...plan,
    steps,
    fingerprints: Object.fromEntries(Object.entries(plan.fingerprints).filter(([address]) => addresses.has(address))),
    // A broken rule still refuses when it concerns a step that is kept.
    violations: plan.violations.filter((v) => v.steps.some((id) => keep.has(id))),
    summary,
  };
}
