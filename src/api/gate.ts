/**
 * The gate every request start passes, shared by all concurrent callers of one client (one client
 * talks to one API host, so this is the host's one budget). It paces requests so that they wait
 * before they are sent rather than after a 429, from the rate-limit headers when the API sends them,
 * and from `--max-rps` and 429s alone when it does not:
 *
 * - a budget learned from the answers' `X-RateLimit-Limit`, `-Remaining` and `-Reset`: a request
 *   starts only while the window has something left once the requests already in flight are counted;
 *   when nothing is left, starts wait for the reset (then the window's limit is available again);
 *   a short window (a second or two) is kept by spacing starts evenly instead;
 * - a pause: every start is held back while the API has asked for a wait (a 429 with `Retry-After`);
 * - a ceiling the user sets with --max-rps: starts at least 1/maxRps apart.
 *
 * An API that sends no rate-limit headers leaves only the ceiling and the pauses.
 */
import { systemClock, type Clock } from './clock.js';
import { parseRateLimitReset, type Headers } from './retry.js';

export interface RateGate {
  /**
   * Resolves when a request may start, with whether it was held back (a pause, the first answer, the
   * window, the spacing); the request then holds one unit of the budget until observe().
   */
  acquire(signal?: AbortSignal): Promise<boolean>;
  /** Starts a request now if nothing holds it back (true: as acquire() would have); else false, and nothing is taken. */
  tryAcquire(): boolean;
  /**
   * The answer (its headers) or the absence of an answer (undefined) of a request acquire() let
   * through: frees its unit and learns the budget from the headers. Once per acquire().
   */
  observe(headers: Headers | undefined): void;
  /** Hold every request back for `ms` from now (never shortens a pause already in force). */
  pause(ms: number): void;
  /** What the gate believes of the window (tests, --verbose). */
  budget(): Budget;
  /** What holds requests back now, and until when (ms since the epoch), for the progress line. */
  holding(): { why: 'pause' | 'window'; until: number } | undefined;
}

/**
 * The window's reset is further off than the client may wait (RateGateOptions.maxWaitMs): acquire()
 * rejects with it rather than sleeping for hours.
 */
export class TooLongWait extends Error {
  constructor(
    /** What the server asked, in words: `the rate limit's window renews in 36000 s (X-RateLimit-Reset)`. */
    readonly asked: string,
    readonly waitMs: number,
  ) {
    super(asked);
    this.name = 'TooLongWait';
  }
}

export interface Budget {
  /** The window's limit, once an answer has said it. */
  limit?: number;
  /** Starts the window still allows, the requests in flight already taken off; undefined when unknown. */
  left?: number;
  /** When the window is renewed (ms since the epoch); undefined when unknown. */
  resetAt?: number;
  inFlight: number;
}

export interface RateGateOptions {
  /** Requests per second at most; undefined or 0 for no ceiling. */
  maxRps?: number;
  /** What the waits are measured in (default the system's clock). */
  clock?: Clock;
  /**
   * Added to a wait for the reset: the reset comes in whole seconds and the two clocks differ a
   * little; starting a few milliseconds late costs less than a 429 (default 20).
   */
  resetMarginMs?: number;
  /** Windows up to this long are kept by even spacing (default 2000; 0: never). */
  shortWindowMs?: number;
  /** Longest wait for a window's reset; a longer one rejects acquire() with TooLongWait (default: no bound). */
  maxWaitMs?: number;
}

/** Windows up to this long are kept by even spacing rather than spent at once (see spacing()). */
const SHORT_WINDOW_MS = 2000;

export function createRateGate(options: RateGateOptions = {}): RateGate {
  const clock = options.clock ?? systemClock;
  const now = () => clock.now();
  const ceiling = options.maxRps && options.maxRps > 0 ? 1000 / options.maxRps : 0;
  const margin = options.resetMarginMs ?? 20;
  const shortWindow = options.shortWindowMs ?? SHORT_WINDOW_MS;
  const maxWait = options.maxWaitMs ?? Infinity;
  let pausedUntil = 0;
  /** When the last request started (every start counts, also those before the spacing was known). */
  let lastStart = -Infinity;
  let inFlight = 0;
  let limit: number | undefined;
  let left: number | undefined;
  let resetAt: number | undefined;
  /** The longest wait for a reset an answer has announced, in ms: about the window's length. */
  let longestReset = 0;
  /** Whether an exchange has ended yet: before the first, one request goes alone (the window's size is unknown). */
  let answered = false;
  /** Callers waiting for an answer to tell them more (nothing left, no reset known). */
  let waiters: Array<() => void> = [];

  const wake = () => {
    const ws = waiters;
    waiters = [];
    for (const w of ws) w();
  };

  /** The window renewed: its limit is available again (the next answer corrects this). */
  const renewIfDue = (t: number) => {
    if (resetAt !== undefined && t >= resetAt) {
      resetAt = undefined;
      left = limit === undefined ? undefined : Math.max(0, limit - inFlight);
      // Nothing known of the new window's size: let the next answers say.
      if (left === 0) left = undefined;
    }
  };

  return {
    tryAcquire(): boolean {
      return hold(now()) === undefined;
    },

    async acquire(signal?: AbortSignal): Promise<boolean> {
      let held = false;
      // A loop because a pause may be announced, or the budget spent, while we wait.
      for (;;) {
        const wait = hold(now());
        if (wait === undefined) return held;
        await wait(signal);
        if (signal?.aborted) throw signal.reason;
        held = true;
      }
    },

    observe(headers: Headers | undefined): void {
      inFlight = Math.max(0, inFlight - 1);
      // An exchange without an answer (a timeout, a reset) ends the wait for the first answer too:
      // it has no window to tell, and holding every request behind the next one would send one at a
      // time to a server that never answers (minutes of retries one by one before a plan fails).
      answered = true;
      if (headers) learn(headers, now());
      wake();
    },

    pause(ms: number): void {
      if (ms > 0) pausedUntil = Math.max(pausedUntil, now() + ms);
    },

    budget(): Budget {
      return { limit, left, resetAt, inFlight };
    },

    holding() {
      const t = now();
      if (pausedUntil > t) return { why: 'pause', until: pausedUntil };
      if (left !== undefined && left <= 0 && resetAt !== undefined && resetAt > t && spacing() === 0) return { why: 'window', until: resetAt };
      return undefined;
    },
  };

  /**
   * Takes a start at `t` when nothing holds it back (undefined); else what to wait for before trying
   * again: a pause the API asked for, the first answer, the window's reset or more answers, or the
   * spacing. Nothing is waited for here, so that a caller may try without queueing.
   */
  function hold(t: number): ((signal?: AbortSignal) => Promise<void>) | undefined {
    if (pausedUntil > t) return (signal) => clock.sleep(pausedUntil - t, signal);
    renewIfDue(t);
    // The first answer says the window's size: until then one request is enough of a guess.
    if (!answered && inFlight > 0) return nextAnswer;
    // A short window is kept by the spacing below: it renews as it goes, so its count of what is
    // left is mostly zero and says little; waiting for its reset would idle.
    if (left !== undefined && left <= 0 && spacing() === 0) {
      const reset = resetAt;
      if (reset !== undefined) {
        const wait = reset - t + margin;
        if (wait > maxWait) {
          const asked = `the rate limit's window renews in ${Math.ceil((reset - t) / 1000)} s (X-RateLimit-Remaining: 0, X-RateLimit-Reset)`;
          return () => Promise.reject(new TooLongWait(asked, wait));
        }
        return (signal) => clock.sleep(wait, signal);
      }
      // The answers in flight will say how much is left.
      if (inFlight > 0) return nextAnswer;
      // Nothing left, no reset said, nothing to learn from: try (a 429 then says how long).
      left = undefined;
    }
    const interval = Math.max(ceiling, spacing());
    if (interval > 0 && lastStart + interval > t) return (signal) => clock.sleep(lastStart + interval - t, signal);
    lastStart = t;
    if (left !== undefined) left -= 1;
    inFlight += 1;
    return undefined;
  }

  /**
   * A short window (a limit per second or two) is kept by spacing starts evenly, window ÷ limit: with
   * a reset told in whole seconds, spending the window at once and waiting for the reset would wait
   * up to a second too long each time, and a sliding window renews a little at a time. A longer
   * window is spent as it comes and its reset waited for (a short run then never waits).
   */
  function spacing(): number {
    if (limit === undefined || longestReset === 0) return 0;
    // The reset is rounded up to a whole second: the window is about a second shorter than announced.
    const window = Math.max(1000, longestReset - 1000);
    // 2% under the limit: the server counts arrivals, which jitter a little around our starts.
    return window <= shortWindow ? (window / limit) * 1.02 : 0;
  }

  function nextAnswer(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal?.reason ?? new Error('aborted'));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      waiters.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  function learn(headers: Headers, t: number): void {
    const said = (name: string): number | undefined => {
      const text = headers[name]?.trim();
      return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
    };
    const newLimit = said('x-ratelimit-limit');
    if (newLimit !== undefined && newLimit > 0) limit = newLimit;
    const remaining = said('x-ratelimit-remaining');
    if (remaining === undefined) return;
    const wait = parseRateLimitReset(headers['x-ratelimit-reset'], t);
    const at = wait === undefined ? undefined : t + wait;
    if (wait !== undefined) longestReset = Math.max(longestReset, wait);
    // An answer that overtook others from a window that has passed says nothing of this one.
    if (at !== undefined && resetAt !== undefined && at < resetAt - 1000) return;
    // The requests still in flight may not be counted in `remaining` yet: take them off (cautious).
    const estimate = Math.max(0, remaining - inFlight);
    const sameWindow = at !== undefined && resetAt !== undefined && Math.abs(at - resetAt) < 1000;
    // Answers overtake one another: within one window, the lowest count is the latest.
    left = sameWindow && left !== undefined ? Math.min(left, estimate) : estimate;
    if (at !== undefined && (resetAt === undefined || !sameWindow || at > resetAt)) resetAt = at;
    if (at === undefined) resetAt = undefined;
  }
}
