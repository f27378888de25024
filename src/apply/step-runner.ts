/**
 * Sends one step's requests, one after the other: the `{{ref:…}}` and `{{secret:…}}` tokens are
 * filled in just before sending, each request goes through the scheduler's concurrency limit, and
 * a capturing request's answer becomes the step's output, for the steps that refer to it. A 401 or
 * 403 stops the whole run; once it has stopped, no further request is sent.
 */
import type { ApiClient, ApiResponse, Query } from '../api/types.js';
import { ApiError, DocplaneError } from '../core/errors.js';
import type { JsonValue, RequestSpec, Step } from '../plan/types.js';
import { sendGuarded, sendModeOf } from './resend.js';
import type { Limit } from './scheduler.js';
import { keepFields, referencedFields, resolveString, resolveValue, type Captures } from './tokens.js';
import type { ApplyOptions, StopReason } from './types.js';

/** Thrown inside a step when the run has stopped before one of its requests could be sent. */
export class StoppedError extends Error {
  constructor(readonly stop: StopReason) {
    super(stop.message);
    this.name = 'StoppedError';
  }
}

/** Why the run stopped, once it has; shared by the runner (which stops it) and the scheduler. */
export interface StopState {
  reason?: StopReason;
}

export interface StepRunner {
  run(step: Step, limit: Limit): Promise<void>;
  /** Requests sent for a step so far (lookups and repeated attempts included). */
  requestsOf(step: Step): number;
  /** Whether the API only accepted one of the step's requests (202), not carried it out yet. */
  acceptedOnly(step: Step): boolean;
}

interface Resolved {
  method: RequestSpec['method'];
  path: string;
  query?: Query;
  body?: JsonValue;
}

export function createStepRunner(client: ApiClient, steps: readonly Step[], options: ApplyOptions, stop: StopState): StepRunner {
  const captures = {
    known: new Set(steps.filter((s) => s.requests.some((r) => r.capture)).map((s) => `${s.org}/${s.address}`)),
    values: new Map<string, unknown>(),
  };
  // Answers are kept only for the fields later requests refer to.
  const referenced = referencedFields(steps, captures.known);
  const sent = new Map<string, number>();
  const accepted = new Set<string>();

  /** One exchange through the limit; refused once the run has stopped, counted once sent. */
  const throughLimit = <T>(step: Step, limit: Limit, exchange: () => Promise<T>): Promise<T> =>
    limit(step, async () => {
      if (stop.reason) throw new StoppedError(stop.reason);
      sent.set(step.id, (sent.get(step.id) ?? 0) + 1);
      return stopOnDenial(stop, exchange());
    });

  const send = (step: Step, limit: Limit, spec: RequestSpec, retry: boolean): Promise<ApiResponse> => {
    const req = resolveRequest(captures, spec);
    return throughLimit(step, limit, () =>
      client.request(req.method, req.path, {
        ...(req.query ? { query: req.query } : {}),
        ...(req.body !== undefined ? { body: req.body } : {}),
        retry,
      }),
    );
  };

  return {
    async run(step, limit) {
      const self = `${step.org}/${step.address}`;
      for (const spec of step.requests) {
        const mode = sendModeOf(step, spec);
        const response =
          mode === 'create' || mode === 'idempotent' || mode === 'verified'
            ? await sendGuarded(
                {
                  send: () => send(step, limit, spec, false),
                  listAll: (path) => throughLimit(step, limit, () => client.listAll(path)),
                  get: (path) => throughLimit(step, limit, () => client.request('GET', path)).then((r) => r.body),
                  captures,
                  conceal: (secret) => client.conceal?.(secret),
                  shownPath: () => shownPath(captures, spec.path),
                  emit: options.onEvent,
                  signal: options.signal,
                },
                step,
                spec,
                mode,
                options,
              )
            : await send(step, limit, spec, mode === 'retried');
        if (response.status === 202) accepted.add(step.id);
        refuseCheckout(spec, response);
        if (spec.capture) captures.values.set(self, keepFields(captured(response), referenced.get(self)));
      }
    },
    requestsOf: (step) => sent.get(step.id) ?? 0,
    acceptedOnly: (step) => accepted.has(step.id),
  };
}

/**
 * `publishSite` may answer 200 with a checkout session instead of the site: the site stays
 * unpublished until someone pays, so the step failed, and says why.
 */
function refuseCheckout(spec: RequestSpec, response: ApiResponse): void {
  const body = response.body as { type?: unknown; sessionId?: unknown } | null;
  if (!body || typeof body !== 'object' || body.type !== 'checkout') return;
  throw new DocplaneError(
    'PURCHASE_NEEDED',
    `${spec.method} ${spec.path}: publishing this site needs a purchase (the API answered with checkout session ${String(body.sessionId)}); the site is not published: complete the purchase in the app, then apply again`,
  );
}

/**
 * A 401 or 403 stops the run before the limiter hands its slot to the next queued request: the
 * token will not do better on the next one, and a half-applied run should stop where it is.
 */
async function stopOnDenial<T>(stop: StopState, pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      stop.reason ??= { reason: err.status === 401 ? 'unauthorized' : 'forbidden', message: err.message, method: err.method, path: err.path };
    }
    throw err;
  }
}

function resolveRequest(captures: Captures, spec: RequestSpec): Resolved {
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

/** A request's path for messages: the tokens resolved, or as written when they cannot be yet. */
function shownPath(captures: Captures, path: string): string {
  try {
    return resolveString(path, captures, true) as string;
  } catch {
    return path;
  }
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
