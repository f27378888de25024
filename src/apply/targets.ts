/**
 * `apply PLANFILE --target ADDR`: the part of a saved plan that the targets select, as `plan
 * --target` selects it (src/plan/address.ts): the steps at the targeted addresses and, transitively,
 * every step they depend on. Only those steps' remote objects are checked for staleness, so a
 * change elsewhere does not refuse them.
 */
import { parsePattern, patternMatches } from '../plan/address.js';
import type { Plan, PlanSummary } from '../plan/types.js';

export function narrowToTargets(plan: Plan, targets: readonly string[]): Plan {
  if (targets.length === 0) return plan;
  const patterns = targets.map(parsePattern);
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const keep = new Set<string>();
  const stack = plan.steps.filter((s) => patterns.some((p) => patternMatches(p, s.org, s.address))).map((s) => s.id);
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (keep.has(id)) continue;
    keep.add(id);
    for (const dep of byId.get(id)?.dependsOn ?? []) stack.push(dep);
  }
  // Plan order is kept: a step still comes after what it depends on.
  const steps = plan.steps.filter((s) => keep.has(s.id));
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
