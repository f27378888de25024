/**
 * `apply PLANFILE` applies exactly the reviewed plan, never more, never less: it derives the file's
 * whole scope again (the organization, a `--base` plan's targets from its base, the targets and
 * `--replace` patterns apply's own command line confirms) and refuses, with one line and nothing sent,
 * a file that lacks a step the scope gives, holds a step for another organization or an address the
 * config does not have, or widens the scope; and it applies the config it finds as plan finds it,
 * naming it, never the one the file's paths name.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorLines, ROOT, sandbox, type Sandbox } from './cli-helpers.js';

let box: Sandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

type Step = { id: string; org: string; address: string; action: string; requests: unknown[] };
type PlanJson = { orgs: string[]; steps: Step[]; targets?: string[]; replace?: string[]; fingerprints: Record<string, string> };

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as PlanJson;

/** The sandbox with the example config applied, then edited: a member demoted, a grant revoked, a team added (3 steps). */
async function convergedThenEdited(): Promise<Sandbox> {
  const b = await sandbox();
  const first = await b.cli(['apply', '--auto-approve']);
  expect(first.code, first.stderr).toBe(0);
  mkdirSync(join(b.dir, 'base'));
  for (const part of ['docplane.yaml', 'certs', 'integrations']) cpSync(join(b.dir, part), join(b.dir, 'base', part), { recursive: true });
  const text = readFileSync(b.config, 'utf8');
  const edited = text
    .replace('{ user: frank@acme.com, role: edit }', '{ user: frank@acme.com, role: read }')
    .replace('      users: { carol@acme.com: edit }\n', '')
    .replace('teams:\n', 'teams:\n  - title: Ops\n');
  expect(edited).not.toBe(text);
  writeFileSync(b.config, edited);
  return b;
}

const TEAM = 'org_acme/teams["Ops"]:create';
const DEMOTE = 'org_acme/members["frank@acme.com"]:update';
const REVOKE = 'org_acme/spaces["space_api"].access.users["carol@acme.com"]:delete';

async function savePlan(b: Sandbox, args: string[] = [], name = 'plan.json'): Promise<string> {
  const file = join(b.dir, name);
  const res = await b.cli(['plan', ...args, '--out', file]);
  expect(res.code, res.stderr).toBe(0);
  return file;
}

/** Applies `file` (edited) and expects one refusal line, exit 1, and no write. */
async function refused(b: Sandbox, args: string[], line: RegExp): Promise<void> {
  const before = b.exchanges.length;
  const apply = await b.cli(['apply', ...args]);
  expect(apply.code, `${apply.stdout}\n${apply.stderr}`).toBe(1);
  const errors = errorLines(apply.stderr);
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatch(line);
  expect(errors[0]).toMatch(/nothing was sent$/);
  expect(b.writes(before)).toEqual([]);
  expect(apply.stdout).not.toMatch(/converged|already applied|resuming/);
}

describe('apply PLANFILE never does less than the reviewed plan', () => {
  it('a step the scope gives, left out of the file: refused (not "converged")', async () => {
    box = await convergedThenEdited();
    const file = await savePlan(box);
    const plan = read(file);
    expect(plan.steps.map((s) => s.id).sort()).toEqual([DEMOTE, REVOKE, TEAM].sort());
    writeFileSync(file, JSON.stringify({ ...plan, steps: plan.steps.filter((s) => s.id === TEAM) }));
    await refused(box, [file, '--auto-approve'], /does not match what the config and the organization give now \(the step org_acme\/\S+, which they give, is missing from it\)/);
  });

  it("a step's org changed: refused (not \"resuming: 1 of 3 were already applied\")", async () => {
    box = await convergedThenEdited();
    const file = await savePlan(box);
    const plan = read(file);
    const steps = plan.steps.map((s) => (s.id === REVOKE ? { ...s, org: 'org_globex', id: s.id.replace('org_acme/', 'org_globex/') } : s));
    writeFileSync(file, JSON.stringify({ ...plan, steps }));
    await refused(box, [file], /\(the step org_globex\/spaces\["space_api"\]\.access\.users\["carol@acme\.com"\]:delete: org_globex is not an organization of the config\)/);
    // Its org alone, the id left: refused as well.
    writeFileSync(file, JSON.stringify({ ...plan, steps: plan.steps.map((s) => (s.id === REVOKE ? { ...s, org: 'org_acme2' } : s)) }));
    await refused(box, [file], /org_acme2 is not an organization of the config/);
  });

  it('every step\'s org changed: refused (not "already applied … Nothing to apply")', async () => {
    box = await convergedThenEdited();
    const file = await savePlan(box);
    const plan = read(file);
    const moved = (s: Step) => ({ ...s, org: 'org_other', id: s.id.replace('org_acme/', 'org_other/') });
    writeFileSync(file, JSON.stringify({ ...plan, orgs: ['org_other'], steps: plan.steps.map(moved) }));
    await refused(box, [file], /org_other is not an organization of the config/);
  });

  it('a step for an address the config does not have: refused (not counted as done)', async () => {
    box = await convergedThenEdited();
    const file = await savePlan(box);
    const plan = read(file);
    const team = plan.steps.find((s) => s.id === TEAM)!;
    const ghost = JSON.parse(JSON.stringify(team).replaceAll('Ops', 'Ghost')) as Step;
    writeFileSync(file, JSON.stringify({ ...plan, steps: [...plan.steps, ghost] }));
    await refused(box, [file], /\(the step org_acme\/teams\["Ghost"\]:create is not one they give\)/);
  });
});

describe('apply PLANFILE never does more than the reviewed plan', () => {
  it('--replace patterns and their steps added to a file: refused unless apply confirms them', async () => {
    box = await convergedThenEdited();
    const file = await savePlan(box);
    const widened = await savePlan(box, ['--replace', 'saml["Okta"]', '--replace', 'openapiSpecs["petstore"]'], 'replace.json');
    const plan = read(file);
    const extra = read(widened).steps.filter((s) => !plan.steps.some((p) => p.id === s.id));
    expect(extra.map((s) => s.id).sort()).toEqual(['org_acme/openapiSpecs["petstore"]:update', 'org_acme/saml["Okta"]:update']);
    writeFileSync(file, JSON.stringify({ ...plan, replace: ['saml["Okta"]', 'openapiSpecs["petstore"]'], steps: [...plan.steps, ...extra] }));
    await refused(box, [file], /is not applied: it was made with --replace saml\["Okta"\], openapiSpecs\["petstore"\], which apply's own command line does not confirm/);
    // Apply's own --replace cannot widen a plan made without it either.
    const plain = await savePlan(box, [], 'plain.json');
    await refused(box, [plain, '--replace', 'saml["Okta"]'], /is not applied: apply's --replace saml\["Okta"\] is not in the plan/);
    // The plan made with --replace, applied with the same --replace: the resends are asked for twice, and sent.
    const before = box.exchanges.length;
    const apply = await box.cli(['apply', widened, '--replace', 'saml["Okta"]', '--replace', 'openapiSpecs["petstore"]']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(box.writes(before).length).toBeGreaterThan(3);
  });

  it('a partial plan (--target) is applied only with its targets on apply\'s command line', async () => {
    box = await convergedThenEdited();
    const file = await savePlan(box, ['--target', 'teams["Ops"]']);
    expect(read(file).steps.map((s) => s.id)).toEqual([TEAM]);
    await refused(box, [file], /is not applied: it was made with --target teams\["Ops"\], which apply's own command line does not confirm/);
    const before = box.exchanges.length;
    const apply = await box.cli(['apply', file, '--target', 'teams["Ops"]']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(box.writes(before).map((e) => `${e.method} ${e.path}`)).toEqual(['PUT /v1/orgs/org_acme/teams']);
  });

  it("a --base plan: its targets are derived again from its base; a target and its steps dropped, or one added, refuse it; as made, it applies in few requests", async () => {
    box = await convergedThenEdited();
    const file = await savePlan(box, ['--base', 'base']);
    const plan = read(file);
    expect(plan.steps.map((s) => s.id).sort()).toEqual([DEMOTE, REVOKE, TEAM].sort());
    // The demotion dropped with its target: the base and the config still give it.
    const targets = plan.targets!.filter((t) => !t.includes('frank'));
    expect(targets.length).toBe(plan.targets!.length - 1);
    writeFileSync(join(box.dir, 'less.json'), JSON.stringify({ ...plan, targets, steps: plan.steps.filter((s) => s.id !== DEMOTE) }));
    await refused(box, [join(box.dir, 'less.json')], /is not applied: its scope is not what its base base and the config give: they give org_acme\/members\["frank@acme\.com"\], which the plan leaves out/);
    // A target added (and its step, from a plan of the same config): not what the base gives.
    const more = await savePlan(box, ['--target', 'saml["Okta"]', '--replace', 'saml["Okta"]'], 'more.json');
    const resend = read(more).steps;
    writeFileSync(join(box.dir, 'more.json'), JSON.stringify({ ...plan, targets: [...plan.targets!, 'org_acme/saml["Okta"]'], steps: [...plan.steps, ...resend] }));
    await refused(box, [join(box.dir, 'more.json')], /is not applied: its scope is not what its base base and the config give: they give not org_acme\/saml\["Okta"\], which the plan adds/);
    // Apply's own --base pins the base: a file compared with another base is refused.
    await refused(box, [file, '--base', 'docplane.yaml'], /is not applied: it was compared with the base base, whose config is not that of apply's --base docplane\.yaml/);
    // As made: applied, reading only what the three entries need.
    const before = box.emulator.requestCount();
    const apply = await box.cli(['apply', file]);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toMatch(/converged: no changes left/);
    expect(box.emulator.requestCount() - before).toBeLessThanOrEqual(20);
  });
});

describe('apply PLANFILE applies the config it finds, and names it', () => {
  it('a plan made from staging/ is refused beside another config, naming both (not applied in its place)', async () => {
    box = await sandbox();
    const staging = join(box.dir, 'staging');
    mkdirSync(staging);
    for (const part of ['certs', 'integrations']) cpSync(join(ROOT, 'examples', part), join(staging, part), { recursive: true });
    writeFileSync(join(staging, 'docplane.yaml'), readFileSync(box.config, 'utf8').replace('teams:\n', 'teams:\n  - title: Staging only\n'));
    const file = join(box.dir, 'plan.json');
    const planned = await box.cli(['plan', '-c', join(staging, 'docplane.yaml'), '--out', file]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(read(file).steps.some((s) => s.address === 'teams["Staging only"]')).toBe(true);
    await refused(box, [file, '--auto-approve'], new RegExp(`^error: the plan \\S+plan\\.json was made from the config staging/docplane\\.yaml, and the config here, docplane\\.yaml, is not that one`));
    // Given with -c, the staging config is the one applied, and apply says so.
    const apply = await box.cli(['apply', file, '-c', join(staging, 'docplane.yaml')]);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain('Config: staging/docplane.yaml (given with -c)');
  });
});
