/**
 * Address patterns, shared by `--target`, `--replace` and `protect`. A pattern selects an address
 * when it equals it, when the address lies under it (`sites["site_docs"]` selects
 * `sites["site_docs"].sections["guides"]`), or as a glob: `**` is any text, `*` any text without a
 * double quote (so `teams["*"]` stays inside one key). A pattern may be qualified by its
 * organization (`org_acme/teams["Engineering"]`); an unqualified one applies to every organization.
 */

export interface AddressPattern {
  /** The organization part, a glob; undefined for any organization. */
  org?: RegExp;
  address: RegExp;
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
    org: orgPart === undefined ? undefined : new RegExp(`^${globSource(orgPart)}$`),
    // Under the pattern: the address goes on with a `.` or `[` after the matched part.
    address: new RegExp(`^(?:${globSource(addressPart)})(?:$|[.[])`),
    source: pattern,
  };
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
