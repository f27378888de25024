/** `docplane emulator` through the built CLI: prints where it listens, serves, stops on SIGTERM. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../import/helpers.js';
import { DEMO_STATE_FILE } from './helpers.js';
import { recordExchangeLog } from '../conformance/session.js';
import { runBuiltCli } from '../cli-run.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const runJs = join(root, 'bin/run.js');

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function run(args: string[]): { child: ChildProcess; firstLine: Promise<string>; exit: Promise<{ code: number | null; stderr: string; stdout: string }> } {
  const child = spawn(process.execPath, [runJs, 'emulator', ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      stdout += d;
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]);
    });
    child.once('exit', () => reject(new Error(`exited before printing a line; stderr: ${stderr}`)));
  });
  // Runs that are expected to fail never print a line; only the tests that await it care.
  firstLine.catch(() => undefined);
  const exit = new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => child.once('exit', (code) => resolve({ code, stderr, stdout })));
  return { child, firstLine, exit };
}

describe('docplane emulator', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('prints `listening on http://127.0.0.1:PORT`, serves the state, and stops on SIGTERM', async () => {
    const logFile = join(mkdtempSync(join(tmpdir(), 'docplane-emu-cli-')), 'log.jsonl');
    const { child, firstLine, exit } = run(['--port', '0', '--state', DEMO_STATE_FILE, '--log', logFile]);
    const line = await firstLine;
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.slice('listening on '.length);
    const res = await fetch(`${url}/v1/orgs/org_acme/members?limit=1000`, { headers: { authorization: 'Bearer dev-token' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).items).toHaveLength(12);
    child.kill('SIGTERM');
    const { code, stdout } = await exit;
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const logged = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(logged).toEqual([expect.objectContaining({ method: 'GET', path: '/v1/orgs/org_acme/members?limit=1000', status: 200 })]);
    // A CLI emulator's exchanges are checked from its log (docs/conformance.md).
    expect(await recordExchangeLog(logFile)).toBe(1);
  });

  it('limits requests per window with --rate-limit N/Ss, and per second with --rate-limit N', async () => {
    const logFile = join(mkdtempSync(join(tmpdir(), 'docplane-emu-cli-')), 'log.jsonl');
    const { child, firstLine, exit } = run(['--port', '0', '--rate-limit', '2/60s', '--log', logFile]);
    const url = (await firstLine).slice('listening on '.length);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 3; i++) {
      last = await fetch(`${url}/v1/orgs/org_acme`, { headers: { authorization: 'Bearer read-token' } });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(last!.headers.get('x-ratelimit-limit')).toBe('2');
    expect(Number(last!.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 + 50);
    expect(((await last!.json()) as any).error.message).toMatch(/^API rate limit exceeded\. Please try again in \d+ seconds$/);
    child.kill('SIGTERM');
    expect((await exit).code).toBe(0);
    expect(await recordExchangeLog(logFile)).toBe(3);

    const perSecond = run(['--port', '0', '--rate-limit', '50']);
    const url2 = (await perSecond.firstLine).slice('listening on '.length);
    const res = await fetch(`${url2}/v1/orgs/org_acme`, { headers: { authorization: 'Bearer read-token' } });
    expect(res.headers.get('x-ratelimit-limit')).toBe('50');
    perSecond.child.kill('SIGTERM');
    expect((await perSecond.exit).code).toBe(0);

    const bad = await runBuiltCli(['emulator', '--port', '0', '--rate-limit', '5/0s'], {}, root);
    expect(bad.code).toBe(1);
    expect(bad.stderr.split('\n')[0]).toBe('error: --rate-limit must be N (requests per second) or N/Ss (requests per window of S seconds), not 5/0s');
  });

  it('serves the demo world when no --state is given', async () => {
    const { child, firstLine, exit } = run(['--port', '0']);
    const url = (await firstLine).slice('listening on '.length);
    const res = await fetch(`${url}/v1/orgs/org_acme`, { headers: { authorization: 'Bearer read-token' } });
    expect(((await res.json()) as any).title).toBe('Acme');
    child.kill('SIGINT');
    expect((await exit).code).toBe(0);
  });

  it('fails with one clear line for a bad rate or an invalid state file', async () => {
    // Refused before it listens: in the test worker (test/cli-run.ts); the runs above are servers.
    const r1 = await runBuiltCli(['emulator', '--port', '0', '--fault-rate', '2'], {}, root);
    expect(r1.code).toBe(1);
    expect(r1.stderr.split('\n')[0]).toBe('error: --fault-rate must be a fraction between 0 and 1, not 2');
    expect(r1.stderr).not.toMatch(/at .*\.js:\d+/);

    const file = join(mkdtempSync(join(tmpdir(), 'docplane-emu-cli-')), 'state.yaml');
    writeFileSync(file, 'organizations:\n  - title: A\n');
    const r2 = await runBuiltCli(['emulator', '--port', '0', '--state', file], {}, root);
    expect(r2.code).toBe(1);
    expect(r2.stderr.split('\n')[0]).toMatch(new RegExp(`^error: .*state\\.yaml: organizations\\[0\\]\\.title`));
  });
});
