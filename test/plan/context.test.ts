/**
 * The run context (src/plan/context.ts) is the one place a run loads the config, connects, plans,
 * collects the secrets the reads found and runs the steps policies: `plan`, `apply` (fresh and
 * saved) and the check after an apply plan through it, so they plan alike; the apply service returns
 * data and tells its command what happens, rendering nothing itself.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { runApply } from '../../src/apply/run.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { runPlan } from '../../src/plan/service.js';
import { quietApply } from '../apply/in-process.js';
import { demoState } from '../apply/cli-helpers.js';

const SRC = new URL('../../src/', import.meta.url).pathname;

/** The source files under `dir` (tests and test support left out). */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('test-support'))
    .map((f) => join(dir, f));
}

describe('one run context', () => {
  it('is the only caller of the planner, the policies and the secrets outside the bench', () => {
    const callers = sources(SRC)
      .filter((f) => !f.startsWith(join(SRC, 'bench')))
      .filter((f) => /\b(planOrgs|checkSteps|runSecrets)\(/.test(readFileSync(f, 'utf8').replace(/export (async )?function \w+\(/g, '')))
      .map((f) => relative(SRC, f));
    expect(callers).toEqual(['plan/context.ts']);
  });

  it('the apply service renders nothing: no import of src/render/', () => {
    const rendering = sources(join(SRC, 'apply')).filter((f) => /from '\.\.\/render\//.test(readFileSync(f, 'utf8')));
    expect(rendering.map((f) => relative(SRC, f))).toEqual([]);
  });
});

let emulator: RunningEmulator | undefined;
let dir: string | undefined;
afterEach(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  emulator = undefined;
  dir = undefined;
});

it('plan and a fresh apply make the same plan, policies and warnings included; apply hands it to its command as data', async () => {
  emulator = await startEmulator({ port: 0, state: demoState(), seed: 3 });
  dir = mkdtempSync(join(tmpdir(), 'docplane-context-'));
  const config = join(dir, 'docplane.yaml');
  writeFileSync(
    config,
    `version: 1
organization: { id: org_acme, title: Acme }
teams:
  - title: Ops
policies:
  - { name: titled, resource: teams, rule: "self.title != 'Ops'", message: "Ops is a reserved name", severity: warning }
`,
  );
  const url = emulator.url;
  const connect = async () => createClient({ baseUrl: url, token: 'dev-token', backoffBaseMs: 2 });
  const planned = await runPlan({ configPath: config, toolVersion: '0.1.0', connect });
  const notices: Array<{ type: string; plan?: unknown }> = [];
  await runApply(quietApply(config, connect, { notify: (n) => void notices.push(n), verify: false }));
  const shown = notices.find((n) => n.type === 'plan')?.plan as typeof planned.plan | undefined;
  expect(shown).toBeDefined();
  const same = (p: typeof planned.plan) => ({ steps: p.steps, notes: p.notes, violations: p.violations });
  expect(same(shown!)).toEqual(same(planned.plan));
  expect(planned.plan.notes?.some((n) => n.includes('Ops is a reserved name'))).toBe(true);
});
