/**
 * `docplane apply PLANFILE` through the built CLI: the saved steps are applied once, and a plan
 * that no longer fits (remote state moved, config changed, another version, already applied) is
 * refused with a line naming why.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorLines, sandbox, type Sandbox } from './cli-helpers.js';

let box: Sandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

const teamTitles = (b: Sandbox) => [...b.emulator.world.orgs.get('org_acme')!.teams.values()].map((t) => t.title).sort();

async function savePlan(b: Sandbox): Promise<string> {
  const file = join(b.dir, 'plan.json');
  const res = await b.cli(['plan', '-c', b.config, '--out', file]);
  expect(res.code, res.stderr).toBe(0);
  return file;
}

describe('docplane apply PLANFILE (CLI)', () => {
  it('applies a saved plan (the config found as plan finds it); applied again, it is already applied: nothing to do, no write', async () => {
    box = await sandbox();
    const file = await savePlan(box);
    // From another folder: the config is found through the paths kept in the plan.
    const first = await box.cli(['apply', file], {});
    expect(first.stderr).not.toMatch(/^error:/m);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('converged: no changes left');
    expect(teamTitles(box)).toEqual(['Engineering', 'Support']);
    const before = box.exchanges.length;

    const second = await box.cli(['apply', file]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/^The plan \S+ is already applied: all \d+ of its steps are done in the organization\. Nothing to apply\.$/m);
    expect(box.writes(before)).toEqual([]);
    expect(teamTitles(box)).toEqual(['Engineering', 'Support']);
  });

  it('refuses a stale plan, naming what changed remotely, and sends no write', async () => {
    box = await sandbox();
    const file = await savePlan(box);
    // Someone creates the team meanwhile.
    const res = await fetch(`${box.emulator.url}/v1/orgs/org_acme/teams`, {
      method: 'PUT',
      headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Engineering' }),
    });
    expect(res.status).toBe(201);
    const apply = await box.cli(['apply', file]);
    expect(apply.code, apply.stderr).toBe(1);
    const [line] = errorLines(apply.stderr);
    expect(line).toMatch(/^error: the plan .* is stale: \d+ remote objects? changed since it was made: /);
    expect(line).toContain('org_acme/teams["Engineering"]');
    expect(teamTitles(box)).toEqual(['Engineering', 'Legacy']);
  });

  it('refuses a plan whose config changed since or that another docplane version made; the paths a file records never choose the config', async () => {
    box = await sandbox();
    const file = await savePlan(box);
    const plan = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...plan, toolVersion: '0.0.1-other' }));
    const version = await box.cli(['apply', file]);
    expect(version.code, version.stderr).toBe(1);
    expect(errorLines(version.stderr)[0]).toMatch(/was made by docplane 0\.0\.1-other; this is docplane \d/);

    // The config is -c's, else ./docplane.yaml (as plan finds it), never the file's paths; a config
    // with other contents refuses the file, naming both.
    const original = readFileSync(box.config, 'utf8');
    writeFileSync(file, JSON.stringify({ ...plan, configPaths: ['/nowhere/docplane.yaml'] }));
    appendFileSync(box.config, '# an edit after planning\n');
    const changed = await box.cli(['apply', file]);
    expect(changed.code, changed.stderr).toBe(1);
    expect(errorLines(changed.stderr)).toEqual([
      `error: the plan ${file} was made from the config /nowhere/docplane.yaml, and the config here, docplane.yaml, is not that one (other files, or other contents); nothing was sent`,
    ]);
    expect(changed.stdout).toContain('Config: docplane.yaml (found as plan finds it: ./docplane.yaml, else ./docplane/)');
    expect(teamTitles(box)).toEqual(['Legacy']);

    // Made elsewhere (another CI job) from the same files: the config found here is the one applied, and named.
    writeFileSync(box.config, original);
    const elsewhere = await box.cli(['apply', file]);
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(elsewhere.stdout).toContain('Config: docplane.yaml (found as plan finds it');
    expect(teamTitles(box)).toEqual(['Engineering', 'Support']);
  });

  it('refuses a saved plan that breaks a safety rule with exit 3 unless --force', async () => {
    box = await sandbox();
    writeFileSync(box.config, readFileSync(box.config, 'utf8').replace(/safety:.*\n/, '') + '\nsafety: { maxDeletes: 0 }\n');
    const file = await savePlan(box);
    const refused = await box.cli(['apply', file]);
    expect(refused.code, refused.stderr).toBe(3);
    expect(teamTitles(box)).toEqual(['Legacy']);
    const forced = await box.cli(['apply', file, '--force', '--format', 'json']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout).summary.failed).toBe(0);
    expect(teamTitles(box)).toEqual(['Engineering', 'Support']);
  });

  it('--target on a saved plan applies the targeted steps only, checks only their remote objects, and leaves the file usable', async () => {
    box = await sandbox();
    const file = await savePlan(box);
    const createTeam = (title: string) =>
      fetch(`${box!.emulator.url}/v1/orgs/org_acme/teams`, {
        method: 'PUT',
        headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
    // A change outside the target does not make the targeted part stale.
    expect((await createTeam('Support')).status).toBe(201);
    const targeted = await box.cli(['apply', file, '--target', 'teams["Engineering"]']);
    expect(targeted.stderr).not.toMatch(/^error:/m);
    expect(targeted.code).toBe(0);
    expect(targeted.stdout).toMatch(/^Applying \S+ \(\d+ steps? of \d+, selected by --target\): /m);
    expect(targeted.stdout).toContain('converged: no changes left');
    expect(teamTitles(box)).toEqual(['Engineering', 'Legacy', 'Support']);
    // The targeted part again: already applied. The rest is judged on its own: teams["Support"] was
    // made by someone else meanwhile, as the plan would make it.
    const again = await box.cli(['apply', file, '--target', 'teams["Engineering"]']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('is already applied');
  });
});
