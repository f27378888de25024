/** The generated JSON Schema: fresh, well formed, and in agreement with the examples and the loader. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configJsonSchema } from '../../src/config/json-schema.js';
import { loadConfig } from '../../src/config/load.js';
import { runBuiltCli } from '../cli-run.js';
import { problemsOf, withFiles } from './helpers.js';

const ROOT = path.resolve(__dirname, '../..');
const EXAMPLES = ['examples/docplane.yaml', 'examples/minimal.yaml'];

function validator() {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  // ajv knows no formats by itself; "uri" is the only one the schema uses.
  ajv.addFormat('uri', (s: string) => URL.canParse(s));
  return ajv.compile(configJsonSchema());
}

describe('JSON Schema', () => {
  it('is committed fresh in schemas/docplane.schema.json', () => {
    const committed = readFileSync(path.join(ROOT, 'schemas/docplane.schema.json'), 'utf8');
    expect(committed).toBe(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  });

  it('is draft 2020-12 with an $id, a title, and the recursive kinds as $defs', () => {
    const schema = configJsonSchema() as Record<string, any>;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toMatch(/^https:\/\//);
    expect(schema.title).toBe('docplane config');
    expect(Object.keys(schema.$defs).sort()).toEqual(['AdaptiveClaim', 'Collection', 'RichTextBlock']);
    expect(schema.properties.collections.items).toEqual({ $ref: '#/$defs/Collection' });
    expect(schema.$defs.Collection.properties.collections.items).toEqual({ $ref: '#/$defs/Collection' });
    // Fields with defaults are optional for the person writing the config.
    expect(schema.properties.safety.required).toBeUndefined();
  });

  it('accepts the example configs (ajv, strict)', () => {
    const validate = validator();
    for (const file of EXAMPLES) {
      const ok = validate(parse(readFileSync(path.join(ROOT, file), 'utf8')));
      expect({ file, errors: validate.errors ?? null, ok }).toEqual({ file, errors: null, ok: true });
    }
  });

  it('refuses what the loader refuses for its shape, limits and enums', async () => {
    const validate = validator();
    const bad: Record<string, unknown>[] = [
      { version: 1, organization: { id: 'o', titel: 'Acme' } },
      { version: 2, organization: { id: 'o' } },
      { version: 1, organization: { id: 'o' }, teams: [{ title: 'x'.repeat(65) }] },
      { version: 1, organization: { id: 'o' }, members: [{ user: 'a@b.c', role: 'editor' }] },
      { version: 1, organization: { id: 'o' }, collections: [{ title: 'A', collections: [{ title: 'B/C' }] }] },
      { version: 1, organization: { id: 'o' }, integrations: [{ name: 'a b', title: 'Ab', description: '', script: 'x', scopes: ['s'] }] },
      { version: 1, organization: { id: 'o' }, prune: ['sectons'] },
      { version: 1, organization: { id: 'o' }, saml: [{ label: 'A', ssoURL: 'not a url' }] },
    ];
    for (const doc of bad) {
      expect({ doc, valid: validate(doc) }).toEqual({ doc, valid: false });
      await withFiles({ 'docplane.yaml': JSON.stringify(doc) }, async (t) => {
        expect((await problemsOf({ cwd: t.dir, env: {} })).length).toBeGreaterThan(0);
      });
    }
    expect(validate({ version: 1, organization: { id: 'o' }, safety: { maxDeletes: 0 }, prune: 'all' })).toBe(true);
  });
});

describe('the examples', () => {
  it('start with the yaml-language-server schema line', () => {
    for (const file of EXAMPLES) {
      expect(readFileSync(path.join(ROOT, file), 'utf8').split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/docplane.schema.json');
    }
  });

  it('load, using every kind, against the ids of the demo organization', async () => {
    const config = await loadConfig({ path: 'examples/docplane.yaml', cwd: ROOT, env: {} });
    expect(config.orgs).toHaveLength(1);
    const org = config.orgs[0];
    expect(org.organization).toMatchObject({ id: 'org_acme', title: 'Acme', ai: true });
    for (const kind of ['members', 'teams', 'collections', 'spaces', 'sites', 'saml', 'integrations', 'translations'] as const) {
      expect(org[kind]?.length, kind).toBeGreaterThan(0);
    }
    expect(org.sites?.map((s) => s.id ?? s.title)).toEqual(['site_docs', 'site_internal', 'Developer portal', 'site_status']);
    expect(org.prune).toEqual(['teams', 'shareLinks']);
    expect(org.safety.maxDeletes).toBe(10);
    // Every name resolves within the config, but the space ids it does not list, which the plan checks against the organization.
    expect(org.deferred?.filter((d) => !d.byId)).toEqual([]);
    expect([...new Set(org.deferred?.map((d) => `${d.kind} ${d.key}`))].sort()).toEqual(['spaces space_changelog', 'spaces space_guides_v2', 'spaces space_old']);
    expect(config.secrets.map((s) => s.name)).toEqual(['env:ACME_MCP_TOKEN', 'env:ZENDESK_TOKEN', 'file:certs/okta.pem', 'file:integrations/analytics.js', 'env:ANALYTICS_KEY', 'env:HELPDESK_TOKEN']);
    expect(config.orgs[0].integrations?.[0].secrets).toEqual({ API_KEY: 'demo-analytics-key' });
    const minimal = await loadConfig({ path: 'examples/minimal.yaml', cwd: ROOT, env: {} });
    expect(minimal.orgs[0].teams?.map((t) => t.title)).toEqual(['Engineering']);
  });
});

const BUILT = existsSync(path.join(ROOT, 'dist/commands/validate.js')) && existsSync(path.join(ROOT, 'dist/commands/schema.js'));

describe('the commands (built CLI)', () => {
  beforeAll(() => {
    // `npm test` builds first; a missing build fails here rather than skipping the commands' tests.
    if (!BUILT) throw new Error('dist/ is missing: run `npm run build` (npm test does) before these tests');
  });

  const run = (args: string[], cwd = ROOT) => runBuiltCli(args, {}, cwd);

  it('docplane validate prints a summary for a valid config', async () => {
    const r = await run(['validate', '-c', 'examples/docplane.yaml']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      '✓ 1 organization, 70 resources: valid\n' +
        '  members 9, teams 2, collections 3, collectionAccess 3, spaces 4, spaceAccess 2, spaceGitSync 1, fonts 1, sites 4, sections 5, siteSpaces 9, sectionGroups 2, shareLinks 1, externalLinks 1, redirects 1, customization 1, agentSettings 1, mcpServers 1, adaptiveSchema 1, siteAccess 2, channels 2, contextConnections 1, topics 1, saml 1, integrations 1, installations 2, installationTargets 2, translations 1, glossary 1, openapiSpecs 2, inviteLinks 2\n',
    );
  });

  it('docplane validate lists every problem as file:line:column and exits 1, without a stack', async () => {
    await withFiles({ 'docplane.yaml': 'version: 1\norganization:\n  id: org_acme\n  title: A\nteams:\n  - titel: Eng\n' }, async (t) => {
      const r = await run(['validate'], t.dir);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n').slice(0, 3)).toEqual([
        "docplane.yaml:4:10: organization.title: must be at least 2 characters (the API's limit)",
        'docplane.yaml:6:5: teams[0].title: is required (missing key "title")',
        'docplane.yaml:6:5: teams[0].titel: unknown key "titel" — did you mean "title"?',
      ]);
      expect(r.stderr).toContain('error: 3 problems in the config');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  });

  it('docplane validate says where it looked when there is no config', async () => {
    await withFiles({ 'other.txt': '' }, async (t) => {
      const r = await run(['validate'], t.dir);
      expect(r.code).toBe(1);
      expect(r.stderr.split('\n')[0]).toBe(`error: no config found: neither ./docplane.yaml nor ./docplane/ exists in ${t.dir}`);
      // The hint starts a config: an import, or the example, named where it is in this copy of docplane.
      const example = path.join(new URL('../..', import.meta.url).pathname, 'examples', 'docplane.yaml');
      expect(existsSync(example)).toBe(true);
      expect(r.stderr.split('\n')[1]).toBe(`  Start from the organization as it is: docplane import --org ID --out docplane/ — or from the example, ${example} — or pass -c with a file or folder.`);
    });
  });

  it('docplane schema prints the schema, and check-schema agrees it is fresh', async () => {
    expect((await run(['schema'])).stdout).toBe(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
    expect(execFileSync(process.execPath, ['scripts/check-schema.js'], { cwd: ROOT, encoding: 'utf8' })).toContain('fresh');
  });
});
