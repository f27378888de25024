/**
 * Resolution of the tokens a plan's requests carry (src/plan/types.ts, RequestSpec):
 * `{{ref:ORG/ADDRESS}}`, `{{ref:ORG/ADDRESS#a.b.0.c}}` and `{{ref:ORG/ADDRESS#users.0|id}}` (the first
 * of these fields the answer has: an invite answers `users`, its lookup a member with `id`). Secret
 * placeholders are never filled in: apply runs steps planned in memory, which hold the config's values
 * where the config places them.
 */
import { DocplaneError } from '../core/errors.js';
import type { JsonValue, RequestSpec } from '../plan/types.js';

const REF_OPEN = '{{ref:';
const CLOSE = '}}';
const FIELD = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*(\|[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*)*$/;

/** A token that cannot be resolved: a plan that asks for something no step produced. */
export class UnresolvedRefError extends DocplaneError {
  constructor(message: string) {
    super('APPLY_UNRESOLVED_REF', message, {
      hint: 'This is a bug in docplane (the plan refers to something no step produced); run again with --verbose and report it.',
    });
    this.name = 'UnresolvedRefError';
  }
}

/**
 * A step whose reference the API's answer left without a value: an invitation the API keeps pending
 * names no user yet. The step is not sent; the next apply, which reads the member, completes it.
 */
export class PendingRefError extends DocplaneError {
  constructor(
    message: string,
    /** `ORG/ADDRESS` of the step whose answer left it pending (the invite). */
    readonly target: string,
  ) {
    super('APPLY_PENDING_REF', message, { hint: 'Apply again once the invitation is accepted: the next plan finds the member and completes this step.' });
    this.name = 'PendingRefError';
  }
}

/**
 * What the create steps have produced so far, by `ORG/ADDRESS`, and which addresses will produce
 * something (so that a token is parsed against real addresses even when a title holds `}}` or `#`).
 */
export interface Captures {
  /** `ORG/ADDRESS` of every step that has a capturing request. */
  readonly known: ReadonlySet<string>;
  /** Captured responses so far. */
  readonly values: ReadonlyMap<string, unknown>;
}

interface ParsedRef {
  target: string;
  field?: string;
  /** Index just past the closing `}}`. */
  end: number;
}

/**
 * Parses the ref token starting at `start` (at `{{ref:`). Addresses are JSON-quoted and may contain
 * `}}` or `#` themselves, so the candidate ends are tried in order and the first one naming a known
 * address wins; otherwise the first `}}` ends the token (and resolution will say it is unknown).
 */
function parseRef(text: string, start: number, known: ReadonlySet<string>): ParsedRef | undefined {
  const bodyStart = start + REF_OPEN.length;
  let first: ParsedRef | undefined;
  for (let end = text.indexOf(CLOSE, bodyStart); end !== -1; end = text.indexOf(CLOSE, end + 1)) {
    const inner = text.slice(bodyStart, end);
    const hash = inner.lastIndexOf('#');
    const candidates: ParsedRef[] = [];
    if (hash !== -1 && FIELD.test(inner.slice(hash + 1))) {
      candidates.push({ target: inner.slice(0, hash), field: inner.slice(hash + 1), end: end + CLOSE.length });
    }
    candidates.push({ target: inner, end: end + CLOSE.length });
    for (const c of candidates) if (known.has(c.target)) return c;
    first ??= candidates[0];
  }
  return first;
}

/** The value at a dotted path; with alternatives (`a.0|id`), the first one present. */
function fieldOf(value: unknown, path: string): unknown {
  if (path.includes('|')) {
    for (const one of path.split('|')) {
      const found = fieldOf(value, one);
      if (found !== undefined && found !== null && found !== '') return found;
    }
    return undefined;
  }
  let current = value;
  for (const part of path.split('.')) {
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function lookupRef(ref: ParsedRef, captures: Captures): unknown {
  const token = `{{ref:${ref.target}${ref.field ? `#${ref.field}` : ''}}}`;
  if (!captures.known.has(ref.target)) {
    throw new UnresolvedRefError(`cannot resolve ${token}: no step of the plan creates ${ref.target}`);
  }
  if (!captures.values.has(ref.target)) {
    throw new UnresolvedRefError(`cannot resolve ${token}: the step creating ${ref.target} has not produced it`);
  }
  const value = fieldOf(captures.values.get(ref.target), ref.field ?? 'id');
  if (value === undefined || value === null || value === '') {
    // A field among alternatives is one the API may leave out (an invitation kept pending).
    if (ref.field?.includes('|')) throw new PendingRefError(`not sent: the API's answer for ${ref.target} has no ${ref.field.split('|').join(' nor ')} yet (an invitation left pending); the next apply completes this step`, ref.target);
    throw new UnresolvedRefError(`cannot resolve ${token}: the API's answer for ${ref.target} has no ${ref.field ?? 'id'}`);
  }
  return value;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * Replaces every ref token of a string. A string that is exactly one token takes the captured value
 * as it is (a number stays a number); `encode` applies to values placed into a URL path.
 */
export function resolveString(text: string, captures: Captures, encode = false): unknown {
  if (!text.includes(REF_OPEN)) return text;
  let out = '';
  let pos = 0;
  for (const { start, ref } of refsIn(text, captures.known)) {
    const value = lookupRef(ref, captures);
    if (start === 0 && ref.end === text.length && !encode) return value;
    const piece = asText(value);
    out += text.slice(pos, start) + (encode ? encodeURIComponent(piece) : piece);
    pos = ref.end;
  }
  return out + text.slice(pos);
}

/** The ref tokens of a string, in order, each with where it starts. */
function* refsIn(text: string, known: ReadonlySet<string>): Generator<{ start: number; ref: ParsedRef }> {
  for (let start = text.indexOf(REF_OPEN); start !== -1; ) {
    const ref = parseRef(text, start, known);
    if (!ref) return; // `{{ref:` with no closing braces is no token: the text is left as it is.
    yield { start, ref };
    start = text.indexOf(REF_OPEN, ref.end);
  }
}

/**
 * What each capturing step's answer is referred to for: per `ORG/ADDRESS`, the fields its tokens
 * name (`id` for a token without one), over every string of every request of the plan. An answer is
 * kept only for these, not whole: at scale the answers of thousands of creates are megabytes.
 */
export function referencedFields(steps: readonly { requests: readonly RequestSpec[] }[], known: ReadonlySet<string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const scan = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const { ref } of refsIn(value, known)) {
        const fields = out.get(ref.target) ?? new Set<string>();
        fields.add(ref.field ?? 'id');
        out.set(ref.target, fields);
      }
    } else if (Array.isArray(value)) {
      for (const v of value) scan(v);
    } else if (value && typeof value === 'object') {
      for (const v of Object.values(value)) scan(v);
    }
  };
  for (const step of steps) scan(step.requests);
  return out;
}

/** Of a captured answer, only the dotted fields given (an answer that is no object is kept as it is). */
export function keepFields(value: unknown, fields: ReadonlySet<string> | undefined): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const path of [...(fields ?? [])].flatMap((f) => f.split('|'))) {
    const found = fieldOf(value, path);
    if (found === undefined) continue;
    const parts = path.split('.');
    let at = out;
    for (const part of parts.slice(0, -1)) {
      const next = at[part];
      at = (next && typeof next === 'object' ? next : (at[part] = {})) as Record<string, unknown>;
    }
    at[parts[parts.length - 1]] = found;
  }
  return out;
}

/** A deep copy of a JSON value with every ref token resolved, in keys too (a team's `memberships` are keyed by user id). */
export function resolveValue(value: JsonValue | undefined, captures: Captures): JsonValue | undefined {
  if (typeof value === 'string') return resolveString(value, captures) as JsonValue;
  if (Array.isArray(value)) return value.map((v) => resolveValue(v, captures) as JsonValue);
  if (value && typeof value === 'object') {
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value)) out[asText(resolveString(k, captures))] = resolveValue(v, captures) as JsonValue;
    return out;
  }
  return value;
}
