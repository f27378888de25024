/**
 * V8's heap sized for a long run of many requests (apply). Left to itself, V8 lets the old
 * generation grow to several times the data that survived the last full collection; an apply's
 * short-lived objects (each request's frames, answers and parsers) live across a round trip and
 * fill it with garbage between collections. Growing the old generation by 20% at a time, and the
 * young generation no further than it grew while the modules loaded, keeps a scale-4 apply's peak
 * near 200 MiB instead of ~350 MiB.
 *
 * The options are set only when this node's V8 lists both (an unknown option would print an error on
 * every apply), and only when the user set no heap option of their own.
 */
import { spawnSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';

export const LONG_RUN_HEAP_FLAGS = ['--heap-growing-percent=20', '--semi-space-growth-factor=1'] as const;

/** V8's heap options (either spelling: `-` or `_`) that mean the user sized the heap. */
const HEAP_OPTION = /--(?:max-old-space-size|max-semi-space-size|min-semi-space-size|max-heap-size|heap-growing-percent|semi-space-growth-factor|optimize-for-size)(?=[=\s]|$)/;

export interface NodeRuntime {
  /** node's own arguments (`process.execArgv`). */
  execArgv: readonly string[];
  /** `NODE_OPTIONS`, if set. */
  nodeOptions: string | undefined;
  /** What `node --v8-options` prints: the options this node's V8 knows. */
  v8Options(): string;
  setFlags(flag: string): void;
}

const thisNode = (): NodeRuntime => ({
  execArgv: process.execArgv,
  nodeOptions: process.env.NODE_OPTIONS,
  v8Options: () => spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8', env: {} }).stdout ?? '',
  setFlags: setFlagsFromString,
});

/** Whether the user sized V8's heap: then docplane leaves it as they set it. */
export function userSizedHeap({ execArgv, nodeOptions }: Pick<NodeRuntime, 'execArgv' | 'nodeOptions'>): boolean {
  return [...execArgv, nodeOptions ?? ''].some((option) => HEAP_OPTION.test(option.replaceAll('_', '-')));
}

/** Whether V8's list of options (`node --v8-options`) names `flag` (`--name=value`). */
export function v8Lists(v8Options: string, flag: string): boolean {
  const name = flag.replace(/=.*$/, '');
  return v8Options.split('\n').some((line) => line.trimStart().startsWith(`${name} `));
}

/** Sizes the heap for a long run, unless the user sized it or this V8 lacks an option; says whether it did. */
export function sizeHeapForLongRun(node: NodeRuntime = thisNode()): boolean {
  if (userSizedHeap(node)) return false;
  const listed = node.v8Options();
  if (!LONG_RUN_HEAP_FLAGS.every((flag) => v8Lists(listed, flag))) return false;
  for (const flag of LONG_RUN_HEAP_FLAGS) node.setFlags(flag);
  return true;
}
