/**
 * Keeping the simulated structure exact while steps run concurrently. Two structure changes commute
 * unless both append to the same group, or both land next to the same top-level item: removals and
 * appends at the end of the top level commute with everything else. So steps are chained (each needs
 * the one before it) only when they touch the same tree (a top-level item and everything in it): the
 * plan simulates the steps in the order the chain gives them, and apply runs them in that order.
 */
import { topAncestor, type ItemKey, type Layout } from './layout.js';

export class TreeChain {
  private readonly last = new Map<ItemKey, string>();

  constructor(private readonly layout: Layout) {}

  /** The trees holding these items (groups the step appends to, or leaves for the root, or moves). */
  trees(items: ReadonlyArray<ItemKey | undefined>): ItemKey[] {
    const out = new Set<ItemKey>();
    for (const k of items) {
      if (k === undefined) continue;
      const t = topAncestor(this.layout, k);
      if (t !== undefined) out.add(t);
    }
    return [...out];
  }

  /** The step ids (`address:action`) this step waits for, and it becomes the last step of its trees. */
  touch(stepId: string, trees: readonly ItemKey[]): string[] {
    const needs = new Set<string>();
    for (const t of trees) {
      const prev = this.last.get(t);
      if (prev !== undefined && prev !== stepId) needs.add(prev);
      this.last.set(t, stepId);
    }
    return [...needs];
  }
}
