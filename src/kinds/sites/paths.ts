/** Paths are unique within a site and within a section: renames wait for what frees the path, swaps go through a temporary path. */

/**
 * Paths are unique within a site (sections) and within a section (site spaces): a step that gives a
 * path must wait for the step that frees it (the holder's rename or delete). `holders` maps a path to
 * the step address (with its action) of whoever frees it; `renames` maps each renaming step to the
 * path it takes, to leave out a need that would close a cycle (a swap of paths, which no order of
 * single renames can do; apply then reports the API's refusal).
 */
export function pathNeed(
  self: string,
  path: string,
  holders: ReadonlyMap<string, { step: string; takes?: string }>,
): string[] {
  const first = holders.get(path);
  if (!first || first.step.startsWith(`${self}:`)) return [];
  // Follow the chain of renames from the holder: reaching this step again would be a cycle.
  const seen = new Set<string>();
  for (let h: { step: string; takes?: string } | undefined = first; h?.takes !== undefined; h = holders.get(h.takes)) {
    if (h.step.startsWith(`${self}:`) || seen.has(h.step)) return [];
    seen.add(h.step);
  }
  return [first.step];
}

/**
 * The steps of a cycle of path renames through `self` (A takes B's path, B takes A's: a swap), in
 * chain order without `self`; undefined when taking `path` closes no cycle.
 */
export function pathCycle(self: string, path: string, holders: ReadonlyMap<string, { step: string; takes?: string }>): string[] | undefined {
  const chain: string[] = [];
  for (let h = holders.get(path); h !== undefined; h = h.takes === undefined ? undefined : holders.get(h.takes)) {
    if (h.step.startsWith(`${self}:`)) return chain;
    if (chain.includes(h.step) || h.takes === undefined) return undefined;
    chain.push(h.step);
  }
  return undefined;
}

