/** The syntax of `protect` entries, and the "did you mean" of messages. */
import { describe, expect, it } from 'vitest';
import { addressProblem } from '../../src/kinds/index.js';
import { suggest } from '../../src/core/text.js';
import { parsePattern, patternMatches } from '../../src/model/address.js';

describe('protect entries', () => {
  const good = [
    'organization',
    'teams["Legacy"]',
    'teams["Leg*"]',
    'teams[*]',
    '**',
    'org_acme/teams["Legacy"]',
    '*/saml["Okta"]',
    'sites["site_docs"]',
    'sites["site_docs"].sections["guides"].siteSpaces["space_guides_v2"]',
    'sites["site_docs"].shareLinks["partner-*"]',
    'collections["Product/API"]',
    'teams["Quote \\" inside"]',
    'teams["Engineering"].members',
  ];
  it.each(good)('accepts %s (and the planner can match it)', (pattern) => {
    expect(addressProblem(pattern)).toBeUndefined();
    expect(() => parsePattern(pattern)).not.toThrow();
  });

  it.each([
    ['tems["x"]', '"tems" is not part of any address — did you mean "teams"?'],
    ['teams[x]', 'a key must be written ["…"] (JSON string quotes) at character 6 of "teams[x]"'],
    ['teams["x"', 'a key must be written ["…"] (JSON string quotes) at character 6 of "teams[\\"x\\""'],
    ['teams["x"].membres', '"membres" is not part of any address — did you mean "members"?'],
    ['teams["x"] ', 'unexpected " " at character 11 of "teams[\\"x\\"] "'],
    ['["x"]', 'expected a name at character 1 of "[\\"x\\"]"'],
  ])('refuses %s', (pattern, problem) => {
    expect(addressProblem(pattern)).toBe(problem);
  });
});

describe('patterns select an address and what is under it', () => {
  const addresses = [
    'teams["Eng"]',
    'teams["Eng"].members',
    'teams["Eng"].members["a@b.c"]',
    'teams["Engineering"]',
    'teams["Eng"]x',
    'teams',
    'teamsX["Eng"]',
    'sites["s"].sections["guides"]',
    'sites["s"].sections["guides-2"]',
    'collections["Product/API"]',
  ];
  it.each([
    ['teams["Eng"]', ['teams["Eng"]', 'teams["Eng"].members', 'teams["Eng"].members["a@b.c"]']],
    ['teams', ['teams["Eng"]', 'teams["Eng"].members', 'teams["Eng"].members["a@b.c"]', 'teams["Engineering"]', 'teams["Eng"]x', 'teams']],
    ['teams["Eng*"]', ['teams["Eng"]', 'teams["Eng"].members', 'teams["Eng"].members["a@b.c"]', 'teams["Engineering"]']],
    ['sites["s"].sections["guides"]', ['sites["s"].sections["guides"]']],
    ['collections["Product/API"]', ['collections["Product/API"]']],
    ['org_acme/teams["Eng"]', ['teams["Eng"]', 'teams["Eng"].members', 'teams["Eng"].members["a@b.c"]']],
  ])('%s', (pattern, selected) => {
    const parsed = parsePattern(pattern);
    expect(addresses.filter((a) => patternMatches(parsed, 'org_acme', a))).toEqual(selected);
    // A qualified pattern selects in its organization only.
    if (pattern.includes('/teams')) expect(addresses.some((a) => patternMatches(parsed, 'org_other', a))).toBe(false);
  });
});

describe('suggest', () => {
  it.each([
    ['titel', ['title', 'members'], 'title'],
    ['editor', ['admin', 'edit', 'read'], 'edit'],
    ['team', ['teams', 'members'], 'teams'],
    ['TITLE', ['title'], 'title'],
    ['xyz', ['title', 'members'], undefined],
    ['sectons', ['sections', 'siteSpaces'], 'sections'],
  ])('%s among %j → %s', (word, candidates, expected) => {
    expect(suggest(word, candidates)).toBe(expected);
  });
});
