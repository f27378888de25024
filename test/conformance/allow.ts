// Documented differences between what docplane or its emulator does and the live description.
// Rule (docs/conformance.md): an entry only for a difference that is known to hold on the live
// service too, with the reason; never to make a run green. The list starts empty.
import type { ConformanceProblem } from './validator.js';

export interface AllowEntry {
  /** The operationId (or `METHOD /template`) exactly. */
  operation: string;
  /** Matches the problem's JSON pointer: a string exactly, or a pattern. */
  pointer: string | RegExp;
  /** Optionally only this kind of problem. */
  where?: ConformanceProblem['where'];
  /** Why the difference is right, citing a document of this repository. */
  reason: string;
}

export const ALLOWED_DIFFERENCES: readonly AllowEntry[] = Object.freeze([]);

export function isAllowed(problem: ConformanceProblem, allow: readonly AllowEntry[]): boolean {
  return allow.some(
    (a) =>
      a.operation === problem.operation &&
      (a.where === undefined || a.where === problem.where) &&
      (typeof a.pointer === 'string' ? a.pointer === problem.pointer : a.pointer.test(problem.pointer)),
  );
}
