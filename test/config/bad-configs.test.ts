/**
 * A table of bad configs: each must be refused with exactly these problems, each at its
 * file:line:column, with a message a person understands.
 */
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { problemsOf, withFiles } from './helpers.js';

const HEAD = 'version: 1\norganization:\n  id: org_acme\n';
const long = (n: number) => 'x'.repeat(n);

interface Case {
  name: string;
  /** docplane.yaml, unless `files` is given. */
  yaml?: string | Buffer;
  files?: Record<string, string | Buffer>;
  env?: Record<string, string>;
  expected: string[];
}

const CASES: Case[] = [
  // The file itself.
  { name: 'empty file', yaml: '', expected: ['docplane.yaml:1:1: the file is empty: a config document starts with "version: 1" and an "organization"'] },
  { name: 'comments only', yaml: '# nothing yet\n\n', expected: ['docplane.yaml:1:1: the file is empty: a config document starts with "version: 1" and an "organization"'] },
  {
    name: 'binary file',
    yaml: Buffer.from([0x76, 0x65, 0x72, 0x0a, 0x00, 0x01, 0x02]),
    expected: ['docplane.yaml:2:1: the file is binary, not YAML text (it holds a NUL byte)'],
  },
  {
    name: 'not UTF-8 (latin-1 é on line 3)',
    yaml: Buffer.concat([Buffer.from(`${HEAD}  title: Caf`), Buffer.from([0xe9]), Buffer.from('\n')]),
    expected: ['docplane.yaml:4:13: the file is not valid UTF-8 (byte 0xe9); save it as UTF-8'],
  },
  {
    name: 'UTF-16',
    yaml: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('version: 1\n', 'utf16le')]),
    expected: ['docplane.yaml:1:1: the file is UTF-16 text; save it as UTF-8'],
  },
  { name: 'top level is a list', yaml: '- version: 1\n', expected: ['docplane.yaml:1:1: the top level must be a mapping ("version: 1", "organization: …", …), not a list'] },
  { name: 'top level is a string', yaml: 'hello\n', expected: ['docplane.yaml:1:1: the top level must be a mapping ("version: 1", "organization: …", …), not a string'] },
  // YAML syntax.
  { name: 'tab indentation', yaml: `${HEAD}\ttitle: Acme\n`, expected: ['docplane.yaml:4:1: tabs are not allowed for indentation in YAML; indent with spaces'] },
  { name: 'duplicate key', yaml: `${HEAD}  title: Acme\n  title: Acme 2\n`, expected: ['docplane.yaml:5:3: this key appears twice in the same mapping'] },
  { name: 'unclosed quote', yaml: `${HEAD}  title: "Acme\n`, expected: ['docplane.yaml:4:10: YAML syntax error: this quoted string is not closed (a closing " is missing)'] },
  {
    name: 'alias bomb',
    yaml:
      'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n',
    expected: ['docplane.yaml:2:8: too many aliases (more than 1000 expansions): this looks like an alias bomb; write the values out'],
  },
  // Version.
  { name: 'missing version', yaml: 'organization:\n  id: org_acme\n', expected: ['docplane.yaml:1:1: version: missing "version: 1" (the format version of the config)'] },
  { name: 'unsupported version', yaml: 'version: 2\norganization:\n  id: org_acme\n', expected: ['docplane.yaml:1:10: version: unsupported version 2: this docplane reads version 1'] },
  { name: 'version as a string', yaml: 'version: "1"\norganization: { id: org_acme }\n', expected: ['docplane.yaml:1:10: version: unsupported version "1": this docplane reads version 1'] },
  // Keys.
  { name: 'unknown top-level key', yaml: `${HEAD}team:\n  - title: Eng\n`, expected: ['docplane.yaml:4:1: team: unknown key "team" — did you mean "teams"?'] },
  { name: 'unknown organization key', yaml: `${HEAD}  titel: Acme\n`, expected: ['docplane.yaml:4:3: organization.titel: unknown key "titel" — did you mean "title"?'] },
  { name: 'missing organization', yaml: 'version: 1\nteams: []\n', expected: ['docplane.yaml:1:1: organization: is required (missing key "organization")'] },
  { name: 'missing organization id', yaml: 'version: 1\norganization:\n  title: Acme\n', expected: ['docplane.yaml:3:3: organization.id: is required (missing key "id")'] },
  { name: 'organization is empty', yaml: 'version: 1\norganization:\n', expected: ['docplane.yaml:2:1: organization: must be a mapping (key: value), not null (an empty value)'] },
  { name: 'teams is a mapping', yaml: `${HEAD}teams:\n  Eng: {}\n`, expected: ['docplane.yaml:5:3: teams: must be a list, not a mapping'] },
  // Limits and enums of the API.
  { name: 'organization title too short', yaml: `${HEAD}  title: A\n`, expected: ['docplane.yaml:4:10: organization.title: must be at least 2 characters (the API\'s limit)'] },
  {
    name: 'team title too long',
    yaml: `${HEAD}teams:\n  - title: ${long(65)}\n`,
    expected: ['docplane.yaml:5:12: teams[0].title: must be at most 64 characters (the API\'s limit)'],
  },
  {
    name: 'member role',
    yaml: `${HEAD}members:\n  - { user: frank@acme.com, role: editor }\n`,
    expected: ['docplane.yaml:5:35: members[0].role: must be one of admin, create, review, edit, comment, read — did you mean "edit"?'],
  },
  { name: 'member without role', yaml: `${HEAD}members:\n  - user: frank@acme.com\n`, expected: ['docplane.yaml:5:5: members[0].role: is required (missing key "role")'] },
  {
    name: 'team member with a misspelt key',
    yaml: `${HEAD}teams:\n  - title: Eng\n    members:\n      - { user: bob@acme.com, rol: owner }\n`,
    expected: ['docplane.yaml:7:31: teams[0].members[0].rol: unknown key "rol" — did you mean "role"?'],
  },
  {
    name: 'team member as a number',
    yaml: `${HEAD}teams:\n  - title: Eng\n    members: [42]\n`,
    expected: ['docplane.yaml:6:15: teams[0].members[0]: must be an email or user id, or {user, role}'],
  },
  {
    name: 'collection title with a slash',
    yaml: `${HEAD}collections:\n  - title: Product/API\n`,
    expected: ['docplane.yaml:5:12: collections[0].title: must not contain "/" (collection paths use it to separate titles)'],
  },
  {
    name: 'nested collection description too long',
    yaml: `${HEAD}collections:\n  - title: Product\n    collections:\n      - title: API\n        description: ${long(101)}\n`,
    expected: ['docplane.yaml:8:22: collections[0].collections[0].description: must be at most 100 characters (the API\'s limit)'],
  },
  {
    name: 'space edit mode',
    yaml: `${HEAD}spaces:\n  - id: space_api\n    editMode: readonly\n`,
    expected: ['docplane.yaml:6:15: spaces[0].editMode: must be one of live, locked'],
  },
  {
    name: 'section title too short',
    yaml: `${HEAD}sites:\n  - id: site_docs\n    sections:\n      - { path: guides, title: G, space: space_guides }\n`,
    expected: ['docplane.yaml:7:32: sites[0].sections[0].title: must be at least 2 characters (the API\'s limit)'],
  },
  {
    name: 'section without space',
    yaml: `${HEAD}sites:\n  - id: site_docs\n    sections:\n      - path: guides\n        title: Guides\n`,
    expected: ['docplane.yaml:7:9: sites[0].sections[0].space: is required (missing key "space")'],
  },
  {
    name: 'section group icon too long',
    yaml: `${HEAD}sites:\n  - id: site_docs\n    sectionGroups:\n      - title: Reference\n        icon: ${long(51)}\n`,
    expected: ['docplane.yaml:8:15: sites[0].sectionGroups[0].icon: must be at most 50 characters (the API\'s limit)'],
  },
  {
    name: 'share link active as a string',
    yaml: `${HEAD}sites:\n  - id: site_docs\n    shareLinks:\n      - { name: partner, active: "yes" }\n`,
    expected: ['docplane.yaml:7:34: sites[0].shareLinks[0].active: must be true or false, not the string "yes"'],
  },
  { name: 'SAML label too long', yaml: `${HEAD}saml:\n  - label: ${long(31)}\n`, expected: ['docplane.yaml:5:12: saml[0].label: must be at most 30 characters (the API\'s limit)'] },
  {
    name: 'SAML ssoURL',
    yaml: `${HEAD}saml:\n  - label: Okta\n    ssoURL: acme.okta.com/sso\n`,
    expected: ['docplane.yaml:6:13: saml[0].ssoURL: must be a URL starting with https:// (or http://)'],
  },
  {
    name: 'integration name pattern and empty scopes',
    yaml: `${HEAD}integrations:\n  - name: acme analytics\n    title: Analytics\n    description: Pages\n    script: x\n    scopes: []\n`,
    expected: [
      'docplane.yaml:5:11: integrations[0].name: must hold only letters, digits, "-", "_" and "."',
      'docplane.yaml:9:13: integrations[0].scopes: must list at least one item',
    ],
  },
  {
    name: 'integration without script',
    yaml: `${HEAD}integrations:\n  - name: acme\n    title: Analytics\n    description: Pages\n    scopes: [space:content:read]\n`,
    expected: ['docplane.yaml:5:5: integrations[0].script: is required (missing key "script")'],
  },
  {
    name: 'site redirect source, customization and publishing auth keys',
    yaml: `${HEAD}sites:\n  - id: site_docs\n    redirects:\n      - { source: old, destination: https://x.test }\n    customization:\n      styling: { primaryColour: { light: '#fff', dark: '#000' } }\n    publishingAuth: { backend: custom, fallbackUrl: https://x.test }\n`,
    expected: [
      'docplane.yaml:7:19: sites[0].redirects[0].source: a redirect source is a path such as /old/page or /old/* (letters, digits, -._~+ and %XX escapes)',
      'docplane.yaml:9:18: sites[0].customization.styling.primaryColour: unknown key "primaryColour" — did you mean "primaryColor"?',
      'docplane.yaml:10:40: sites[0].publishingAuth.fallbackUrl: unknown key "fallbackUrl" — did you mean "fallbackURL"?',
    ],
  },
  {
    name: 'a redirect source twice in a site',
    yaml: `${HEAD}sites:\n  - id: site_docs\n    redirects:\n      - { source: /a, destination: https://x.test }\n      - { source: /a, destination: https://y.test }\n`,
    expected: ['docplane.yaml:7:9: sites[0].redirects[0]: redirect "/a" of site site_docs is defined twice: here and at docplane.yaml:8:9', 'docplane.yaml:8:9: sites[0].redirects[1]: redirect "/a" of site site_docs is defined twice: here and at docplane.yaml:7:9'],
  },
  {
    name: 'agent instructions as an incomplete document',
    yaml: `${HEAD}  agentInstructions: { object: document }\n`,
    expected: ['docplane.yaml:4:22: organization.agentInstructions.nodes: is required (missing key "nodes")'],
  },
  {
    name: 'prune of an unknown kind',
    yaml: `${HEAD}prune: [teams, sectons]\n`,
    expected: [
      'docplane.yaml:4:16: prune[1]: must be one of members, teams, collections, spaces, spaceGitSync, fonts, sites, sections, siteSpaces, sectionGroups, shareLinks, externalLinks, redirects, mcpServers, siteGitSync, channels, contextConnections, customHostnames, saml, integrations, installations, translations, openapiSpecs, inviteLinks, all — did you mean "sections"?',
    ],
  },
  {
    name: 'prune as a word',
    yaml: `${HEAD}prune: everything\n`,
    expected: ['docplane.yaml:4:8: prune: must be "all" or a list of kinds (members, teams, collections, spaces, spaceGitSync, fonts, sites, sections, siteSpaces, sectionGroups, shareLinks, externalLinks, redirects, mcpServers, siteGitSync, channels, contextConnections, customHostnames, saml, integrations, installations, translations, openapiSpecs, inviteLinks)'],
  },
  {
    name: 'safety values',
    yaml: `${HEAD}safety:\n  maxDeletes: -1\n  maxDeletePercent: 250\n`,
    expected: ['docplane.yaml:5:15: safety.maxDeletes: must be at least 0', 'docplane.yaml:6:21: safety.maxDeletePercent: must be at most 100'],
  },
  { name: 'safety fraction', yaml: `${HEAD}safety: { maxDeletes: 1.5 }\n`, expected: ['docplane.yaml:4:23: safety.maxDeletes: must be a whole number, not the number 1.5'] },
  {
    name: 'protect syntax',
    yaml: `${HEAD}protect:\n  - tems["Legacy"]\n  - teams[Legacy]\n`,
    expected: [
      'docplane.yaml:5:5: protect[0]: is not an address or glob: "tems" is not part of any address — did you mean "teams"?',
      'docplane.yaml:6:5: protect[1]: is not an address or glob: a key must be written ["…"] (JSON string quotes) at character 6 of "teams[Legacy]"',
    ],
  },
  { name: 'api url', yaml: `api: { url: "localhost:4010" }\n${HEAD}`, expected: ['docplane.yaml:1:13: api.url: must be a URL starting with https:// (or http://)'] },
  // Interpolation.
  {
    name: 'unset environment variable',
    yaml: `${HEAD}  title: "\${env:ACME_TITLE}"\n`,
    expected: ['docplane.yaml:4:10: organization.title: environment variable ACME_TITLE is not set (set it, or write ${env:ACME_TITLE:-default})'],
  },
  {
    name: 'unknown reference',
    yaml: `${HEAD}  title: "\${ACME}"\n`,
    expected: ['docplane.yaml:4:10: organization.title: unknown reference "${ACME}": use ${env:NAME}, ${env:NAME:-default} or ${file:PATH} (or "$${" for a literal "${")'],
  },
  {
    name: 'unclosed reference',
    yaml: `${HEAD}  title: "Acme \${env:X"\n`,
    expected: ['docplane.yaml:4:10: organization.title: "${" is not closed by "}" (write "$${" for a literal "${")'],
  },
  {
    name: 'missing file',
    yaml: `${HEAD}saml:\n  - label: Okta\n    certificate: \${file:certs/okta.pem}\n`,
    expected: ['docplane.yaml:6:18: saml[0].certificate: file "certs/okta.pem" does not exist (paths are relative to the YAML file)'],
  },
  {
    name: 'file outside the config folder',
    files: { 'config/docplane.yaml': `${HEAD}saml:\n  - label: Okta\n    certificate: \${file:../secret.pem}\n`, 'secret.pem': 'PEM' },
    expected: [`config/docplane.yaml:6:18: saml[0].certificate: file "../secret.pem" is outside the config folder {ROOT}/config; keep referenced files inside it`],
  },
  // Cross-references and duplicates.
  {
    name: 'translation into its own language',
    yaml: `${HEAD}translations:\n  - { source: { space: space_guides, language: en }, language: en }\n`,
    expected: ["docplane.yaml:5:64: translations[0].language: is the source's own language (en); a translation needs another language"],
  },
  {
    name: 'renamedFrom its own title',
    yaml: `${HEAD}teams:\n  - title: Eng\n    renamedFrom: Eng\n`,
    expected: ["docplane.yaml:6:18: teams[0].renamedFrom: is this resource's own title; give the title it had before, or remove renamedFrom"],
  },
  {
    name: 'collection renamed from its own path',
    yaml: `${HEAD}collections:\n  - title: Product\n    collections:\n      - { title: API, renamedFrom: Product/API }\n`,
    expected: ["docplane.yaml:7:36: collections[0].collections[0].renamedFrom: is this resource's own path; give the path it had before, or remove renamedFrom"],
  },
  {
    name: 'two teams renamed from the same title',
    yaml: `${HEAD}teams:\n  - { title: A, renamedFrom: Old }\n  - { title: B, renamedFrom: Old }\n`,
    expected: ['docplane.yaml:6:30: teams[1].renamedFrom: teams["A"] at docplane.yaml:5:30 is also renamed from "Old"'],
  },
  {
    name: 'team defined twice',
    yaml: `${HEAD}teams:\n  - title: Eng\n  - title: Ops\n  - title: Eng\n`,
    expected: ['docplane.yaml:5:5: teams[0]: teams["Eng"] is defined twice: here and at docplane.yaml:7:5', 'docplane.yaml:7:5: teams[2]: teams["Eng"] is defined twice: here and at docplane.yaml:5:5'],
  },
  {
    name: 'member listed twice (emails ignore case)',
    yaml: `${HEAD}members:\n  - { user: bob@acme.com, role: edit }\n  - { user: Bob@Acme.com, role: read }\n`,
    expected: ['docplane.yaml:5:5: members[0]: member Bob@Acme.com is defined twice: here and at docplane.yaml:6:5', 'docplane.yaml:6:5: members[1]: member Bob@Acme.com is defined twice: here and at docplane.yaml:5:5'],
  },
  {
    name: 'section group names an unknown section',
    yaml: `${HEAD}sites:\n  - id: site_docs\n    sections:\n      - { path: guides, title: Guides, space: space_guides }\n    sectionGroups:\n      - { title: Reference, sections: [guide] }\n`,
    expected: ['docplane.yaml:9:40: sites[0].sectionGroups[0].sections[0]: "guide" names no section of site site_docs in this config: the site lists its sections (sections are named by their path) — did you mean "guides"?'],
  },
  // References (src/kinds/common/references.ts): what the config alone settles is an error here.
  {
    name: 'access names a misspelt team, and teams are pruned',
    yaml: `${HEAD}prune: [teams]\nteams:\n  - title: Legal\nspaces:\n  - id: s1\n    access: { teams: { Legl: read } }\n`,
    expected: [
      'docplane.yaml:9:24: spaces[0].access.teams.Legl: "Legl" names no team in this config: teams are pruned: the plan would remove that team (teams are named by their title) — did you mean "Legal"?',
    ],
  },
  {
    name: 'access names a misspelt user, and members are pruned',
    yaml: `${HEAD}prune: [members]\nmembers:\n  - { user: zoe@acme.com, role: read }\ncollections:\n  - title: C\n    access:\n      users: { zoee@acme.com: read }\n`,
    expected: [
      'docplane.yaml:10:16: collections[0].access.users["zoee@acme.com"]: "zoee@acme.com" names no member in this config: members are pruned: the plan would remove that member (members are named by email or user id) — did you mean "zoe@acme.com"?',
    ],
  },
  {
    name: 'a section names a misspelt space of the config by natural key',
    yaml: `${HEAD}collections:\n  - title: Policies\nspaces:\n  - { title: Terms, collection: Policies }\nsites:\n  - id: site_docs\n    sections:\n      - { path: terms, title: Terms, space: Policies/Term, siteSpaces: [{ space: Polices/Terms }] }\n`,
    expected: [
      'docplane.yaml:11:45: sites[0].sections[0].space: "Policies/Term" names no space in this config: a Collection/Title names a space the config lists without id (spaces are named by id, or by Collection/Title) — did you mean "Policies/Terms"?',
      'docplane.yaml:11:82: sites[0].sections[0].siteSpaces[0].space: "Polices/Terms" names no space in this config: a Collection/Title names a space the config lists without id (spaces are named by id, or by Collection/Title) — did you mean "Policies/Terms"?',
    ],
  },
  {
    name: 'a misspelt space whose closest name is built on a misspelt collection: no suggestion carries that typo',
    yaml: `${HEAD}collections:\n  - title: Partners\nspaces:\n  - { title: Onboarding, collection: Partnrs }\nsites:\n  - id: site_docs\n    sections:\n      - { path: onboarding, title: Onboarding, space: Partners/Onbording }\n`,
    expected: [
      'docplane.yaml:7:38: spaces[0].collection: "Partnrs" names no collection in this config: the config lists its collections (collections are named by their path of titles, like "Product/API") — did you mean "Partners"?',
      'docplane.yaml:11:55: sites[0].sections[0].space: "Partners/Onbording" names no space in this config: a Collection/Title names a space the config lists without id (spaces are named by id, or by Collection/Title)',
    ],
  },
  {
    name: 'the same, when the config does not list its collections: the suggestion says its collection is unchecked',
    yaml: `${HEAD}spaces:\n  - { title: Onboarding, collection: Partnrs }\nsites:\n  - id: site_docs\n    sections:\n      - { path: onboarding, title: Onboarding, space: Partners/Onbording }\n`,
    expected: [
      'docplane.yaml:9:55: sites[0].sections[0].space: "Partners/Onbording" names no space in this config: a Collection/Title names a space the config lists without id (spaces are named by id, or by Collection/Title) — did you mean "Partnrs/Onboarding"? (its collection "Partnrs" is not in the config: check it is not the typo)',
    ],
  },
  {
    name: "a translation's source names a misspelt space of the config by natural key",
    yaml: `${HEAD}spaces:\n  - { title: Terms, collection: Policies }\ntranslations:\n  - { source: { space: Polices/Terms, language: en }, language: fr }\n`,
    expected: [
      'docplane.yaml:7:24: translations[0].source.space: "Polices/Terms" names no space in this config: a Collection/Title names a space the config lists without id (spaces are named by id, or by Collection/Title) — did you mean "Policies/Terms"? (its collection "Policies" is not in the config: check it is not the typo)',
    ],
  },
  {
    name: 'emails with whitespace around them, or not emails',
    yaml: `${HEAD}members:\n  - { user: "zoe@acme.com ", role: read }\n  - { user: "zoe@acme", role: read }\nteams:\n  - title: T\n    members: [" bob@acme.com"]\nsites:\n  - id: site_docs\n    access:\n      users: { "al ice@acme.com": read }\n`,
    expected: [
      'docplane.yaml:5:13: members[0].user: "zoe@acme.com " has whitespace after it (1 character); remove it',
      'docplane.yaml:6:13: members[1].user: "zoe@acme" is not an email address (name@domain.tld)',
      'docplane.yaml:9:15: teams[0].members[0]: " bob@acme.com" has whitespace before it (1 character); remove it',
      'docplane.yaml:13:16: sites[0].access.users["al ice@acme.com"]: "al ice@acme.com" is not an email address (name@domain.tld)',
    ],
  },
  {
    name: 'section group with an unknown parent',
    yaml: `${HEAD}sites:\n  - id: site_docs\n    sectionGroups:\n      - { title: Reference }\n      - { title: Inner, parent: Referense }\n`,
    expected: ['docplane.yaml:8:33: sites[0].sectionGroups[1].parent: names no section group of site site_docs (groups are named by their title) — did you mean "Reference"?'],
  },
  {
    name: 'section groups in a cycle of parents',
    yaml: `${HEAD}sites:\n  - id: site_docs\n    sectionGroups:\n      - { title: A, parent: B }\n      - { title: B, parent: A }\n`,
    expected: [
      'docplane.yaml:7:29: sites[0].sectionGroups[0].parent: section group "A" would be inside itself (a cycle of parents: A → B → A)',
      'docplane.yaml:8:29: sites[0].sectionGroups[1].parent: section group "B" would be inside itself (a cycle of parents: B → A → B)',
    ],
  },
  {
    name: 'external link in an unknown group',
    yaml: `${HEAD}sites:\n  - id: site_docs\n    externalLinks:\n      - { title: Status, url: "https://status.example.com", group: Nope }\n`,
    expected: ['docplane.yaml:7:68: sites[0].externalLinks[0].group: names no section group of site site_docs (groups are named by their title)'],
  },
  {
    name: 'root site spaces on a site with sections',
    yaml: `${HEAD}sites:\n  - id: site_docs\n    sections:\n      - { path: guides, title: Guides, space: space_guides }\n    siteSpaces:\n      - { space: space_v2 }\n`,
    expected: ['docplane.yaml:9:7: sites[0].siteSpaces: site spaces at the root are for a site without sections; this site also gives sections (put the site spaces under a section)'],
  },
  {
    name: 'site space listed twice in a section',
    yaml: `${HEAD}sites:\n  - id: site_docs\n    sections:\n      - path: guides\n        title: Guides\n        space: space_guides\n        siteSpaces:\n          - { space: space_v2 }\n          - { space: space_v2, path: v2 }\n`,
    expected: ['docplane.yaml:11:13: sites[0].sections[0].siteSpaces[0]: space space_v2 in section "guides" is defined twice: here and at docplane.yaml:12:13', 'docplane.yaml:12:13: sites[0].sections[0].siteSpaces[1]: space space_v2 in section "guides" is defined twice: here and at docplane.yaml:11:13'],
  },
  {
    name: 'section path used twice in a site',
    yaml: `${HEAD}sites:\n  - id: site_docs\n    sections:\n      - { path: guides, title: Guides, space: a }\n      - { path: guides, title: More guides, space: b }\n`,
    expected: ['docplane.yaml:7:9: sites[0].sections[0]: section "guides" of site site_docs is defined twice: here and at docplane.yaml:8:9', 'docplane.yaml:8:9: sites[0].sections[1]: section "guides" of site site_docs is defined twice: here and at docplane.yaml:7:9'],
  },
  {
    name: 'space in an unknown collection',
    yaml: `${HEAD}collections:\n  - title: Product\n    collections: [{ title: API }]\nspaces:\n  - { id: space_api, collection: Product/Api }\n`,
    expected: [
      'docplane.yaml:8:34: spaces[0].collection: "Product/Api" names no collection in this config: the config lists its collections (collections are named by their path of titles, like "Product/API") — did you mean "Product/API"?',
    ],
  },
  {
    name: 'SAML default team that pruning would delete',
    yaml: `${HEAD}teams:\n  - title: Engineering\nsaml:\n  - { label: Okta, defaultTeam: Support }\nprune: [teams]\n`,
    expected: ['docplane.yaml:7:33: saml[0].defaultTeam: "Support" names no team in this config: teams are pruned: the plan would delete team "Support" (teams are named by their title)'],
  },
  // Branding.
  {
    name: 'a font without its regular face, and a weight listed twice',
    yaml: `${HEAD}fonts:\n  - fontFamily: Acme Sans\n    fontFaces:\n      - { weight: 700, storageKey: a.woff2 }\n      - { weight: 700 }\n`,
    expected: [
      'docplane.yaml:7:7: fonts[0].fontFaces: a font needs a face of weight 400 (regular)',
      'docplane.yaml:8:19: fonts[0].fontFaces[1].weight: weight 700 is listed twice',
    ],
  },
  { name: 'a font weight out of range', yaml: `${HEAD}fonts:\n  - fontFamily: Acme Sans\n    fontFaces: [{ weight: 400 }, { weight: 1200 }]\n`, expected: ['docplane.yaml:6:44: fonts[0].fontFaces[1].weight: must be at most 1000'] },
  { name: 'the same font family twice', yaml: `${HEAD}fonts:\n  - { fontFamily: Acme Sans, fontFaces: [{ weight: 400 }] }\n  - { fontFamily: Acme Sans, fontFaces: [{ weight: 400 }] }\n`, expected: ['docplane.yaml:5:5: fonts[0]: fonts["Acme Sans"] is defined twice: here and at docplane.yaml:6:5', 'docplane.yaml:6:5: fonts[1]: fonts["Acme Sans"] is defined twice: here and at docplane.yaml:5:5'] },
  { name: 'a space with an emoji and an icon', yaml: `${HEAD}spaces:\n  - id: space_api\n    emoji: "📘"\n    icon: https://cdn.acme.test/api.png\n`, expected: ['docplane.yaml:7:11: spaces[0].icon: a space shows an emoji or an icon, not both: remove one of them'] },
  { name: 'an organization logo that is not a URL', yaml: `${HEAD}  logo: logo.png\n  defaultContent: site_docs\n`, expected: [
      'docplane.yaml:4:9: organization.logo: must be a URL starting with https:// (or http://)',
      'docplane.yaml:5:19: organization.defaultContent: must be a mapping (key: value), not the string "site_docs"',
    ] },
  { name: 'a customization font named by an empty family', yaml: `${HEAD}sites:\n  - id: site_docs\n    customization:\n      styling:\n        font: { customFont: "" }\n`, expected: ['docplane.yaml:8:29: sites[0].customization.styling.font.customFont: must not be empty'] },
];

describe('bad configs', () => {
  it('has at least 30 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const files = c.files ?? { 'docplane.yaml': c.yaml ?? '' };
      await withFiles(files, async (t) => {
        const configPath = c.files ? Object.keys(c.files).find((f) => f.endsWith('docplane.yaml')) : 'docplane.yaml';
        const got = await problemsOf({ path: configPath, cwd: t.dir, env: c.env ?? {} });
        expect(got).toEqual(c.expected.map((line) => line.replace('{ROOT}', t.dir)));
      });
    });
  }

  it('refuses a ${file:…} whose symlink points outside the config folder', async () => {
    await withFiles({ 'outside/secret.pem': 'PEM', 'config/docplane.yaml': `${HEAD}saml:\n  - { label: Okta, certificate: "\${file:certs/okta.pem}" }\n` }, async (t) => {
      t.write('config/certs/.keep', '');
      symlinkSync(path.join(t.dir, 'outside/secret.pem'), path.join(t.dir, 'config/certs/okta.pem'));
      const got = await problemsOf({ path: 'config', cwd: t.dir, env: {} });
      expect(got).toEqual([
        `config/docplane.yaml:5:33: saml[0].certificate: file "certs/okta.pem" is outside the config folder ${path.join(t.dir, 'config')}; keep referenced files inside it`,
      ]);
    });
  });
});
