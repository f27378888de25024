/**
 * The fewest moves that turn one order into another, for `PATCH SITE/structure/sort`. A move takes one
 * item out and puts it just before or just after another item of the same container, so the items
 * of a longest increasing subsequence (in desired order) can stay where they are and every other item
 * is moved once: n − LIS moves, which no sequence of such moves can beat.
 */

/** Put `item` just after `after` (or just before `before`, for the first items of the desired order). */
export interface Move<T> {
  item: T;
  after?: T;
  before?: T;
}

/**
 * Indexes (into `seq`) of one longest strictly increasing subsequence of `seq`; among equally long
 * ones, the patience-sorting choice, which is deterministic.
 */
export function longestIncreasing(seq: readonly number[]): number[] {
  const tails: number[] = []; // tails[k]: index of the smallest tail of an increasing run of length k+1
  const prev: number[] = new Array<number>(seq.length).fill(-1);
  for (let i = 0; i < seq.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]] < seq[i]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1];
    tails[lo] = i;
  }
  const out: number[] = [];
  for (let i = tails.length > 0 ? tails[tails.length - 1] : -1; i >= 0; i = prev[i]) out.push(i);
  return out.reverse();
}

/**
 * Moves that turn `current` into `desired` (both the same items, each once; compared with ===).
 * Each move is relative to an item already in its final place: the kept ones from the start, and
 * each moved item once placed, since items are placed in desired order, each after its predecessor
 * (the first ones before the first kept item).
 */
export function sortMoves<T>(current: readonly T[], desired: readonly T[]): Array<Move<T>> {
  if (current.length !== desired.length) throw new Error('sortMoves: the two orders hold different items');
  const rank = new Map<T, number>();
  desired.forEach((item, i) => rank.set(item, i));
  const ranks = current.map((item) => {
    const r = rank.get(item);
    if (r === undefined) throw new Error('sortMoves: the two orders hold different items');
    return r;
  });
  const kept = new Set(longestIncreasing(ranks).map((i) => current[i]));
  const firstKept = desired.find((item) => kept.has(item));
  const moves: Array<Move<T>> = [];
  desired.forEach((item, i) => {
    if (kept.has(item)) return;
    if (i > 0) moves.push({ item, after: desired[i - 1] });
    else moves.push({ item, before: firstKept as T });
  });
  return moves;
}

/**
 * Applies moves to an order the way the API does (take the item out, insert it next to the target),
 * for simulations and tests. Items of `order` not named by a move keep their relative place.
 */
export function applyMoves<T>(order: readonly T[], moves: ReadonlyArray<Move<T>>): T[] {
  const out = [...order];
  for (const m of moves) {
    const from = out.indexOf(m.item);
    if (from >= 0) out.splice(from, 1);
    const target = (m.after ?? m.before) as T;
    const at = out.indexOf(target);
    if (at < 0) throw new Error('applyMoves: the target of a move is not in the order');
    out.splice(m.after !== undefined ? at + 1 : at, 0, m.item);
  }
  return out;
}
