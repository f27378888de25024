/**
 * The one retry policy of docplane's requests to the API: attempts in all, the backoff between them,
 * how many 429 answers are waited out, and the longest wait. The client applies it to the requests
 * it may send again itself (GET, PUT, PATCH, DELETE: sending one twice leaves the state of once);
 * apply applies the same policy to a write that must not be resent blindly (a create, an idempotent
 * POST, a verified request) through `sendWrite`, with a hook that says, after an unclear outcome,
 * whether the write went through.
 */
import { ApiError } from '../core/errors.js';
import { systemClock, type Clock } from './clock.js';
import { backoffDelay, requestedWait } from './retry.js';
import type { ApiResponse } from './types.js';

export interface RetryPolicy {
  /**
   * Attempts in all, the first included. A connection reset on a tenth of the exchanges, say, does
   * not fail a request in practice: it fails only when every attempt in a row does (0.13^8 ≈ 1e-7).
   */
  maxAttempts: number;
  /** Base of the full-jitter backoff: the wait after attempt n is random in [0, base·2^(n-1)]. */
  backoffBaseMs: number;
  /** Longest backoff between two attempts. */
  backoffCapMs: number;
  /** Longest single wait, backoff or what the API asks for (`Retry-After`); a longer ask fails the request. */
  maxWaitMs: number;
  /** 429 answers to one request that are waited out: the API refused before acting, so none is an attempt. */
  maxRateLimitWaits: number;
  /** Source of jitter (default Math.random), for reproducible tests. */
  random?: () => number;
}

export const RETRY_POLICY: Readonly<RetryPolicy> = {
  maxAttempts: 8,
  backoffBaseMs: 200,
  backoffCapMs: 5_000,
  maxWaitMs: 300_000,
  maxRateLimitWaits: 30,
};

/** The policy with some numbers changed (a flag, a test); the backoff never exceeds the longest wait. */
export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const given = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) as Partial<RetryPolicy>;
  const p = { ...RETRY_POLICY, ...given };
  return { ...p, maxAttempts: Math.max(1, p.maxAttempts), backoffCapMs: Math.min(p.maxWaitMs, p.backoffCapMs) };
}

/** The wait after attempt `attempt` failed (1 for the first). */
export function backoffAfter(policy: RetryPolicy, attempt: number): number {
  return backoffDelay(attempt, policy.backoffBaseMs, policy.backoffCapMs, policy.random);
}

/**
 * How long the `nth` 429 to one write asks to wait (`Retry-After`, else `X-RateLimit-Reset`). The
 * client attaches the answer's headers to its ApiError when it has them (`headers`, or on `cause`);
 * without them, a short growing wait — the client itself also holds later requests for as long as
 * the API asked.
 */
export function rateLimitWait(policy: RetryPolicy, err: ApiError, nth: number, now: number): number {
  const headers = headersOf(err);
  const asked = headers ? requestedWait(429, headers, now) : undefined;
  if (asked !== undefined) return Math.min(Math.max(Math.ceil(asked), 0), policy.maxWaitMs);
  return Math.min(policy.backoffBaseMs * nth, policy.maxWaitMs);
}

function headersOf(err: ApiError): Record<string, string> | undefined {
  const direct = (err as unknown as { headers?: unknown }).headers;
  const viaCause = (err.cause as { headers?: unknown } | undefined)?.headers;
  const h = direct ?? viaCause;
  if (!h || typeof h !== 'object') return undefined;
  return Object.fromEntries(Object.entries(h as Record<string, unknown>).map(([k, v]) => [k.toLowerCase(), String(v)]));
}

/** No clear answer: the request may or may not have been acted upon. */
export function isUnclear(err: unknown): err is ApiError {
  return err instanceof ApiError && (err.status === 0 || err.status === 408 || err.status >= 500);
}

/** What the hook finds after an unclear outcome: the write went through (and its answer), it did not (send again), or neither can be told. */
export type UnclearVerdict = { done: ApiResponse } | 'again' | 'fail';

/** What a write's sender supplies: apply's knowledge of how to tell whether a write went through. */
export interface WriteHooks {
  /** After an unclear outcome (no answer, 408, 5xx) of attempt `attempt`. */
  unclear(err: ApiError, attempt: number): Promise<UnclearVerdict>;
  /** After a clear refusal: an answer that means "done" (a resend refused as pointless once an earlier attempt was unclear), else undefined. */
  refused?(err: ApiError, unclearBefore: boolean): ApiResponse | undefined;
  /** Told before each wait: the attempt that follows, the wait, and what failed (`rateLimited`: a 429). */
  onRetry?(attempt: number, waitMs: number, err: ApiError, rateLimited: boolean): void;
  /** What the waits are measured in (default the system's clock). */
  clock?: Clock;
  /** Cuts a wait short (the run stopped): the next send then refuses. */
  signal?: AbortSignal;
}

/**
 * Sends a write at most `policy.maxAttempts` times: a 429 is waited out (up to
 * `policy.maxRateLimitWaits` times) and sent again, an unclear outcome is put to the hook, and
 * anything else fails at once.
 */
export async function sendWrite(send: () => Promise<ApiResponse>, policy: RetryPolicy, hooks: WriteHooks): Promise<ApiResponse> {
  const clock = hooks.clock ?? systemClock;
  let attempt = 0;
  let rateLimited = 0;
  let unclearBefore = false;
  for (;;) {
    attempt += 1;
    try {
      return await send();
    } catch (err) {
      if (err instanceof ApiError && err.status === 429 && rateLimited < policy.maxRateLimitWaits) {
        rateLimited += 1;
        attempt -= 1; // The API refused before acting: this was no attempt.
        const waitMs = rateLimitWait(policy, err, rateLimited, clock.now());
        hooks.onRetry?.(attempt + 1, waitMs, err, true);
        await clock.sleep(waitMs, hooks.signal);
        continue;
      }
      const taken = err instanceof ApiError ? hooks.refused?.(err, unclearBefore) : undefined;
      if (taken) return taken;
      if (!isUnclear(err)) throw err;
      unclearBefore = true;
      const verdict = await hooks.unclear(err, attempt);
      if (verdict === 'fail') throw err;
      if (verdict !== 'again') return verdict.done;
      if (attempt >= policy.maxAttempts) throw err;
      // One step further along the client's curve (a wait of up to base·2^attempt): what the hook
      // read in between already took a round trip.
      const waitMs = backoffAfter(policy, attempt + 1);
      hooks.onRetry?.(attempt + 1, waitMs, err, false);
      await clock.sleep(waitMs, hooks.signal);
    }
  }
}
