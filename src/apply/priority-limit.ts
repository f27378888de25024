/**
 * A concurrency limit whose waiting line is ordered by priority (higher first), then by arrival.
 * Apply gives each request the length of the longest chain of requests that still waits on its
 * step (the step's remaining critical path), so that a long chain — site sections created one after
 * the other — is not stuck behind hundreds of independent requests queued earlier: a plain FIFO
 * limit makes the wall time the sum of the two instead of the larger.
 */
export type PriorityLimit = <T>(fn: () => Promise<T>, priority: number) => Promise<T>;

interface Job {
  priority: number;
  seq: number;
  start: () => void;
}

function before(a: Job, b: Job): boolean {
  return a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq);
}

/** A binary heap: `pop` gives the item that comes `before` every other. */
export function priorityQueue<T>(before: (a: T, b: T) => boolean): { push(item: T): void; pop(): T | undefined; readonly size: number } {
  const heap: T[] = [];
  return {
    get size() {
      return heap.length;
    },
    push(item) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!before(heap[i], heap[p])) break;
        [heap[i], heap[p]] = [heap[p], heap[i]];
        i = p;
      }
    },
    pop() {
      const top = heap[0];
      const last = heap.pop();
      if (heap.length > 0 && last !== undefined) {
        heap[0] = last;
        for (let i = 0; ; ) {
          const l = 2 * i + 1;
          const r = l + 1;
          let m = i;
          if (l < heap.length && before(heap[l], heap[m])) m = l;
          if (r < heap.length && before(heap[r], heap[m])) m = r;
          if (m === i) break;
          [heap[i], heap[m]] = [heap[m], heap[i]];
          i = m;
        }
      }
      return top;
    },
  };
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
