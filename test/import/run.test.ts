/**
 * runImport in-process against the emulator: what it reads (lists only, one request per list), that
 * the documents it writes are valid configs, and the errors a user can make with --site and --out.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { ConfigDocument } from '../../src/config/schema.js';
import { DocplaneError } from '../../src/core/errors.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { orgFileName, runImport, type ImportOptions } from '../../src/import/run.js';
import { runValidate } from '../../src/config/validate.js';
import { richState } from './helpers.js';

let emulator: RunningEmulator;
let work: string;

const connect = () => Promise.resolve(createClient({ baseUrl: emulator.url, token: 'read-token' }));
const run = (o: Partial<ImportOptions>) => runImport({ orgs: ['org_rich'], out: '-', cwd: work, connect, ...o });

async function failure(o: Partial<ImportOptions>): Promise<DocplaneError> {
  try {
    await run(o);
  } catch (err) {
    expect(err).toBeInstanceOf(DocplaneError);
    return err as DocplaneError;
  }
  throw new Error('expected runImport to fail');
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, state: richState(), seed: 4 });
  work = mkdtempSync(join(tmpdir(), 'docplane-import-run-'));
});

afterAll(async () => {
  await emulator?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('runImport', () => {
  it('reads by lists only: one request per list of the organization, eleven per site (structure, share links, redirects, customization, publishing auth, agent settings, MCP servers, adaptive schema, agent channels, context connections, topics), one per team', async () => {
    const before = emulator.requestCount();
    await run({ sites: ['site_docs', 'site_help'] });
    // GET ORG, agent instructions, members, teams, collections, spaces, sites, SAML, integrations,
    // installations, translations, the translation glossary, OpenAPI specs (13); structure, share links,
    // redirects, customization, publishing auth, agent settings, MCP servers, adaptive schema, agent
    // channels, context connections and topics of 2 sites (22); members of 3 teams (3); the team and user grants of every collection, space and site
    // (2 × (5 + 7 + 2): docs/benchmarks.md); the Git Sync installation of the one synchronised space (1);
    // the custom fonts (1: one answer); the invite links (1).
    expect(emulator.requestCount() - before).toBe(13 + 22 + 3 + 2 * (5 + 7 + 2) + 1 + 1 + 1);
  });

  it('imports every site of the organization without --site, and --site narrows it', async () => {
    const all = await run({ orgs: ['org_rich', 'org_side'] });
    const ids = (o: (typeof all.orgs)[number]) => ((o.document.sites ?? []) as Array<{ id: string }>).map((s) => s.id);
    expect(all.orgs.map((o) => [o.org, ids(o)])).toEqual([
      ['org_rich', ['site_docs', 'site_help']],
      ['org_side', []],
    ]);
    const one = await run({ orgs: ['org_rich'], sites: ['site_help'] });
    expect(ids(one.orgs[0])).toEqual(['site_help']);
  });

  it('writes documents the config schema accepts, with nothing it could not say', async () => {
    const result = await run({ orgs: ['org_rich', 'org_side'], sites: ['site_docs', 'site_help'] });
    // The one thing the API cannot give back: a font face's storage key.
    expect(result.warnings).toEqual([
      "org_rich: fonts: faces are written by weight without storageKey (the API answers their files as URLs); add a storageKey to replace a face's file",
    ]);
    for (const o of result.orgs) expect(ConfigDocument.safeParse(o.document).error).toBeUndefined();
    expect(result.documents.map((d) => d.file)).toEqual(['org_rich.yaml', 'org_side.yaml']);
    expect(result.stream).toBe(result.documents.map((d) => d.yaml).join('---\n'));
  });

  it('looks for a bare site id in every organization, and an ORG/SITE in its organization only', async () => {
    const result = await run({ orgs: ['org_side', 'org_rich'], sites: ['site_help'] });
    expect(result.orgs.map((o) => [o.org, o.counts.find((c) => c.many === 'sites')?.n])).toEqual([
      ['org_rich', 1],
      ['org_side', 0],
    ]);
    expect((await failure({ orgs: ['org_rich', 'org_side'], sites: ['org_side/site_help'] })).message).toBe('no site org_side/site_help in organizations org_rich, org_side');
    expect((await failure({ sites: ['site_nope'] })).message).toBe('no site site_nope in organization org_rich');
    expect((await failure({ sites: ['a/b/c'] })).message).toBe('--site a/b/c is neither SITE nor ORG/SITE');
    expect((await failure({ sites: ['org_x/site_docs'] })).message).toBe('--site org_x/site_docs names organization org_x, which no --org gives');
  });

  it('refuses an --out that is a file, before any request', async () => {
    writeFileSync(join(work, 'a-file'), 'x');
    const before = emulator.requestCount();
    const err = await failure({ out: 'a-file' });
    expect(err.message).toBe('--out a-file is a file, not a folder');
    expect(emulator.requestCount()).toBe(before);
  });

  it('names organization files safely', () => {
    expect(orgFileName('org_acme')).toBe('org_acme.yaml');
    expect(orgFileName('../etc/passwd')).toBe('__etc_passwd.yaml');
    expect(orgFileName('.hidden')).toBe('_hidden.yaml');
  });
});

describe('import --force over an existing config', () => {
  it('keeps every top-level entry it does not write (policies included) and says which', async () => {
    const dir = mkdtempSync(join(work, 'force-'));
    const policies = [{ name: 'titled', resource: 'teams', rule: 'self.title != ""', message: 'a team needs a title' }];
    writeFileSync(
      join(dir, 'org_rich.yaml'),
      `version: 1\norganization: { id: org_rich, title: Old }\nprune: [teams]\nsafety: { maxDeletes: 3 }\nprotect: ['teams["Core"]']\npolicies:\n  - { name: titled, resource: teams, rule: 'self.title != ""', message: a team needs a title }\nteams: [{ title: Stale }]\n`,
    );
    const result = await run({ out: dir, force: true });
    const doc = result.documents.find((d) => d.org === 'org_rich')!;
    expect(result.kept).toEqual([{ org: 'org_rich', file: 'org_rich.yaml', keys: ['prune', 'safety', 'protect', 'policies'] }]);
    expect(doc.yaml).toContain('Kept from the file this import replaced: prune, safety, protect, policies.');
    const written = result.orgs.find((o) => o.org === 'org_rich')!;
    expect(ConfigDocument.parse({ ...written.document, policies }).policies).toHaveLength(1);
    // What the import writes itself (the organization, the teams) comes from the platform, not the old file.
    expect(doc.yaml).not.toContain('Stale');
    expect(doc.yaml).toMatch(/^policies:$/m);
  });

  it('does not read the entries it writes anew: a problem in them does not drop the settings kept', async () => {
    const dir = mkdtempSync(join(work, 'force-broken-teams-'));
    // The teams entry (which the import writes from the platform) has a quote left open.
    writeFileSync(join(dir, 'org_rich.yaml'), `version: 1\norganization:\n  id: org_rich\nteams:\n  - title: "Stale\nprune: [teams]\n`);
    const result = await run({ out: dir, force: true });
    expect(result.kept).toEqual([{ org: 'org_rich', file: 'org_rich.yaml', keys: ['prune'] }]);
    expect(result.warnings.filter((w) => w.includes('not valid YAML'))).toEqual([]);
    expect(result.documents.find((d) => d.org === 'org_rich')!.yaml).not.toContain('Stale');
  });

  it('keeps a kind the import does not write (it found none of it), read from the earlier file after the requests', async () => {
    const dir = mkdtempSync(join(work, 'force-side-'));
    const earlier = `version: 1\norganization:\n  id: org_side\nsites:\n  - id: site_gone\n    title: Gone\nprune: [teams]\n`;
    writeFileSync(join(dir, 'org_side.yaml'), earlier);
    const result = await run({ orgs: ['org_side'], out: dir, force: true });
    const side = result.orgs.find((o) => o.org === 'org_side')!;
    expect('sites' in side.document).toBe(false);
    expect(result.kept).toEqual([{ org: 'org_side', file: 'org_side.yaml', keys: ['prune', 'sites'] }]);
    expect(result.documents[0].yaml).toContain('site_gone');
  });

  it('refuses a folder where another file defines the organization, naming that file, before any request', async () => {
    const dir = mkdtempSync(join(work, 'twice-'));
    writeFileSync(join(dir, 'acme.yaml'), 'version: 1\norganization: { id: org_rich }\n');
    const before = emulator.requestCount();
    const err = await failure({ out: dir, force: true });
    expect(err.message).toBe(`${join(dir, 'acme.yaml')} already defines organization org_rich: importing it into ${dir} would define it twice`);
    expect(err.hint).toContain('rename acme.yaml to org_rich.yaml');
    expect(emulator.requestCount()).toBe(before);
  });
});

describe('a fresh import', () => {
  it('validates with no warning: current fields only, never the deprecated ones', async () => {
    const dir = mkdtempSync(join(work, 'fresh-'));
    await run({ out: dir, force: true });
    const result = await runValidate({ path: dir });
    if (!result.valid) throw result.error;
    expect(result.warnings.map((w) => `${w.path}: ${w.message}`)).toEqual([]);
  });
});
