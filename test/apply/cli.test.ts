/**
 * `docplane apply` through the built CLI against the emulator seeded with the demo world and the
 * example config: converging, the confirmation rule, safety refusals, a read-only token.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCli, errorLines, sandbox, type Sandbox } from './cli-helpers.js';
import { CLI_NODE } from '../cli-node.js';

let box: Sandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

const teamTitles = (b: Sandbox) => [...b.emulator.world.orgs.get('org_acme')!.teams.values()].map((t) => t.title).sort();

describe('docplane apply (CLI)', () => {
  it('applies the example config, converges, and a plan afterwards has no changes', async () => {
    box = await sandbox();
    const apply = await box.cli(['apply', '-c', box.config, '--auto-approve', '--format', 'json']);
    expect(apply.stderr).not.toMatch(/^error:/m);
    expect(apply.code).toBe(0);
    const summary = JSON.parse(apply.stdout);
    expect(summary.summary.failed).toBe(0);
    expect(summary.summary.skipped).toBe(0);
    expect(summary.summary.applied).toBeGreaterThan(20);
    expect(summary.convergence).toMatchObject({ converged: true, remaining: 0 });
    // Progress went to stderr, one line per step.
    expect(apply.stderr).toContain('✓ create teams["Engineering"]');
    expect(teamTitles(box)).toEqual(['Engineering', 'Support']);

    const plan = await box.cli(['plan', '-c', box.config, '--detailed-exitcode']);
    expect(plan.code, plan.stdout).toBe(0);
    const again = await box.cli(['apply', '-c', box.config, '--auto-approve']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Nothing to apply.');
  });

  it('refuses to apply without --auto-approve when not on a terminal, and changes nothing', async () => {
    box = await sandbox();
    const before = box.emulator.requestCount();
    const res = await box.cli(['apply', '-c', box.config]);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stdout).toContain('+ teams["Engineering"]'); // the plan was shown
    expect(errorLines(res.stderr)).toEqual(['error: refusing to apply without confirmation: not running in a terminal']);
    expect(res.stderr).toContain('--auto-approve');
    expect(teamTitles(box)).toEqual(['Legacy']);
    expect(box.emulator.requestCount()).toBeGreaterThan(before); // it did read, to plan
  });

  it('refuses a plan that breaks a safety rule with exit 3, and applies it with --force', async () => {
    box = await sandbox();
    const text = readFileSync(box.config, 'utf8').replace(/safety:.*\n/, '') + '\nsafety: { maxDeletes: 1 }\n';
    writeFileSync(box.config, text);
    const refused = await box.cli(['apply', '-c', box.config, '--auto-approve']);
    expect(refused.code, refused.stderr).toBe(3);
    const [line] = errorLines(refused.stderr);
    expect(line).toMatch(/^error: the plan breaks a safety rule: maxDeletes: /);
    expect(refused.stderr).toContain('--force');
    expect(teamTitles(box)).toEqual(['Legacy']);

    const forced = await box.cli(['apply', '-c', box.config, '--auto-approve', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('converged: no changes left');
    expect(teamTitles(box)).toEqual(['Engineering', 'Support']);
  });

  it('with a read-only token: one clear 403 line, and the summary says what was not done', async () => {
    box = await sandbox({ token: 'read-token' });
    const res = await box.cli(['apply', '-c', box.config, '--auto-approve']);
    expect(res.code, res.stderr).toBe(1);
    const errors = errorLines(res.stderr);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^error: stopped: (PATCH|PUT|POST|DELETE) \/v1\/\S+ → 403: /);
    expect(res.stderr).toContain('write access');
    expect(res.stdout).toMatch(/^Apply: 0 applied, \d+ failed, \d+ skipped\.$/m);
    expect(res.stdout).toContain('Run stopped: ');
    const [, failed, skipped] = /Apply: 0 applied, (\d+) failed, (\d+) skipped/.exec(res.stdout)!.map(Number);
    expect(failed + skipped).toBe(64); // every step of the plan (of the example config) is accounted for
    expect(teamTitles(box)).toEqual(['Legacy']);
    // The API's answer is printed once, in the error line; the summary and the progress say the status.
    const answer = /→ 403: (.*)$/.exec(errors[0])![1];
    expect(`${res.stdout}${res.stderr}`.split(answer)).toHaveLength(2);
    expect(res.stdout).toContain('Run stopped: the token may not make changes (403)');
    expect(res.stdout).toMatch(/✗ \S.*: denied \(403\)$/m);
  });

  it('Ctrl+C stops the run: requests in flight finish, the summary says what was done, and a re-run finishes', async () => {
    box = await sandbox({ latencyMs: 30 });
    const b = box;
    const res = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(CLI_NODE, [builtCli(), 'apply', '-c', b.config, '--auto-approve'], {
        cwd: b.dir,
        env: { PATH: process.env.PATH, NO_COLOR: '1', ...b.env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      // Once the apply has started (the plan reads 35 requests), interrupt it.
      const poll = setInterval(() => {
        if (b.emulator.requestCount() >= 38) {
          clearInterval(poll);
          child.kill('SIGINT');
        }
      }, 1);
      child.on('exit', (code) => {
        clearInterval(poll);
        resolve({ code, stdout, stderr });
      });
    });
    expect(res.code, res.stderr).toBe(1);
    expect(errorLines(res.stderr)).toEqual(['error: interrupted: the apply was cancelled']);
    expect(res.stdout).toMatch(/^Apply: \d+ applied, \d+ failed, [1-9]\d* skipped\.$/m);
    expect(res.stdout).toContain('Run interrupted: the apply was cancelled');

    const again = await b.cli(['apply', '-c', b.config, '--auto-approve']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('converged: no changes left');
  });
});
