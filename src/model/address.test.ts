import { describe, expect, it } from 'vitest';
import { matchesAny } from './address.js';

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
