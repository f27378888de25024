/**
 * A binary heap: the waiting lines that go by priority (apply's request slots and ready steps, the
 * client's connections) pop the item that comes `before` every other.
 */
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
