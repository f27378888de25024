/**
 * Secret values: anything interpolated from `${env:…}` or `${file:…}`, integration `secrets` and
 * certificates. They are masked in every rendering, and replaced by `{{secret:NAME}}` placeholders in
 * plan files so that apply can fill them in again from the config.
 */

export interface Secret {
  /** Stable name: `env:NAME`, `file:relative/path`, or `value:<document path>` for literals. */
  name: string;
  value: string;
}

export const MASK = '(sensitive)';

/** Values shorter than this are only masked when a whole string equals them, never as substrings. */
const MIN_SUBSTRING = 6;

function replaceIn(value: string, secrets: readonly Secret[], replacement: (s: Secret) => string): string {
  let out = value;
  for (const secret of secrets) {
    if (!secret.value) continue;
    if (out === secret.value) return replacement(secret);
    if (secret.value.length >= MIN_SUBSTRING && out.includes(secret.value)) {
      out = out.split(secret.value).join(replacement(secret));
    }
  }
  return out;
}

function walk(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, fn));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, fn);
    return out;
  }
  return value;
}

/** A deep copy of `value` with every secret value shown as `(sensitive)`. */
export function maskSecrets<T>(value: T, secrets: readonly Secret[]): T {
  if (secrets.length === 0) return value;
  // Longest first, so that a secret containing another is replaced whole.
  const sorted = [...secrets].sort((a, b) => b.value.length - a.value.length);
  return walk(value, (s) => replaceIn(s, sorted, () => MASK)) as T;
}

/** A deep copy of `value` with every secret value replaced by `{{secret:NAME}}`. */
export function toSecretPlaceholders<T>(value: T, secrets: readonly Secret[]): T {
  if (secrets.length === 0) return value;
  const sorted = [...secrets].sort((a, b) => b.value.length - a.value.length);
  return walk(value, (s) => replaceIn(s, sorted, (secret) => `{{secret:${secret.name}}}`)) as T;
}

const PLACEHOLDER = /\{\{secret:([^}]+)\}\}/g;

/** The inverse of toSecretPlaceholders; a placeholder with no secret of that name is an error. */
export function fromSecretPlaceholders<T>(value: T, secrets: readonly Secret[]): T {
  const byName = new Map(secrets.map((s) => [s.name, s.value]));
  return walk(value, (s) =>
    s.replace(PLACEHOLDER, (_m, name: string) => {
      const v = byName.get(name);
      if (v === undefined) throw new Error(`the plan needs the secret ${name}, which the config no longer provides`);
      return v;
    }),
  ) as T;
}
