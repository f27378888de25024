/**
 * A concurrency limit whose waiting line is ordered by priority (higher first), then by arrival.
 * Apply gives each request the length of the longest chain of requests that still waits on its
 * step (the step's remaining critical path), so that a long chain — site sections created one after
 * the other — is not stuck behind hundreds of independent requests queued earlier: a plain FIFO
 * limit makes the wall time the sum of the two instead of the larger.
 */
import { priorityQueue } from '../core/priority-queue.js';

export type PriorityLimit = <T>(fn: () => Promise<T>, priority: number) => Promise<T>;

interface Job {
  priority: number;
  seq: number;
  start: () => void;
}

function before(a: Job, b: Job): boolean {
  return a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq);
}

export function priorityLimit(concurrency: number): PriorityLimit {
  const max = Math.max(1, Math.floor(concurrency));
  const queue = priorityQueue(before);
  let active = 0;
  let seq = 0;
  let pumping = false;

  const pump = () => {
    pumping = false;
    while (active < max && queue.size > 0) {
      active++;
      (queue.pop() as Job).start();
    }
  };
  // Jobs queued in the same tick are weighed together: starting is deferred to a microtask.
  const schedulePump = () => {
    if (pumping) return;
    pumping = true;
    queueMicrotask(pump);
  };

  return <T>(fn: () => Promise<T>, priority: number): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push({
        priority,
        seq: seq++,
        start: () => {
          fn()
            .then(resolve, reject)
            .finally(() => {
              active--;
              schedulePump();
            });
        },
      });
      schedulePump();
    });
}
