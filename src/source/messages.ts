/**
 * zod issues turned into messages a person who wrote the YAML understands, each with the path it
 * belongs to and where in the YAML to point (the value, the key, or the mapping missing a key).
 */
import { z } from 'zod';
import { didYouMean } from '../core/text.js';
import type { DocPath, LocateMode } from './yaml.js';

export { didYouMean, suggest } from '../core/text.js';

export interface SchemaProblem {
  path: (string | number)[];
  mode: LocateMode;
  message: string;
}

/** "a string", "a list", … for a zod type name. */
function typeName(expected: string): string {
  switch (expected) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'int':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'array':
    case 'tuple':
    case 'set':
      return 'a list';
    case 'object':
    case 'record':
    case 'map':
      return 'a mapping (key: value)';
    case 'null':
      return 'null';
    default:
      return expected;
  }
}

const SECRET_STRING = Symbol('secret string');

/** What the user wrote, in the same words. */
function describeInput(input: unknown): string {
  if (input === SECRET_STRING) return 'a string (from ${…}, not shown)';
  if (input === null) return 'null (an empty value)';
  if (Array.isArray(input)) return 'a list';
  if (input instanceof Date) return 'a date';
  if (input instanceof Uint8Array) return 'binary data';
  if (input instanceof Map || input instanceof Set) return 'a YAML collection';
  switch (typeof input) {
    case 'string':
      return `the string ${JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}…` : input)}`;
    case 'number':
      return `the number ${input}`;
    case 'boolean':
      return String(input);
    case 'object':
      return 'a mapping';
    default:
      return typeof input;
  }
}

function plural(n: number | bigint, word: string): string {
  return `${n} ${word}${Number(n) === 1 ? '' : 's'}`;
}

function valueAt(root: unknown, path: DocPath): unknown {
  let v = root;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

/** The schema that describes the value at `path` (unwrapping optional, lazy, default, nullable). */
function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let s = schema;
  for (let i = 0; i < 32 && s; i++) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault || s instanceof z.ZodLazy) {
      s = s.unwrap() as z.ZodType;
    } else return s;
  }
  return s;
}

function schemasAt(root: z.ZodType, path: DocPath): z.ZodType[] {
  let current: z.ZodType[] = [root];
  for (let i = 0; i <= path.length; i++) {
    const expanded: z.ZodType[] = [];
    for (const s of current) {
      const u = unwrap(s);
      if (u instanceof z.ZodUnion) expanded.push(...(u.options as z.ZodType[]).map(unwrap).filter((x): x is z.ZodType => !!x));
      else if (u) expanded.push(u);
    }
    if (i === path.length) return expanded;
    const seg = path[i];
    const next: z.ZodType[] = [];
    for (const s of expanded) {
      if (s instanceof z.ZodObject && typeof seg === 'string' && seg in s.shape) next.push(s.shape[seg] as z.ZodType);
      else if (s instanceof z.ZodArray && typeof seg === 'number') next.push(s.element as z.ZodType);
      else if (s instanceof z.ZodRecord) next.push(s.valueType as z.ZodType);
    }
    current = next;
  }
  return current;
}

/** The keys a mapping at `path` may have, for "did you mean". */
export function knownKeys(root: z.ZodType, path: DocPath): string[] {
  const keys = new Set<string>();
  for (const s of schemasAt(root, path)) if (s instanceof z.ZodObject) for (const k of Object.keys(s.shape)) keys.add(k);
  return [...keys];
}

type Issue = z.core.$ZodIssue;

/** Whether a union branch failed on the shape of the value itself (a string where a mapping was expected). */
function failsAtRoot(issues: readonly Issue[]): boolean {
  return issues.some((i) => i.path.length === 0 && (i.code === 'invalid_type' || i.code === 'invalid_value'));
}

function limitMessage(issue: Issue & { code: 'too_big' | 'too_small' }): string {
  const big = issue.code === 'too_big';
  const n = big ? (issue as { maximum: number | bigint }).maximum : (issue as { minimum: number | bigint }).minimum;
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      if (!big && Number(n) === 1) return 'must not be empty';
      return big
        ? `must be at most ${plural(n, 'character')} (the API's limit)`
        : `must be at least ${plural(n, 'character')} (the API's limit)`;
    case 'array':
    case 'set':
      if (!big && Number(n) === 1) return 'must list at least one item';
      return big ? `must list at most ${plural(n, 'item')}` : `must list at least ${plural(n, 'item')}`;
    default:
      if (big) return inclusive ? `must be at most ${n}` : `must be less than ${n}`;
      return inclusive ? `must be at least ${n}` : `must be more than ${n}`;
  }
}

function formatMessage(issue: Issue & { code: 'invalid_format' }): string {
  if (issue.format === 'url') return 'must be a URL starting with https:// (or http://)';
  if (issue.format === 'regex') {
    // A message given in the schema reads better than the pattern.
    return issue.message.startsWith('Invalid') ? `must match the pattern ${issue.pattern ?? ''}` : issue.message;
  }
  return `must be a valid ${issue.format}`;
}

/**
 * Messages for every issue of a failed parse, with union issues narrowed to the branch the user
 * most likely meant (the one whose shape matches what was written).
 */
export function describeIssues(
  root: z.ZodType,
  issues: readonly Issue[],
  input: unknown,
  options: { base?: (string | number)[]; secret?: (path: DocPath) => boolean } = {},
): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const base = options.base ?? [];
  for (const issue of issues) {
    const path = [...base, ...(issue.path as (string | number)[])];
    const raw = valueAt(input, path);
    // A secret's value never goes into a message: describe it by its type only.
    const value = typeof raw === 'string' && options.secret?.(path) ? SECRET_STRING : raw;
    const parent = valueAt(input, path.slice(0, -1));
    const missing =
      path.length > 0 &&
      typeof path[path.length - 1] === 'string' &&
      parent !== null &&
      typeof parent === 'object' &&
      !Array.isArray(parent) &&
      !Object.prototype.hasOwnProperty.call(parent, path[path.length - 1]);
    if (missing && issue.code !== 'unrecognized_keys') {
      out.push({ path, mode: 'parent', message: `is required (missing key "${String(path[path.length - 1])}")` });
      continue;
    }
    switch (issue.code) {
      case 'invalid_type': {
        out.push({ path, mode: 'value', message: `must be ${typeName(issue.expected)}, not ${describeInput(value)}` });
        break;
      }
      case 'unrecognized_keys': {
        const allowed = knownKeys(root, path);
        for (const k of issue.keys) {
          // A key another branch of a union knows is not its own near miss.
          out.push({ path: [...path, k], mode: 'key', message: `unknown key "${k}"${didYouMean(k, allowed.filter((a) => a !== k))}` });
        }
        break;
      }
      case 'invalid_value': {
        const values = issue.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
        if (value === SECRET_STRING) {
          out.push({ path, mode: 'value', message: `must be one of ${values.join(', ')}` });
        } else if (values.length === 1) {
          out.push({ path, mode: 'value', message: `must be ${JSON.stringify(issue.values[0])}, not ${describeInput(value)}` });
        } else {
          // A value of another type says which it is, as a type error does ("not the number 3").
          const hint = typeof value === 'string' ? didYouMean(value, values) : `, not ${describeInput(value)}`;
          out.push({ path, mode: 'value', message: `must be one of ${values.join(', ')}${hint}` });
        }
        break;
      }
      case 'too_big':
      case 'too_small':
        out.push({ path, mode: 'value', message: limitMessage(issue) });
        break;
      case 'invalid_format':
        out.push({ path, mode: 'value', message: formatMessage(issue) });
        break;
      case 'invalid_union': {
        const branches = issue.errors.filter((b) => b.length > 0 && !failsAtRoot(b));
        if (branches.length > 0) {
          const best = branches.reduce((a, b) => (b.length < a.length ? b : a));
          out.push(...describeIssues(root, best, input, { ...options, base: path }));
        } else {
          const custom = issue.message && issue.message !== 'Invalid input' ? issue.message : 'has the wrong type';
          out.push({ path, mode: 'value', message: custom });
        }
        break;
      }
      case 'not_multiple_of':
        out.push({ path, mode: 'value', message: `must be a multiple of ${issue.divisor}` });
        break;
      case 'invalid_key':
        out.push({ path, mode: 'value', message: 'has an invalid key' });
        break;
      default:
        out.push({ path, mode: 'value', message: issue.message });
    }
  }
  return out;
}
