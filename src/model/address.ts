/**
 * Addresses: `teams["Engineering"]`, `sites["site_docs"].sections["guides"]`. An address is a value:
 * a list of segments, each a name (`teams`, `sections`) or a key (`["guides"]`, a JSON string), with
 * an optional organization in front (`org_acme/teams["Eng"]`). This module is the only code that reads
 * an address's text: it parses, formats, compares, lists the ancestors of, and globs addresses, and
 * everything else (narrowing, `--target`, `--replace`, `protect`, the renderings, saved plans) asks
 * it. A pattern selects an address when it equals it, when the address lies under it
 * (`sites["site_docs"]` selects `sites["site_docs"].sections["guides"]`), or as a glob: `**` is any
 * text, `*` any text without a double quote (so `teams["*"]` stays inside one key). A qualified pattern
 * (`org_acme/teams["Engineering"]`) applies to its organization; an unqualified one to every one.
 */

import { didYouMean } from '../core/text.js';
import type { Action } from './step.js';

/** One part of an address: a name (`sections`) or a key (`["guides"]`); either may hold globs in a pattern. */
export type Segment = { readonly name: string } | { readonly key: string; readonly bare?: true };

/** A parsed address or pattern: the organization it is qualified by, if any, and its segments. */
export interface Address {
  readonly org?: string;
  readonly segments: readonly Segment[];
}

/** Why a text is not an address, with the (zero-based) character it stops at. */
export interface AddressSyntax {
  readonly problem: string;
  readonly at: number;
}

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

/** `ORG/ADDRESS`: an address qualified by its organization. */
export function qualified(org: string, address: string): string {
  return `${org}/${address}`;
}

const isLetter = (c: string | undefined): boolean => c !== undefined && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'));

/**
 * The organization part and the rest. An organization id holds no brackets, quotes, dots or slashes,
 * so `ORG/` before the first `[` or `.` is unambiguous (a slash inside a key, as in
 * `collections["A/B"]`, comes after a bracket).
 */
export function splitOrg(text: string): { org?: string; rest: string } {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '/') return i > 0 && i < text.length - 1 ? { org: text.slice(0, i), rest: text.slice(i + 1) } : { rest: text };
    if (c === '[' || c === ']' || c === '"' || c === '.') break;
  }
  return { rest: text };
}

/** The end of the JSON string starting at `start` (at its opening quote), past the closing quote; -1 when open. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return -1;
}

/**
 * Reads the segments of an address (without its organization) as far as they are well formed.
 * `glob` admits `*` in names and bare `[*]`/`[**]` keys, as patterns have them.
 */
function scan(text: string, glob: boolean): { segments: Segment[]; syntax?: AddressSyntax } {
  const segments: Segment[] = [];
  const nameAt = (i: number): number => {
    let j = i;
    while (j < text.length && (isLetter(text[j]) || (glob && text[j] === '*'))) j++;
    return j;
  };
  let i = nameAt(0);
  if (i === 0) return { segments, syntax: { problem: 'expected a name', at: 0 } };
  segments.push({ name: text.slice(0, i) });
  while (i < text.length) {
    const c = text[i];
    if (c === '.') {
      const end = nameAt(i + 1);
      if (end === i + 1) return { segments, syntax: { problem: 'expected a name', at: i + 1 } };
      segments.push({ name: text.slice(i + 1, end) });
      i = end;
    } else if (c === '[') {
      if (glob && text[i + 1] === '*') {
        const stars = text[i + 2] === '*' ? 2 : 1;
        if (text[i + 1 + stars] === ']') {
          segments.push({ key: '*'.repeat(stars), bare: true });
          i += stars + 2;
          continue;
        }
      }
      if (text[i + 1] !== '"') return { segments, syntax: { problem: 'a key must be written ["…"] (JSON string quotes)', at: i } };
      const end = stringEnd(text, i + 1);
      if (end === -1 || text[end] !== ']') return { segments, syntax: { problem: 'a key must be written ["…"] (JSON string quotes)', at: i } };
      let value: string;
      try {
        value = JSON.parse(text.slice(i + 1, end)) as string;
      } catch {
        return { segments, syntax: { problem: 'the key is not a valid JSON string', at: i } };
      }
      segments.push({ key: value });
      i = end + 1;
    } else if (glob && c === '*') {
      // A glob running past a segment's end (`teams["Eng"]*`): kept on the segment before.
      const last = segments.pop() as Segment;
      segments.push('name' in last ? { name: `${last.name}*` } : { key: `${last.key}*`, bare: true });
      i++;
    } else {
      return { segments, syntax: { problem: `unexpected ${JSON.stringify(c)}`, at: i } };
    }
  }
  return { segments };
}

/** Parses an address (`ORG/` allowed in front); undefined when the text is not one. */
export function parseAddress(text: string): Address | undefined {
  const { org, rest } = splitOrg(text);
  const { segments, syntax } = scan(rest, false);
  return syntax ? undefined : { ...(org === undefined ? {} : { org }), segments };
}

/** The text of an address: `ORG/` when qualified, names joined by `.`, keys JSON-quoted in brackets. */
export function formatAddress(address: Address): string {
  let out = address.org === undefined ? '' : `${address.org}/`;
  address.segments.forEach((s, i) => {
    if ('name' in s) out += i === 0 ? s.name : `.${s.name}`;
    else out += s.bare ? `[${s.key}]` : key(s.key);
  });
  return out;
}

/** The name an address starts with (`teams` of `teams["Eng"].members`, past any `ORG/`); undefined for none. */
export function topName(text: string): string | undefined {
  const { rest } = splitOrg(text);
  let i = 0;
  while (i < rest.length && (isLetter(rest[i]) || rest[i] === '*')) i++;
  return i === 0 ? undefined : rest.slice(0, i);
}

/**
 * The prefixes of an address at which an address above it ends, the address last
 * (`a["x"].b` → `a`, `a["x"]`, `a["x"].b`). Text that is not an address is its own only prefix.
 */
export function ancestors(address: string): string[] {
  const parsed = parseAddress(address);
  if (!parsed) return [address];
  return parsed.segments.map((_, i) => formatAddress({ org: parsed.org, segments: parsed.segments.slice(0, i + 1) }));
}

/** The address of the first keyed entry: `teams["Eng"]` of `teams["Eng"].members`; undefined without one. */
export function entryOf(address: string): string | undefined {
  const parsed = parseAddress(address);
  if (!parsed || parsed.segments.length < 2 || !('key' in parsed.segments[1])) return undefined;
  return formatAddress({ segments: parsed.segments.slice(0, 2) });
}

/** Whether `address` is `prefix`, or lies under it (goes on after it with a `.` or a `[`). */
export function isUnder(address: string, prefix: string): boolean {
  if (!address.startsWith(prefix)) return false;
  const next = address[prefix.length];
  return next === undefined || next === '.' || next === '[';
}

/**
 * Orders addresses segment by segment (a name before a key, then by text), so that an address comes
 * right before the addresses under it and siblings sort by their keys.
 */
export function compareAddresses(a: string, b: string): number {
  const pa = parseAddress(a);
  const pb = parseAddress(b);
  if (!pa || !pb) return a < b ? -1 : a > b ? 1 : 0;
  const byText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const orgs = byText(pa.org ?? '', pb.org ?? '');
  if (orgs !== 0) return orgs;
  const n = Math.min(pa.segments.length, pb.segments.length);
  for (let i = 0; i < n; i++) {
    const x = pa.segments[i];
    const y = pb.segments[i];
    const kx = 'name' in x ? 0 : 1;
    const ky = 'name' in y ? 0 : 1;
    if (kx !== ky) return kx - ky;
    const c = byText('name' in x ? x.name : x.key, 'name' in y ? y.name : y.key);
    if (c !== 0) return c;
  }
  return pa.segments.length - pb.segments.length;
}

/** A step's id or a step's need (`ADDRESS:ACTION` or `ORG/ADDRESS:ACTION`) without its action. */
export function withoutAction(id: string): string {
  const colon = id.lastIndexOf(':');
  // An address ends with a name or a `]`; what follows the last `:` after it is the action.
  if (colon === -1 || id.indexOf('"', colon) !== -1 || id.indexOf(']', colon) !== -1) return id;
  const action = id.slice(colon + 1);
  for (const c of action) if (c < 'a' || c > 'z') return id;
  return action.length > 0 ? id.slice(0, colon) : id;
}

/** What a pattern's part says of a name or an address. */
export interface Matcher {
  test(text: string): boolean;
}

export interface AddressPattern {
  /** The organization part, a glob; undefined for any organization. */
  org?: Matcher;
  address: Matcher;
  /** The pattern's address part as read so far (a malformed tail leaves it short; `syntax` says why). */
  segments: readonly Segment[];
  syntax?: AddressSyntax;
  source: string;
}

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
  const { org: orgPart, rest: addressPart } = splitOrg(pattern);
  const { segments, syntax } = scan(addressPart, true);
  return {
    org: orgPart === undefined ? undefined : orgPart.includes('*') ? new RegExp(`^${globSource(orgPart)}$`) : { test: (org) => org === orgPart },
    // Under the pattern: the address goes on with a `.` or `[` after the matched part. A pattern
    // without a glob is compared as a string: the convergence check of a large apply has thousands.
    address: addressPart.includes('*') ? new RegExp(`^(?:${globSource(addressPart)})(?:$|[.[])`) : { test: (address) => isUnder(address, addressPart) },
    segments,
    ...(syntax ? { syntax } : {}),
    source: pattern,
  };
}

/** Whether a pattern names its organization (`ORG/…`). */
export function isQualified(pattern: string): boolean {
  return splitOrg(pattern).org !== undefined;
}

/** The address part of a pattern (without `ORG/`). */
export function addressPart(pattern: string): string {
  return splitOrg(pattern).rest;
}

/**
 * The first name of a pattern that selects one top-level resource or all of one kind (`teams["Red"]`,
 * `teams["Re*"]`, `ORG/collections["A/B"]`, `organization`); undefined for any other pattern.
 */
export function topLevelName(pattern: string): string | undefined {
  const p = parsePattern(pattern);
  if (p.syntax || p.segments.length > 2) return undefined;
  const [first, second] = p.segments;
  if (!first || !('name' in first) || first.name.includes('*')) return undefined;
  if (second && !('key' in second)) return undefined;
  return first.name;
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
  const { rest } = splitOrg(pattern);
  if (rest === '**' || rest === '*') return undefined;
  const parsed = parsePattern(pattern);
  for (const [i, s] of parsed.segments.entries()) {
    if (!('name' in s) || s.name.includes('*')) continue;
    const allowed = i === 0 ? names.top : names.inner;
    if (!allowed.includes(s.name)) return `"${s.name}" is not part of any address${didYouMean(s.name, allowed)}`;
  }
  if (parsed.syntax) return `${parsed.syntax.problem} at character ${parsed.syntax.at + 1} of ${JSON.stringify(pattern)}`;
  return undefined;
}
