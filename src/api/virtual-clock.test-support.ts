/**
 * A clock for tests that never waits: a sleep resolves at the next turn of the event loop, and the
 * clock then stands at least at the time the sleep was due. Concurrent sleepers wake in turn, each
 * moving the clock forward to its own due time, so that a wait is never shorter than asked. Every
 * wait asked for is kept in `sleeps`, for the test to check what the code under test waited.
 */
import type { Clock } from './clock.js';

export interface VirtualClock extends Clock {
  /** Every sleep asked for, in order: the time it was asked at and for how long. */
  readonly sleeps: Array<{ at: number; ms: number }>;
  /** Moves the clock forward (never back). */
  advance(ms: number): void;
}

export function virtualClock(start = Date.UTC(2026, 0, 1)): VirtualClock {
  let t = start;
  const sleeps: Array<{ at: number; ms: number }> = [];
  return {
    sleeps,
    now: () => t,
    advance(ms) {
      t += Math.max(0, ms);
    },
    sleep(ms, signal) {
      sleeps.push({ at: t, ms });
      const due = t + Math.max(0, ms);
      return new Promise((resolve) => {
        if (signal?.aborted) return resolve();
        const done = () => {
          clearImmediate(turn);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const turn = setImmediate(() => {
          t = Math.max(t, due);
          done();
        });
        signal?.addEventListener('abort', done, { once: true });
      });
    },
  };
}
