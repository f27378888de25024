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

/**
 * The forms in which a secret may stand in a string: as it is; JSON-escaped (an address quotes its
 * key: `teams["line one\nline two"]`); with its line breaks as CRLF or LF. `json` forms are
 * replaced by a placeholder that restores the escaped form. `lines`: each line of a multi-line
 * secret on its own as well (masking only: a line cannot be restored).
 */
interface Form {
  text: string;
  json: boolean;
}

function formsOf(value: string, lines: boolean): Form[] {
  const raw = new Set([value, value.replace(/\r\n/g, '\n'), value.replace(/\r?\n/g, '\r\n')]);
  const out: Form[] = [];
  for (const text of raw) {
    out.push({ text, json: false });
    const escaped = JSON.stringify(text).slice(1, -1);
    if (escaped !== text) out.push({ text: escaped, json: true });
  }
  if (lines && /[\r\n]/.test(value)) {
    for (const line of value.split(/\r?\n/)) if (line.trim().length >= MIN_SUBSTRING) out.push({ text: line, json: false });
  }
  return out;
}

interface Replacer {
  secret: Secret;
  forms: Form[];
}

function replacers(secrets: readonly Secret[], lines: boolean): Replacer[] {
  // Longest first, so that a secret containing another is replaced whole.
  return secrets
    .filter((s) => s.value !== '')
    .sort((a, b) => b.value.length - a.value.length)
    .map((secret) => ({ secret, forms: formsOf(secret.value, lines).sort((a, b) => b.text.length - a.text.length) }));
}

function replaceIn(value: string, secrets: readonly Replacer[], replacement: (s: Secret, json: boolean) => string): string {
  let out = value;
  for (const { secret, forms } of secrets) {
    if (out === secret.value) return replacement(secret, false);
    if (secret.value.length < MIN_SUBSTRING) continue;
    for (const form of forms) {
      if (out.includes(form.text)) out = out.split(form.text).join(replacement(secret, form.json));
    }
  }
  return out;
}

/** A copy with every string, keys included, passed through `fn` (a plan file's fingerprints are keyed by address). */
function walk(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, fn));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) Object.defineProperty(out, fn(k), { value: walk(v, fn), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

/** A deep copy of `value` with every secret value shown as `(sensitive)`, in every form it may take. */
export function maskSecrets<T>(value: T, secrets: readonly Secret[]): T {
  if (secrets.length === 0) return value;
  const sorted = replacers(secrets, true);
  return walk(value, (s) => replaceIn(s, sorted, () => MASK)) as T;
}

/** A deep copy of `value` with every secret value replaced by `{{secret:NAME}}` (`{{secret-json:NAME}}` for its JSON-escaped form). */
export function toSecretPlaceholders<T>(value: T, secrets: readonly Secret[]): T {
  if (secrets.length === 0) return value;
  const sorted = replacers(secrets, false);
  return walk(value, (s) => replaceIn(s, sorted, (secret, json) => `{{secret${json ? '-json' : ''}:${secret.name}}}`)) as T;
}

const PLACEHOLDER = /\{\{secret(-json)?:([^}]+)\}\}/g;

/** The inverse of toSecretPlaceholders; a placeholder with no secret of that name is an error. */
export function fromSecretPlaceholders<T>(value: T, secrets: readonly Secret[]): T {
  const byName = new Map(secrets.map((s) => [s.name, s.value]));
  return walk(value, (s) =>
    s.replace(PLACEHOLDER, (_m, json: string | undefined, name: string) => {
      const v = byName.get(name);
      if (v === undefined) throw new Error(`the plan needs the secret ${name}, which the config no longer provides`);
      return json ? JSON.stringify(v).slice(1, -1) : v;
    }),
  ) as T;
}
