/**
 * `--target`: the steps at the targeted addresses (or under them, or matching the globs) and,
 * transitively, every step they depend on. `plan --target` and `apply PLANFILE --target` select alike.
 */
import { parsePattern, patternMatches } from '../model/address.js';
import type { Step } from './types.js';

export function selectTargets(steps: Step[], targets: readonly string[]): Step[] {
  const patterns = targets.map(parsePattern);
  const byId = new Map(steps.map((s) => [s.id, s]));
  const keep = new Set<string>();
  const stack = steps.filter((s) => patterns.some((p) => patternMatches(p, s.org, s.address))).map((s) => s.id);
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (keep.has(id)) continue;
    keep.add(id);
    for (const dep of byId.get(id)?.dependsOn ?? []) stack.push(dep);
  }
  return steps.filter((s) => keep.has(s.id));
}

