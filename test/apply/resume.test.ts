/**
 * A saved plan interrupted part way (Ctrl+C, a CI job's SIGTERM, a killed process) and applied
 * again: the second `apply PLANFILE` recognises the steps already done, finishes the rest, converges,
 * and nothing exists twice; no request outside the plan is ever sent. The interruption is sent when
 * the emulator has answered a given number of writes (an event, not a delay).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator, type Exchange } from '../../src/emulator/server.js';
import { builtCli, demoState, duplicates, naturalKeys, ROOT, runCli } from './cli-helpers.js';

/** A request of the plan as a pattern: `{{ref:…}}` tokens stand for any one path segment. */
function requestPatterns(planFile: string): RegExp[] {
  const plan = JSON.parse(readFileSync(planFile, 'utf8')) as { steps: Array<{ requests: Array<{ method: string; path: string }> }> };
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return plan.steps.flatMap((s) =>
    s.requests.map((r) => new RegExp(`^${r.method} ${r.path.split(/\{\{ref:.*?\}\}(?=\/|$)/).map(escape).join('[^/]+')}(\\?.*)?$`)),
  );
}

const isWrite = (e: Exchange) => e.method !== 'GET';

describe('a saved plan interrupted, then applied again', () => {
  // Interruption points spread over the first half of the plan's ~50 writes (a section cut between
  // its create and its PATCH among them).
  it.each([
    ['SIGINT', 4],
    ['SIGTERM', 15],
    ['SIGKILL', 21],
  ] as const)('%s after %i writes: the second apply resumes, converges, and nothing exists twice', async (signal, writes) => {
    const dir = mkdtempSync(join(tmpdir(), 'docplane-resume-'));
    for (const part of ['docplane.yaml', 'certs', 'integrations']) cpSync(join(ROOT, 'examples', part), join(dir, part), { recursive: true });
    const exchanges: Exchange[] = [];
    let onWrite: (() => void) | undefined;
    const emulator = await startEmulator({
      port: 0,
      state: demoState(),
      seed: writes,
      onExchange: (e) => {
        exchanges.push(e);
        if (isWrite(e)) onWrite?.();
      },
    });
    const env = { DOCPLANE_API_URL: emulator.url, DOCPLANE_TOKEN: 'dev-token' };
    try {
      const planned = await runCli(['plan', '--out', 'plan.json'], env, dir);
      expect(planned.code, planned.stderr).toBe(0);

      const first = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, [builtCli(), 'apply', 'plan.json'], { cwd: dir, env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        let sent = false;
        child.stdout.on('data', (c: Buffer) => (output += c.toString()));
        child.stderr.on('data', (c: Buffer) => (output += c.toString()));
        onWrite = () => {
          if (!sent && exchanges.filter(isWrite).length >= writes) sent = child.kill(signal);
        };
        child.on('exit', (code) => resolve({ code, output }));
      });
      onWrite = undefined;
      if (signal === 'SIGKILL') {
        expect(first.output).not.toContain('Apply:');
      } else {
        // Stopped as Ctrl+C stops it: what was in flight ended, the summary printed, exit 1.
        expect(first.code, first.output).toBe(1);
        expect(first.output).toContain(`stopping (${signal})`);
        expect(first.output).toMatch(/^Apply: \d+ applied, \d+ failed, \d+ skipped\.$/m);
        expect(first.output).toContain('interrupted: the apply was cancelled');
      }

      const again = await runCli(['apply', 'plan.json'], env, dir);
      expect(again.code, again.stderr + again.stdout).toBe(0);
      // Resumed — or, when what was in flight at the signal was the last of it, already applied.
      expect(again.stdout).toMatch(/^(resuming: [1-9]\d* of \d+ steps were already applied|The plan plan\.json is already applied)/m);
      if (!again.stdout.includes('already applied: all')) expect(again.stdout).toContain('converged: no changes left');

      for (const [what, keys] of Object.entries(naturalKeys(emulator.world))) expect(duplicates(keys), `${what} created twice`).toEqual([]);
      const patterns = requestPatterns(join(dir, 'plan.json'));
      const outside = exchanges.filter(isWrite).filter((e) => !patterns.some((p) => p.test(`${e.method} ${e.path}`)));
      expect(outside.map((e) => `${e.method} ${e.path}`)).toEqual([]);

      const plan = await runCli(['plan', '--detailed-exitcode'], env, dir);
      expect(plan.code, plan.stdout).toBe(0);
      // Applied once more: already applied, nothing sent. Once, after the interruption that leaves
      // the least behind (a killed process cleans nothing up): the check does not depend on the signal.
      if (signal !== 'SIGKILL') return;
      const count = exchanges.filter(isWrite).length;
      const third = await runCli(['apply', 'plan.json'], env, dir);
      expect(third.code, third.stderr).toBe(0);
      expect(third.stdout).toContain('is already applied');
      expect(exchanges.filter(isWrite).length).toBe(count);
    } finally {
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
