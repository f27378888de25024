/**
 * References the config alone cannot settle are validate warnings at file:line with the config's
 * closest name; and the checks of names a config gives (emails, look-alike titles).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runValidate } from '../../src/config/validate.js';
import { formatConfigIssue } from '../../src/core/errors.js';
import { lookAlikes, titleSkeleton, userProblem } from '../../src/kinds/common/text.js';
import { withFiles } from './helpers.js';

const HEAD = 'version: 1\norganization:\n  id: org_acme\n';

async function warningsOf(yaml: string): Promise<string[]> {
  return withFiles({ 'docplane.yaml': yaml }, async (t) => {
    const result = await runValidate({ path: path.join(t.dir, 'docplane.yaml') });
    if (!result.valid) throw result.error;
    return result.warnings.map((w) => formatConfigIssue({ ...w, file: path.basename(w.file) }));
  });
}

describe('references the organization settles', () => {
  it('are warnings at file:line, with the config\'s closest name', async () => {
    const warnings = await warningsOf(
      `${HEAD}members:\n  - { user: zoe@acme.com, role: read }\nteams:\n  - title: Legal\n    members: [zoee@acme.com]\nspaces:\n  - id: s1\n    access: { teams: { Legl: read, Support: read } }\nsites:\n  - id: site_docs\n    sectionGroups:\n      - { title: G, sections: [guides] }\n`,
    );
    expect(warnings).toEqual([
      'docplane.yaml:8:15: teams["Legal"].members: "zoee@acme.com" names no member of the config; plan checks it against organization org_acme — did you mean "zoe@acme.com"?',
      'docplane.yaml:11:24: spaces["s1"].access.teams: "Legl" names no team of the config; plan checks it against organization org_acme — did you mean "Legal"?',
      'docplane.yaml:11:36: spaces["s1"].access.teams: "Support" names no team of the config; plan checks it against organization org_acme',
      'docplane.yaml:15:32: sites["site_docs"].sectionGroups["G"].sections: "guides" names no section of site site_docs of the config; plan checks it against organization org_acme',
    ]);
  });

  it('a reference to what the config defines is no warning, whichever unit defines it', async () => {
    const warnings = await warningsOf(
      `${HEAD}members:\n  - { user: zoe@acme.com, role: read }\nteams:\n  - { title: Legal, members: [ZOE@acme.com] }\ncollections:\n  - { title: Policies, access: { teams: { Legal: edit }, users: { zoe@acme.com: read } } }\nspaces:\n  - { title: Terms, collection: Policies }\nsites:\n  - title: New\n    sections: [{ path: terms, title: Terms, space: Policies/Terms }]\n    sectionGroups: [{ title: G, sections: [terms] }]\nsaml:\n  - { label: Okta, entityID: "urn:x", ssoURL: "https://idp.example/sso", defaultTeam: Legal }\ntranslations:\n  - { source: { space: Policies/Terms, language: en }, language: fr }\n`,
    );
    expect(warnings).toEqual([]);
  });
});

describe('names a config gives', () => {
  it('emails: whitespace around them and malformed addresses are refused, saying where the whitespace is', () => {
    expect(userProblem('zoe@acme.com')).toBeUndefined();
    expect(userProblem('u_123')).toBeUndefined();
    expect(userProblem('zoe@acme.com  ')).toBe('"zoe@acme.com  " has whitespace after it (2 characters); remove it');
    expect(userProblem('\tzoe@acme.com')).toBe('"\\tzoe@acme.com" has whitespace before it (1 character); remove it');
    expect(userProblem(' zoe@acme.com ')).toBe('" zoe@acme.com " has whitespace before and after it; remove it');
    expect(userProblem('zoe@acme')).toContain('is not an email address');
    expect(userProblem('zoe@@acme.com')).toContain('is not an email address');
  });

  it('titles that differ only by invisible characters, look-alike letters, compatibility forms or whitespace look alike', () => {
    expect(lookAlikes('Legal\u200B', ['Legal', 'Legals'])).toEqual(['Legal']);
    expect(lookAlikes('L\u0435gal', ['Legal'])).toEqual(['Legal']); // Cyrillic е
    expect(lookAlikes('Ｌｅｇａｌ', ['Legal'])).toEqual(['Legal']); // full-width
    expect(lookAlikes('Legal ', ['Legal'])).toEqual(['Legal']);
    expect(lookAlikes('Legal', ['Legal'])).toEqual([]); // the same title is a match, not a look-alike
    expect(lookAlikes('Legal', ['Regal', 'legal'])).toEqual([]);
    expect(titleSkeleton('A\u00ADB\uFEFFC')).toBe('ABC');
  });
});
