/** What a check of known steps reads for (the steps' addresses and kinds). */
import type { Kind, Step } from './types.js';

/**
 * What a check of known steps reads for (a saved plan's, or the one after an apply): the addresses
 * (`ORG/ADDRESS`) and kinds of its steps. A fresh plan targeted at them reads only those kinds of
 * their units and entries (src/plan/narrow.ts).
 */
export function checkTargets(steps: readonly Pick<Step, 'org' | 'address' | 'kind'>[]): { targets: string[]; checkKinds: Kind[] } {
  return { targets: [...new Set(steps.map((s) => `${s.org}/${s.address}`))], checkKinds: [...new Set(steps.map((s) => s.kind))] };
}
