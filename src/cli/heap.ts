/**
 * V8's heap, sized for a long run of many requests (apply).
 *
 * Left to itself, V8 lets the old generation grow to up to four times the data that survived the last
 * full collection, and the young generation to 16 MiB a half. An apply promotes many short-lived
 * objects (each request's frames, answers and parsers live across a round trip), so the old
 * generation fills with garbage between full collections: a scale-4 apply (~70 MiB live) peaked at
 * ~370 MiB. Growing the old generation by 20% at a time, and the young generation no further than
 * it grew while the modules loaded, holds the same apply under 200 MiB at about the same CPU
 * (docs/benchmarks.md, "Memory at scale 4").
 *
 * Only an apply is sized so. A plan is short, and runs as fast with V8's defaults.
 *
 * V8 reads both options each time it resizes the heap, so setting them once the process runs
 * (Node's `v8.setFlagsFromString`) takes effect; Node's documentation warns that this holds for
 * some options only, and the test in heap.test.ts checks it of these. A user who sets any heap
 * option of node's (`NODE_OPTIONS`, or node's own arguments) has chosen: docplane then sets none.
 */
import { setFlagsFromString } from 'node:v8';

export const LONG_RUN_HEAP_FLAGS = ['--heap-growing-percent=20', '--semi-space-growth-factor=1'] as const;

/** V8's heap options (either spelling: `-` or `_`) that mean the user sized the heap. */
const HEAP_OPTION = /--(?:max-old-space-size|max-semi-space-size|min-semi-space-size|max-heap-size|heap-growing-percent|semi-space-growth-factor|optimize-for-size)(?=[=\s]|$)/;

export interface NodeOptions {
  /** node's own arguments (`process.execArgv`). */
  execArgv: readonly string[];
  /** `NODE_OPTIONS`, if set. */
  nodeOptions: string | undefined;
}

/** Whether the user sized V8's heap: then docplane leaves it as they set it. */
export function userSizedHeap({ execArgv, nodeOptions }: NodeOptions): boolean {
  return [...execArgv, nodeOptions ?? ''].some((option) => HEAP_OPTION.test(option.replaceAll('_', '-')));
}

/** Sizes the heap for a long run, unless the user sized it; says whether it did. */
export function sizeHeapForLongRun(
  options: NodeOptions = { execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS },
  setFlags: (flag: string) => void = setFlagsFromString,
): boolean {
  if (userSizedHeap(options)) return false;
  for (const flag of LONG_RUN_HEAP_FLAGS) setFlags(flag);
  return true;
}
