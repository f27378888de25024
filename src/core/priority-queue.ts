/**
 * A binary heap: the waiting lines that go by priority (the planner's ready steps, apply's request
 * slots and ready steps, the client's connections) pop the item that comes `before` every other.
 * Items move into a hole rather than by swaps, which keeps each push and pop to plain assignments.
 */
export function priorityQueue<T>(before: (a: T, b: T) => boolean): { push(item: T): void; pop(): T | undefined; readonly size: number } {
  const heap: T[] = [];
  return {
    get size() {
      return heap.length;
    },
    push(item) {
      let i = heap.length;
      heap.push(item);
      while (i > 0) {
        const p = (i - 1) >> 1;
        const parent = heap[p];
        if (!before(item, parent)) break;
        heap[i] = parent;
        i = p;
      }
      heap[i] = item;
    },
    pop() {
      if (heap.length === 0) return undefined;
      const top = heap[0];
      const last = heap.pop() as T;
      const n = heap.length;
      if (n > 0) {
        let i = 0;
        for (;;) {
          const l = 2 * i + 1;
          if (l >= n) break;
          const r = l + 1;
          const c = r < n && before(heap[r], heap[l]) ? r : l;
          if (!before(heap[c], last)) break;
          heap[i] = heap[c];
          i = c;
        }
        heap[i] = last;
      }
      return top;
    },
  };
}
