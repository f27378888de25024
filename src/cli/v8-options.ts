/**
 * V8's options that docplane sets at run time (Node's `v8.setFlagsFromString`), each for a measured
 * reason, and only when the user set none of the same family on node's command line or in
 * `NODE_OPTIONS`: whoever chose has chosen.
 *
 * **When functions are optimized, for every command.** V8 optimizes a function with Turbofan once it
 * has run a budget of bytecode (`--interrupt-budget`, 66 KiB of it by default). That default suits a
 * page or a server that runs for hours; a command that runs for a second or two optimizes functions
 * that have barely started, on a compiler thread that shares the machine's cores, and throws some of
 * them away again when their first guesses about types turn out wrong (a plan of the scale-1 config:
 * 107 functions marked for Turbofan, 19 deoptimized; with docplane's budget 10 and 1). Eight times the
 * budget leaves Turbofan the functions that run long. Measured side by side, alternating
 * (docs/benchmarks.md, "V8 optimizes later"): a cold plan of the scale-1 config took 1.52 → 1.35 s of
 * CPU (median of 12) at the same wall, an import 2.50 → 2.07 s (median of 6), the config's check and
 * diff at scale 5 1.15 → 0.77 s (median of 3). What runs long is optimized a little later: the yaml
 * package's parse of the scale-5 config, ~1.7 s of hot code, took 1.68–1.91 s against 1.56–1.72 s (3
 * runs each), up to ~10% more.
 *
 * **The heap, for a long run of many requests (apply).** Left to itself, V8 lets the old generation
 * grow to up to four times the data that survived the last full collection, and the young generation
 * to 16 MiB a half. An apply promotes many short-lived objects (each request's frames, answers and
 * parsers live across a round trip), so the old generation fills with garbage between full
 * collections: a scale-4 apply (~70 MiB live) peaked at ~370 MiB. Growing the old generation by 20% at
 * a time, and the young generation no further than it grew while the modules loaded, holds the same
 * apply under 200 MiB at about the same CPU (docs/benchmarks.md, "Memory at scale 4"). Only an apply
 * is sized so. A plan is short, and runs as fast with V8's defaults.
 *
 * V8 reads these options each time it uses them (a function's budget when it is set, the heap's when it
 * resizes), so setting them once the process runs takes effect; Node's documentation warns that this
 * holds for some options only, and the tests in v8-options.test.ts check it of these.
 */
import { setFlagsFromString } from 'node:v8';

export const LONG_RUN_HEAP_FLAGS = ['--heap-growing-percent=20', '--semi-space-growth-factor=1'] as const;

export const OPTIMIZE_LATER_FLAGS = ['--interrupt-budget=540672'] as const;

/** V8's heap options (either spelling: `-` or `_`) that mean the user sized the heap. */
const HEAP_OPTION = /--(?:max-old-space-size|max-semi-space-size|min-semi-space-size|max-heap-size|heap-growing-percent|semi-space-growth-factor|optimize-for-size)(?=[=\s]|$)/;

/** V8's options that mean the user chose how code is compiled and optimized. */
const TIERING_OPTION = /--(?:no-)?(?:interrupt-budget|invocation-count-for-[a-z]+|max-opt|opt|turbofan|maglev|sparkplug|always-sparkplug|always-turbofan|always-opt|jitless|lite-mode|optimize-for-size)(?=[=\s]|$)/;

export interface NodeOptions {
  /** node's own arguments (`process.execArgv`). */
  execArgv: readonly string[];
  /** `NODE_OPTIONS`, if set. */
  nodeOptions: string | undefined;
}

const current = (): NodeOptions => ({ execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS });

function userSet(pattern: RegExp, { execArgv, nodeOptions }: NodeOptions): boolean {
  return [...execArgv, nodeOptions ?? ''].some((option) => pattern.test(option.replaceAll('_', '-')));
}

/** Whether the user sized V8's heap: then docplane leaves it as they set it. */
export function userSizedHeap(options: NodeOptions): boolean {
  return userSet(HEAP_OPTION, options);
}

/** Whether the user chose how V8 compiles and optimizes: then docplane leaves it as they set it. */
export function userTunedTiering(options: NodeOptions): boolean {
  return userSet(TIERING_OPTION, options);
}

/** Leaves Turbofan the functions that run long, unless the user chose; says whether it did. */
export function optimizeLater(options: NodeOptions = current(), setFlags: (flag: string) => void = setFlagsFromString): boolean {
  if (userTunedTiering(options)) return false;
  for (const flag of OPTIMIZE_LATER_FLAGS) setFlags(flag);
  return true;
}

/** Sizes the heap for a long run, unless the user sized it; says whether it did. */
export function sizeHeapForLongRun(options: NodeOptions = current(), setFlags: (flag: string) => void = setFlagsFromString): boolean {
  if (userSizedHeap(options)) return false;
  for (const flag of LONG_RUN_HEAP_FLAGS) setFlags(flag);
  return true;
}
