// Documented differences between what docplane or its emulator does and the live description.
// Rule (docs/conformance.md): an entry only for a difference that is known to hold on the live
// service too, with the reason; never to make a run green. The one exception, for a transition:
// the requests docplane still sends that the live service refuses, until the fixes of the
// live-contract issue land (docs/conformance.md, "Pending docplane fixes"); remove them then.
import type { ConformanceProblem } from './validator.js';

export interface AllowEntry {
  /** The operationId (or `METHOD /template`) exactly; a pattern for `METHOD /path` of paths the description lacks. */
  operation: string | RegExp;
  /** Matches the problem's JSON pointer: a string exactly, or a pattern. */
  pointer: string | RegExp;
  /** Optionally only this kind of problem. */
  where?: ConformanceProblem['where'];
  /** Why the difference is right, citing a document of this repository. */
  reason: string;
}

/** Documented differences between the emulator's exchanges and the live description: none. */
export const ALLOWED_DIFFERENCES: readonly AllowEntry[] = Object.freeze([] satisfies AllowEntry[]);

export function isAllowed(problem: ConformanceProblem, allow: readonly AllowEntry[]): boolean {
  return allow.some(
    (a) =>
      (typeof a.operation === 'string' ? a.operation === problem.operation : a.operation.test(problem.operation)) &&
      (a.where === undefined || a.where === problem.where) &&
      (typeof a.pointer === 'string' ? a.pointer === problem.pointer : a.pointer.test(problem.pointer)),
  );
}
