/**
 * The site agent's channels, in-process against the emulator (every exchange checked against the live
 * description): plan → apply → plan (no changes); changes behind docplane's back planned exactly and
 * restored; a pruned channel deleted; the import round trip; a site this plan creates gets its
 * channels; the bad configs of the block at file:line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { outcomeError, runApply } from '../../src/apply/run.js';
import { startEmulator, type EmulatorState, type RunningEmulator } from '../../src/emulator/server.js';
import { runImport } from '../../src/import/run.js';
import { runPlan } from '../../src/plan/service.js';
import { problemsOf, withFiles } from '../config/helpers.js';
import { quietApply } from '../apply/in-process.js';

const SITE = '/v1/orgs/org_acme/sites/site_docs';

const STATE: EmulatorState = {
  tokens: [{ token: 'dev-token', access: 'write' }],
  users: [{ id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' }],
  organizations: [
    {
      id: 'org_acme',
      title: 'Acme',
      members: [{ user: 'u_alice', role: 'admin' }],
      spaces: [{ id: 'space_guides', title: 'Guides' }],
      sites: [{ id: 'site_docs', title: 'Docs' }],
      siteAgent: [
        {
          site: 'site_docs',
          channels: [
            { id: 'ch_discord', type: 'builtin:discord', setupSettings: { allowedChannels: ['general'] }, role: 'support' },
            { id: 'ch_linear', type: 'builtin:linear', setupSettings: {}, role: 'collaborator' },
          ],
        },
      ],
    },
  ],
};

const CONFIG = `version: 1
organization: { id: org_acme }
sites:
  - id: site_docs
    channels:
      - type: builtin:slack
        role: support
        setupSettings: { allowedChannels: [support-*, general] }
      - type: builtin:github
        role: collaborator
        setupSettings: { allowedRepositories: [acme/docs] }
      - type: builtin:discord
        setupSettings: { allowedChannels: [general, help] }
`;

let emulator: RunningEmulator;
let dir: string;

const connect = async () => createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 1 });

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const plan = (configPath: string) => runPlan({ configPath, toolVersion: '0.1.0', connect });
const summary = (p: Awaited<ReturnType<typeof plan>>) => p.plan.steps.map((s) => `${s.action} ${s.address}`);

async function apply(configPath: string): Promise<void> {
  const report = await runApply(quietApply(configPath, connect));
  expect(outcomeError(report)?.message).toBeUndefined();
}

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: res.status === 204 || res.status === 205 ? null : await res.json() };
}

const channels = async () => (await api('GET', `${SITE}/channels?limit=1000`)).body.items as Array<{ id: string; type: string; role: string; setupSettings: Record<string, string[]> }>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, state: STATE, seed: 7 });
  dir = mkdtempSync(join(tmpdir(), 'docplane-channels-'));
});

afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the site agent\'s channels (in-process, emulator)', () => {
  it('plan, apply, plan again: no changes', async () => {
    const config = write('docplane.yaml', CONFIG);
    const first = await plan(config);
    expect(summary(first)).toEqual([
      'update sites["site_docs"].channels["builtin:discord"]',
      'create sites["site_docs"].channels["builtin:github"]',
      'create sites["site_docs"].channels["builtin:slack"]',
    ]);
    const discord = first.plan.steps.find((s) => s.address.endsWith('["builtin:discord"]'))!;
    // The allow-list is a set: compared and sent sorted; the role is unmanaged when absent.
    expect(discord.changes.map((c) => `${c.path}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`)).toEqual([
      'setupSettings.allowedChannels: ["general"] → ["general","help"]',
    ]);
    expect(discord.requests[0].body).toEqual({ type: 'builtin:discord', setupSettings: { allowedChannels: ['general', 'help'] } });
    expect(first.plan.unmanaged.org_acme.channels).toEqual(['sites["site_docs"].channels["builtin:linear"]']);

    await apply(config);
    expect((await plan(config)).plan.steps).toEqual([]);
    const made = await channels();
    expect(made.find((c) => c.type === 'builtin:slack')).toMatchObject({ role: 'support', setupSettings: { allowedChannels: ['general', 'support-*'] } });
    expect(made.find((c) => c.type === 'builtin:github')).toMatchObject({ role: 'collaborator', setupSettings: { allowedRepositories: ['acme/docs'] } });
  });

  it('changes behind docplane\'s back are planned exactly and restored', async () => {
    const config = join(dir, 'docplane.yaml');
    const github = (await channels()).find((c) => c.type === 'builtin:github')!;
    expect((await api('PATCH', `${SITE}/channels/${github.id}`, { role: 'support' })).status).toBe(200);
    const slack = (await channels()).find((c) => c.type === 'builtin:slack')!;
    expect((await api('PATCH', `${SITE}/channels/${slack.id}`, { type: 'builtin:slack', setupSettings: { allowedChannels: ['random'] } })).status).toBe(200);

    const drifted = await plan(config);
    expect(drifted.plan.steps.map((s) => ({ address: s.address, body: s.requests[0].body }))).toEqual([
      { address: 'sites["site_docs"].channels["builtin:github"]', body: { role: 'collaborator' } },
      { address: 'sites["site_docs"].channels["builtin:slack"]', body: { type: 'builtin:slack', setupSettings: { allowedChannels: ['general', 'support-*'] } } },
    ]);
    await apply(config);
    expect((await plan(config)).plan.steps).toEqual([]);
  });

  it('import round trip: the written config plans no changes', async () => {
    const imported = await runImport({ orgs: ['org_acme'], sites: ['site_docs'], out: 'imported', cwd: dir, connect });
    const yaml = imported.documents[0].yaml;
    expect(yaml).toContain('type: builtin:linear');
    expect(yaml).toContain('setupSettings: { allowedChannels: [ general, support-* ] }');
    expect((await plan(join(dir, 'imported'))).plan.steps).toEqual([]);
  });

  it('a channel the config leaves out is deleted when channels are pruned', async () => {
    const config = write('pruned.yaml', `${CONFIG}prune: [channels]\n`);
    const p = await plan(config);
    expect(summary(p)).toEqual(['delete sites["site_docs"].channels["builtin:linear"]']);
    await apply(config);
    expect((await api('GET', `${SITE}/channels/ch_linear`)).status).toBe(404);
    expect((await plan(config)).plan.steps).toEqual([]);
  });

  it('a site this plan creates gets its channels after it is made', async () => {
    const config = write('new-site.yaml', `version: 1
organization: { id: org_acme }
sites:
  - title: Support
    channels:
      - { type: builtin:slack, setupSettings: { allowedChannels: [help] } }
`);
    const p = await plan(config);
    expect(summary(p)).toEqual(['create sites["Support"]', 'create sites["Support"].channels["builtin:slack"]']);
    expect(p.plan.steps[1].dependsOn).toContain(p.plan.steps[0].id);
    await apply(config);
    expect((await plan(config)).plan.steps).toEqual([]);
  });
});

describe('bad configs', () => {
  const head = 'version: 1\norganization: { id: org_acme }\nsites:\n  - id: site_docs\n    channels:\n';
  const cases: Array<{ name: string; yaml: string; expected: unknown[] }> = [
    {
      name: 'a channel type the API lacks, a role outside its enum',
      yaml: `${head}      - { type: builtin:teams }\n      - { type: builtin:slack, role: owner }\n`,
      expected: [
        'docplane.yaml:6:17: sites[0].channels[0].type: must be one of builtin:slack, builtin:discord, builtin:github, builtin:linear',
        'docplane.yaml:7:38: sites[0].channels[1].role: must be one of support, collaborator',
      ],
    },
    {
      name: 'an allow-list of another type, a repository without its owner',
      yaml: `${head}      - { type: builtin:github, setupSettings: { allowedChannels: [general] } }\n      - { type: builtin:linear, setupSettings: { allowedTeams: [ENG] } }\n  - id: site_other\n    channels:\n      - { type: builtin:github, setupSettings: { allowedRepositories: [docs] } }\n`,
      expected: [
        'docplane.yaml:6:50: sites[0].channels[0].setupSettings.allowedChannels: unknown key "allowedChannels"',
        'docplane.yaml:10:72: sites[1].channels[0].setupSettings.allowedRepositories[0]: must be owner/repository (such as acme/docs or acme/*)',
      ],
    },
    {
      name: 'a channel type twice on one site',
      yaml: `${head}      - { type: builtin:slack }\n      - { type: builtin:slack, role: support }\n`,
      expected: [
        expect.stringMatching(/^docplane\.yaml:6:9: .*builtin:slack channel of site site_docs is defined twice: here and at docplane\.yaml:7:9/),
        expect.stringMatching(/^docplane\.yaml:7:9: .*builtin:slack channel of site site_docs/),
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const problems = await withFiles({ 'docplane.yaml': c.yaml }, (t) => problemsOf({ cwd: t.dir }));
      expect(problems).toEqual(c.expected);
    });
  }
});
