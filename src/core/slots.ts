/**
 * A fixed number of slots and the line of those waiting for one, highest priority first, then in
 * the order they came. A slot given back starts the next waiter at once, inside the caller's
 * callback, not a promise job later.
 *
 * The client holds its connections this way (src/api/client.ts) rather than queueing in undici's
 * pool, for two reasons:
 * - a request's timeout runs from when it is sent, not from when it was queued: a plan queues all
 *   its reads at once, and with 800 of them behind 16 connections the last waited a second before it
 *   was sent (against a 1 s timeout, 65 of the bench plan's 800 reads timed out unsent);
 * - a list's later pages go before what was queued after its first page: in a first-come line the
 *   members list's second page went after every other read of the plan, and its third alone.
 * Starting the next exchange inside the callback that ended the last one is what undici's own line
 * did: the next request is written before the answer that freed its connection is processed.
 *
 * Apply's limit (src/apply/priority-limit.ts) is built on it too.
 */
import { priorityQueue } from './priority-queue.js';

export interface Slots {
  /**
   * Calls `start` once a slot is free and no waiter of a higher priority (or of the same, come
   * earlier) is left: at once when one is free, else from the release() that frees it. `start`
   * holds the slot until it calls release(). `fail` is told instead when the slots close first.
   */
  enqueue(priority: number, start: () => void, fail: (reason: Error) => void): Ticket;
  /** Gives a slot back (starting the next waiter). */
  release(): void;
  /** Fails every waiter with `reason`, and every later enqueue(). */
  close(reason: Error): void;
}

export interface Ticket {
  /** Leaves the line if still in it (the slot is not taken then); nothing once started. */
  cancel(): void;
}

interface Waiter extends Ticket {
  priority: number;
  seq: number;
  start(): void;
  fail(reason: Error): void;
  /** Left the line: skipped when its turn comes. */
  gone: boolean;
}

const before = (a: Waiter, b: Waiter): boolean => a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq);

const STARTED: Ticket = { cancel: () => undefined };

export function createSlots(size: number): Slots {
  const max = Math.max(1, Math.floor(size));
  const waiting = priorityQueue<Waiter>(before);
  let busy = 0;
  let seq = 0;
  let closed: Error | undefined;

  /** Whether startNext() is running: a start that ends at once (and releases) then leaves the rest to it, instead of recursing a line deep. */
  let starting = false;

  function startNext(): void {
    if (starting) return;
    starting = true;
    try {
      while (busy < max && waiting.size > 0) {
        const next = waiting.pop() as Waiter;
        if (next.gone) continue;
        next.gone = true;
        busy++;
        next.start();
      }
    } finally {
      starting = false;
    }
  }

  return {
    enqueue(priority, start, fail) {
      if (closed) {
        fail(closed);
        return STARTED;
      }
      if (busy < max && waiting.size === 0) {
        busy++;
        start();
        return STARTED;
      }
      const waiter: Waiter = {
        priority,
        seq: seq++,
        start,
        fail,
        gone: false,
        cancel: () => {
          waiter.gone = true;
        },
      };
      waiting.push(waiter);
      return waiter;
    },
    release() {
      busy = Math.max(0, busy - 1);
      startNext();
    },
    close(reason) {
      closed ??= reason;
      while (waiting.size > 0) {
        const waiter = waiting.pop() as Waiter;
        if (waiter.gone) continue;
        waiter.gone = true;
        waiter.fail(reason);
      }
    },
  };
}
