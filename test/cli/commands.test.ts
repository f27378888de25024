/**
 * The commands' own surface through the built CLI (bin/run.js → dist), against the emulator on
 * 127.0.0.1: help and shell completion from oclif's plugins, `show`, `validate` (its flags, warnings
 * and JSON), `import --format json` and `import --force` over an earlier config, what `plan --out`
 * and a targeted plan say.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEmulatorState, startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import type { CliRunOptions } from '../cli-run.js';
import { runCli, type CliResult } from '../import/helpers.js';

const ROOT = new URL('../../', import.meta.url).pathname;

let dir: string;
let home: string;
let emulator: RunningEmulator;
let env: Record<string, string>;

/** The built CLI (test/cli-run.ts); `{ spawn: true }` as a process. */
function cli(args: string[], extra: Record<string, string> = {}, options?: CliRunOptions): Promise<CliResult> {
  if (!existsSync(join(ROOT, 'dist/commands/show.js'))) throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
  // HOME and the cache in the scratch folder: autocomplete writes its cache there.
  return runCli(args, { ...env, HOME: home, XDG_CACHE_HOME: join(home, '.cache'), ...extra }, dir, options);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docplane-commands-'));
  home = mkdtempSync(join(tmpdir(), 'docplane-home-'));
  for (const part of ['docplane.yaml', 'certs', 'integrations']) cpSync(join(ROOT, 'examples', part), join(dir, part), { recursive: true });
  writeFileSync(join(dir, 'small.yaml'), 'version: 1\norganization:\n  id: org_acme\n  title: Acme Renamed\nteams:\n  - title: Writers\n');
  // A new team with two members and admin on a space whose other grant goes: one block per entry.
  writeFileSync(
    join(dir, 'review.yaml'),
    [
      'version: 1',
      'organization: {id: org_acme}',
      'teams:',
      '  - title: Writers',
      '    members: [bob@acme.com, {user: dave@acme.com, role: owner}]',
      'spaces:',
      '  - id: space_api',
      '    access: {teams: {Writers: admin}}',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'deferred.yaml'),
    'version: 1\norganization: {id: org_acme}\nsaml:\n  - label: Okta\n    ssoURL: https://okta.example/sso\n    defaultTeam: Legacy\n',
  );
  emulator = await startEmulator({ port: 0, state: loadEmulatorState(join(ROOT, 'examples/emulator-state.yaml')), seed: 5 });
  env = { DOCPLANE_API_URL: emulator.url, DOCPLANE_TOKEN: 'dev-token', ANALYTICS_KEY: 'k-analytics' };
});

afterAll(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('help and completion: oclif plugins', () => {
  it('docplane help plan prints the help of plan (@oclif/plugin-help), as a process', async () => {
    const r = await cli(['help', 'plan'], {}, { spawn: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Show what would change');
    expect(r.stdout).toContain('--detailed-exitcode');
  });

  it('the command list names show and autocomplete', async () => {
    const r = await cli(['--help']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\s+show\s+Render a saved plan/m);
    expect(r.stdout).toMatch(/^\s+autocomplete\s/m);
  });

  it('shell completion (@oclif/plugin-autocomplete): the setup and the script of bash', async () => {
    const setup = await cli(['autocomplete', 'bash']);
    expect(setup.code, setup.stderr).toBe(0);
    expect(setup.stdout).toContain('docplane autocomplete script bash');
    const script = await cli(['autocomplete', 'script', 'bash']);
    expect(script.code, script.stderr).toBe(0);
    expect(script.stdout).toContain('DOCPLANE_AC_BASH_SETUP_PATH');
  });

  // util-linux `script` gives the CLI a terminal: a misspelt command is answered there as in a CI log,
  // with one line and no question.
  const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!hasScript)('a misspelt command on a terminal: one line naming the closest command, no prompt, exit 1', () => {
    const r = spawnSync('script', ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin/run.js'))} schem`, '/dev/null'], {
      cwd: dir,
      input: '',
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1' },
    });
    expect(r.stdout).toContain('error: schem is not a docplane command — did you mean "docplane schema"?');
    expect(r.stdout).not.toMatch(/\(y\/n\)|\? /i);
    expect(r.stdout).not.toContain('"$schema"');
    expect(r.status).toBe(1);
  });

  it('validate --help lists only the flags validate uses', async () => {
    const r = await cli(['validate', '--help']);
    expect(r.code, r.stderr).toBe(0);
    for (const flag of ['--config', '--format', '--verbose']) expect(r.stdout).toContain(flag);
    for (const flag of ['--api-url', '--token-file', '--concurrency', '--timeout', '--max-rps']) expect(r.stdout).not.toContain(flag);
  });
});

describe('plan --out, docplane show, --target', () => {
  it('plan --out says where it wrote the plan; show renders the file in every format', async () => {
    const planned = await cli(['plan', '-c', 'small.yaml', '--out', 'small-plan.json']);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stderr).toContain('Saved the plan to small-plan.json: docplane apply small-plan.json applies it');

    const text = await cli(['show', 'small-plan.json']);
    expect(text.code, text.stderr).toBe(0);
    // The same rendering as the plan printed.
    expect(text.stdout).toBe(planned.stdout);
    const md = await cli(['show', 'small-plan.json', '--format', 'markdown']);
    expect(md.stdout).toMatch(/^### Plan: 1 to create, 1 to update/);
    const json = JSON.parse((await cli(['show', 'small-plan.json', '--format', 'json'])).stdout) as { formatVersion: number; steps: { id: string }[] };
    expect(json.formatVersion).toBe(1);
    expect(json.steps.map((s) => s.id)).toEqual(['org_acme/organization:update', 'org_acme/teams["Writers"]:create']);
  });

  it('a targeted plan says so in its header, in text, markdown and json', async () => {
    const args = ['plan', '-c', 'small.yaml', '--target', 'teams["Writers"]'];
    const text = await cli(args);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe('Targeted plan: only teams["Writers"] and what it depends on (--target); the rest of the config was not planned.');
    expect(text.stdout).not.toContain('organization');
    const md = await cli([...args, '--format', 'markdown']);
    expect(md.stdout).toContain('> [!IMPORTANT]\n> Targeted plan: only teams\\["Writers"\\]');
    const json = JSON.parse((await cli([...args, '--format', 'json'])).stdout) as { targets?: string[] };
    expect(json.targets).toEqual(['teams["Writers"]']);
  });
});

describe('the markdown plan a reviewer reads', () => {
  it('one block per config entry, named by title and linked to its file:line; the access as it will be', async () => {
    const r = await cli(['plan', '-c', 'review.yaml', '--format', 'markdown', '--source-url', 'https://github.com/acme/docs/blob/abc123']);
    expect(r.code, r.stderr).toBe(0);
    const md = r.stdout;
    // The team's block holds its create and its members, and points at its grant.
    expect(md).toContain('<details><summary>team <b>Writers</b> · 1 to create, 1 to update · <a href="https://github.com/acme/docs/blob/abc123/review.yaml#L4">review.yaml:4</a></summary>');
    expect(md).toMatch(/Its grants in this plan \(in the blocks of what they grant\):\n\n- \*\*admin\*\* on `spaces\["space_api"\]`/);
    // The space's block: its grants (the config names the space by id alone, and the plan reads no title for it).
    expect(md).toContain('<details><summary>space <b>space_api</b> · 1 to create, 1 to delete · <a href="https://github.com/acme/docs/blob/abc123/review.yaml#L7">review.yaml:7</a></summary>');
    // Who can do what after the plan: carol's direct grant goes, the team's members hold admin through it.
    expect(md).toContain('Access of `spaces["space_api"]` after this plan:');
    expect(md).toContain('| team Writers | **admin** | direct | **new** |');
    expect(md).toContain('| ↳ bob@​acme.com | **admin** | through team Writers | with the team |');
    expect(md).toContain('| ↳ dave@​acme.com | **admin** | through team Writers | with the team |');
    expect(md).toContain('| user carol@​acme.com | **—** |  | **revoked** (was read) |');
  });

  it('without --source-url the file:line is named, not linked; a --source-url that is no web address is refused', async () => {
    const r = await cli(['plan', '-c', 'review.yaml', '--format', 'markdown']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('<details><summary>team <b>Writers</b> · 1 to create, 1 to update · <code>review.yaml:4</code></summary>');
    const bad = await cli(['plan', '-c', 'review.yaml', '--format', 'markdown', '--source-url', 'javascript:alert(1)']);
    expect(bad.code).toBe(1);
    expect(bad.stderr.split('\n')[0]).toBe('error: --source-url "javascript:alert(1)" is not an http or https URL');
  });
});

describe('validate', () => {
  it('warns (exit 0) of a reference that names nothing in the config, to be checked at plan time', async () => {
    const r = await cli(['validate', '-c', 'deferred.yaml']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('valid');
    expect(r.stderr.trim()).toBe(
      'deferred.yaml:6:18: warning: saml["Okta"].defaultTeam: "Legacy" names no team of the config; plan checks it against organization org_acme',
    );
    // The organization has the team: the plan has no problem with it.
    const planned = await cli(['plan', '-c', 'deferred.yaml']);
    expect(planned.code, planned.stderr).toBe(0);
  });

  it('--format json: counts and warnings; for a broken config, its problems (exit 1)', async () => {
    const ok = await cli(['validate', '-c', 'deferred.yaml', '--format', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
    const doc = JSON.parse(ok.stdout) as { valid: boolean; organizations: number; warnings: { line: number; path: string }[] };
    expect(doc).toMatchObject({ formatVersion: 1, valid: true, organizations: 1, problems: [] });
    expect(doc.warnings).toEqual([{ file: 'deferred.yaml', line: 6, column: 18, path: 'saml["Okta"].defaultTeam', message: expect.stringContaining('"Legacy" names no team') }]);

    writeFileSync(join(dir, 'broken.yaml'), 'version: 1\norganization: {id: org_acme}\nteams:\n  - title: ""\n');
    const bad = await cli(['validate', '-c', 'broken.yaml', '--format', 'json']);
    expect(bad.code).toBe(1);
    const problems = JSON.parse(bad.stdout) as { valid: boolean; problems: { file: string; line: number }[] };
    expect(problems.valid).toBe(false);
    expect(problems.problems[0]).toMatchObject({ file: 'broken.yaml', line: 4 });
    expect(bad.stderr).toMatch(/^broken\.yaml:4:\d+: /);
  });
});

describe('import', () => {
  it('--format json: the report as one document (with the YAML for --out -)', async () => {
    const r = await cli(['import', '--org', 'org_acme', '--out', '-', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { formatVersion: number; orgs: { org: string; counts: Record<string, number> }[]; yaml: string; warnings: string[] };
    expect(doc.formatVersion).toBe(1);
    expect(doc.orgs[0].org).toBe('org_acme');
    expect(doc.orgs[0].counts.teams).toBeGreaterThan(0);
    expect(doc.yaml).toContain('id: org_acme');
    // The certificate, not the provider, is left out when the API returns none.
    expect(doc.warnings.join('\n')).toContain('the provider is imported without its certificate');
  });

  it('--force over an earlier import keeps the prune, safety and protect of the file it replaces', async () => {
    const first = await cli(['import', '--org', 'org_acme', '--out', 'imported']);
    expect(first.code, first.stderr).toBe(0);
    const file = join(dir, 'imported/org_acme.yaml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nprune: [teams]\nsafety: {maxDeletes: 3}\nprotect: ['teams["Legacy"]']\n`);
    const again = await cli(['import', '--org', 'org_acme', '--out', 'imported', '--force']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Kept prune, safety, protect of the imported/org_acme.yaml it replaced');
    const yaml = readFileSync(file, 'utf8');
    expect(yaml).toContain('prune: [ teams ]');
    expect(yaml).toMatch(/safety:\n {2}maxDeletes: 3/);
    expect(yaml).toContain(`protect: [ 'teams["Legacy"]' ]`);
    // Still a config that plans no changes.
    const planned = await cli(['plan', '-c', 'imported']);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('No changes.');
  });

  it('--force over a file that is not YAML says that it drops them', async () => {
    const first = await cli(['import', '--org', 'org_acme', '--out', 'broken-import']);
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(join(dir, 'broken-import/org_acme.yaml'), 'prune: [teams\n');
    const again = await cli(['import', '--org', 'org_acme', '--out', 'broken-import', '--force']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('org_acme: the existing org_acme.yaml is not valid YAML: any prune, safety, protect or policies it held are not written back');
  });
});
