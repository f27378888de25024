/** Whether a saved plan's remote objects have changed since it was made. */
import type { Plan } from './types.js';

/**
 * Addresses (`ORG/ADDRESS`) of a saved plan whose remote objects have changed since: the fresh plan
 * has another fingerprint for them, or no step there at all (the change was made meanwhile, by an
 * earlier apply of the same plan for instance). Sorted.
 */
export function staleAddresses(saved: Plan, fresh: Plan): string[] {
  const out: string[] = [];
  for (const [address, hash] of Object.entries(saved.fingerprints)) {
    if (fresh.fingerprints[address] !== hash) out.push(address);
  }
  return out.sort();
}
