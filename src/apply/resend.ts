/**
 * When a request of a step may be sent again, and how. A create whose answer is lost may still have
 * happened, so it is never blindly resent: the resource is looked up by its natural key first
 * (RequestSpec.lookup). A POST whose action is idempotent is resent after an unclear outcome. Any
 * other request is either retried by the client (GET, PUT, PATCH, DELETE) or sent once.
 */
import type { Clock } from '../api/clock.js';
import { retryPolicy, sendWrite } from '../api/policy.js';
import type { ApiResponse } from '../api/types.js';
import { ApiError } from '../core/errors.js';
import type { Secret } from '../core/secrets.js';
import { stableStringify } from '../core/json.js';
import type { Action, JsonValue, RequestSpec, Step } from '../plan/types.js';
import { resolveString, resolveValue, type Captures } from './tokens.js';
import type { ApplyEvent } from './types.js';

/** Answers to a resent idempotent POST that mean "nothing left to do" after a lost first attempt. */
const REFUSED_AS_DONE: ReadonlySet<number> = new Set([400, 409, 422]);
/**
 * The actions whose resend the API refuses once the first attempt went through (a space move that
 * "would not result in any update", a restore of what is no longer deleted). A publish or a sort
 * sent again is accepted, so a refusal of theirs is a real error.
 */
const MAY_BE_REFUSED_AS_DONE: ReadonlySet<Action> = new Set(['move', 'restore']);

/**
 * Actions whose POSTs may be resent after an unclear outcome: sending them twice leaves the same
 * state as once (a move or restore to the same place, a sort to the same position, a publish of the
 * same content — its version number goes up, nothing else). Any other POST without a lookup (a
 * run of a job, an append of a section to a group) is sent once.
 */
const IDEMPOTENT_ACTIONS: ReadonlySet<Action> = new Set(['move', 'restore', 'sort', 'publish']);

/**
 * How a request is sent:
 * - create: it says how to find what it made (`lookup`), so it is never sent blindly twice;
 * - idempotent: a POST of an IDEMPOTENT_ACTIONS step, resent with care after an unclear outcome;
 * - verified: a request marked `once` that says how to check its outcome (`verify`): after an
 *   unclear outcome the list it names shows whether it went through;
 * - once: any other POST, and a request marked `once` (a batch that inserts);
 * - retried: GET, PUT, PATCH and DELETE, retried by the client.
 */
export type SendMode = 'create' | 'idempotent' | 'verified' | 'once' | 'retried';

export function sendModeOf(step: Step, spec: RequestSpec): SendMode {
  if (spec.lookup !== undefined) return 'create';
  if (spec.once === true) return spec.verify !== undefined ? 'verified' : 'once';
  if (spec.method !== 'POST') return 'retried';
  return IDEMPOTENT_ACTIONS.has(step.action) ? 'idempotent' : 'once';
}

/** What a guarded send needs from the run. */
export interface GuardedIo {
  /** Sends the request once, without the client's retries, through the concurrency limit. */
  send(): Promise<ApiResponse>;
  /** Every item of a list path, through the concurrency limit (the lookup of a create). */
  listAll(path: string): Promise<unknown[]>;
  /** One GET's body (the lookup of a create whose items sit in a tree). */
  get?(path: string): Promise<unknown>;
  /** What the create steps have produced so far, to resolve the lookup's tokens. */
  captures: Captures;
  /** Makes a value a lookup found a secret of the run (ApiClient.conceal). */
  conceal?(secret: Secret): void;
  /** The request's path for messages, with the tokens resolved where they can be. */
  shownPath(): string;
  emit?: (event: ApplyEvent) => void;
  /** Cuts a wait short (the run stopped): the next send then refuses. */
  signal?: AbortSignal;
}

/** The numbers of the retry policy (src/api/policy.ts) apply may change: ApplyOptions' names for them. */
export interface ResendPolicy {
  /** Attempts in all, the first included (the policy's maxAttempts). */
  maxGuardedAttempts?: number;
  backoffBaseMs?: number;
  maxWaitMs?: number;
  random?: () => number;
  /** What the waits are measured in (default the system's clock). */
  clock?: Clock;
}

/**
 * A request that must not be resent blindly, so sent without the client's retries:
 * - a create (`lookup`): after an unclear outcome the resource is looked up by its natural key;
 *   found → that is the answer (nothing is created twice), not found → sent again;
 * - an idempotent POST (IDEMPOTENT_ACTIONS): sent again after an unclear outcome; when the resend
 *   of a move or restore is refused as a bad request (the API refuses a move that "would not result
 *   in any update"), the lost first attempt is what made it pointless: the step is done (and the
 *   re-plan after the apply checks it);
 * - a verified request (`verify`): after an unclear outcome its list is read; showing the request's
 *   outcome, the step is done; showing the state before it, it is sent again; anything else fails.
 * At most `maxGuardedAttempts` (default MAX_GUARDED_ATTEMPTS) in all. A 429 means the API did not act: wait as asked and resend.
 */
export async function sendGuarded(io: GuardedIo, step: Step, spec: RequestSpec, mode: 'create' | 'idempotent' | 'verified', options: ResendPolicy = {}): Promise<ApiResponse> {
  const policy = retryPolicy({ maxAttempts: options.maxGuardedAttempts, backoffBaseMs: options.backoffBaseMs, maxWaitMs: options.maxWaitMs, random: options.random });
  return sendWrite(io.send, policy, {
    clock: options.clock,
    signal: io.signal,
    onRetry(attempt, waitMs, err, rateLimited) {
      const what = err.status === 0 ? 'no answer' : String(err.status);
      const reason = rateLimited ? 'rate limited (429)' : mode === 'create' ? `${what}, and not found by lookup` : mode === 'verified' ? `${what}, and not acted on` : what;
      io.emit?.({ type: 'retry', step, method: spec.method, path: io.shownPath(), attempt, reason, waitMs });
    },
    refused(err, unclearBefore) {
      if (mode !== 'idempotent' || !unclearBefore || !MAY_BE_REFUSED_AS_DONE.has(step.action) || !REFUSED_AS_DONE.has(err.status)) return undefined;
      io.emit?.({ type: 'taken-as-done', step, method: spec.method, path: io.shownPath(), message: err.message });
      return { status: err.status, headers: {}, body: undefined };
    },
    async unclear(err) {
      if (mode === 'create') {
        const found = await lookup(io, step, spec);
        return found ? { done: found } : 'again';
      }
      if (mode === 'verified') {
        const outcome = await verify(io, spec);
        if (outcome === 'other') return 'fail';
        if (outcome === 'done') {
          io.emit?.({ type: 'taken-as-done', step, method: spec.method, path: io.shownPath(), message: `${err.message}; the list shows it went through` });
          return { done: { status: 200, headers: {}, body: undefined } };
        }
      }
      return 'again';
    },
  });
}

/** The item of `lookup.path` matching every field of `lookup.match`, as if the create had answered it. */
async function lookup(io: GuardedIo, step: Step, spec: RequestSpec): Promise<ApiResponse | undefined> {
  const { path: rawPath, match } = spec.lookup!;
  const path = resolveString(rawPath, io.captures, true) as string;
  const wanted = Object.entries(resolveValue(match, io.captures) as Record<string, JsonValue>);
  const { reads = 'pages', refs = [], secrets = [] } = spec.lookup!;
  const items = reads === 'tree' && io.get ? treeItems(await io.get(path)) : reads === 'one' && io.get ? listItems(await io.get(path)) : await io.listAll(path);
  const at = (it: unknown, n: number, field: string): unknown => (refs.includes(field) ? refId(path, n, field, fieldAt(it, field)) : fieldAt(it, field));
  const item = items.find((it, n) => wanted.every(([field, value]) => sameValue(at(it, n, field), value)));
  if (item === undefined) return undefined;
  for (const field of secrets) {
    const value = fieldAt(item, field);
    if (typeof value === 'string') io.conceal?.({ name: `lookup:${step.org}/${step.address}#${field}`, value });
  }
  const id = item && typeof item === 'object' && !secrets.includes('id') ? (item as Record<string, unknown>).id : undefined;
  io.emit?.({ type: 'lookup-found', step, method: spec.method, path: io.shownPath(), ...(typeof id === 'string' ? { id } : {}) });
  return { status: 200, headers: {}, body: item };
}

/** Whether a verified request went through ('done'), did not ('before'), or left another state. */
async function verify(io: GuardedIo, spec: RequestSpec): Promise<'done' | 'before' | 'other'> {
  const { path, fields, before, after } = spec.verify!;
  const items = await io.listAll(resolveString(path, io.captures, true) as string);
  const seen = sortedShapes(items.map((item) => Object.fromEntries(fields.map((f) => [f, fieldAt(item, f) ?? null]))));
  if (seen === sortedShapes(after)) return 'done';
  return seen === sortedShapes(before) ? 'before' : 'other';
}

/** A list of values as one string, in no particular order (each value's keys sorted). */
function sortedShapes(values: readonly unknown[]): string {
  return JSON.stringify(values.map((v) => stableStringify(v)).sort());
}

/** The items of a list answered in one piece (no `limit`, no `page`). */
function listItems(body: unknown): unknown[] {
  const items = body && typeof body === 'object' ? (body as Record<string, unknown>).items : undefined;
  return Array.isArray(items) ? items : [];
}

/** Every object of a tree answer (`structure`, and each item's `children`), depth-first. */
function treeItems(body: unknown): unknown[] {
  const out: unknown[] = [];
  const walk = (items: unknown): void => {
    if (!Array.isArray(items)) return;
    for (const item of items) {
      out.push(item);
      if (item && typeof item === 'object') walk((item as Record<string, unknown>).children);
    }
  };
  walk(body && typeof body === 'object' ? (body as Record<string, unknown>).structure : undefined);
  return out;
}

/** The id a reference field holds: the id itself, or the object's `id`; anything else is the API's mismatch. */
function refId(path: string, n: number, field: string, value: unknown): JsonValue | undefined {
  if (value === undefined || value === null || typeof value === 'string') return value;
  if (typeof value === 'object' && typeof (value as Record<string, unknown>).id === 'string') return (value as Record<string, string>).id;
  const what = `items[${n}].${field}: expected an id or an object with an id, got ${Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object without an id' : `a ${typeof value}`}`;
  const shown = path.split('?')[0];
  throw new ApiError('GET', shown, 200, `unexpected body: ${what}`, {
    code: 'API_BAD_RESPONSE',
    line: `GET ${shown} answered 200 with an unexpected body: ${what}`,
    hint: 'The answer lacks what docplane relies on; check that --api-url points at the platform API, and report the answer if it does.',
  });
}

function fieldAt(value: unknown, dotted: string): unknown {
  let current = value;
  for (const part of dotted.split('.')) {
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Equal as JSON; an absent field matches `null` (the API leaves out `parent` at the top level). */
function sameValue(a: unknown, b: unknown): boolean {
  if ((a ?? null) === (b ?? null)) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  return stableStringify(a) === stableStringify(b);
}
