import { describe, expect, it } from 'vitest';
import { createSlots } from './slots.js';

describe('createSlots', () => {
  it('starts at most its size at once, the rest as slots are given back', () => {
    const slots = createSlots(2);
    const started: number[] = [];
    for (let i = 0; i < 5; i++) slots.enqueue(0, () => started.push(i), () => undefined);
    expect(started).toEqual([0, 1]);
    slots.release();
    expect(started).toEqual([0, 1, 2]);
    slots.release();
    slots.release();
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('starts the highest priority first, then in the order they came', () => {
    const slots = createSlots(1);
    const started: string[] = [];
    slots.enqueue(0, () => started.push('first'), () => undefined);
    for (const [name, priority] of [['a', 0], ['b', 1], ['c', 0], ['d', 1]] as const) slots.enqueue(priority, () => started.push(name), () => undefined);
    for (let i = 0; i < 4; i++) slots.release();
    expect(started).toEqual(['first', 'b', 'd', 'a', 'c']);
  });

  it('skips a waiter that left the line, and takes no slot for it', () => {
    const slots = createSlots(1);
    const started: string[] = [];
    slots.enqueue(0, () => started.push('first'), () => undefined);
    const gone = slots.enqueue(0, () => started.push('gone'), () => undefined);
    slots.enqueue(0, () => started.push('next'), () => undefined);
    gone.cancel();
    slots.release();
    expect(started).toEqual(['first', 'next']);
  });

  it('closing fails every waiter and every later one, and starts none', () => {
    const slots = createSlots(1);
    const failed: string[] = [];
    const started: string[] = [];
    slots.enqueue(0, () => started.push('first'), () => failed.push('first'));
    slots.enqueue(0, () => started.push('a'), (e) => failed.push(`a: ${e.message}`));
    slots.enqueue(1, () => started.push('b'), (e) => failed.push(`b: ${e.message}`));
    slots.close(new Error('closed'));
    slots.enqueue(0, () => started.push('late'), (e) => failed.push(`late: ${e.message}`));
    slots.release();
    expect(started).toEqual(['first']);
    expect(failed).toEqual(['b: closed', 'a: closed', 'late: closed']);
  });

  it('a start that gives its slot back at once lets the line go on without recursing', () => {
    // 100,000 waiters that each end as they start: recursing once per waiter would overflow the stack.
    const slots = createSlots(1);
    let started = 0;
    slots.enqueue(0, () => undefined, () => undefined);
    for (let i = 0; i < 100_000; i++) {
      slots.enqueue(
        0,
        () => {
          started++;
          slots.release();
        },
        () => undefined,
      );
    }
    slots.release();
    expect(started).toBe(100_000);
  });
});
