import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priorityQueue } from './priority-queue.js';

interface Item {
  priority: number;
  seq: number;
}

const before = (a: Item, b: Item): boolean => a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq);

describe('priorityQueue', () => {
  it('pops nothing when empty', () => {
    const q = priorityQueue(before);
    expect(q.pop()).toBeUndefined();
    expect(q.size).toBe(0);
  });

  it('pops by priority, then in the order pushed, with pushes and pops interleaved', () => {
    // Each operation: push an item of that priority, or pop (null); checked against a sorted list.
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: 0, max: 4 }), { freq: 3 }), { maxLength: 200 }), (ops) => {
        const q = priorityQueue(before);
        const model: Item[] = [];
        let seq = 0;
        for (const op of ops) {
          if (op === null) {
            model.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
            expect(q.pop()).toEqual(model.shift());
          } else {
            const item = { priority: op, seq: seq++ };
            q.push(item);
            model.push(item);
          }
          expect(q.size).toBe(model.length);
        }
        model.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
        for (const item of model) expect(q.pop()).toBe(item);
        expect(q.pop()).toBeUndefined();
      }),
    );
  });
});
