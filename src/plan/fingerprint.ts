/** Whether a saved plan's remote objects have changed since it was made. */
import type { Kind, Plan, Step } from './types.js';

/**
 * Addresses (`ORG/ADDRESS`) of a saved plan whose remote objects have changed since: the fresh plan
 * has another fingerprint for them, or no step there at all (the change was made meanwhile, by an
 * earlier apply of the same plan for instance); and the addresses of its creates that the fresh plan
 * no longer creates (the key was taken meanwhile, or the resource made). Sorted.
 */
export function staleAddresses(saved: Plan, fresh: Plan): string[] {
  const out = new Set<string>();
  for (const [address, hash] of Object.entries(saved.fingerprints)) {
    if (fresh.fingerprints[address] !== hash) out.add(address);
  }
  const freshIds = new Set((fresh.steps ?? []).map((s) => s.id));
  for (const s of saved.steps ?? []) {
    if (s.action === 'create' && !freshIds.has(s.id)) out.add(`${s.org}/${s.address}`);
  }
  return [...out].sort();
}

/**
 * What a check of known steps reads for (a saved plan's, or the one after an apply): the addresses
 * (`ORG/ADDRESS`) and kinds of its steps. A fresh plan targeted at them reads only those kinds of
 * their units and entries (src/plan/narrow.ts).
 */
export function checkTargets(steps: readonly Pick<Step, 'org' | 'address' | 'kind'>[]): { targets: string[]; checkKinds: Kind[] } {
  return { targets: [...new Set(steps.map((s) => `${s.org}/${s.address}`))], checkKinds: [...new Set(steps.map((s) => s.kind))] };
}
