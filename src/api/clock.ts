/**
 * The time the client's waits are measured in: what a retry, a rate limit's pause or a window's
 * reset waits on. The CLI uses the system's clock; a test gives its own (a virtual clock) to check
 * how long the client asked to wait without waiting for it.
 */
import { sleep } from './retry.js';

export interface Clock {
  /** Milliseconds since the epoch (what `Retry-After` dates and `X-RateLimit-Reset` are read against). */
  now(): number;
  /** Resolves after `ms`, or earlier when `signal` aborts (the caller checks the signal). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now(), sleep };
