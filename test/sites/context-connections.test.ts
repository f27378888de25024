/**
 * The context connections of a site's agent, in-process against the emulator (every exchange checked
 * against the live description): plan → apply → plan (no changes); a create sets the label the create
 * cannot carry; drift restored (the credentials, which the API does not return, are not compared);
 * `--replace` sends the setup again; a pruned connection deleted; the import round trip with the
 * credentials as ${env:…}; the token in no rendering of any plan; the bad configs at file:line.
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
import { maskPlan, renderJson, renderText } from '../../src/render/index.js';
import { problemsOf, withFiles } from '../config/helpers.js';
import { quietApply } from '../apply/in-process.js';

const SITE = '/v1/orgs/org_acme/sites/site_docs';
const TOKEN = 'zendesk-secret-token-8812';
const OLD_TOKEN = 'intercom-old-token-1234';

const STATE: EmulatorState = {
  tokens: [{ token: 'dev-token', access: 'write' }],
  users: [{ id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' }],
  organizations: [
    {
      id: 'org_acme',
      title: 'Acme',
      members: [{ user: 'u_alice', role: 'admin' }],
      sites: [{ id: 'site_docs', title: 'Docs' }],
      siteAgent: [
        {
          site: 'site_docs',
          contextConnections: [
            { id: 'ctx_web', connector: 'builtin:website', setupSettings: { url: 'https://blog.acme.test/' }, label: 'Blog', usageSettings: { changeRequests: true, search: true, searchBoost: 'x1.0' } },
            { id: 'ctx_old', connector: 'builtin:intercom', setupSettings: { token: OLD_TOKEN } },
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
    contextConnections:
      - label: Support tickets
        connector: builtin:zendesk
        setupSettings: { subdomain: acme, email: bot@acme.test, apiToken: "\${env:ZENDESK_TOKEN}" }
        usageSettings: { changeRequests: true, search: false, searchBoost: x0.8 }
        filter: docs
      - label: Blog
        connector: builtin:website
        setupSettings: { url: "https://blog.acme.test/" }
        usageSettings: { changeRequests: false, search: true, searchBoost: x1.2 }
      - connector: builtin:email
`;

let emulator: RunningEmulator;
let dir: string;
const env: Record<string, string> = { ZENDESK_TOKEN: TOKEN };

const connect = async () => createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 1 });

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function withEnv<T>(run: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return await run();
  } finally {
    process.env = saved;
  }
}

const plan = (configPath: string, replace?: string[]) => withEnv(() => runPlan({ configPath, toolVersion: '0.1.0', connect, ...(replace ? { replace } : {}) }));
const summary = (p: Awaited<ReturnType<typeof plan>>) => p.plan.steps.map((s) => `${s.action} ${s.address}`);
const rendered = (p: Awaited<ReturnType<typeof plan>>) => [renderText(maskPlan(p.plan, p.secrets), { color: false, requests: true }), renderJson(maskPlan(p.plan, p.secrets))].join('\n');

async function apply(configPath: string): Promise<void> {
  const report = await withEnv(() => runApply(quietApply(configPath, connect)));
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

const connections = async () => (await api('GET', `${SITE}/context-connections?limit=1000`)).body.items as Array<Record<string, any>>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, state: STATE, seed: 7 });
  dir = mkdtempSync(join(tmpdir(), 'docplane-context-'));
});

afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the context connections of a site\'s agent (in-process, emulator)', () => {
  it('plan, apply, plan again: no changes; the token in no rendering', async () => {
    const config = write('docplane.yaml', CONFIG);
    const first = await plan(config);
    expect(first.plan.problems).toEqual([]);
    expect(summary(first)).toEqual([
      'update sites["site_docs"].contextConnections["Blog"]',
      'create sites["site_docs"].contextConnections["Support tickets"]',
      'create sites["site_docs"].contextConnections["builtin:email"]',
    ]);
    const zendesk = first.plan.steps.find((s) => s.address.endsWith('["Support tickets"]'))!;
    // The create takes no label: a PATCH of the connection just made sets it.
    expect(zendesk.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST ${SITE}/context-connections`,
      `PATCH ${SITE}/context-connections/{{ref:org_acme/sites["site_docs"].contextConnections["Support tickets"]}}`,
    ]);
    expect(first.plan.unmanaged.org_acme.contextConnections).toEqual(['sites["site_docs"].contextConnections["builtin:intercom"]']);
    const out = rendered(first);
    expect(out).not.toContain(TOKEN);
    expect(out).toContain('Support tickets');

    await apply(config);
    expect((await plan(config)).plan.steps).toEqual([]);
    const made = (await connections()).find((c) => c.connector === 'builtin:zendesk')!;
    expect(made).toMatchObject({ label: 'Support tickets', filter: 'docs', usageSettings: { changeRequests: true, search: false, searchBoost: 'x0.8' } });
    // The API does not give the credential back.
    expect(made.setupSettings).toEqual({ subdomain: 'acme', email: 'bot@acme.test', apiToken: '********' });
  });

  it('drift is planned exactly and restored; --replace sends the setup again, credentials masked', async () => {
    const config = join(dir, 'docplane.yaml');
    const zendesk = (await connections()).find((c) => c.connector === 'builtin:zendesk')!;
    const drift = { connector: 'builtin:zendesk', setupSettings: { subdomain: 'globex', email: 'bot@acme.test', apiToken: 'stolen-000' }, filter: '' };
    expect((await api('PATCH', `${SITE}/context-connections/${zendesk.id}`, drift)).status).toBe(200);
    const drifted = await plan(config);
    expect(drifted.plan.steps.map((s) => ({ address: s.address, changes: s.changes.map((c) => `${c.path}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`) }))).toEqual([
      {
        address: 'sites["site_docs"].contextConnections["Support tickets"]',
        changes: ['setupSettings.subdomain: "globex" → "acme"', `setupSettings.apiToken: "(sensitive)" → "${TOKEN}"`, 'filter: null → "docs"'],
      },
    ]);
    expect(rendered(drifted)).not.toContain(TOKEN);
    await apply(config);
    expect((await plan(config)).plan.steps).toEqual([]);

    const address = 'sites["site_docs"].contextConnections["Support tickets"]';
    const replaced = await plan(config, [address]);
    expect(summary(replaced)).toEqual([`update ${address}`]);
    expect(replaced.plan.steps[0].requests[0].body).toEqual({ connector: 'builtin:zendesk', setupSettings: { subdomain: 'acme', email: 'bot@acme.test', apiToken: TOKEN } });
    expect(rendered(replaced)).not.toContain(TOKEN);
  });

  it('import round trip: credentials written as ${env:…}, the written config plans no changes', async () => {
    const imported = await runImport({ orgs: ['org_acme'], sites: ['site_docs'], out: 'imported', cwd: dir, connect });
    const yaml = imported.documents[0].yaml;
    expect(yaml).not.toContain(TOKEN);
    expect(yaml).not.toContain(OLD_TOKEN);
    expect(yaml).toContain('apiToken: ${env:SITE_DOCS_CONTEXT_SUPPORT_TICKETS_API_TOKEN}');
    expect(imported.orgs[0].warnings.join('\n')).toContain('SITE_DOCS_CONTEXT_BUILTIN_INTERCOM_TOKEN');
    env.SITE_DOCS_CONTEXT_SUPPORT_TICKETS_API_TOKEN = TOKEN;
    env.SITE_DOCS_CONTEXT_BUILTIN_INTERCOM_TOKEN = OLD_TOKEN;
    expect((await plan(join(dir, 'imported'))).plan.steps).toEqual([]);
  });

  it('a connection the config leaves out is deleted when contextConnections are pruned', async () => {
    const config = write('pruned.yaml', `${CONFIG}prune: [contextConnections]\n`);
    const p = await plan(config);
    expect(summary(p)).toEqual(['delete sites["site_docs"].contextConnections["builtin:intercom"]']);
    expect(rendered(p)).not.toContain(OLD_TOKEN);
    await apply(config);
    expect((await api('GET', `${SITE}/context-connections/ctx_old`)).status).toBe(404);
    expect((await plan(config)).plan.steps).toEqual([]);
  });

  it('a new connection without the setup its connector needs is a plan problem', async () => {
    const config = write('no-setup.yaml', 'version: 1\norganization: { id: org_acme }\nsites:\n  - id: site_docs\n    contextConnections:\n      - { label: Videos, connector: builtin:youtube }\n');
    const p = await plan(config);
    expect(p.plan.problems.map((x) => x.message)).toEqual(['a new builtin:youtube connection needs its setupSettings (the create takes them): add them, or create the connection in the app']);
  });
});

describe('bad configs', () => {
  const head = 'version: 1\norganization: { id: org_acme }\nsites:\n  - id: site_docs\n    contextConnections:\n';
  const cases: Array<{ name: string; yaml: string; expected: string[] }> = [
    {
      name: 'a connector the API lacks, a setup field of another connector, a boost outside its enum',
      yaml: `${head}      - { connector: builtin:slack }\n      - { connector: builtin:website, setupSettings: { url: "https://a.test", token: x } }\n      - { label: a, connector: builtin:email, usageSettings: { changeRequests: true, search: true, searchBoost: x2 } }\n`,
      expected: [
        'docplane.yaml:6:22: sites[0].contextConnections[0].connector: must be one of builtin:email, builtin:api, builtin:website, builtin:youtube, builtin:github-discussions, builtin:github-issues, builtin:intercom, builtin:front, builtin:pylon, builtin:hubspot, builtin:linear, builtin:zendesk, builtin:zoho-desk, builtin:freshdesk, builtin:jira, or integration:NAME',
        'docplane.yaml:7:79: sites[0].contextConnections[1].setupSettings.token: unknown key "token"',
        'docplane.yaml:8:113: sites[0].contextConnections[2].usageSettings.searchBoost: must be one of x0.8, x1.0, x1.2',
      ],
    },
    {
      name: 'two connections of one connector without labels',
      yaml: `${head}      - { connector: builtin:email }\n      - { connector: builtin:email }\n`,
      expected: [
        'docplane.yaml:6:9: sites[0].contextConnections[0]: the builtin:email context connection without a label of site site_docs (give each a label to tell them apart) is defined twice: here and at docplane.yaml:7:9',
        'docplane.yaml:7:9: sites[0].contextConnections[1]: the builtin:email context connection without a label of site site_docs (give each a label to tell them apart) is defined twice: here and at docplane.yaml:6:9',
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
