/**
 * Addresses: `teams["Engineering"]`, `sites["site_docs"].sections["guides"]`. How a key is written,
 * refs to what a create step made, step ids, and address patterns, shared by `--target`, `--replace` and `protect`. A pattern selects an address
 * when it equals it, when the address lies under it (`sites["site_docs"]` selects
 * `sites["site_docs"].sections["guides"]`), or as a glob: `**` is any text, `*` any text without a
 * double quote (so `teams["*"]` stays inside one key). A pattern may be qualified by its
 * organization (`org_acme/teams["Engineering"]`); an unqualified one applies to every organization.
 */

import { didYouMean } from '../core/text.js';
import type { Action } from './step.js';

/** JSON string quoting for address keys: teams["Engineering"]. */
export function key(value: string): string {
  return `[${JSON.stringify(value)}]`;
}

/** `{{ref:ORG/ADDRESS}}`: the id of what the create step at ADDRESS made; `field` for another field. */
export function ref(org: string, address: string, field?: string): string {
  return `{{ref:${org}/${address}${field ? `#${field}` : ''}}}`;
}

export function stepId(org: string, address: string, action: Action): string {
  return `${org}/${address}:${action}`;
}

/** What a pattern's part says of a name or an address. */
export interface Matcher {
  test(text: string): boolean;
}

export interface AddressPattern {
  /** The organization part, a glob; undefined for any organization. */
  org?: Matcher;
  address: Matcher;
  source: string;
}

// An organization id holds no brackets, quotes or slashes, so `ORG/` before the first `[` or `.` is
// unambiguous (a slash inside a key, as in `collections["A/B"]`, comes after a bracket).
const QUALIFIED = /^([^[\]"./]+)\/(.+)$/;

function globSource(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        out += '.*';
        i++;
      } else out += '[^"]*';
    } else out += c.replace(/[.+?^${}()|[\]\\/]/g, '\\$&');
  }
  return out;
}

export function parsePattern(pattern: string): AddressPattern {
  const qualified = QUALIFIED.exec(pattern);
  const [orgPart, addressPart] = qualified ? [qualified[1], qualified[2]] : [undefined, pattern];
  return {
    org: orgPart === undefined ? undefined : orgPart.includes('*') ? new RegExp(`^${globSource(orgPart)}$`) : { test: (org) => org === orgPart },
    // Under the pattern: the address goes on with a `.` or `[` after the matched part. A pattern
    // without a glob is compared as a string: the convergence check of a large apply has thousands.
    address: addressPart.includes('*') ? new RegExp(`^(?:${globSource(addressPart)})(?:$|[.[])`) : { test: (address) => isAtOrUnder(address, addressPart) },
    source: pattern,
  };
}

/** Whether `address` is `prefix`, or goes on after it with a `.` or `[`. */
function isAtOrUnder(address: string, prefix: string): boolean {
  if (!address.startsWith(prefix)) return false;
  const next = address[prefix.length];
  return next === undefined || next === '.' || next === '[';
}

export function patternMatches(pattern: AddressPattern, org: string, address: string): boolean {
  if (pattern.org && !pattern.org.test(org)) return false;
  return pattern.address.test(address);
}

/** Whether any of `patterns` selects the address `address` of organization `org`. */
export function matchesAny(patterns: readonly string[] | readonly AddressPattern[], org: string, address: string): boolean {
  for (const p of patterns) {
    const parsed = typeof p === 'string' ? parsePattern(p) : p;
    if (patternMatches(parsed, org, address)) return true;
  }
  return false;
}

/** The names an address may hold: its first segment, and the names that may follow a key or a name. */
export interface AddressVocabulary {
  top: readonly string[];
  inner: readonly string[];
}

/**
 * Why a pattern (a `protect` entry, `--target`, `--replace`) is not an address or glob, or undefined
 * when it is one. The names come from the registry of kinds.
 */
export function addressSyntaxProblem(pattern: string, names: AddressVocabulary): string | undefined {
  const qualified = QUALIFIED.exec(pattern);
  const address = qualified ? qualified[2] : pattern;
  if (address === '**' || address === '*') return undefined;
  let i = 0;
  let first = true;
  const expectName = (): string | undefined => {
    const m = /^[A-Za-z*]+/.exec(address.slice(i));
    if (!m) return `expected a name at character ${i + 1} of ${JSON.stringify(pattern)}`;
    const name = m[0];
    i += name.length;
    if (!name.includes('*')) {
      const allowed = first ? names.top : names.inner;
      if (!allowed.includes(name)) return `"${name}" is not part of any address${didYouMean(name, allowed)}`;
    }
    first = false;
    return undefined;
  };
  const problem = expectName();
  if (problem) return problem;
  while (i < address.length) {
    const c = address[i];
    if (c === '.') {
      i++;
      const p = expectName();
      if (p) return p;
    } else if (c === '[') {
      // A key: a JSON string (globs may stand inside it), or a bare * / **.
      const rest = address.slice(i + 1);
      const bare = /^\*\*?\]/.exec(rest);
      if (bare) {
        i += 1 + bare[0].length;
        continue;
      }
      const m = /^"((?:[^"\\]|\\.)*)"\]/.exec(rest);
      if (!m) return `a key must be written ["…"] (JSON string quotes) at character ${i + 1} of ${JSON.stringify(pattern)}`;
      try {
        JSON.parse(`"${m[1]}"`);
      } catch {
        return `the key at character ${i + 1} of ${JSON.stringify(pattern)} is not a valid JSON string`;
      }
      i += 1 + m[0].length;
    } else if (c === '*') {
      i++;
    } else {
      return `unexpected "${c}" at character ${i + 1} of ${JSON.stringify(pattern)}`;
    }
  }
  return undefined;
}
