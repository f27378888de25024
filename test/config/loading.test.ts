/** Finding the files, several documents and files per organization, duplicates, and what LoadedConfig holds. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocplaneError } from '../../src/core/errors.js';
import { loadConfig } from '../../src/config/load.js';
import { PRUNABLE } from '../../src/kinds/index.js';
import { problemsOf, withFiles } from './helpers.js';

const org = (id: string, extra = '') => `version: 1\norganization:\n  id: ${id}\n${extra}`;

describe('finding the config', () => {
  it('reads ./docplane.yaml by default, else every YAML file of ./docplane/ in name order', async () => {
    await withFiles({ 'docplane.yaml': org('org_a') }, async (t) => {
      const config = await loadConfig({ cwd: t.dir, env: {} });
      expect(config.files).toEqual([path.join(t.dir, 'docplane.yaml')]);
    });
    await withFiles(
      {
        'docplane/b.yml': org('org_a', 'teams: [{ title: B }]\n'),
        'docplane/a.yaml': org('org_a', 'teams: [{ title: A }]\n'),
        'docplane/notes.txt': 'not yaml',
        'docplane/.backup.yaml': 'not: [valid',
      },
      async (t) => {
        const config = await loadConfig({ cwd: t.dir, env: {} });
        expect(config.files).toEqual([path.join(t.dir, 'docplane/a.yaml'), path.join(t.dir, 'docplane/b.yml')]);
        expect(config.orgs[0].teams?.map((x) => x.title)).toEqual(['A', 'B']);
      },
    );
  });

  it('says clearly when there is no config, or a folder without YAML', async () => {
    await withFiles({ 'readme.md': '' }, async (t) => {
      await expect(loadConfig({ cwd: t.dir })).rejects.toMatchObject({ code: 'CONFIG_NOT_FOUND', message: expect.stringContaining('neither ./docplane.yaml nor ./docplane/') });
      await expect(loadConfig({ cwd: t.dir, path: 'nope.yaml' })).rejects.toBeInstanceOf(DocplaneError);
      await expect(loadConfig({ cwd: t.dir, path: '.' })).rejects.toMatchObject({ code: 'CONFIG_NOT_FOUND', message: expect.stringContaining('holds no *.yaml or *.yml file') });
    });
  });
});

describe('merging documents and files', () => {
  it('merges documents per organization: lists concatenated in order, organization fields combined', async () => {
    await withFiles(
      {
        'c/1.yaml': `${org('org_a', '  title: Acme\nteams: [{ title: T1 }]\nprune: [teams]\n')}---\n${org('org_b', 'members: [{ user: x@b.com, role: read }]\n')}`,
        'c/2.yaml': org('org_a', '  ai: true\nteams: [{ title: T2 }]\nprune: [members]\nprotect: [\'teams["T1"]\']\nsafety: { maxDeletes: 3 }\n'),
      },
      async (t) => {
        const config = await loadConfig({ cwd: t.dir, path: 'c', env: {} });
        expect(config.orgs.map((o) => o.organization.id)).toEqual(['org_a', 'org_b']);
        const [a, b] = config.orgs;
        expect(a.organization).toEqual({ id: 'org_a', title: 'Acme', ai: true });
        expect(a.teams?.map((x) => x.title)).toEqual(['T1', 'T2']);
        expect(a.prune).toEqual(['members', 'teams']);
        expect(a.protect).toEqual(['teams["T1"]']);
        expect(a.safety).toEqual({ maxDeletes: 3, maxDeletePercent: 25, keepSsoMembers: true });
        expect(a.members).toBeUndefined();
        expect(b.members).toEqual([{ user: 'x@b.com', role: 'read' }]);
        expect(b.teams).toBeUndefined();
        expect(b.prune).toEqual([]);
        expect(a.locations['teams["T2"]']).toEqual({ file: 'c/2.yaml', line: 5, column: 9 });
        expect(b.locations['members["x@b.com"]']).toEqual({ file: 'c/1.yaml', line: 11, column: 11 });
      },
    );
  });

  it('names both places when a field or a resource is defined twice', async () => {
    await withFiles(
      {
        'c/1.yaml': org('org_a', '  title: Acme\nteams:\n  - title: Eng\nsafety: { maxDeletes: 1 }\napi: { url: "http://127.0.0.1:4010" }\n'),
        'c/2.yaml': org('org_a', '  title: Acme again\nteams:\n  - title: Eng\nsafety: { maxDeletes: 2 }\napi: { url: "http://127.0.0.1:4011" }\n'),
      },
      async (t) => {
        expect(await problemsOf({ cwd: t.dir, path: 'c', env: {} })).toEqual([
          'c/1.yaml:6:5: teams[0]: teams["Eng"] is defined twice: here and at c/2.yaml:6:5',
          "c/2.yaml:4:3: organization.title: organization org_a's title is also set at c/1.yaml:4:3; set it in one place",
          'c/2.yaml:6:5: teams[0]: teams["Eng"] is defined twice: here and at c/1.yaml:6:5',
          'c/2.yaml:7:11: safety.maxDeletes: safety.maxDeletes of organization org_a is also set at c/1.yaml:7:11; set it in one place',
          'c/2.yaml:8:13: api.url: api.url differs from the one at c/1.yaml:8:13; set it once',
        ]);
      },
    );
  });

  it('expands prune: all, applies safety defaults, keeps api.url', async () => {
    await withFiles({ 'docplane.yaml': `api: { url: "http://127.0.0.1:4010" }\n${org('org_a', 'prune: all\n')}` }, async (t) => {
      const config = await loadConfig({ cwd: t.dir, env: {} });
      expect(config.orgs[0].prune).toEqual([...PRUNABLE]);
      expect(config.orgs[0].safety).toEqual({ maxDeletes: 10, maxDeletePercent: 25, keepSsoMembers: true });
      expect(config.apiUrl).toBe('http://127.0.0.1:4010');
    });
  });

  it('records references it cannot check offline for the planner', async () => {
    const yaml = org(
      'org_a',
      'saml:\n  - { label: Okta, defaultTeam: Managed By Hand }\nspaces:\n  - { id: s1, collection: Product/API }\nsites:\n  - id: site_docs\n    sectionGroups: [{ title: G, sections: [guides] }]\n',
    );
    await withFiles({ 'docplane.yaml': yaml }, async (t) => {
      const config = await loadConfig({ cwd: t.dir, env: {} });
      expect(config.orgs[0].deferred).toEqual([
        { kind: 'collections', key: 'Product/API', from: 'spaces["s1"]', field: 'collection', location: { file: 'docplane.yaml', line: 7, column: 27 } },
        {
          kind: 'sections',
          key: 'guides',
          site: 'site_docs',
          from: 'sites["site_docs"].sectionGroups["G"]',
          field: 'sections',
          location: { file: 'docplane.yaml', line: 10, column: 44 },
        },
        { kind: 'teams', key: 'Managed By Hand', from: 'saml["Okta"]', field: 'defaultTeam', location: { file: 'docplane.yaml', line: 5, column: 33 } },
      ]);
    });
  });

  it('reports every problem of a file together, in file order', async () => {
    const yaml = [
      'version: 1',
      'organization:',
      '  id: org_acme',
      '  title: A',
      '  sso: maybe',
      'members:',
      '  - { user: bob@acme.com, role: owner }',
      'teams:',
      '  - titel: Eng',
      'spaces:',
      '  - id: space_api',
      '    editMode: frozen',
      'prune: [temas]',
      'unknown: 1',
      '',
    ].join('\n');
    await withFiles({ 'docplane.yaml': yaml }, async (t) => {
      expect(await problemsOf({ cwd: t.dir, env: {} })).toEqual([
        "docplane.yaml:4:10: organization.title: must be at least 2 characters (the API's limit)",
        'docplane.yaml:5:8: organization.sso: must be true or false, not the string "maybe"',
        'docplane.yaml:7:33: members[0].role: must be one of admin, create, review, edit, comment, read',
        'docplane.yaml:9:5: teams[0].title: is required (missing key "title")',
        'docplane.yaml:9:5: teams[0].titel: unknown key "titel" — did you mean "title"?',
        'docplane.yaml:12:15: spaces[0].editMode: must be one of live, locked',
        'docplane.yaml:13:9: prune[0]: must be one of members, teams, collections, spaces, spaceGitSync, fonts, sites, sections, siteSpaces, sectionGroups, shareLinks, externalLinks, redirects, mcpServers, siteGitSync, channels, contextConnections, customHostnames, saml, integrations, installations, translations, openapiSpecs, inviteLinks, all — did you mean "teams"?',
        'docplane.yaml:14:1: unknown: unknown key "unknown"',
      ]);
    });
  });

  it('reports problems of several files, each file in order, and of documents after a broken one', async () => {
    await withFiles(
      {
        'c/a.yaml': `${org('org_a', '  title: X\n')}---\nversion: 3\n`,
        'c/b.yaml': 'version: 1\norganization: [1]\n---\nversion: 1\norganization: { id: org_b, hostname: ab }\n',
      },
      async (t) => {
        expect(await problemsOf({ cwd: t.dir, path: 'c', env: {} })).toEqual([
          "c/a.yaml:4:10: organization.title: must be at least 2 characters (the API's limit)",
          'c/a.yaml:6:10: version: unsupported version 3: this docplane reads version 1',
          'c/b.yaml:2:15: organization: must be a mapping (key: value), not a list',
          "c/b.yaml:5:38: organization.hostname: must be at least 3 characters (the API's limit)",
        ]);
      },
    );
  });
});

describe('hostile input', () => {
  it('refuses nesting deeper than the parser can read, with a ConfigError', async () => {
    const deep = `${org('org_a')}x: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    await withFiles({ 'docplane.yaml': deep }, async (t) => {
      // Where the stack runs out depends on the machine: the line is certain, the column is not.
      expect(await problemsOf({ cwd: t.dir, env: {} })).toEqual([expect.stringMatching(/^docplane\.yaml:4:\d+: the YAML is nested too deeply to read$/)]);
    });
  });
});

describe('the hash and the files', () => {
  it('changes with the YAML and with files read through ${file:…}, and not with where the folder is', async () => {
    const files = { 'c/docplane.yaml': org('org_a', 'saml: [{ label: A, certificate: "${file:cert.pem}" }]\n'), 'c/cert.pem': 'CERT-ONE' };
    const hashes: string[] = [];
    for (let i = 0; i < 2; i++) {
      await withFiles(files, async (t) => {
        hashes.push((await loadConfig({ cwd: t.dir, path: 'c', env: {} })).hash);
        writeFileSync(path.join(t.dir, 'c/cert.pem'), 'CERT-TWO');
        hashes.push((await loadConfig({ cwd: t.dir, path: 'c', env: {} })).hash);
        writeFileSync(path.join(t.dir, 'c/docplane.yaml'), `${files['c/docplane.yaml']}# comment\n`);
        hashes.push((await loadConfig({ cwd: t.dir, path: 'c', env: {} })).hash);
      });
    }
    expect(hashes[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(hashes.slice(0, 3)).size).toBe(3);
    expect(hashes.slice(3)).toEqual(hashes.slice(0, 3));
  });
});
