/**
 * The topics of a site's agent, in-process against the emulator (every exchange checked against the
 * live description): plan → apply → plan (no changes); drift restored; the import round trip; a label
 * the site lacks, and one two topics share, are plan problems; the bad configs at file:line. Topics
 * are made by the service: nothing is created or deleted, so there is no prune.
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
      sites: [{ id: 'site_docs', title: 'Docs' }],
      siteAgent: [
        {
          site: 'site_docs',
          topics: [
            { id: 'topic_billing', label: 'Billing', changeRequests: true },
            { id: 'topic_invoices', label: 'Invoices', parent: 'topic_billing', changeRequests: true },
            { id: 'topic_sso', label: 'SSO', changeRequests: false },
            { id: 'topic_api_1', label: 'API', changeRequests: true },
            { id: 'topic_api_2', label: 'API', changeRequests: false },
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
    topics:
      - { label: Billing, usageSettings: { changeRequests: false } }
      - { label: SSO, usageSettings: { changeRequests: true } }
      - { id: topic_api_2, label: API, usageSettings: { changeRequests: true } }
      - { label: Invoices }
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
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, state: STATE, seed: 7 });
  dir = mkdtempSync(join(tmpdir(), 'docplane-topics-'));
});

afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the topics of a site\'s agent (in-process, emulator)', () => {
  it('plan, apply, plan again: no changes', async () => {
    const config = write('docplane.yaml', CONFIG);
    const first = await plan(config);
    expect(first.plan.problems).toEqual([]);
    expect(summary(first)).toEqual([
      'update sites["site_docs"].topics["API"]',
      'update sites["site_docs"].topics["Billing"]',
      'update sites["site_docs"].topics["SSO"]',
    ]);
    expect(first.plan.steps[0].requests).toEqual([{ method: 'PATCH', path: `${SITE}/topics/topic_api_2`, body: { usageSettings: { changeRequests: true } } }]);
    // The other topic labelled API is not the config's: unmanaged, told apart by its id.
    expect(first.plan.unmanaged.org_acme.topics).toEqual(['sites["site_docs"].topics["API#topic_api_1"]']);
    await apply(config);
    expect((await plan(config)).plan.steps).toEqual([]);
    expect((await api('GET', `${SITE}/topics/topic_billing`)).body.usageSettings).toEqual({ changeRequests: false });
  });

  it('drift is planned exactly and restored', async () => {
    const config = join(dir, 'docplane.yaml');
    expect((await api('PATCH', `${SITE}/topics/topic_sso`, { usageSettings: { changeRequests: false } })).status).toBe(200);
    const drifted = await plan(config);
    expect(drifted.plan.steps.map((s) => ({ address: s.address, changes: s.changes.map((c) => `${c.path}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`) }))).toEqual([
      { address: 'sites["site_docs"].topics["SSO"]', changes: ['usageSettings.changeRequests: false → true'] },
    ]);
    await apply(config);
    expect((await plan(config)).plan.steps).toEqual([]);
  });

  it('import round trip: every topic by label (a shared label pinned by id), the written config plans no changes', async () => {
    const imported = await runImport({ orgs: ['org_acme'], sites: ['site_docs'], out: 'imported', cwd: dir, connect });
    const yaml = imported.documents[0].yaml;
    expect(yaml).toContain('- { id: topic_api_1, label: API, usageSettings: { changeRequests: true } }');
    expect(yaml).toContain('- { label: Invoices, usageSettings: { changeRequests: true } }');
    expect(imported.orgs[0].warnings.join('\n')).toContain('sites["site_docs"].topics["API"]: two topics of the site share the label');
    expect((await plan(join(dir, 'imported'))).plan.steps).toEqual([]);
  });

  it('a label the site lacks, and a label two topics share without an id, are plan problems', async () => {
    const config = write('problems.yaml', 'version: 1\norganization: { id: org_acme }\nsites:\n  - id: site_docs\n    topics:\n      - { label: Biling }\n      - { label: API }\n');
    const p = await plan(config);
    expect(p.plan.problems.map((x) => x.message)).toEqual([
      'site site_docs has 2 topics labelled "API" (topic_api_1, topic_api_2): pin one with id',
      'site site_docs has no topic labelled "Biling" (topics are made by the service, not by a config) — did you mean "Billing"?',
    ]);
  });
});

describe('bad configs', () => {
  const cases: Array<{ name: string; yaml: string; expected: string[] }> = [
    {
      name: 'a usage setting the API lacks',
      yaml: 'version: 1\norganization: { id: org_acme }\nsites:\n  - id: site_docs\n    topics:\n      - { label: A, usageSettings: { changeRequests: yes, search: true } }\n',
      expected: [
        'docplane.yaml:6:54: sites[0].topics[0].usageSettings.changeRequests: must be true or false, not the string "yes"',
        'docplane.yaml:6:59: sites[0].topics[0].usageSettings.search: unknown key "search"',
      ],
    },
    {
      name: 'a label twice on one site',
      yaml: 'version: 1\norganization: { id: org_acme }\nsites:\n  - id: site_docs\n    topics:\n      - { label: B }\n      - { label: B }\n',
      expected: ['docplane.yaml:6:9: sites[0].topics[0]: topic "B" of site site_docs is defined twice: here and at docplane.yaml:7:9', 'docplane.yaml:7:9: sites[0].topics[1]: topic "B" of site site_docs is defined twice: here and at docplane.yaml:6:9'],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const problems = await withFiles({ 'docplane.yaml': c.yaml }, (t) => problemsOf({ cwd: t.dir }));
      expect(problems).toEqual(c.expected);
    });
  }
});
