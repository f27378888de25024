/**
 * References the config alone cannot settle are validate warnings at file:line with the config's
 * closest name; and the checks of names a config gives (emails, look-alike titles).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runValidate } from '../../src/config/validate.js';
import { formatConfigIssue } from '../../src/core/errors.js';
import { lookAlikeNote, lookAlikes, spelledOut, titleSkeleton, userProblem } from '../../src/kinds/common/text.js';
import { withFiles } from './helpers.js';

const HEAD = 'version: 1\norganization:\n  id: org_acme\n';

async function warningsOf(yaml: string): Promise<string[]> {
  return withFiles({ 'docplane.yaml': yaml }, async (t) => {
    const result = await runValidate({ path: path.join(t.dir, 'docplane.yaml') });
    if (!result.valid) throw result.error;
    // Messages naming another place name it by the full path: shown here by the file's name.
    return result.warnings.map((w) => formatConfigIssue({ ...w, file: path.basename(w.file), message: w.message.replaceAll(`${t.dir}${path.sep}`, '') }));
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

  it('people not listed under members (members left unmanaged): one line per organization naming them all, with a count', async () => {
    const warnings = await warningsOf(
      `${HEAD}teams:\n  - title: Legal\n    members: [ann@acme.com, bob@acme.com]\n  - title: Ops\n    members: [bob@acme.com, cy@acme.com]\ncollections:\n  - { title: Policies, access: { users: { dee@acme.com: read } } }\n`,
    );
    expect(warnings).toEqual([
      'docplane.yaml:6:15: teams["Legal"].members: 4 people named in the config but not under members (their roles stay unmanaged; plan checks they are members of organization org_acme): "ann@acme.com", "bob@acme.com", "cy@acme.com", "dee@acme.com"',
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

  it('a look-alike note names both titles; a spelled-out title shows what the eye cannot tell apart', () => {
    expect(lookAlikeNote('site', 'Docs\u200B', ['Docs', 'Blog'])).toEqual([
      'warning: site "Docs\u200B" is new, but looks the same as the existing site "Docs": they differ only by invisible or look-alike characters or whitespace; check the title is not a copy with a stray character',
    ]);
    expect(lookAlikeNote('site', 'Docs', ['Docs', 'Blog'])).toEqual([]);
    expect(spelledOut('L\u0435gal\u200B\t é')).toBe('L\\u{435}gal\\u{200B}\\u{9} é');
  });

  it('two keys of one kind and scope that look alike are a validate warning at the second, naming both', async () => {
    const warnings = await warningsOf(
      `${HEAD}teams:\n  - title: Engineering\n  - title: "Engineering\u200b"\n  - title: "Engineering "\ncollections:\n  - title: Policies\n    collections: [{ title: API }, { title: "AP\u0406" }]\nsites:\n  - title: Docs\n    sectionGroups: [{ title: Guides }, { title: "Guid\u0435s" }]\n  - title: Blog\n    sectionGroups: [{ title: Guides }]\n`,
    );
    expect(warnings).toEqual([
      'docplane.yaml:6:5: teams[1]: teams["Engineering\\u{200B}"] looks the same as teams["Engineering"] at docplane.yaml:5:5: they differ only by invisible or look-alike characters or whitespace; check one is not a copy with a stray character',
      'docplane.yaml:7:5: teams[2]: teams["Engineering "] looks the same as teams["Engineering"] at docplane.yaml:5:5: they differ only by invisible or look-alike characters or whitespace; check one is not a copy with a stray character',
      'docplane.yaml:10:35: collections[0].collections[1]: collections["Policies/AP\\u{406}"] looks the same as collections["Policies/API"] at docplane.yaml:10:19: they differ only by invisible or look-alike characters or whitespace; check one is not a copy with a stray character',
      'docplane.yaml:13:40: sites[0].sectionGroups[1]: section group "Guid\\u{435}s" of site Docs looks the same as section group "Guides" of site Docs at docplane.yaml:13:21: they differ only by invisible or look-alike characters or whitespace; check one is not a copy with a stray character',
    ]);
  });
});

describe('one round of errors', () => {
  async function validate(yaml: string) {
    return withFiles({ 'docplane.yaml': yaml }, async (t) => {
      const result = await runValidate({ path: path.join(t.dir, 'docplane.yaml') });
      const show = (w: Parameters<typeof formatConfigIssue>[0]) => formatConfigIssue({ ...w, file: path.basename(w.file), message: w.message.replaceAll(`${t.dir}${path.sep}`, '') });
      return { valid: result.valid, problems: result.valid ? [] : result.error.issues.map(show), warnings: result.warnings.map(show) };
    });
  }

  it('reports schema errors, duplicates and references together, and the warnings beside them', async () => {
    const r = await validate(
      `${HEAD}members:\n  - { user: zoe@acme.com, role: read }\nteams:\n  - title: Legal\n    members: [zoee@acme.com]\n  - title: Legal\ncollections:\n  - title: Policies\n    defaultLevel: 3\nsaml:\n  - { label: Okta, entityID: "urn:x", ssoURL: "https://idp.example/sso", defaultTeam: Lgal }\n`,
    );
    expect(r.valid).toBe(false);
    expect(r.problems).toEqual([
      'docplane.yaml:7:5: teams[0]: teams["Legal"] is defined twice: here and at docplane.yaml:9:5',
      'docplane.yaml:9:5: teams[1]: teams["Legal"] is defined twice: here and at docplane.yaml:7:5',
      'docplane.yaml:12:19: collections[0].defaultLevel: must be one of admin, create, review, edit, comment, read, inherit, not the number 3',
    ]);
    expect(r.warnings).toEqual([
      'docplane.yaml:8:15: teams["Legal"].members: "zoee@acme.com" names no member of the config; plan checks it against organization org_acme — did you mean "zoe@acme.com"?',
      'docplane.yaml:14:87: saml["Okta"].defaultTeam: "Lgal" names no team of the config; plan checks it against organization org_acme — did you mean "Legal"?',
    ]);
  });

  it('leaves out only the entry that fails its schema: the other entries are still checked (duplicates, references), each at its own line', async () => {
    const r = await validate(
      `${HEAD}teams:\n  - title: Legal\n    bogus: 1\n  - title: Ops\n  - title: Ops\n  - title: Dev\n    members: [zoee@acme.com]\nmembers:\n  - { user: zoe@acme.com, role: read }\n`,
    );
    expect(r.problems).toEqual([
      'docplane.yaml:6:5: teams[0].bogus: unknown key "bogus"',
      'docplane.yaml:7:5: teams[1]: teams["Ops"] is defined twice: here and at docplane.yaml:8:5',
      'docplane.yaml:8:5: teams[2]: teams["Ops"] is defined twice: here and at docplane.yaml:7:5',
    ]);
    expect(r.warnings).toEqual(['docplane.yaml:10:15: teams["Dev"].members: "zoee@acme.com" names no member of the config; plan checks it against organization org_acme — did you mean "zoe@acme.com"?']);
  });

  it('leaves a key that fails its schema out of the later checks: a reference to its entries is not reported again', async () => {
    const r = await validate(`${HEAD}teams:\n  - title: Legal\n    bogus: 1\nspaces:\n  - id: s1\n    access: { teams: { Legal: read } }\n`);
    expect(r.problems).toEqual(['docplane.yaml:6:5: teams[0].bogus: unknown key "bogus"']);
    expect(r.warnings).toEqual([]);
  });
});
