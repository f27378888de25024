/**
 * `docplane plan` through the built CLI (dist/bundle, test/cli-run.ts; `npm run build` first) against the emulator seeded with
 * examples/emulator-state.yaml, on a scratch copy of examples/docplane.yaml.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEmulatorState, startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { ensureBuilt } from '../import/helpers.js';
import { readPlanFile } from '../../src/plan/file.js';
import { runBuiltCli, type CliResult, type CliRunOptions } from '../cli-run.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const SECRET_KEY = 'sk-analytics-very-secret-1234';

type Result = CliResult;

let emulator: RunningEmulator;
let dir: string;

/** `docplane plan ARGS` (test/cli-run.ts); `{ spawn: true }` as a process, for plan's exit codes as the OS sees them. */
function cli(args: string[], extraEnv: Record<string, string> = {}, options?: CliRunOptions): Promise<Result> {
  return runBuiltCli(['plan', ...args], { DOCPLANE_API_URL: emulator.url, DOCPLANE_TOKEN: 'dev-token', ANALYTICS_KEY: SECRET_KEY, ...extraEnv }, dir, options);
}

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'docplane-plan-cli-'));
  for (const part of ['docplane.yaml', 'certs', 'integrations']) cpSync(join(ROOT, 'examples', part), join(dir, part), { recursive: true });
  emulator = await startEmulator({ port: 0, state: loadEmulatorState(join(ROOT, 'examples/emulator-state.yaml')), seed: 3 });
});

afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('docplane plan (built CLI, emulator)', () => {
  it('prints the plan of the example config and exits 2 with --detailed-exitcode, secrets masked', async () => {
    const r = await cli(['-c', 'docplane.yaml', '--detailed-exitcode'], {}, { spawn: true });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('+ teams["Engineering"]');
    expect(r.stdout).toContain('- teams["Legacy"]');
    expect(r.stdout).toContain('+ saml["Okta"]');
    expect(r.stdout).toMatch(/Plan: \d+ to create, \d+ to update, 2 to delete, \d+ other changes; \d+ unmanaged\./);
    expect(r.stdout).not.toContain(SECRET_KEY);
    expect(r.stdout).not.toContain(readFileSync(join(dir, 'certs/okta.pem'), 'utf8').split('\n')[1]);
    // Without the flag, changes are still a success.
    expect((await cli(['-c', 'docplane.yaml'])).code).toBe(0);
  });

  it('limits the plan with --target to the addresses and what they need', async () => {
    const r = await cli(['-c', 'docplane.yaml', '--target', 'saml["Okta"]', '--format', 'json', '--detailed-exitcode']);
    expect(r.code).toBe(2);
    const plan = JSON.parse(r.stdout) as { steps: Array<{ address: string; action: string }> };
    expect(plan.steps.map((s) => `${s.address}:${s.action}`)).toEqual(['teams["Engineering"]:create', 'saml["Okta"]:create']);
  });

  it('saves the plan with --out: a docplane plan file without secret values', async () => {
    const out = join(dir, 'plan.json');
    const r = await cli(['-c', 'docplane.yaml', '--out', out]);
    expect(r.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain(SECRET_KEY);
    expect(text).not.toContain('dev-token');
    expect(text).toContain('{{secret:env:ANALYTICS_KEY}}');
    const plan = readPlanFile(out);
    expect(plan.toolVersion).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    expect(plan.configPaths).toHaveLength(1);
    expect(plan.configPaths[0].endsWith('docplane.yaml')).toBe(true);
    expect(Object.keys(plan.fingerprints)).toContain('org_acme/teams["Engineering"]');
    expect(plan.steps.length).toBeGreaterThan(10);
  });

  it('exits 0 with --detailed-exitcode when nothing would change, and renders markdown', async () => {
    writeFileSync(join(dir, 'same.yaml'), 'version: 1\norganization: { id: org_acme, title: Acme }\nteams: [{ title: Legacy }]\n');
    const r = await cli(['-c', 'same.yaml', '--detailed-exitcode']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No changes.');
    const md = await cli(['-c', 'same.yaml', '--format', 'markdown']);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('No changes');
  });

  it('names unmanaged resources, and counts them as drift with --unmanaged-is-drift', async () => {
    writeFileSync(join(dir, 'unmanaged.yaml'), 'version: 1\norganization: { id: org_acme }\nteams: []\n');
    const r = await cli(['-c', 'unmanaged.yaml', '--detailed-exitcode']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Unmanaged (not in the config, left alone): teams: 1');
    expect(r.stdout).toContain('teams["Legacy"]');
    const drift = await cli(['-c', 'unmanaged.yaml', '--detailed-exitcode', '--unmanaged-is-drift']);
    expect(drift.code).toBe(2);
  });

  it('prints the problems, exits 1 with one clear error line and writes no plan file', async () => {
    writeFileSync(join(dir, 'bad.yaml'), 'version: 1\norganization: { id: org_acme }\nmembers: [{ user: u_zed, role: read }]\n');
    const out = join(dir, 'bad-plan.json');
    const r = await cli(['-c', 'bad.yaml', '--out', out, '--detailed-exitcode']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('u_zed is not a member of organization org_acme');
    expect(r.stderr.split('\n')[0]).toBe(
      // The problem says where the config names the member, as a config error does.
      "error: the plan has 1 problem; first: bad.yaml:3:11: members[\"u_zed\"]: u_zed is not a member of organization org_acme; a user id cannot be invited: list the person's email under members to invite them, or remove them from the config",
    );
    expect(existsSync(out)).toBe(false);
  });
});
