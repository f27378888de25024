/**
 * The gate every request start passes, shared by all concurrent callers of one client. It does two
 * things: it spaces request starts at least 1/maxRps apart (a ceiling the user sets with --max-rps),
 * and it holds every request back while the API has said its allowance is spent (429 with a wait, or
 * `X-RateLimit-Remaining: 0`), so that the callers do not all run into the limit one after another.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface RateGate {
  /** Resolves when a request may start. */
  acquire(signal?: AbortSignal): Promise<void>;
  /** Hold every request back for `ms` from now (never shortens a pause already in force). */
  pause(ms: number): void;
}

export interface RateGateOptions {
  /** Requests per second at most; undefined or 0 for no ceiling. */
  maxRps?: number;
  now?: () => number;
}

export function createRateGate(options: RateGateOptions = {}): RateGate {
  const now = options.now ?? Date.now;
  const interval = options.maxRps && options.maxRps > 0 ? 1000 / options.maxRps : 0;
  let pausedUntil = 0;
  let nextStart = 0;

  return {
    async acquire(signal?: AbortSignal): Promise<void> {
      // A loop because a pause may be announced while we wait for our slot.
      for (;;) {
        const t = now();
        if (pausedUntil > t) {
          await sleep(pausedUntil - t, undefined, { signal });
          continue;
        }
        if (interval === 0) return;
        const slot = Math.max(t, nextStart);
        nextStart = slot + interval;
        if (slot > t) await sleep(slot - t, undefined, { signal });
        if (pausedUntil <= now()) return;
      }
    },
    pause(ms: number): void {
      if (ms > 0) pausedUntil = Math.max(pausedUntil, now() + ms);
    },
  };
}
