/**
 * What the emulator does to requests on purpose: a rate limit (N requests in any window of S seconds) and
 * random faults. A fault strikes BEFORE the change (nothing happened) or AFTER it (the change was
 * made and the answer is lost), with equal chance: the apply's no-duplicates logic is tested against
 * exactly that difference.
 */
import type { Random } from './random.js';

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  /** Whole seconds until a request would be allowed again (at least 1), for a refused one. */
  retryInSeconds: number;
}

/**
 * The rate limit as the live service documents it: `limit` requests per window of
 * `windowSeconds`; `X-RateLimit-Limit`, `-Remaining` and `-Reset` (UTC epoch seconds) on every
 * answer; `Retry-After` on a 429 only when `retryAfter` (the live service does not promise it).
 */
export interface RateLimit {
  limit: number;
  windowSeconds: number;
  retryAfter: boolean;
}

/** `60` (per second, with Retry-After) or `{ limit, windowSeconds, retryAfter }`, completed. */
export function rateLimitOf(option: number | Partial<RateLimit> & { limit: number }): RateLimit {
  if (typeof option === 'number') return { limit: option, windowSeconds: 1, retryAfter: true };
  return { limit: option.limit, windowSeconds: option.windowSeconds ?? 1, retryAfter: option.retryAfter ?? true };
}

/** At most `limit` requests in any window of `windowMs`. */
export function slidingWindow(limit: number, windowMs = 1000, retryAfter = true): (nowMs: number) => RateDecision {
  const stamps: number[] = [];
  return (nowMs) => {
    while (stamps.length > 0 && stamps[0] <= nowMs - windowMs) stamps.shift();
    const allowed = stamps.length < limit;
    if (allowed) stamps.push(nowMs);
    const oldest = stamps[0] ?? nowMs;
    const resetMs = oldest + windowMs;
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - stamps.length)),
      'x-ratelimit-reset': String(Math.ceil(resetMs / 1000)),
    };
    const retryInSeconds = Math.max(1, Math.ceil((resetMs - nowMs) / 1000));
    if (!allowed && retryAfter) headers['retry-after'] = String(retryInSeconds);
    return { allowed, headers, retryInSeconds };
  };
}

export type FaultKind = 'error' | 'reset';
export type FaultTime = 'before' | 'after';

export interface Fault {
  kind: FaultKind;
  when: FaultTime;
  /** For `error`: 500, 502 or 503. */
  status: number;
}

const FAULT_STATUSES = [500, 502, 503];

/** Draws, for one request, whether a fault strikes, which, and when. */
export function faultDrawer(random: Random, faultRate: number, resetRate: number): () => Fault | undefined {
  return () => {
    if (faultRate <= 0 && resetRate <= 0) return undefined;
    const r = random();
    let kind: FaultKind | undefined;
    if (r < faultRate) kind = 'error';
    else if (r < faultRate + resetRate) kind = 'reset';
    if (!kind) return undefined;
    const when: FaultTime = random() < 0.5 ? 'before' : 'after';
    const status = FAULT_STATUSES[Math.floor(random() * FAULT_STATUSES.length)];
    return { kind, when, status };
  };
}
