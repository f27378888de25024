/**
 * Secret values: anything interpolated from `${env:…}` or `${file:…}`, integration `secrets` and
 * certificates. They are masked in every rendering, and replaced by `{{secret:NAME}}` placeholders in
 * plan files so that apply can fill them in again from the config.
 */

export interface Secret {
  /** Stable name: `env:NAME`, `file:relative/path`, or `value:<document path>` for literals. */
  name: string;
  value: string;
  /**
   * An id the API answered that is itself a credential (an invite link's id, concealed by the
   * client): masked wherever it stands as a whole word (in a request path, a query), whatever its
   * length. Other secrets shorter than six characters are masked only where a whole string equals them.
   */
  id?: boolean;
}

export const MASK = '(sensitive)';

/** Values shorter than this are only masked when a whole string equals them, never as substrings. */
const MIN_SUBSTRING = 6;

/**
 * The forms in which a secret may stand in a string: as it is; JSON-escaped (an address quotes its
 * key: `teams["line one\nline two"]`); percent-encoded (a request path holds an id as
 * `encodeURIComponent` writes it); with its line breaks as CRLF or LF. `json` and `url` forms are
 * replaced by a placeholder that restores the encoded form. `lines`: each line of a multi-line
 * secret on its own as well (masking only: a line cannot be restored).
 */
type Encoding = 'raw' | 'json' | 'url';

interface Form {
  text: string;
  encoding: Encoding;
}

function formsOf(value: string, lines: boolean): Form[] {
  const raw = new Set([value, value.replace(/\r\n/g, '\n'), value.replace(/\r?\n/g, '\r\n')]);
  const out: Form[] = [];
  for (const text of raw) {
    out.push({ text, encoding: 'raw' });
    const escaped = JSON.stringify(text).slice(1, -1);
    if (escaped !== text) out.push({ text: escaped, encoding: 'json' });
    const encoded = encodeURIComponent(text);
    if (encoded !== text) out.push({ text: encoded, encoding: 'url' });
  }
  if (lines && /[\r\n]/.test(value)) {
    for (const line of value.split(/\r?\n/)) if (line.trim().length >= MIN_SUBSTRING) out.push({ text: line, encoding: 'raw' });
  }
  return out;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A character that continues a word of an id: what stands on either side of a whole-word match must not be one. */
const WORD = 'A-Za-z0-9_\\-';

/** Every place `form` stands in `text` as a whole word (not inside a longer id), case-sensitively unless `fold`. */
function wholeWord(form: string, fold: boolean): RegExp {
  return new RegExp(`(?<![${WORD}])${escapeRegExp(form)}(?![${WORD}])`, fold ? 'gi' : 'g');
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

function replaceIn(value: string, secrets: readonly Replacer[], replacement: (s: Secret, encoding: Encoding) => string): string {
  let out = value;
  for (const { secret, forms } of secrets) {
    if (out === secret.value) return replacement(secret, 'raw');
    if (secret.value.length < MIN_SUBSTRING) {
      // A short id stands in a path between slashes: masked there, not inside a longer word.
      if (secret.id) for (const form of forms) if (out.includes(form.text)) out = out.replace(wholeWord(form.text, false), () => replacement(secret, form.encoding));
      continue;
    }
    for (const form of forms) {
      if (out.includes(form.text)) out = out.split(form.text).join(replacement(secret, form.encoding));
    }
  }
  return out;
}

/**
 * The further forms in which text from outside (an API's error message, which may quote what it was
 * sent) can hold a secret, beyond those `maskSecrets` knows: any of them in another letter case, and
 * the value base64- or base64url-encoded, with or without padding. Masking only: none is restored.
 */
function foreignForms(value: string): { folded: string[]; base64: string[] } {
  const folded = [...new Set(formsOf(value, true).map((f) => f.text))];
  const bytes = Buffer.from(value, 'utf8');
  const b64 = bytes.toString('base64');
  const b64url = bytes.toString('base64url');
  return { folded, base64: [...new Set([b64, b64.replace(/=+$/, ''), b64url])] };
}

/**
 * Text from outside with every secret masked in every form `maskSecrets` masks, and also in another
 * letter case and base64-encoded: what an API error or a log line shows of a request is masked
 * however the API quoted it. The forms are worked out once, for the many texts of a run.
 */
export function scrubber(secrets: readonly Secret[]): (text: string) => string {
  const kept = secrets.filter((s) => s.value !== '');
  if (kept.length === 0) return (text) => text;
  const sorted = replacers(kept, true);
  const wide = [...kept]
    .sort((a, b) => b.value.length - a.value.length)
    .map((secret) => {
      const { folded, base64 } = foreignForms(secret.value);
      const short = secret.value.length < MIN_SUBSTRING;
      return {
        // A short secret that is not an id: only a whole text equal to it in any of its forms.
        whole: short && !secret.id ? new Set([...folded.map((f) => f.toLowerCase()), ...base64]) : undefined,
        folded: short && !secret.id ? [] : folded.sort((a, b) => b.length - a.length).map((f) => ({ lower: f.toLowerCase(), re: short ? wholeWord(f, true) : new RegExp(escapeRegExp(f), 'gi') })),
        base64: short && !secret.id ? [] : base64.sort((a, b) => b.length - a.length),
      };
    });
  return (text) => {
    let out = replaceIn(text, sorted, () => MASK);
    for (const w of wide) {
      if (w.whole && (w.whole.has(out.toLowerCase()) || w.whole.has(out))) return MASK;
      // Most texts hold no secret: a search of the lower-cased text spares the expression.
      for (const { lower, re } of w.folded) if (out.toLowerCase().includes(lower)) out = out.replace(re, MASK);
      for (const form of w.base64) if (out.includes(form)) out = out.split(form).join(MASK);
    }
    return out;
  };
}

/** scrubber, for one text. */
export function scrubText(text: string, secrets: readonly Secret[]): string {
  return scrubber(secrets)(text);
}

/**
 * The secrets of one run: the config's, added when it is loaded, and the values the API answered that
 * are credentials, concealed by the client as they arrive. The run owns it; the HTTP client asks it
 * when it masks a log line or an error, and the renderings and the plan file take `list()`.
 */
export interface SecretRegistry {
  add(...secrets: readonly Secret[]): void;
  /** A value the API answered that is a credential: an id, masked whatever its length. */
  conceal(secret: Secret): void;
  /** Every secret, in the order added. */
  list(): Secret[];
  /** The secrets concealed so far, in the order they came. */
  concealed(): Secret[];
  /** Text from outside masked in every form (scrubText); `also`: secrets of the caller's own (the token). */
  scrub(text: string, also?: readonly Secret[]): string;
}

const NONE: readonly Secret[] = [];

export function createSecretRegistry(initial: readonly Secret[] = []): SecretRegistry {
  const all: Secret[] = [];
  const concealed: Secret[] = [];
  /** The scrubber of the secrets as they are now, with the `also` it was made for; dropped when one is added. */
  let cached: { also: readonly Secret[]; scrub: (text: string) => string } | undefined;
  const has = (s: Secret) => all.some((x) => x.name === s.name && x.value === s.value);
  const registry: SecretRegistry = {
    add(...secrets) {
      for (const s of secrets) {
        if (has(s)) continue;
        all.push(s);
        cached = undefined;
      }
    },
    conceal(secret) {
      const id = { ...secret, id: true };
      if (has(id)) return;
      all.push(id);
      concealed.push(id);
      cached = undefined;
    },
    list: () => [...all],
    concealed: () => [...concealed],
    scrub(text, also = NONE) {
      if (cached?.also !== also) cached = { also, scrub: scrubber([...also, ...all]) };
      return cached.scrub(text);
    },
  };
  registry.add(...initial);
  return registry;
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

/**
 * A deep copy of `value` with every secret value replaced by `{{secret:NAME}}` (`{{secret-json:NAME}}`
 * for its JSON-escaped form, `{{secret-url:NAME}}` for its percent-encoded one).
 */
export function toSecretPlaceholders<T>(value: T, secrets: readonly Secret[]): T {
  if (secrets.length === 0) return value;
  const sorted = replacers(secrets, false);
  return walk(value, (s) => replaceIn(s, sorted, (secret, encoding) => `{{secret${encoding === 'raw' ? '' : `-${encoding}`}:${secret.name}}}`)) as T;
}

const PLACEHOLDER = /\{\{secret(?:-(json|url))?:([^}]+)\}\}/g;

/** The inverse of toSecretPlaceholders; a placeholder with no secret of that name is an error. */
export function fromSecretPlaceholders<T>(value: T, secrets: readonly Secret[]): T {
  const byName = new Map(secrets.map((s) => [s.name, s.value]));
  return walk(value, (s) =>
    s.replace(PLACEHOLDER, (_m, encoding: 'json' | 'url' | undefined, name: string) => {
      const v = byName.get(name);
      if (v === undefined) throw new Error(`the plan needs the secret ${name}, which the config no longer provides`);
      return encoding === 'json' ? JSON.stringify(v).slice(1, -1) : encoding === 'url' ? encodeURIComponent(v) : v;
    }),
  ) as T;
}
