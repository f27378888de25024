/**
 * A concurrency limit whose waiting line is ordered by priority (higher first), then by arrival.
 * Apply gives each request the length of the longest chain of requests that still waits on its
 * step (the step's remaining critical path), so that a long chain — site sections created one after
 * the other — is not stuck behind hundreds of independent requests queued earlier: a plain FIFO
 * limit makes the wall time the sum of the two instead of the larger.
 *
 * The line is the client's (src/core/slots.ts). The jobs queued in one tick are weighed together
 * before any of them starts, and a slot is given back a turn after its job ends: the first job
 * queued, or one that was waiting, does not take a free slot ahead of a longer chain queued just
 * after it (the next step of the chain that just moved on).
 */
import { createSlots } from '../core/slots.js';

export type PriorityLimit = <T>(fn: () => Promise<T>, priority: number) => Promise<T>;

interface Job {
  priority: number;
  seq: number;
  start: () => void;
  fail: (reason: Error) => void;
}

export function priorityLimit(concurrency: number): PriorityLimit {
  const slots = createSlots(concurrency);
  let tick: Job[] = [];
  let seq = 0;

  const enqueueTick = () => {
    const jobs = tick.sort((a, b) => b.priority - a.priority || a.seq - b.seq);
    tick = [];
    for (const job of jobs) slots.enqueue(job.priority, job.start, job.fail);
  };

  return <T>(fn: () => Promise<T>, priority: number): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (tick.length === 0) queueMicrotask(enqueueTick);
      tick.push({
        priority,
        seq: seq++,
        start: () => {
          let run: Promise<T>;
          try {
            run = fn();
          } catch (err) {
            // A job that throws before its promise still gives its slot back.
            run = Promise.reject(err);
          }
          run
            .then(resolve, reject)
            // A turn later: what the finished job's step queues next is weighed with the rest.
            .finally(() => queueMicrotask(slots.release));
        },
        fail: reject,
      });
    });
}
