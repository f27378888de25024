/**
 * Review rules (`organization.mergeRules`, `spaces[].mergeRules`) end to end against the emulator
 * in process: plan → apply → plan (no changes), drift restored, the import round trip, bad configs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import { applyPlan } from '../../src/apply/executor.js';
import { loadConfig } from '../../src/config/load.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { runImport } from '../../src/import/run.js';
import { planOrgs } from '../../src/plan/run.js';
import type { Plan } from '../../src/plan/types.js';
import { demoState } from '../apply/cli-helpers.js';
import { problemsOf, withFiles } from '../config/helpers.js';

const CONFIG = `version: 1
organization:
  id: org_acme
  mergeRules:
    type: rules
    rules:
      - rule: require_at_least_one_approved_review
      - { rule: allow_bypass, users: [u_bob, alice@acme.com] }
spaces:
  - id: space_api
    mergeRules:
      type: rules
      rules:
        - { rule: require_specific_reviewers, users: [Carol@Acme.com] }
        - { rule: custom, expression: "changeRequest.subject != ''", message: Give the change a subject }
  - id: space_guides
    mergeRules: { type: none }
  - title: Release notes
    mergeRules: { type: rules, rules: [{ rule: require_all_reviews_approved }] }
`;

let emulator: RunningEmulator;
let client: ApiClient;
let dir: string;

const shown = (plan: Plan) => plan.steps.map((s) => `${s.action} ${s.address}`);

async function plan(yaml: string, file = join(dir, 'docplane.yaml')): Promise<Plan> {
  writeFileSync(file, yaml);
  return planOrgs(await loadConfig({ path: file }), client, { toolVersion: 'test' });
}

async function converge(yaml: string): Promise<Plan> {
  const p = await plan(yaml);
  expect(p.problems).toEqual([]);
  const result = await applyPlan(p, client, { concurrency: 4, backoffBaseMs: 2 });
  expect(result.failed).toEqual([]);
  expect(shown(await plan(yaml))).toEqual([]);
  return p;
}

const org = () => emulator.world.orgs.get('org_acme')!;
const space = (id: string) => emulator.world.spaces.get(id)!;
const created = () => [...emulator.world.spaces.values()].find((s) => s.org === 'org_acme' && s.title === 'Release notes' && !s.deletedAt);

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, state: demoState(), seed: 5 });
  client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 2, maxAttempts: 4 });
  dir = mkdtempSync(join(tmpdir(), 'docplane-merge-rules-'));
});

afterAll(async () => {
  await client?.close();
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('review rules against the emulator', () => {
  it('plans the PATCHes, applies them, then plans no changes', async () => {
    const p = await converge(CONFIG);
    expect(shown(p)).toEqual([
      'update organization',
      'create spaces["Release notes"]',
      'update spaces["Release notes"]',
      'update spaces["space_api"]',
      'update spaces["space_guides"]',
    ]);
    const orgStep = p.steps.find((s) => s.address === 'organization')!;
    // Only mergeRules is sent: the config sets no other organization setting.
    expect(orgStep.requests).toEqual([{ method: 'PATCH', path: '/v1/orgs/org_acme', body: { mergeRules: expect.objectContaining({ type: 'rules' }) } }]);
    // Reviewers named by email are sent as the members' user ids, and shown by email.
    expect(orgStep.after).toEqual({ mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }, { rule: 'allow_bypass', users: ['bob@acme.com', 'alice@acme.com'] }] } });
    expect(org().mergeRules).toEqual({ type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }, { rule: 'allow_bypass', users: ['u_bob', 'u_alice'] }] });
    expect(space('space_guides').mergeRules).toEqual({ type: 'none' });
    expect(space('space_api').mergeRules).toEqual({
      type: 'rules',
      rules: [{ rule: 'require_specific_reviewers', users: ['u_carol'] }, { rule: 'custom', expression: "changeRequest.subject != ''", message: 'Give the change a subject' }],
    });
    expect(created()?.mergeRules).toEqual({ type: 'rules', rules: [{ rule: 'require_all_reviews_approved' }] });
  });

  it('creates a space that inherits the rules without a PATCH', async () => {
    const p = await converge(`${CONFIG}  - title: Inherits\n    mergeRules: { type: inherit }\n`);
    expect(shown(p)).toEqual(['create spaces["Inherits"]']);
  });

  it('compares rules and their users in any order', async () => {
    const reordered = CONFIG.replace(
      '      - rule: require_at_least_one_approved_review\n      - { rule: allow_bypass, users: [u_bob, alice@acme.com] }',
      '      - { rule: allow_bypass, users: [u_alice, bob@acme.com] }\n      - rule: require_at_least_one_approved_review',
    );
    expect(reordered).not.toBe(CONFIG);
    expect(shown(await plan(reordered))).toEqual([]);
  });

  it('restores drift made behind its back', async () => {
    org().mergeRules = { type: 'none' };
    space('space_api').mergeRules = { type: 'inherit' };
    const p = await converge(CONFIG);
    expect(shown(p)).toEqual(['update organization', 'update spaces["space_api"]']);
    expect(p.steps[0]!.before).toEqual({ mergeRules: { type: 'none' } });
    expect(p.steps[1]!.before).toEqual({ mergeRules: { type: 'inherit' } });
    expect(space('space_api').mergeRules).toMatchObject({ type: 'rules' });
    space('space_api').mergeRules = { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: ['u_bob'] }] };
    const other = await converge(CONFIG);
    // The API's reviewers are shown by email too.
    expect(other.steps.map((s) => s.before)).toEqual([{ mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: ['bob@acme.com'] }] } }]);
  });

  it('leaves review rules alone when the config does not set them', async () => {
    space('space_guides').mergeRules = { type: 'inherit' };
    expect(shown(await plan('version: 1\norganization:\n  id: org_acme\n  title: Acme\nspaces:\n  - id: space_guides\n'))).toEqual([]);
    space('space_guides').mergeRules = { type: 'none' };
  });

  it('imports the review rules, and the import plans no changes', async () => {
    const out = join(dir, 'imported');
    await runImport({ orgs: ['org_acme'], out, connect: async () => createClient({ baseUrl: emulator.url, token: 'dev-token' }) });
    const file = join(out, 'org_acme.yaml');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('rule: allow_bypass');
    expect(text).toContain('rule: require_specific_reviewers');
    const config = await loadConfig({ path: file });
    const organization = config.orgs[0]!.organization;
    // Reviewers by email: the ids the API answers, through the members list.
    expect(organization.mergeRules).toEqual({ type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }, { rule: 'allow_bypass', users: ['bob@acme.com', 'alice@acme.com'] }] });
    expect(spaces_(config).find((s) => s.id === 'space_api')?.mergeRules).toMatchObject({ rules: [{ rule: 'require_specific_reviewers', users: ['carol@acme.com'] }, { rule: 'custom' }] });
    const spaces = config.orgs[0]!.spaces ?? [];
    expect(spaces.find((s) => s.id === 'space_guides')?.mergeRules).toEqual({ type: 'none' });
    expect(spaces.find((s) => s.id === 'space_handbook')?.mergeRules).toEqual({ type: 'inherit' });
    const again = await planOrgs(config, client, { toolVersion: 'test' });
    expect(again.steps.filter((s) => s.kind === 'organization' || s.kind === 'spaces').map((s) => s.address)).toEqual([]);
  });
});

const spaces_ = (config: Awaited<ReturnType<typeof loadConfig>>) => config.orgs[0]!.spaces ?? [];

describe('reviewers by email', () => {
  it('a reviewer who is not a member is a plan problem at their place in the config', async () => {
    const yaml = `version: 1\norganization:\n  id: org_acme\nspaces:\n  - id: space_api\n    mergeRules:\n      type: rules\n      rules:\n        - { rule: allow_bypass, users: [u_bob, nobody@acme.com] }\n`;
    const p = await plan(yaml);
    expect(p.steps).toEqual([]);
    expect(p.problems.map((x) => `${x.location?.file.replace(/^.*\//, '')}:${x.location?.line}:${x.location?.column}: ${x.message}`)).toEqual([
      'docplane.yaml:9:48: "nobody@acme.com" is not a member of organization org_acme: a reviewer must be a member (list their email under members to invite them), or remove them from the rule',
    ]);
  });

  it('a reviewer the same plan invites is named by the id the invite answers', async () => {
    const yaml = `version: 1\norganization:\n  id: org_acme\nmembers:\n  - { user: newcomer@acme.com, role: review }\nspaces:\n  - id: space_guides\n    mergeRules: { type: rules, rules: [{ rule: require_one_of_specific_reviewers, users: [newcomer@acme.com] }] }\n`;
    const p = await converge(yaml);
    expect(shown(p)).toEqual(['create members["newcomer@acme.com"]', 'update spaces["space_guides"]']);
    const invited = [...emulator.world.users.values()].find((u) => u.email === 'newcomer@acme.com')!;
    expect(space('space_guides').mergeRules).toEqual({ type: 'rules', rules: [{ rule: 'require_one_of_specific_reviewers', users: [invited.id] }] });
    space('space_guides').mergeRules = { type: 'none' };
  });
});

describe('the emulator', () => {
  it('refuses review rules the description does not allow, with 400', async () => {
    const bad: Array<[string, unknown]> = [
      ['/v1/orgs/org_acme', { type: 'inherit' }],
      ['/v1/spaces/space_api', { type: 'rules', rules: [{ rule: 'allow_bypass' }] }],
      ['/v1/spaces/space_api', { type: 'rules', rules: [{ rule: 'require_luck' }] }],
    ];
    for (const [path, mergeRules] of bad) {
      // Bad on purpose: the conformance check leaves these exchanges out.
      await expect(client.request('PATCH', path, { body: { mergeRules }, headers: { 'x-conformance': 'skip' } })).rejects.toMatchObject({ status: 400 });
    }
  });
});

describe('bad review rules', () => {
  const HEAD = 'version: 1\norganization:\n  id: org_acme\n';
  const cases: Array<[string, string, RegExp]> = [
    ['an unknown type', `${HEAD}  mergeRules: { type: sometimes }\n`, /^docplane\.yaml:4:\d+: organization\.mergeRules\.type: /],
    ['inherit on the organization', `${HEAD}  mergeRules: { type: inherit }\n`, /^docplane\.yaml:4:\d+: organization\.mergeRules\.type: /],
    ['an unknown rule', `${HEAD}  mergeRules:\n    type: rules\n    rules:\n      - rule: require_luck\n`, /^docplane\.yaml:7:\d+: organization\.mergeRules\.rules\[0\]\.rule: /],
    ['specific reviewers without users', `${HEAD}spaces:\n  - id: space_api\n    mergeRules: { type: rules, rules: [{ rule: require_specific_reviewers }] }\n`, /^docplane\.yaml:6:\d+: spaces\[0\]\.mergeRules\.rules\[0\]\.users: /],
    ['users on a rule that takes none', `${HEAD}spaces:\n  - id: space_api\n    mergeRules: { type: rules, rules: [{ rule: require_at_least_one_review, users: [u_bob] }] }\n`, /^docplane\.yaml:6:\d+: spaces\[0\]\.mergeRules\.rules\[0\]/],
    ['rules missing', `${HEAD}spaces:\n  - id: space_api\n    mergeRules: { type: rules }\n`, /^docplane\.yaml:6:\d+: spaces\[0\]\.mergeRules/],
    ['a reviewer that is not an email address', `${HEAD}  mergeRules: { type: rules, rules: [{ rule: allow_bypass, users: [bob@] }] }\n`, /^docplane\.yaml:4:68: organization\.mergeRules\.rules\[0\]\.users\[0\]: "bob@" is not an email address/],
  ];
  it.each(cases)('%s', async (_name, yaml, expected) => {
    const problems = await withFiles({ 'docplane.yaml': yaml }, (t) => problemsOf({ path: t.dir, cwd: t.dir }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(expected);
  });
});
