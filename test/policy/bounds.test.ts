/**
 * Policies are bounded and airtight (docs/policies.md): a rule's evaluation and a whole policy run
 * each have a cost limit, refused at the rule; a `${env:…:-default}` is a literal the rules see unless
 * its variable names a secret; a config file that is a symlink out of the config folder is refused.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RULE_COST_LIMIT, RUN_COST_LIMIT } from '../../src/policy/run.js';
import { problemsOf, tempDir, type TempDir } from '../config/helpers.js';
import { loadConfig } from '../../src/config/load.js';

let dirs: TempDir[] = [];
afterEach(() => {
  for (const d of dirs) d.cleanup();
  dirs = [];
});

function config(text: string): { path: string; cwd: string; env: NodeJS.ProcessEnv } {
  const t = tempDir('docplane-policy-bounds-');
  dirs.push(t);
  return { path: t.write('docplane.yaml', text), cwd: t.dir, env: {} };
}

const members = (n: number) => `[${Array.from({ length: n }, (_, i) => `u${i}@acme.com`).join(', ')}]`;

describe('cost limits', () => {
  it('nested macros over a 100-member list (1e8 iterations) stop at the limit and make a config error at the rule', async () => {
    const c = config(`version: 1
organization: { id: org_acme, title: Acme }
teams:
  - { title: Big, members: ${members(100)} }
policies:
  - name: nested
    resource: teams
    rule: "self.members.all(a, self.members.all(b, self.members.all(c, self.members.all(d, true))))"
`);
    expect(await problemsOf(c)).toEqual([
      `docplane.yaml:8:11: policies[0].rule: policy "nested": the rule costs more than ${RULE_COST_LIMIT.toLocaleString('en')} (CEL iterations) for one entry: nested macros over lists multiply; write a cheaper rule`,
    ]);
  });

  it('a map that builds lists counts the lists it copies', async () => {
    const c = config(`version: 1
organization: { id: org_acme, title: Acme }
teams:
  - { title: Big, members: ${members(100)} }
policies:
  - name: mapped
    resource: teams
    rule: "size(self.members.map(a, self.members.map(b, self.members.map(c, a + b + c)))) > 0"
`);
    expect((await problemsOf(c))[0]).toMatch(/policies\[0\]\.rule: policy "mapped": the rule costs more than/);
  });

  it('policies that are cheap one by one are refused together past the run limit', async () => {
    const teams = Array.from({ length: 12 }, (_, i) => `  - { title: T${i}, members: ${members(100)} }`).join('\n');
    const policies = Array.from({ length: 100 }, (_, i) => `  - { name: p${i}, resource: teams, rule: "self.members.all(a, self.members.all(b, true))" }`).join('\n');
    const c = config(`version: 1\norganization: { id: org_acme, title: Acme }\nteams:\n${teams}\npolicies:\n${policies}\n`);
    const problems = await problemsOf(c);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^docplane\\.yaml:\\d+:\\d+: policies\\[\\d+\\]\\.rule: policy "p\\d+": the policies together cost more than ${RUN_COST_LIMIT.toLocaleString('en')} \\(CEL iterations\\) in one run`));
  });

  it('ordinary rules over ordinary configs stay far below the limits', async () => {
    const c = config(`version: 1
organization: { id: org_acme, title: Acme }
teams:
  - { title: Big, members: ${members(100)} }
policies:
  - { name: two, resource: teams, rule: "self.members.all(a, self.members.exists(b, a == b))" }
`);
    await expect(loadConfig(c)).resolves.toBeDefined();
  });
});

describe('a default from ${env:…:-default}', () => {
  const org = (title: string) => `version: 1
organization: { id: org_acme, title: "${title}" }
policies:
  - { name: not-public, resource: organization, rule: "self.title != 'Public'", message: the title is Public }
`;

  it('is a literal the rules see', async () => {
    expect(await problemsOf(config(org('${env:NOT_SET_ANYWHERE:-Public}')))).toEqual(['docplane.yaml:2:15: organization: policy "not-public": the title is Public']);
  });

  it('stays a secret when its variable names one', async () => {
    await expect(loadConfig(config(org('${env:ACME_SECRET:-Public}')))).resolves.toBeDefined();
  });
});

describe('config files that are symlinks', () => {
  it('a YAML file linking out of the config folder is refused like a ${file:} escape', async () => {
    const t = tempDir('docplane-symlink-');
    dirs.push(t);
    mkdirSync(join(t.dir, 'docplane'));
    writeFileSync(join(t.dir, 'outside.yaml'), 'version: 1\norganization: { id: org_acme, title: Acme }\n');
    writeFileSync(join(t.dir, 'docplane', 'a.yaml'), 'version: 1\norganization: { id: org_acme, title: Acme }\n');
    symlinkSync(join(t.dir, 'outside.yaml'), join(t.dir, 'docplane', 'b.yaml'));
    const problems = await problemsOf({ path: join(t.dir, 'docplane'), cwd: t.dir, env: {} });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^docplane\/b\.yaml:1:1: the file is a symlink to .*outside\.yaml, outside the config folder .*docplane; keep config files inside it$/);
  });
});
