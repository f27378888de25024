/**
 * Policies (DESIGN §11): resource policies at load (validate, plan), steps policies in plan and
 * apply, a rule that does not compile or type-check, secrets out of the rules' sight, and the
 * starter set of examples/docplane.yaml.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { runApply } from '../../src/apply/run.js';
import { loadConfig } from '../../src/config/load.js';
import { runValidate } from '../../src/config/validate.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { runPlan } from '../../src/plan/service.js';
import { checkSteps } from '../../src/policy/run.js';
import type { Step } from '../../src/plan/types.js';
import { demoState } from '../apply/cli-helpers.js';
import { quietApply } from '../apply/in-process.js';
import { emptyPlan } from '../render/fixtures/big-plan.js';
import { problemsOf, tempDir, type TempDir } from '../config/helpers.js';

const ROOT = new URL('../../', import.meta.url).pathname;

let dirs: TempDir[] = [];
let emulator: RunningEmulator | undefined;
afterEach(async () => {
  for (const d of dirs) d.cleanup();
  dirs = [];
  await emulator?.close();
  emulator = undefined;
});

function config(text: string): { path: string; cwd: string } {
  const t = tempDir('docplane-policy-');
  dirs.push(t);
  return { path: t.write('docplane.yaml', text), cwd: t.dir };
}

const TEAMS = `version: 1
organization: { id: org_acme, title: Acme }
teams:
  - title: Engineering
    members: [alice@acme.com, bob@acme.com, carol@acme.com]
  - title: Support
    members: [erin@acme.com]
`;

const policy = (fields: string) => `policies:\n  - ${fields.trim().split('\n').join('\n    ')}\n`;

describe('resource policies', () => {
  it('an error policy refuses the config at the entry, with the policy name and message', async () => {
    const c = config(`${TEAMS}${policy(`name: small-teams
resource: teams
rule: "!has(self.members) || size(self.members) <= 2"
message: the team has more than two members`)}`);
    expect(await problemsOf(c)).toEqual(['docplane.yaml:4:5: teams[0]: policy "small-teams": the team has more than two members']);
    const result = await runValidate({ path: c.path });
    expect(result.valid).toBe(false);
  });

  it('a warning policy is reported at the entry and the config stays valid', async () => {
    const c = config(`${TEAMS}${policy(`name: small-teams
resource: teams
rule: size(self.members) <= 2
severity: warning`)}`);
    const result = await runValidate({ path: c.path });
    expect(result.valid).toBe(true);
    if (!result.valid) return;
    // The teams name members the config does not list: those references are warnings of their own.
    expect(result.warnings.filter((w) => w.message.includes('policy')).map((w) => `${w.line}:${w.column}: ${w.path}: ${w.message}`)).toEqual([
      '4:5: teams[0]: policy "small-teams": the rule is false: size(self.members) <= 2',
    ]);
  });

  it('runs over the organization mapping too, and a rule that errors at run time fails closed with CEL\'s message', async () => {
    const c = config(`${TEAMS}${policy(`name: titled
resource: organization
rule: self.title.startsWith('Acme') && self.nope == 1`)}`);
    const [problem] = await problemsOf(c);
    expect(problem).toMatch(/^docplane\.yaml:2:15: organization: policy "titled": the rule is false: .* — the rule could not be evaluated \(.*nope.*\)$/);
  });

  it('a rule that does not compile or type-check is a config error at the rule, with CEL\'s message', async () => {
    const c = config(`${TEAMS}policies:
  - { name: syntax, resource: teams, rule: "self.title ==" }
  - { name: types, resource: teams, rule: "size(self.members) == 'two'" }
  - { name: undeclared, resource: teams, rule: "team.title == 'x'" }
  - { name: not-bool, resource: teams, rule: "size(self.members)" }
  - { name: unknown-function, resource: teams, rule: "shout(self.title)" }
  - { name: syntax, resource: steps, rule: "true" }
`);
    expect(await problemsOf(c)).toEqual([
      'docplane.yaml:9:44: policies[0].rule: the rule does not compile (at 1:12 of the rule): found = but expecting end of input',
      "docplane.yaml:10:43: policies[1].rule: the rule does not type-check: found no matching overload for '_==_' applied to '(int, string)'",
      "docplane.yaml:11:48: policies[2].rule: the rule does not type-check: undeclared reference to 'team' (the rule sees `self`)",
      'docplane.yaml:12:46: policies[3].rule: the rule does not type-check: the rule gives a value of type int, not a bool (true means compliant)',
      "docplane.yaml:13:54: policies[4].rule: the rule does not type-check: undeclared reference to 'shout'",
      'docplane.yaml:14:13: policies[5].name: policy "syntax" is also defined at docplane.yaml:9:5; policy names are unique',
    ]);
  });

  it('an unknown resource is a schema error', async () => {
    const c = config(`${TEAMS}${policy('{ name: x, resource: teamz, rule: "true" }')}`);
    const [problem] = await problemsOf(c);
    expect(problem).toMatch(/^docplane\.yaml:9:\d+: policies\[0\]\.resource: /);
  });

  it('never lets a rule see a secret: interpolated values and secret fields read as (sensitive)', async () => {
    const c = config(`version: 1
organization: { id: org_acme, title: Acme }
integrations:
  - name: analytics
    title: \${env:TITLE}
    description: Page analytics
    script: "window.x = 1"
    scopes: [space:content:read]
    secrets: { API_KEY: literal-key-123456 }
policies:
  - name: sees-no-secret
    resource: integrations
    rule: >-
      self.title == '(sensitive)' && self.secrets.API_KEY == '(sensitive)' &&
      !self.title.contains('hunter2') && !self.secrets.API_KEY.contains('literal')
`);
    const loaded = await loadConfig({ ...c, env: { TITLE: 'Analytics hunter2' } });
    expect(loaded.warnings).toBeUndefined();
    expect(loaded.secrets.map((s) => s.value)).toContain('Analytics hunter2');
  });
});

describe('the starter set in examples/docplane.yaml', () => {
  const EXAMPLE = readFileSync(join(ROOT, 'examples/docplane.yaml'), 'utf8');

  it('passes on the example config, with no warnings', async () => {
    const loaded = await loadConfig({ path: join(ROOT, 'examples/docplane.yaml'), env: {} });
    expect(loaded.policies?.policies.map((p) => `${p.name}:${p.resource}:${p.severity}`)).toEqual([
      'public-sites-on-purpose:sites:error',
      'collections-have-an-admin-team:collections:error',
      'share-links-need-share-link-visibility:sites:error',
      'no-space-or-site-deletes:steps:error',
      'small-teams:teams:warning',
    ]);
    expect(loaded.warnings).toBeUndefined();
  });

  it('catches what it is about: an active share link on a public site, a collection without an admin team, a public site not said published', async () => {
    const t = tempDir('docplane-policy-');
    dirs.push(t);
    for (const part of ['certs/okta.pem', 'integrations/analytics.js']) t.write(part, readFileSync(join(ROOT, 'examples', part)));
    const broken = EXAMPLE.replace('{ name: partner-acme, active: false }', '{ name: partner-acme, active: true }')
      .replace('teams: { Engineering: admin, Support: read }', 'teams: { Engineering: edit, Support: read }')
      .replace('    published: true\n    defaultSection: guides', '    defaultSection: guides');
    const problems = await problemsOf({ path: t.write('docplane.yaml', broken), cwd: t.dir, env: {} });
    expect(problems.map((p) => p.replace(/^docplane\.yaml:\d+:\d+: /, ''))).toEqual([
      'collections[0]: policy "collections-have-an-admin-team": every top-level collection grants a team admin, so that someone can manage it',
      'sites[0]: policy "public-sites-on-purpose": a public site states `published` as well, so that going public is a decision a reviewer sees',
      'sites[0]: policy "share-links-need-share-link-visibility": share links are inactive on a site whose visibility is not share-link',
    ]);
  });
});

function step(org: string, address: string, kind: string, action: Step['action'], before: Step['before'], after: Step['after']): Step {
  return { id: `${org}/${address}:${action}`, org, address, kind, action, before, after, changes: [], requests: [], dependsOn: [] };
}

describe('steps policies', () => {
  it('make a plan problem naming the step and the policy (error), or a note (warning); secrets and placeholders stay hidden', async () => {
    const c = config(`version: 1
organization: { id: org_acme, title: Acme }
policies:
  - name: no-space-deletes
    resource: steps
    rule: "!(self.action == 'delete' && self.kind == 'spaces')"
    message: spaces are not deleted
  - name: no-integration-secret-seen
    resource: steps
    rule: "!has(self.after.secret) || self.after.secret == '(sensitive)'"
  - name: few-team-deletes
    resource: steps
    rule: "self.kind != 'teams' || self.action != 'delete'"
    severity: warning
`);
    const loaded = await loadConfig(c);
    const plan = emptyPlan({ steps: [
      step('org_acme', 'spaces["space_old"]', 'spaces', 'delete', { title: 'Old' }, null),
      step('org_acme', 'teams["Legacy"]', 'teams', 'delete', { title: 'Legacy' }, null),
      step('org_acme', 'integrations["a"]', 'integrations', 'publish', null, { secret: '{{secret:env:KEY}}' }),
      step('org_acme', 'integrations["b"]', 'integrations', 'publish', null, { secret: 'plain-secret-value' }),
    ] });
    const checked = checkSteps(plan, loaded.policies, [{ name: 'env:KEY', value: 'plain-secret-value' }]);
    expect(checked.problems).toEqual([
      { org: 'org_acme', address: 'spaces["space_old"]', message: 'delete: policy "no-space-deletes": spaces are not deleted', location: { file: 'docplane.yaml', line: 4, column: 5 } },
    ]);
    expect(checked.notes).toEqual([`warning: teams["Legacy"] (delete): policy "few-team-deletes": the rule is false: self.kind != 'teams' || self.action != 'delete'`]);
    expect(plan.problems).toEqual([]);
  });

  it('plan: a steps violation is a plan problem, a resource warning a note of the plan', async () => {
    emulator = await startEmulator({ port: 0, state: demoState(), seed: 5 });
    const c = config(`version: 1
organization: { id: org_acme, title: Acme }
teams:
  - title: Engineering
    members: [alice@acme.com, bob@acme.com]
prune: [teams]
policies:
  - { name: no-team-deletes, resource: steps, rule: "self.action != 'delete'", message: teams are retired by hand }
  - { name: tiny-teams, resource: teams, rule: "size(self.members) < 2", severity: warning }
`);
    const url = emulator.url;
    const { plan } = await runPlan({ configPath: c.path, toolVersion: '0.1.0', connect: async () => createClient({ baseUrl: url, token: 'dev-token', backoffBaseMs: 2 }) });
    expect(plan.problems.map((p) => `${p.address}: ${p.message}`)).toEqual(['teams["Legacy"]: delete: policy "no-team-deletes": teams are retired by hand']);
    expect(plan.notes).toEqual([expect.stringMatching(/^warning: \S*docplane\.yaml:4:5: teams\[0\]: policy "tiny-teams": the rule is false: size\(self\.members\) < 2$/)]);
  });

  it('apply refuses a plan that breaks a steps policy, and sends nothing', async () => {
    emulator = await startEmulator({ port: 0, state: demoState(), seed: 5 });
    const c = config(`version: 1
organization: { id: org_acme, title: Acme }
teams:
  - title: Engineering
prune: [teams]
policies:
  - name: no-team-deletes
    resource: steps
    rule: "!(self.kind == 'teams' && self.action == 'delete')"
    message: teams are retired by hand
`);
    const url = emulator.url;
    const options = quietApply(c.path, async () => createClient({ baseUrl: url, token: 'dev-token', backoffBaseMs: 2 }), { force: true });
    await expect(runApply(options)).rejects.toThrow(/the plan has 1 problem; nothing was applied \(first: \S*docplane\.yaml:7:5: teams\["Legacy"\]: delete: policy "no-team-deletes": teams are retired by hand\)/);
    expect([...emulator.world.orgs.get('org_acme')!.teams.values()].map((t) => t.title)).toEqual(['Legacy']);
  });
});
