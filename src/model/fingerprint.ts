/**
 * Fingerprints tie a saved plan to the remote state it was made from: `ORG/ADDRESS` → hash of the
 * normalized remote object read for the steps at that address (fingerprint(null) when the address is
 * absent remotely, so that a create already applied makes the plan stale).
 */
import { fingerprint, stableStringify } from '../core/json.js';

/**
 * Address → fingerprint from `[address, normalized remote object]` pairs. Two remote objects at one
 * address (an old occupant deleted, another renamed into its place) are hashed together, in a
 * stable order.
 */
export function fingerprintEntries(entries: ReadonlyArray<readonly [string, unknown]>): Record<string, string> {
  const grouped = new Map<string, unknown[]>();
  for (const [address, value] of entries) {
    const list = grouped.get(address) ?? [];
    list.push(value);
    grouped.set(address, list);
  }
  const out: Record<string, string> = {};
  for (const [address, values] of grouped) {
    const unique = [...new Map(values.map((v) => [stableStringify(v), v])).entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    out[address] = unique.length === 1 ? fingerprint(unique[0][1]) : fingerprint(unique.map(([, v]) => v));
  }
  return out;
}
