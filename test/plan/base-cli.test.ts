/**
 * `docplane plan --base` through the built CLI (`npm run build` first) against the emulator seeded
 * with examples/emulator-state.yaml: the example config as a folder, its base given as a folder path
 * and as a git revision of a scratch repository; the saved plan applied as any other.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEmulatorState, startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { ensureBuilt } from '../import/helpers.js';
import { runBuiltCli, type CliResult } from '../cli-run.js';

const ROOT = new URL('../../', import.meta.url).pathname;

type Result = CliResult;

interface JsonPlan {
  steps: Array<{ address: string; action: string }>;
  targets?: string[];
  base?: { from: string; unread?: number; whole?: string };
}

let emulator: RunningEmulator;
let dir: string;

function cli(args: string[]): Promise<Result> {
  return runBuiltCli(args, { DOCPLANE_API_URL: emulator.url, DOCPLANE_TOKEN: 'dev-token', ANALYTICS_KEY: 'sk-test' }, dir);
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1' } });
}

/** The example config in `folder` (docplane.yaml with the files it brings in). */
function writeExample(folder: string): void {
  mkdirSync(folder, { recursive: true });
  for (const part of ['docplane.yaml', 'certs', 'integrations']) cpSync(join(ROOT, 'examples', part), join(folder, part), { recursive: true });
}

function edit(folder: string, from: string, to: string): void {
  const file = join(folder, 'docplane.yaml');
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

/** Requests the emulator answered while `run` ran, and its result. */
async function counted<T>(run: () => Promise<T>): Promise<{ result: T; requests: number }> {
  const before = emulator.requestCount();
  const result = await run();
  return { result, requests: emulator.requestCount() - before };
}

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'docplane-plan-base-'));
  writeExample(join(dir, 'docplane'));
  writeExample(join(dir, 'base'));
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'add', 'docplane');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'config');
  // The pull request: one member's role.
  edit(join(dir, 'docplane'), '{ user: judy@acme.com, role: comment }', '{ user: judy@acme.com, role: review }');
  emulator = await startEmulator({ port: 0, state: loadEmulatorState(join(ROOT, 'examples/emulator-state.yaml')), seed: 3 });
});

afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('docplane plan --base (built CLI, emulator)', () => {
  it('plans only the changed entry, with a folder path or a git revision as the base, reading less than the whole plan', async () => {
    const whole = await counted(() => cli(['plan', '-c', 'docplane', '--format', 'json']));
    expect(whole.result.code).toBe(0);
    const wholePlan = JSON.parse(whole.result.stdout) as JsonPlan;
    const judy = wholePlan.steps.filter((s) => s.address === 'members["judy@acme.com"]');
    expect(judy.length).toBeGreaterThan(0);
    expect(wholePlan.steps.length).toBeGreaterThan(judy.length);

    for (const base of ['base', 'HEAD']) {
      const pr = await counted(() => cli(['plan', '-c', 'docplane', '--base', base, '--format', 'json']));
      expect(pr.result.stderr).toBe('');
      expect(pr.result.code).toBe(0);
      const plan = JSON.parse(pr.result.stdout) as JsonPlan;
      expect(plan.steps).toEqual(judy);
      expect(plan.targets).toEqual(['org_acme/members["judy@acme.com"]']);
      expect(plan.base?.from).toBe(base);
      expect(plan.base?.unread).toBeGreaterThan(10);
      expect(pr.requests).toBeLessThan(whole.requests / 3);
    }
    const text = await cli(['plan', '-c', 'docplane', '--base', 'HEAD']);
    expect(text.stdout).toMatch(/\d+ entries unchanged since HEAD were not read; the drift check reads everything\./);
  });

  it('reads nothing when nothing changed, and a whole plan when prune changed, saying why', async () => {
    const same = await counted(() => cli(['plan', '-c', 'base', '--base', 'base', '--format', 'json']));
    expect(same.result.code).toBe(0);
    expect((JSON.parse(same.result.stdout) as JsonPlan).steps).toEqual([]);
    expect(same.requests).toBe(0);

    edit(join(dir, 'docplane'), 'prune: [shareLinks, teams]', 'prune: [shareLinks]');
    const r = await cli(['plan', '-c', 'docplane', '--base', 'HEAD']);
    edit(join(dir, 'docplane'), 'prune: [shareLinks]', 'prune: [shareLinks, teams]');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Whole plan: prune of organization org_acme changed since HEAD, and that decides for the whole config: every entry was read (--base).');
    expect(r.stdout).toContain('+ teams["Engineering"]');

    // A config the base does not have (a pull request that adds it): a whole plan.
    writeExample(join(dir, 'added'));
    const added = await cli(['plan', '-c', 'added', '--base', 'HEAD']);
    expect(added.stdout).toContain('Whole plan: the config (added/) was added since HEAD');
    rmSync(join(dir, 'added'), { recursive: true, force: true });
  });

  it('says in one line when BASE is neither a path nor a revision, and when the base config is invalid', async () => {
    const r = await cli(['plan', '-c', 'docplane', '--base', 'no-such-branch']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(/--base no-such-branch: no such path, and no such revision in the repository at /);
    expect(r.stderr).not.toMatch(/\n\s+at /);

    edit(join(dir, 'base'), 'title: Engineering', 'title: 7');
    edit(join(dir, 'base'), 'version: 1', 'version: 1\nbogus: true');
    const bad = await cli(['plan', '-c', 'docplane', '--base', 'base']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/base\/docplane\.yaml:\d+:\d+/);
    edit(join(dir, 'base'), 'version: 1\nbogus: true', 'version: 1');
    edit(join(dir, 'base'), 'title: 7', 'title: Engineering');

    // A revision whose config does not load: its problems named as git names the file.
    const broken = readFileSync(join(dir, 'docplane', 'docplane.yaml'), 'utf8').replace('version: 1', 'version: 1\nbogus: true');
    const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, input: broken, encoding: 'utf8' }).trim();
    const index = join(dir, '.git', 'broken-index');
    const env = { PATH: process.env.PATH, HOME: dir, GIT_INDEX_FILE: index, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
    const inIndex = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', env }).trim();
    inIndex('read-tree', 'HEAD');
    inIndex('update-index', '--cacheinfo', `100644,${blob},docplane/docplane.yaml`);
    const rev = inIndex('commit-tree', inIndex('write-tree'), '-p', 'HEAD', '-m', 'broken');
    const atRev = await cli(['plan', '-c', 'docplane', '--base', rev]);
    expect(atRev.code).toBe(1);
    expect(atRev.stderr.split('\n')[0]).toMatch(new RegExp(`^${rev}:docplane/docplane\\.yaml:\\d+:1: bogus: unknown key "bogus"$`));
  });

  it('saves a plan that apply PLANFILE applies, and the change is then planned as done', async () => {
    const out = join(dir, 'plan.json');
    const saved = await cli(['plan', '-c', 'docplane', '--base', 'HEAD', '--out', out]);
    expect(saved.code).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8')) as JsonPlan;
    expect(file.targets).toEqual(['org_acme/members["judy@acme.com"]']);
    expect(file.base).toMatchObject({ from: 'HEAD' });
    const applied = await cli(['apply', out]);
    expect(applied.stderr.split('\n')[0] ?? '').not.toMatch(/error/i);
    expect(applied.code).toBe(0);
    const after = JSON.parse((await cli(['plan', '-c', 'docplane', '--base', 'HEAD', '--format', 'json'])).stdout) as JsonPlan;
    expect(after.steps).toEqual([]);
  });
});
