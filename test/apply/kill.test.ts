/**
 * The apply process killed at arbitrary points (SIGKILL: no cleanup, answers lost mid-flight), then
 * run again: the second run finishes the job, converges, and nothing exists twice.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/server.js';
import { builtCli, demoState, duplicates, naturalKeys, ROOT, runCli } from './cli-helpers.js';

/**
 * Runs the CLI and kills it (SIGKILL) as the emulator answers its `requests`-th request (an event,
 * not a delay): the requests sent after it are in flight, their answers lost.
 */
function killedApply(args: string[], env: Record<string, string>, cwd: string, answered: { on?: (count: number) => void }, requests: number): Promise<{ output: string; killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [builtCli(), ...args], { cwd, env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let killed = false;
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    answered.on = (count) => {
      if (!killed && count >= requests) killed = child.kill('SIGKILL');
    };
    child.on('exit', () => {
      answered.on = undefined;
      resolve({ output, killed });
    });
  });
}

describe('apply killed at random points, then run again', () => {
  // The whole run sends ~65 requests: ~20 reads to plan, ~40 to apply, a few to plan again. The
  // points are fixed (reproducible) and spread over the apply part.
  it.each([26, 38, 50])('killed after %i requests: the next apply converges with no duplicates', async (requests) => {
    const dir = mkdtempSync(join(tmpdir(), 'docplane-kill-'));
    for (const part of ['docplane.yaml', 'certs', 'integrations']) cpSync(join(ROOT, 'examples', part), join(dir, part), { recursive: true });
    const answered: { on?: (count: number) => void } = {};
    let count = 0;
    const emulator = await startEmulator({ port: 0, state: demoState(), latencyMs: 20, seed: requests, onExchange: () => answered.on?.(++count) });
    const env = { DOCPLANE_API_URL: emulator.url, DOCPLANE_TOKEN: 'dev-token' };
    try {
      const first = await killedApply(['apply', '-c', 'docplane.yaml', '--auto-approve'], env, dir, answered, requests);
      expect(first.killed, first.output).toBe(true);
      expect(first.output).not.toContain('Apply:'); // it died before its summary
      const again = await runCli(['apply', '-c', 'docplane.yaml', '--auto-approve'], env, dir);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/converged: no changes left|Nothing to apply\./);
      for (const [what, keys] of Object.entries(naturalKeys(emulator.world))) {
        expect(duplicates(keys), `${what} created twice`).toEqual([]);
      }
      expect(naturalKeys(emulator.world).teams.sort()).toEqual(['Engineering', 'Support']);
      const plan = await runCli(['plan', '-c', 'docplane.yaml', '--detailed-exitcode'], env, dir);
      expect(plan.code, plan.stdout).toBe(0);
    } finally {
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // `POST SITE/sections` creates the section with a path made from its title, and a second request
  // sets the configured path. Cut between the two, the next plan must adopt the leftover (same title
  // and first space) rather than create another.
  it('a section whose create was cut between its POST and its PATCH is not created twice by the next apply', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docplane-cut-'));
    for (const part of ['docplane.yaml', 'certs', 'integrations']) cpSync(join(ROOT, 'examples', part), join(dir, part), { recursive: true });
    const emulator = await startEmulator({ port: 0, state: demoState(), seed: 3 });
    const env = { DOCPLANE_API_URL: emulator.url, DOCPLANE_TOKEN: 'dev-token' };
    try {
      // What a killed apply leaves: the POST of sections["api"] done, its PATCH (path "api") not.
      const res = await fetch(`${emulator.url}/v1/orgs/org_acme/sites/site_docs/sections`, {
        method: 'POST',
        headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
        body: JSON.stringify({ spaceId: 'space_api', title: 'API reference' }),
      });
      expect(res.status).toBe(201);
      const again = await runCli(['apply', '-c', 'docplane.yaml', '--auto-approve'], env, dir);
      expect(again.code, again.stderr).toBe(0);
      const titles = [...emulator.world.orgs.get('org_acme')!.sites.get('site_docs')!.sections.values()].map((s) => s.title);
      expect(duplicates(titles)).toEqual([]);
    } finally {
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
