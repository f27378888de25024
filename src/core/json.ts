/** Deterministic JSON and hashing, for plan files, fingerprints and config hashes. */
import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level; undefined members are left out. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Hash of a normalized remote object: the same object always gives the same fingerprint. */
export function fingerprint(value: unknown): string {
  return sha256(stableStringify(value));
}
