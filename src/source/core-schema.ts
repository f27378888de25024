/**
 * What both quick reads of a config file (src/source/block-yaml.ts, src/source/fast-yaml.ts) share
 * with the yaml package: its YAML 1.2 core schema for plain scalars, with its own patterns
 * (yaml/dist/schema/core, in its order), and its limit on keys.
 */
export const NULL = /^(?:~|[Nn]ull|NULL)?$/;
export const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
export const INT_OCT = /^0o[0-7]+$/;
export const INT = /^[-+]?[0-9]+$/;
export const INT_HEX = /^0x[0-9a-fA-F]+$/;
export const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
export const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
export const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/**
 * Whether a plain scalar may be other than a string: every null, boolean, int and float of the core
 * schema starts with one of these (or is empty). Most scalars of a config (names, emails, ids) do
 * not: one look at the first character spares them the patterns.
 */
const MAYBE_NOT_STRING = /^[-+.~0-9nNtTfF]/;
export const maybeNotString = (s: string | null): s is string => s !== null && MAYBE_NOT_STRING.test(s);

export const constructInt = (s: string): number => (INT_OCT.test(s) ? parseInt(s.substring(2), 8) : INT.test(s) ? parseInt(s, 10) : parseInt(s.substring(2), 16));
export const constructFloat = (s: string): number =>
  FLOAT_NAN.test(s) ? (s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY) : parseFloat(s);

/** A plain scalar's value, as the core schema resolves it. */
export function plainValue(s: string): string | number | boolean | null {
  if (!maybeNotString(s)) return s;
  if (NULL.test(s)) return null;
  if (BOOL.test(s)) return s[0] === 't' || s[0] === 'T';
  if (INT_OCT.test(s) || INT.test(s) || INT_HEX.test(s)) return constructInt(s);
  if (FLOAT_NAN.test(s) || FLOAT_EXP.test(s) || FLOAT.test(s)) return constructFloat(s);
  return s;
}

/** The yaml package refuses implicit keys longer than this. */
export const MAX_KEY_LENGTH = 1024;
