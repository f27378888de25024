/**
 * Integration installations end to end against the emulator over HTTP: plan → apply → plan (no
 * changes), drift restored, the import round trip, prune, secrets never shown, bad configs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import { applyPlan } from '../../src/apply/executor.js';
import { loadConfig } from '../../src/config/load.js';
import { maskSecrets } from '../../src/core/secrets.js';
import { startEmulator, type EmulatorState, type RunningEmulator } from '../../src/emulator/server.js';
import { runImport } from '../../src/import/run.js';
import { planOrgs } from '../../src/plan/run.js';
import type { Plan } from '../../src/plan/types.js';
import { demoState } from '../apply/cli-helpers.js';
import { problemsOf, withFiles } from '../config/helpers.js';

const HEAD = 'version: 1\norganization:\n  id: org_acme\n';
const TOKEN = 'chat-token-0123456789';

/** The demo world, where org_acme publishes a chat integration installed on site_docs. */
function state(): EmulatorState {
  const s = structuredClone(demoState()) as { organizations: Array<Record<string, unknown>> };
  const acme = s.organizations.find((o) => o.id === 'org_acme')!;
  acme.integrations = [{ name: 'acme-chat', title: 'Acme Chat', description: 'A chat widget', scopes: ['site:script:inject'], visibility: 'public' }];
  acme.installations = [{ integration: 'acme-chat', configuration: { token: 'seed-token-abcdef', color: 'blue' }, sites: [{ site: 'site_docs', configuration: { position: 'right' } }] }];
  return s as unknown as EmulatorState;
}

const CONFIG = `${HEAD}installations:
  - integration: acme-chat
    configuration: { token: "\${env:CHAT_TOKEN}", color: blue, rounded: true }
    spaces: all
    sites:
      - { site: site_docs, configuration: { position: left } }
      - { site: site_status }
`;

let emulator: RunningEmulator;
let client: ApiClient;
let dir: string;

const shown = (plan: Plan) => plan.steps.map((s) => `${s.action} ${s.address}`);

async function plan(yaml: string, env: Record<string, string> = { CHAT_TOKEN: TOKEN }) {
  writeFileSync(join(dir, 'docplane.yaml'), yaml);
  const config = await loadConfig({ path: join(dir, 'docplane.yaml'), env });
  return { config, plan: await planOrgs(config, client, { toolVersion: 'test' }) };
}

async function converge(yaml: string): Promise<string[]> {
  const { plan: p } = await plan(yaml);
  expect(p.problems).toEqual([]);
  const result = await applyPlan(p, client, { concurrency: 4, backoffBaseMs: 2 });
  expect(result.failed).toEqual([]);
  const again = await plan(yaml);
  expect(shown(again.plan)).toEqual([]);
  return shown(p);
}

const installation = () => [...emulator.world.installations.values()].find((i) => i.org === 'org_acme' && i.integration === 'acme-chat');

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, state: state(), seed: 3 });
  client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 2, maxAttempts: 4 });
  dir = mkdtempSync(join(tmpdir(), 'docplane-installations-'));
});

afterAll(async () => {
  await client?.close();
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('integration installations against the emulator', () => {
  it('plans, applies, then plans no changes; the configuration is never shown', async () => {
    const { config, plan: p } = await plan(CONFIG);
    expect(shown(p)).toEqual(['update installations["acme-chat"]', 'update installations["acme-chat"].sites["site_docs"]', 'create installations["acme-chat"].sites["site_status"]']);
    const masked = JSON.stringify(maskSecrets(p.steps, config.secrets));
    expect(masked).not.toContain(TOKEN);
    expect(masked).not.toContain('seed-token-abcdef');
    await converge(CONFIG);
    const i = installation()!;
    expect(i.configuration).toEqual({ token: TOKEN, color: 'blue', rounded: true });
    expect(i.spaceSelection).toBe('all');
    expect(Object.fromEntries(i.sites)).toEqual({ site_docs: { configuration: { position: 'left' }, externalIds: [] }, site_status: { configuration: {}, externalIds: [] } });
  });

  it('restores drift made behind its back', async () => {
    const i = installation()!;
    i.configuration = { ...i.configuration, color: 'red' };
    i.sites.delete('site_status');
    i.sites.get('site_docs')!.configuration = { position: 'top' };
    i.spaceSelection = 'selected';
    const steps = await converge(CONFIG);
    expect(steps).toEqual(['update installations["acme-chat"]', 'update installations["acme-chat"].sites["site_docs"]', 'create installations["acme-chat"].sites["site_status"]']);
    expect(installation()!.configuration.color).toBe('blue');
  });

  it('imports a config that plans no changes, with a configuration\'s secrets as ${env:…} references', async () => {
    const out = join(dir, 'imported');
    const result = await runImport({ orgs: ['org_acme'], out, connect: async () => createClient({ baseUrl: emulator.url, token: 'dev-token' }) });
    const text = readFileSync(join(out, 'org_acme.yaml'), 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('token: ${env:ACME_CHAT_TOKEN}');
    expect(text).toContain('color: blue');
    expect(result.warnings).toContain(
      'org_acme: installations["acme-chat"]: the configuration\'s secrets are written as ${env:…} references, not as values; set ACME_CHAT_TOKEN before planning',
    );
    const env = { ACME_CHAT_TOKEN: TOKEN };
    const config = await loadConfig({ path: join(out, 'org_acme.yaml'), env });
    const again = await planOrgs(config, client, { toolVersion: 'test' });
    expect(again.steps.filter((s) => s.kind === 'installations' || s.kind === 'installationTargets').map((s) => s.address)).toEqual([]);
  });

  it('uninstalls from a site the list leaves out, and the whole installation when pruned', async () => {
    const fewer = CONFIG.replace('      - { site: site_status }\n', '');
    expect(await converge(fewer)).toEqual(['delete installations["acme-chat"].sites["site_status"]']);
    expect(await converge(`${HEAD}installations: []\n`)).toEqual([]);
    expect(await converge(`${HEAD}installations: []\nprune: [installations]\n`)).toEqual(['delete installations["acme-chat"]']);
    expect(installation()).toBeUndefined();
  });

  it('installs from nothing, configured in the same step', async () => {
    expect(await converge(CONFIG)).toEqual(['create installations["acme-chat"]', 'create installations["acme-chat"].sites["site_docs"]', 'create installations["acme-chat"].sites["site_status"]']);
    expect(installation()!.configuration).toEqual({ token: TOKEN, color: 'blue', rounded: true });
  });
});

describe('a space or site installation\'s space or site: the id, or the object with `extended`', () => {
  it('answers the id by default and the Space or Site object with extended=true, as the description says', async () => {
    await converge(`${HEAD}installations:\n  - integration: acme-chat\n    spaces: [{ space: space_api }]\n    sites: [{ site: site_docs }]\n`);
    const i = installation()!;
    const base = `/v1/integrations/acme-chat/installations/${i.id}`;
    const list = (target: string, query: Record<string, string> = {}) => client.listAll<Record<string, unknown>>(`${base}/${target}`, query);
    expect((await list('spaces')).map((t) => t.space)).toEqual(['space_api']);
    expect((await list('spaces', { extended: 'true' })).map((t) => t.space)).toEqual([expect.objectContaining({ object: 'space', id: 'space_api' })]);
    expect((await list('sites', { extended: 'true' })).map((t) => t.site)).toEqual([expect.objectContaining({ object: 'site', id: 'site_docs' })]);
    const one = await client.request<Record<string, unknown>>('GET', `${base}/spaces/space_api`, { query: { extended: true } });
    expect(one.body.space).toMatchObject({ object: 'space', id: 'space_api' });
  });
});

describe('bad installation configs', () => {
  const cases: Array<[string, string, string[]]> = [
    [
      'the same integration twice',
      `${HEAD}installations:\n  - integration: acme-chat\n  - integration: acme-chat\n`,
      ['docplane.yaml:5:5: installations[0]: installations["acme-chat"] is defined twice: here and at docplane.yaml:6:5', 'docplane.yaml:6:5: installations[1]: installations["acme-chat"] is defined twice: here and at docplane.yaml:5:5'],
    ],
    [
      'the same site twice in one installation',
      `${HEAD}installations:\n  - integration: acme-chat\n    sites:\n      - site: site_docs\n      - site: site_docs\n`,
      ['docplane.yaml:7:9: installations[0].sites[0]: installations["acme-chat"].sites["site_docs"] is defined twice: here and at docplane.yaml:8:9', 'docplane.yaml:8:9: installations[0].sites[1]: installations["acme-chat"].sites["site_docs"] is defined twice: here and at docplane.yaml:7:9'],
    ],
    ['spaces neither all nor a list', `${HEAD}installations:\n  - integration: acme-chat\n    spaces: some\n`, ['docplane.yaml:6:13: installations[0].spaces: …']],
    ['more than five external ids', `${HEAD}installations:\n  - integration: acme-chat\n    externalIds: [a, b, c, d, e, f]\n`, ['docplane.yaml:6:18: installations[0].externalIds: …']],
  ];
  it.each(cases)('%s', async (_name, yaml, expected) => {
    const problems = await withFiles({ 'docplane.yaml': yaml }, (t) => problemsOf({ path: t.dir, cwd: t.dir }));
    expect(problems.map((p) => p.replace(/(: installations[^:]*: ).*$/, (m, head: string) => (expected.some((e) => e.endsWith('…')) ? `${head}…` : m)))).toEqual(expected);
  });
});
