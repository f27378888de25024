import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyMoves, longestIncreasing, sortMoves } from './order.js';

/** Length of the longest strictly increasing subsequence, by the plain O(n²) recurrence. */
function lisLength(seq: readonly number[]): number {
  const best = seq.map(() => 1);
  for (let i = 0; i < seq.length; i++) for (let j = 0; j < i; j++) if (seq[j] < seq[i]) best[i] = Math.max(best[i], best[j] + 1);
  return Math.max(0, ...best);
}

/** A random permutation of 0..n-1 (as strings, so that items are not their own ranks). */
const permutationPair = fc
  .integer({ min: 0, max: 40 })
  .chain((n) =>
    fc.tuple(
      fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
      fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
    ),
  )
  .map(([a, b]) => [a.map((i) => `item${i}`), b.map((i) => `item${i}`)] as const);

describe('sortMoves', () => {
  it.each([
    { current: ['a', 'b', 'c'], desired: ['a', 'b', 'c'], moves: [] },
    { current: ['b', 'a', 'c'], desired: ['a', 'b', 'c'], moves: [{ item: 'b', after: 'a' }] },
    { current: ['c', 'a', 'b'], desired: ['a', 'b', 'c'], moves: [{ item: 'c', after: 'b' }] },
    { current: ['c', 'b', 'a'], desired: ['a', 'b', 'c'], moves: [{ item: 'b', after: 'a' }, { item: 'c', after: 'b' }] },
    { current: ['b', 'c', 'a'], desired: ['a', 'b', 'c'], moves: [{ item: 'a', before: 'b' }] },
    { current: ['a', 'd', 'b', 'c'], desired: ['a', 'b', 'c', 'd'], moves: [{ item: 'd', after: 'c' }] },
  ])('$current → $desired', ({ current, desired, moves }) => {
    expect(sortMoves(current, desired)).toEqual(moves);
    expect(applyMoves(current, sortMoves(current, desired))).toEqual(desired);
  });

  it('refuses orders of different items', () => {
    expect(() => sortMoves(['a', 'b'], ['a', 'c'])).toThrow(/different items/);
  });

  it('for random permutations: the moves give the desired order, and there are n − LIS of them', () => {
    fc.assert(
      fc.property(permutationPair, ([current, desired]) => {
        const moves = sortMoves(current, desired);
        expect(applyMoves(current, moves)).toEqual(desired);
        const ranks = current.map((item) => desired.indexOf(item));
        expect(moves.length).toBe(current.length - lisLength(ranks));
        // Each move is relative to an item already in its final place: never to itself, never to
        // an item that is moved later.
        const movedLater = new Set(moves.map((m) => m.item));
        for (const m of moves) {
          const target = m.after ?? m.before;
          expect(target).not.toBe(m.item);
          movedLater.delete(m.item);
          expect(movedLater.has(target as string)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('leaves items outside the managed ones in their relative place', () => {
    fc.assert(
      fc.property(permutationPair, fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 8 }), ([current, desired], at) => {
        // Unmanaged items u0, u1, … interleaved into the current order.
        const mixed: string[] = [...current];
        at.forEach((p, i) => mixed.splice(Math.min(p, mixed.length), 0, `u${i}`));
        const result = applyMoves(mixed, sortMoves(current, desired));
        expect(result.filter((x) => !x.startsWith('u'))).toEqual(desired);
        expect(result.filter((x) => x.startsWith('u'))).toEqual(mixed.filter((x) => x.startsWith('u')));
      }),
      { numRuns: 200 },
    );
  });
});

describe('longestIncreasing', () => {
  it('returns indexes of an increasing subsequence of the greatest length', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 60 }), (seq) => {
        const idx = longestIncreasing(seq);
        expect(idx.length).toBe(lisLength(seq));
        for (let i = 1; i < idx.length; i++) {
          expect(idx[i]).toBeGreaterThan(idx[i - 1]);
          expect(seq[idx[i]]).toBeGreaterThan(seq[idx[i - 1]]);
        }
      }),
    );
  });
});
