/**
 * Runs a plan's steps against the API: a step starts as soon as the steps it depends on are done,
 * with at most `concurrency` requests in flight overall; a step's own requests go one after the
 * other. Ids of created resources flow into later requests through `{{ref:…}}` tokens.
 *
 * Creates are the delicate part: a create whose answer is lost may still have happened, so it is
 * never blindly resent; the resource is looked up by its natural key first (RequestSpec.lookup).
 */
import type { ApiClient, ApiResponse, Query } from '../api/types.js';
import { requestedWait } from '../api/retry.js';
import { ApiError, BugError, DocplaneError } from '../core/errors.js';
import type { Secret } from '../core/secrets.js';
import { stableStringify } from '../core/json.js';
import type { Action, JsonValue, Plan, RequestSpec, Step } from '../plan/types.js';
import { priorityLimit } from './priority-limit.js';
import { resolveSecrets, resolveString, resolveValue, type Captures } from './tokens.js';

export interface ApplyOptions {
  /** Requests in flight at most, over all steps. */
  concurrency: number;
  /** Values for the `{{secret:NAME}}` placeholders of a plan file. */
  secrets?: Secret[];
  onEvent?: (event: ApplyEvent) => void;
  /**
   * Aborting stops the run: no new request is sent; requests in flight are left to finish, so that
   * what they did is known and reported (a cancelled create would leave its outcome unclear).
   */
  signal?: AbortSignal;
  /** Base of the backoff between attempts of a create, in milliseconds (default 250). */
  backoffBaseMs?: number;
  /** Longest single wait (backoff, or what a 429 asks for), in milliseconds (default 60000). */
  maxWaitMs?: number;
  /** Source of jitter, for reproducible tests (default Math.random). */
  random?: () => number;
}

/** What happened to one step. */
export interface StepOutcome {
  /** The step id, `ORG/ADDRESS:ACTION`. */
  step: string;
  org: string;
  address: string;
  kind: Step['kind'];
  action: Action;
  /** Requests sent for this step (lookups and repeated attempts included). */
  requests: number;
  /** Failed: what went wrong (method, path, status and the API's message). Skipped: why. */
  message?: string;
  /** Skipped: the failed step that caused it (absent when the run stopped). */
  cause?: string;
}

export interface ApplyResult {
  applied: StepOutcome[];
  failed: StepOutcome[];
  skipped: StepOutcome[];
  /** Why the run stopped early (401/403, or interrupted); absent when every step got its chance. */
  stopped?: string;
  durationMs: number;
}

export type ApplyEvent =
  | { type: 'step-start'; step: Step; started: number; total: number }
  | { type: 'step-done'; step: Step; outcome: StepOutcome; finished: number; total: number }
  | { type: 'step-failed'; step: Step; outcome: StepOutcome; error: unknown; finished: number; total: number }
  | { type: 'step-skipped'; step: Step; outcome: StepOutcome; finished: number; total: number }
  | { type: 'retry'; step: Step; method: string; path: string; attempt: number; reason: string; waitMs: number }
  | { type: 'lookup-found'; step: Step; method: string; path: string; id?: string }
  /** A resent idempotent POST refused after a lost first attempt: the first did it. */
  | { type: 'taken-as-done'; step: Step; method: string; path: string; message: string };

/** Attempts of a create or an idempotent POST in all, the first included. */
const MAX_GUARDED_ATTEMPTS = 4;
/** Answers to a resent idempotent POST that mean "nothing left to do" after a lost first attempt. */
const REFUSED_AS_DONE: ReadonlySet<number> = new Set([400, 409, 422]);
/**
 * The actions whose resend the API refuses once the first attempt went through (a space move that
 * "would not result in any update", a restore of what is no longer deleted). A publish or a sort
 * sent again is accepted, so a refusal of theirs is a real error.
 */
const MAY_BE_REFUSED_AS_DONE: ReadonlySet<Action> = new Set(['move', 'restore']);
/** 429 answers to one request that are waited out before giving up. */
const MAX_RATE_LIMIT_WAITS = 20;

/**
 * Actions whose POSTs may be resent after an unclear outcome: sending them twice leaves the same
 * state as once (a move or restore to the same place, a sort to the same position, a publish of the
 * same content — its version number goes up, nothing else). Any other POST without a lookup (a
 * translation run, an append of a section to a group) is sent once.
 */
const IDEMPOTENT_ACTIONS: ReadonlySet<Action> = new Set(['move', 'restore', 'sort', 'publish']);

/** Thrown inside a step when the run has stopped before one of its requests could be sent. */
class StoppedError extends Error {
  constructor(reason: string) {
    super(reason);
  }
}

type State = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

interface Run {
  readonly client: ApiClient;
  readonly options: ApplyOptions;
  /** Through the concurrency limit, the longest remaining chain first (see criticalPaths). */
  readonly limit: <T>(step: Step, fn: () => Promise<T>) => Promise<T>;
  readonly captures: { known: Set<string>; values: Map<string, unknown> };
  readonly sent: Map<string, number>;
  stopped?: string;
}

export async function applyPlan(plan: Plan, client: ApiClient, options: ApplyOptions): Promise<ApplyResult> {
  const began = performance.now();
  const steps = plan.steps;
  const total = steps.length;
  const order = new Map(steps.map((s, i) => [s.id, i]));
  const state = new Map<string, State>(steps.map((s) => [s.id, 'pending']));
  const outcomes = new Map<string, StepOutcome>();
  const limiter = priorityLimit(options.concurrency);
  const priority = criticalPaths(steps);
  const run: Run = {
    client,
    options,
    limit: (step, fn) => limiter(fn, priority.get(step.id) ?? 0),
    captures: {
      known: new Set(steps.filter((s) => s.requests.some((r) => r.capture)).map((s) => `${s.org}/${s.address}`)),
      values: new Map(),
    },
    sent: new Map(),
  };
  const emit = (event: ApplyEvent) => options.onEvent?.(event);
  let started = 0;
  let finished = 0;

  const outcomeOf = (step: Step, extra: Partial<StepOutcome> = {}): StepOutcome => ({
    step: step.id,
    org: step.org,
    address: step.address,
    kind: step.kind,
    action: step.action,
    requests: run.sent.get(step.id) ?? 0,
    ...extra,
  });

  // The plan is checked before anything is sent: an unknown dependency is a broken plan.
  for (const step of steps) {
    const unknown = step.dependsOn.filter((d) => !order.has(d));
    if (unknown.length > 0) {
      const error = new BugError(`step ${step.id} depends on ${unknown.join(', ')}, which the plan does not hold`);
      const outcome = outcomeOf(step, { message: error.message });
      state.set(step.id, 'failed');
      outcomes.set(step.id, outcome);
      finished += 1;
      emit({ type: 'step-failed', step, outcome, error, finished, total });
    }
  }

  const onAbort = () => {
    run.stopped ??= 'interrupted: the apply was cancelled';
  };
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  // Who waits on whom, so that a settled step looks at its own dependents only: the run costs
  // O(steps + dependencies), not a pass over every step each time one settles.
  const dependents = new Map<string, Step[]>();
  const waiting = new Map<string, number>();
  for (const step of steps) {
    const deps = [...new Set(step.dependsOn)].filter((d) => order.has(d));
    waiting.set(step.id, deps.length);
    for (const d of deps) {
      const list = dependents.get(d);
      if (list) list.push(step);
      else dependents.set(d, [step]);
    }
  }
  const byPlanOrder = (a: Step, b: Step) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0);

  return new Promise<ApplyResult>((resolve) => {
    let running = 0;

    const finish = () => {
      options.signal?.removeEventListener('abort', onAbort);
      const byOrder = (a: StepOutcome, b: StepOutcome) => (order.get(a.step) ?? 0) - (order.get(b.step) ?? 0);
      const pick = (s: State) => steps.filter((st) => state.get(st.id) === s).map((st) => outcomes.get(st.id)!).sort(byOrder);
      resolve({
        applied: pick('done'),
        failed: pick('failed'),
        skipped: pick('skipped'),
        ...(run.stopped ? { stopped: run.stopped } : {}),
        durationMs: Math.round(performance.now() - began),
      });
    };

    /** Skips every pending step that needs `root` (failed or skipped), transitively, in plan order. */
    const propagate = (root: Step) => {
      const reached = new Set<Step>();
      const stack = [root];
      while (stack.length > 0) {
        for (const d of dependents.get((stack.pop() as Step).id) ?? []) {
          if (state.get(d.id) !== 'pending' || reached.has(d)) continue;
          reached.add(d);
          stack.push(d);
        }
      }
      // Plan order puts a step's dependencies first: each blocker below is already failed or skipped.
      for (const step of [...reached].sort(byPlanOrder)) {
        const blocker = step.dependsOn.find((d) => state.get(d) === 'failed' || state.get(d) === 'skipped');
        if (blocker === undefined) continue;
        const cause = state.get(blocker) === 'failed' ? blocker : (outcomes.get(blocker)?.cause ?? blocker);
        const outcome = outcomeOf(step, { cause, message: `not run: it needs ${cause}, which failed` });
        state.set(step.id, 'skipped');
        outcomes.set(step.id, outcome);
        finished += 1;
        emit({ type: 'step-skipped', step, outcome, finished, total });
      }
    };

    const skipPending = () => {
      for (const step of steps) {
        if (state.get(step.id) !== 'pending') continue;
        const outcome = outcomeOf(step, { message: 'not run: the run stopped' });
        state.set(step.id, 'skipped');
        outcomes.set(step.id, outcome);
        finished += 1;
        emit({ type: 'step-skipped', step, outcome, finished, total });
      }
    };

    /** Starts the given steps that are ready, in plan order, so that runs of the same plan start alike. */
    const start = (candidates: Step[]) => {
      if (run.stopped) {
        skipPending();
        return;
      }
      for (const step of candidates.sort(byPlanOrder)) {
        if (state.get(step.id) !== 'pending' || waiting.get(step.id) !== 0) continue;
        state.set(step.id, 'running');
        running += 1;
        started += 1;
        emit({ type: 'step-start', step, started, total });
        void runStep(run, step).then(
          () => settle(step, undefined),
          (err: unknown) => settle(step, err),
        );
      }
    };

    const finishIfIdle = () => {
      if (running > 0) return;
      // Nothing in flight and nothing startable: whatever is still pending waits on a cycle.
      for (const step of steps) {
        if (state.get(step.id) !== 'pending') continue;
        const outcome = outcomeOf(step, { message: new BugError(`step ${step.id} waits on a dependency cycle`).message });
        state.set(step.id, 'failed');
        outcomes.set(step.id, outcome);
        finished += 1;
        emit({ type: 'step-failed', step, outcome, error: undefined, finished, total });
      }
      finish();
    };

    const settle = (step: Step, err: unknown) => {
      running -= 1;
      finished += 1;
      if (err === undefined) {
        const outcome = outcomeOf(step);
        state.set(step.id, 'done');
        outcomes.set(step.id, outcome);
        emit({ type: 'step-done', step, outcome, finished, total });
      } else if (err instanceof StoppedError && (run.sent.get(step.id) ?? 0) === 0) {
        // Stopped before its first request: nothing of it happened.
        const outcome = outcomeOf(step, { message: 'not run: the run stopped' });
        state.set(step.id, 'skipped');
        outcomes.set(step.id, outcome);
        emit({ type: 'step-skipped', step, outcome, finished, total });
      } else {
        const message =
          err instanceof StoppedError
            ? `interrupted after ${run.sent.get(step.id)} of its ${step.requests.length} requests: the run stopped`
            : errorMessage(err);
        const outcome = outcomeOf(step, { message });
        state.set(step.id, 'failed');
        outcomes.set(step.id, outcome);
        emit({ type: 'step-failed', step, outcome, error: err, finished, total });
      }
      if (state.get(step.id) === 'done') {
        const ready: Step[] = [];
        for (const d of dependents.get(step.id) ?? []) {
          const left = (waiting.get(d.id) as number) - 1;
          waiting.set(d.id, left);
          if (left === 0) ready.push(d);
        }
        start(ready);
      } else {
        propagate(step);
        if (run.stopped) skipPending();
      }
      finishIfIdle();
    };

    // Steps failed before the start (unknown dependencies) take their dependents with them.
    for (const step of steps) if (state.get(step.id) === 'failed') propagate(step);
    start(steps.filter((s) => waiting.get(s.id) === 0));
    finishIfIdle();
  });
}

/**
 * Each step's remaining critical path: its own requests plus the longest chain of requests among
 * the steps that wait on it, transitively. The limiter sends requests of the longest chains first.
 */
function criticalPaths(steps: readonly Step[]): Map<string, number> {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const dependents = new Map<string, string[]>();
  for (const s of steps) {
    for (const d of s.dependsOn) {
      const list = dependents.get(d);
      if (list) list.push(s.id);
      else dependents.set(d, [s.id]);
    }
  }
  const memo = new Map<string, number>();
  const visiting = new Set<string>();
  const chain = (id: string): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    // A cycle (reported when the run reaches it) must not loop here.
    if (visiting.has(id)) return 0;
    visiting.add(id);
    const after = (dependents.get(id) ?? []).reduce((m, d) => Math.max(m, chain(d)), 0);
    visiting.delete(id);
    const total = (byId.get(id)?.requests.length ?? 0) + after;
    memo.set(id, total);
    return total;
  };
  // From the last step back: its dependents come later in plan order, so the recursion stays shallow.
  for (let i = steps.length - 1; i >= 0; i--) chain(steps[i].id);
  return memo;
}

function errorMessage(err: unknown): string {
  if (err instanceof DocplaneError) return err.message;
  if (err instanceof Error) return `unexpected failure: ${err.message}`;
  return `unexpected failure: ${String(err)}`;
}

/** The step's requests, in order. */
async function runStep(run: Run, step: Step): Promise<void> {
  const self = `${step.org}/${step.address}`;
  for (const raw of step.requests) {
    const spec = resolveSecrets(raw, run.options.secrets ?? []);
    const response = isCreating(spec)
      ? await sendGuarded(run, step, spec, 'create')
      : spec.method === 'POST'
        ? IDEMPOTENT_ACTIONS.has(step.action)
          ? await sendGuarded(run, step, spec, 'idempotent')
          : await send(run, step, spec, { retry: false })
        : await send(run, step, spec, { retry: true });
    if (spec.capture) run.captures.values.set(self, captured(response));
  }
}

/**
 * A create is a request that says how to find what it made (`lookup`): it is never sent blindly
 * twice. Other POSTs are resent (carefully) only when their action is idempotent
 * (IDEMPOTENT_ACTIONS); GET, PUT, PATCH and DELETE are retried by the client.
 */
function isCreating(spec: RequestSpec): boolean {
  return spec.lookup !== undefined;
}

/**
 * The created resource as the API described it; when the answer has no body (204, or a minimal
 * representation), the id is the last segment of the `Location` header.
 */
function captured(response: ApiResponse): unknown {
  const body = response.body;
  const object = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  if (object && object.id !== undefined && object.id !== null && object.id !== '') return object;
  const location = response.headers['location'];
  if (location) {
    const segments = new URL(location, 'http://location.invalid').pathname.split('/').filter(Boolean);
    const last = segments[segments.length - 1];
    if (last) return { ...(object ?? {}), id: decodeURIComponent(last) };
  }
  return object ?? body;
}

interface Resolved {
  method: RequestSpec['method'];
  path: string;
  query?: Query;
  body?: JsonValue;
}

function resolveRequest(run: Run, spec: RequestSpec): Resolved {
  const captures: Captures = run.captures;
  const path = resolveString(spec.path, captures, true) as string;
  const query = spec.query
    ? Object.fromEntries(
        Object.entries(spec.query).map(([k, v]) => {
          const value = typeof v === 'string' ? resolveString(v, captures) : v;
          return [k, typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean)];
        }),
      )
    : undefined;
  return { method: spec.method, path, ...(query ? { query } : {}), ...(spec.body !== undefined ? { body: resolveValue(spec.body, captures) } : {}) };
}

/** One request through the concurrency limit; refused once the run has stopped. */
async function send(run: Run, step: Step, spec: RequestSpec, opts: { retry: boolean }): Promise<ApiResponse> {
  const req = resolveRequest(run, spec);
  return run.limit(step, async () => {
    if (run.stopped) throw new StoppedError(run.stopped);
    run.sent.set(step.id, (run.sent.get(step.id) ?? 0) + 1);
    return stopOnDenial(
      run,
      run.client.request(req.method, req.path, {
        ...(req.query ? { query: req.query } : {}),
        ...(req.body !== undefined ? { body: req.body } : {}),
        retry: opts.retry,
      }),
    );
  });
}

/**
 * A 401 or 403 stops the run before the limiter hands its slot to the next queued request: the
 * token will not do better on the next one, and a half-applied run should stop where it is.
 */
async function stopOnDenial<T>(run: Run, pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) run.stopped ??= `stopped: ${err.message}`;
    throw err;
  }
}

/** No clear answer: the request may or may not have been acted upon. */
function isUnclear(err: unknown): err is ApiError {
  return err instanceof ApiError && (err.status === 0 || err.status === 408 || err.status >= 500);
}

/**
 * A request that must not be resent blindly, so sent without the client's retries:
 * - a create (`lookup`): after an unclear outcome the resource is looked up by its natural key;
 *   found → that is the answer (nothing is created twice), not found → sent again;
 * - an idempotent POST (IDEMPOTENT_ACTIONS): sent again after an unclear outcome; when the resend
 *   of a move or restore is refused as a bad request (the API refuses a move that "would not result
 *   in any update"), the lost first attempt is what made it pointless: the step is done (and the
 *   re-plan after the apply checks it).
 * At most MAX_GUARDED_ATTEMPTS in all. A 429 means the API did not act: wait as asked and resend.
 */
async function sendGuarded(run: Run, step: Step, spec: RequestSpec, mode: 'create' | 'idempotent'): Promise<ApiResponse> {
  let attempt = 0;
  let rateLimited = 0;
  let unclearBefore = false;
  for (;;) {
    attempt += 1;
    try {
      return await send(run, step, spec, { retry: false });
    } catch (err) {
      if (err instanceof ApiError && err.status === 429 && rateLimited < MAX_RATE_LIMIT_WAITS) {
        rateLimited += 1;
        attempt -= 1; // The API refused before acting: this was no attempt.
        const waitMs = rateLimitWait(err, run, rateLimited);
        emitRetry(run, step, spec, attempt + 1, 'rate limited (429)', waitMs);
        await sleep(waitMs, run.options.signal);
        continue;
      }
      if (mode === 'idempotent' && unclearBefore && MAY_BE_REFUSED_AS_DONE.has(step.action) && err instanceof ApiError && REFUSED_AS_DONE.has(err.status)) {
        run.options.onEvent?.({ type: 'taken-as-done', step, method: spec.method, path: safePath(run, spec.path), message: err.message });
        return { status: err.status, headers: {}, body: undefined };
      }
      if (!isUnclear(err)) throw err;
      unclearBefore = true;
      if (mode === 'create') {
        const found = await lookup(run, step, spec);
        if (found) return found;
      }
      if (attempt >= MAX_GUARDED_ATTEMPTS) throw err;
      const waitMs = backoff(run, attempt);
      const what = err.status === 0 ? 'no answer' : String(err.status);
      emitRetry(run, step, spec, attempt + 1, mode === 'create' ? `${what}, and not found by lookup` : what, waitMs);
      await sleep(waitMs, run.options.signal);
    }
  }
}

function emitRetry(run: Run, step: Step, spec: RequestSpec, attempt: number, reason: string, waitMs: number): void {
  run.options.onEvent?.({ type: 'retry', step, method: spec.method, path: safePath(run, spec.path), attempt, reason, waitMs });
}

function safePath(run: Run, path: string): string {
  try {
    return resolveString(path, run.captures, true) as string;
  } catch {
    return path;
  }
}

/** The item of `lookup.path` matching every field of `lookup.match`, as if the create had answered it. */
async function lookup(run: Run, step: Step, spec: RequestSpec): Promise<ApiResponse | undefined> {
  const { path: rawPath, match } = spec.lookup!;
  const path = resolveString(rawPath, run.captures, true) as string;
  const wanted = Object.entries(resolveValue(match, run.captures) as Record<string, JsonValue>);
  const items = await run.limit(step, async () => {
    if (run.stopped) throw new StoppedError(run.stopped);
    run.sent.set(step.id, (run.sent.get(step.id) ?? 0) + 1);
    return stopOnDenial(run, run.client.listAll(path));
  });
  const item = items.find((it) => wanted.every(([field, value]) => sameValue(fieldAt(it, field), value)));
  if (item === undefined) return undefined;
  const id = item && typeof item === 'object' ? (item as Record<string, unknown>).id : undefined;
  run.options.onEvent?.({ type: 'lookup-found', step, method: spec.method, path: safePath(run, spec.path), ...(typeof id === 'string' ? { id } : {}) });
  return { status: 200, headers: {}, body: item };
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

/** Exponential backoff with full jitter. */
function backoff(run: Run, attempt: number): number {
  const base = run.options.backoffBaseMs ?? 250;
  const random = run.options.random ?? Math.random;
  return Math.min(Math.round(random() * base * 2 ** attempt), run.options.maxWaitMs ?? 60_000);
}

/**
 * How long a 429 asks to wait (`Retry-After`, else `X-RateLimit-Reset`, read as the client reads
 * them). The client attaches the answer's headers to its ApiError when it has them (`headers`, or on
 * `cause`); without them, a short growing wait — the client itself also holds later requests for
 * as long as the API asked.
 */
function rateLimitWait(err: ApiError, run: Run, nth: number): number {
  const max = run.options.maxWaitMs ?? 60_000;
  const headers = headersOf(err);
  const asked = headers ? requestedWait(429, headers, Date.now()) : undefined;
  if (asked !== undefined) return Math.min(Math.max(Math.ceil(asked), 0), max);
  return Math.min(250 * nth, max);
}

function headersOf(err: ApiError): Record<string, string> | undefined {
  const direct = (err as unknown as { headers?: unknown }).headers;
  const viaCause = (err.cause as { headers?: unknown } | undefined)?.headers;
  const h = direct ?? viaCause;
  if (!h || typeof h !== 'object') return undefined;
  return Object.fromEntries(Object.entries(h as Record<string, unknown>).map(([k, v]) => [k.toLowerCase(), String(v)]));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
