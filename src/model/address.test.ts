import { describe, expect, it } from 'vitest';
import { ancestors, compareAddresses, entryOf, formatAddress, isQualified, isUnder, matchesAny, parseAddress, topLevelName, topName, withoutAction } from './address.js';

describe('address patterns', () => {
  const cases: Array<[string, string, boolean]> = [
    ['teams["Eng"]', 'teams["Eng"]', true],
    ['teams["Eng"]', 'teams["Engineering"]', false],
    ['teams["Eng"]', 'teams["Eng"].members', true],
    ['sites["site_docs"]', 'sites["site_docs"].sections["guides"].siteSpaces["space_v2"]', true],
    ['sites["site_docs"]', 'sites["site_docs2"].structure', false],
    ['teams["*"]', 'teams["Anything at all"]', true],
    ['teams["E*"]', 'teams["Ops"]', false],
    ['collections["Product/*"]', 'collections["Product/API"]', true],
    ['collections["Product/*"]', 'collections["Product"]', false],
    ['sites["site_docs"].shareLinks["partner-*"]', 'sites["site_docs"].shareLinks["partner-acme"]', true],
    ['sites["site_docs"].shareLinks["partner-*"]', 'sites["site_docs"].shareLinks["old-link"]', false],
    ['sites[*', 'sites["a"].sections["b"]', false],
    ['sites[**', 'sites["a"].sections["b"]', true],
    ['**', 'members["a@b.c"]', true],
    ['org_acme/teams["Eng"]', 'teams["Eng"]', true],
    ['org_other/teams["Eng"]', 'teams["Eng"]', false],
    ['org_*/teams["Eng"]', 'teams["Eng"]', true],
    ['organization', 'organization.agentInstructions', true],
    ['organization.agentInstructions', 'organization', false],
    ['members["a+b@x.com"]', 'members["a+b@x.com"]', true],
    ['members["a.b@x.com"]', 'members["aXb@x.com"]', false],
  ];
  it.each(cases)('%s selects %s: %s', (pattern, address, expected) => {
    expect(matchesAny([pattern], 'org_acme', address)).toBe(expected);
  });
});

describe('the address value', () => {
  it('parses and formats back to the same text, keys holding any character', () => {
    for (const text of ['organization', 'teams["Eng"].members', 'sites["a.b"].sections["say \\"hi\\""].siteSpaces["s/1"]', 'org_acme/collections["A/B"]', 'teams["a:b"]']) {
      const parsed = parseAddress(text);
      expect(parsed).toBeDefined();
      expect(formatAddress(parsed as NonNullable<typeof parsed>)).toBe(text);
    }
    expect(parseAddress('sites["a.b"].sections["x"]')?.segments).toEqual([{ name: 'sites' }, { key: 'a.b' }, { name: 'sections' }, { key: 'x' }]);
    expect(parseAddress('org_acme/teams["Eng"]')?.org).toBe('org_acme');
  });
  it('refuses what is not an address', () => {
    for (const text of ['', 'teams[Eng]', 'teams["Eng"', 'teams["Eng"]x', 'teams..a', '["x"]', 'teams["*"]*']) expect(parseAddress(text)).toBeUndefined();
  });
  it('lists ancestors, the entry, the top name and the address without an action', () => {
    expect(ancestors('sites["a.b"].sections["x[y"]')).toEqual(['sites', 'sites["a.b"]', 'sites["a.b"].sections', 'sites["a.b"].sections["x[y"]']);
    expect(entryOf('teams["E.g"].members')).toBe('teams["E.g"]');
    expect(entryOf('organization.agentInstructions')).toBeUndefined();
    expect(topName('org_acme/collections["A/B"]')).toBe('collections');
    expect(withoutAction('teams["a:b"]:create')).toBe('teams["a:b"]');
    expect(withoutAction('teams["a:b"]')).toBe('teams["a:b"]');
    expect(withoutAction('organization:update')).toBe('organization');
  });
  it('tells what lies under an address', () => {
    expect(isUnder('teams["Eng"].members', 'teams["Eng"]')).toBe(true);
    expect(isUnder('teams["Engineering"]', 'teams["Eng"]')).toBe(false);
  });
  it('orders an address before the addresses under it, siblings by key', () => {
    const sorted = ['teams["b"]', 'teams["a"].members', 'teams', 'teams["a"]', 'organization'].sort(compareAddresses);
    expect(sorted).toEqual(['organization', 'teams', 'teams["a"]', 'teams["a"].members', 'teams["b"]']);
  });
  it('names the top-level entries of patterns and whether a pattern is qualified', () => {
    expect(topLevelName('teams["Re*"]')).toBe('teams');
    expect(topLevelName('org_x/collections["A/B"]')).toBe('collections');
    expect(topLevelName('organization')).toBe('organization');
    expect(topLevelName('teams["a"].members')).toBeUndefined();
    expect(topLevelName('te*ms')).toBeUndefined();
    expect(isQualified('org_x/teams["a"]')).toBe(true);
    expect(isQualified('collections["A/B"]')).toBe(false);
  });
});
