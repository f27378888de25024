/**
 * `docplane import` through the built CLI: the folder rules (refuse a non-empty folder, --force),
 * `--out -`, several organizations, the notes on stderr, and the errors a user can make.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { ensureBuilt, readTree, richState, runCli, type CliResult } from './helpers.js';

let emulator: RunningEmulator;
let work: string;

function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(['import', ...args], { DOCPLANE_API_URL: emulator.url, DOCPLANE_TOKEN: 'read-token', ...env }, work);
}

const errorLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('error:'));

beforeAll(async () => {
  ensureBuilt();
  emulator = await startEmulator({ port: 0, state: richState(), seed: 2 });
});

beforeEach(() => {
  if (work) rmSync(work, { recursive: true, force: true });
  work = mkdtempSync(join(tmpdir(), 'docplane-import-cli-'));
});

afterAll(async () => {
  await emulator?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('docplane import (built CLI)', () => {
  it('writes ./docplane by default: one file per organization, the schema, certificates and script stubs; notes on stderr', async () => {
    const r = await cli(['--org', 'org_side', '--org', 'org_rich', '--site', 'site_docs']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Imported org_rich: 7 members, 3 teams, 5 collections, 7 spaces, 1 space Git Sync configuration, 1 custom font, 1 site, 5 sections, 2 agent channels, 1 context connection, 1 agent topic, 2 SAML providers, 2 integrations, 3 translations, 3 invite links\n');
    expect(r.stdout).toContain('Imported org_side: 2 members, 1 team, 1 space, 1 SAML provider\n');
    expect(r.stdout).toContain('Wrote docplane/org_rich.yaml, docplane/org_side.yaml, docplane/docplane.schema.json, ');
    expect(r.stdout).toContain('Next: docplane plan -c docplane (it should show no changes)');
    const yaml = readFileSync(join(work, 'docplane/org_rich.yaml'), 'utf8');
    expect(yaml.split('\n')[0]).toBe('# yaml-language-server: $schema=./docplane.schema.json');
    expect(JSON.parse(readFileSync(join(work, 'docplane/docplane.schema.json'), 'utf8')).title).toBe('docplane config');
    // Ownership: adopt without pruning.
    expect(yaml).not.toMatch(/^prune:/m);
    // Secrets the API does not return are not invented; the certificate it returns goes to a file.
    expect(yaml).not.toContain('analytics-secret-value');
    expect(yaml).toContain('certificate: ${file:certs/okta.pem}');
    expect(readFileSync(join(work, 'docplane/certs/okta.pem'), 'utf8')).toContain('MIIBszCCAVmgAwIBAgIUYWNtZS1va3RhLWV4YW1wbGUwCgYIKoZIzj0EAwIwHjEc');
    expect(readFileSync(join(work, 'docplane/integrations/rich-chat.js'), 'utf8')).toContain('the API does not return the script');
    // Both organizations have a SAML provider labelled Okta: the second certificate gets its own file.
    expect(readFileSync(join(work, 'docplane/org_side.yaml'), 'utf8')).toContain('certificate: ${file:certs/okta-2.pem}');
    expect(readFileSync(join(work, 'docplane/certs/okta-2.pem'), 'utf8')).toContain('SIDE');

    const lines = r.stderr.split('\n');
    const todo = lines.slice(lines.indexOf('To fill in by hand:') + 1).filter((l) => l.startsWith('  '));
    expect(todo).toEqual([
      '  integrations/rich-analytics.js: put the script of integrations["rich-analytics"] in this file (the API does not return scripts; a plan that would publish the stub is refused)',
      '  integrations["rich-analytics"]: add its secrets, if it has any, as secrets: { NAME: "${env:NAME}" } (the API does not return secrets)',
      '  integrations/rich-chat.js: put the script of integrations["rich-chat"] in this file (the API does not return scripts; a plan that would publish the stub is refused)',
      '  integrations["rich-chat"]: add its secrets, if it has any, as secrets: { NAME: "${env:NAME}" } (the API does not return secrets)',
    ]);
    expect(r.stderr).not.toContain('read-token');
    expect(r.stdout).not.toContain('read-token');
  });

  it('refuses a folder that is not empty (changing nothing); --force replaces the files it writes, leaves the others, keeps a script filled in', async () => {
    const first = await cli(['--org', 'org_rich', '--out', 'out']);
    expect(first.code, first.stderr).toBe(0);
    const before = readTree(join(work, 'out'));
    writeFileSync(join(work, 'out/notes.txt'), 'mine\n');
    writeFileSync(join(work, 'out/org_rich.yaml'), '# edited by hand\n');
    writeFileSync(join(work, 'out/integrations/rich-chat.js'), 'export default { real: true };\n');

    const refused = await cli(['--org', 'org_rich', '--out', 'out']);
    expect(refused.code).toBe(1);
    expect(errorLines(refused.stderr)).toEqual(['error: the folder out is not empty (5 entries)']);
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(join(work, 'out/org_rich.yaml'), 'utf8')).toBe('# edited by hand\n');

    const forced = await cli(['--org', 'org_rich', '--out', 'out', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    const after = readTree(join(work, 'out'));
    expect(after['notes.txt']).toBe('mine\n');
    expect(after['org_rich.yaml']).toBe(before['org_rich.yaml']);
    expect(after['integrations/rich-chat.js']).toBe('export default { real: true };\n');
    expect(after['integrations/rich-analytics.js']).toBe(before['integrations/rich-analytics.js']);
    expect(forced.stderr).toContain('  integrations/rich-chat.js: it exists and is not the stub import writes: kept as it is');
    // Its script is there now: only its secrets are left to fill in.
    expect(forced.stderr).not.toContain('integrations/rich-chat.js: put the script');
    expect(forced.stderr).toContain('integrations["rich-chat"]: add its secrets');
  });

  it('--out - prints the YAML documents of every organization and lists the files it would reference', async () => {
    const r = await cli(['--org', 'org_side', '--org', 'org_rich', '--site', 'site_docs', '--out', '-']);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(work)).toEqual([]);
    const ids = parseAllDocuments(r.stdout).map((d) => {
      expect(d.errors).toEqual([]);
      return (d.toJS() as { organization: { id: string } }).organization.id;
    });
    // In organization id order, whatever the order of --org.
    expect(ids).toEqual(['org_rich', 'org_side']);
    expect(r.stdout.startsWith('# yaml-language-server: $schema=./docplane.schema.json\n')).toBe(true);
    const notWritten = r.stderr.split('\n').filter((l) => / {2}(certs|integrations)\/[^:]+: --out -/.test(l));
    expect(notWritten).toEqual([
      '  certs/azure-ad.pem: --out -: the certificate of saml["Azure AD"] is not written anywhere',
      '  certs/okta.pem: --out -: the certificate of saml["Okta"] is not written anywhere',
      '  integrations/rich-analytics.js: --out -: the script stub of integrations["rich-analytics"] is not written anywhere',
      '  integrations/rich-chat.js: --out -: the script stub of integrations["rich-chat"] is not written anywhere',
      '  certs/okta-2.pem: --out -: the certificate of saml["Okta"] is not written anywhere',
    ]);
    expect(r.stderr).toContain('  integrations/rich-chat.js: create this file with the script of integrations["rich-chat"], next to the YAML (the API does not return scripts)');
  });

  it('an unknown organization, or no --org at all, is one clear error line, and nothing is written', async () => {
    const org = await cli(['--org', 'org_nope', '--out', 'x']);
    expect(org.code).toBe(1);
    expect(errorLines(org.stderr)).toEqual(['error: organization org_nope was not found, or the token cannot reach it (GET /v1/orgs/org_nope → 404)']);
    expect(existsSync(join(work, 'x'))).toBe(false);

    const none = await cli(['--out', 'y']);
    expect(none.code).toBe(1);
    expect(errorLines(none.stderr)).toEqual(['error: no organization given']);
    expect(existsSync(join(work, 'y'))).toBe(false);
  });
});
