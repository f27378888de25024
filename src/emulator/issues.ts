/**
 * A zod issue as one line naming the field (`title: at most 50 characters`), for request bodies
 * and for the state file alike.
 */
import type { z } from 'zod';

function fieldName(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || 'body';
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

/** One zod issue as `<field>: <what is wrong>` (`title: at most 50 characters`). */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const field = fieldName(issue.path);
  const missing = issue.code !== 'unrecognized_keys' && issue.code !== 'custom' && valueAt(input, issue.path) === undefined;
  if (missing) return `${field}: required`;
  switch (issue.code) {
    case 'invalid_type': {
      if (valueAt(input, issue.path) === null) return `${field}: must not be null`;
      return `${field}: must be ${article(issue.expected)}`;
    }
    case 'too_big': {
      const unit = unitOf(issue.origin, Number(issue.maximum));
      return unit ? `${field}: at most ${issue.maximum} ${unit}` : `${field}: at most ${issue.maximum}`;
    }
    case 'too_small': {
      const unit = unitOf(issue.origin, Number(issue.minimum));
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return `${field}: must not be empty`;
      return unit ? `${field}: at least ${issue.minimum} ${unit}` : `${field}: at least ${issue.minimum}`;
    }
    case 'invalid_value':
      return `${field}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return issue.keys.map((k) => `${fieldName([...issue.path, k])}: unknown field`).join('; ');
    case 'invalid_format':
      return `${field}: must be a valid ${issue.format}`;
    default:
      return `${field}: ${issue.message}`;
  }
}

function article(expected: string): string {
  if (expected === 'array') return 'an array';
  if (expected === 'object') return 'an object';
  if (expected === 'int') return 'an integer';
  return `a ${expected}`;
}

function unitOf(origin: string, n: number): string {
  if (origin === 'string') return n === 1 ? 'character' : 'characters';
  if (origin === 'array' || origin === 'set') return n === 1 ? 'item' : 'items';
  return '';
}
