/**
 * Masks the secrets of logged bodies: each kind declares its secret fields (kind.ts), and the log
 * masks the union of them wherever they appear in a body.
 */
import { MASK } from '../core/secrets.js';
import type { SecretField } from './kind.js';

export function secretMasker(fields: readonly SecretField[]): (value: unknown) => unknown {
  const holds = new Map(fields.map((f) => [f.field, f.holds]));
  const mask = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(mask);
    if (!value || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const secret = holds.get(k);
      if (secret === 'map' && v && typeof v === 'object') out[k] = Object.fromEntries(Object.keys(v).map((name) => [name, MASK]));
      else if (secret === 'value' && typeof v === 'string') out[k] = MASK;
      else out[k] = mask(v);
    }
    return out;
  };
  return mask;
}
