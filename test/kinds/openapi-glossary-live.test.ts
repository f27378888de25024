/**
 * OpenAPI specs and the translation glossary, in-process against the emulator: plan → apply → plan
 * (no changes), drift restored, a spec file's new content, prune, the import round trip, and the
 * config errors of a spec's file and slug.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import { runApply, type RunApplyOptions } from '../../src/apply/run.js';
import { loadConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/core/errors.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { runImport } from '../../src/import/run.js';
import { runPlan } from '../../src/plan/service.js';
import { demoState } from '../apply/cli-helpers.js';
import { quietApply } from '../apply/in-process.js';

let emulator: RunningEmulator;
let dir: string;

const BILLING = 'openapi: 3.1.0\ninfo: { title: Billing, version: "1" }\npaths: {}\n';
const CONFIG = `version: 1
organization: { id: org_acme }
openapiSpecs:
  - slug: billing
    source: { text: "\${file:specs/billing.yaml}" }
    visibility: public
  - { slug: petstore, source: { url: "https://petstore.example/openapi.json" } }
glossary:
  - translations: { en: API, fr: API, de: API }
  - translations: { en: Workspace, fr: Espace de travail }
prune: [openapiSpecs]
`;

const connect = async (): Promise<ApiClient> => createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 2 });
const planOf = async (configPath = join(dir, 'docplane.yaml'), replace?: string[]) =>
  (await runPlan({ configPath, toolVersion: '0.1.0', connect, ...(replace ? { replace } : {}) })).plan;
const rows = async (configPath?: string) => (await planOf(configPath)).steps.map((s) => `${s.address} ${s.action}`);

function applyOptions(extra: Partial<RunApplyOptions> = {}): RunApplyOptions {
  return quietApply(join(dir, 'docplane.yaml'), connect, extra);
}

async function apply(): Promise<string[]> {
  const report = await runApply(applyOptions());
  expect(report.result?.failed ?? []).toEqual([]);
  expect(report.convergence?.converged).toBe(true);
  return (report.result?.applied ?? []).map((o) => o.address);
}

const org = () => emulator.world.orgs.get('org_acme')!;

beforeAll(async () => {
  const state = demoState();
  const acme = (state.organizations ?? []).find((o) => o.id === 'org_acme')!;
  Object.assign(acme, {
    openapiSpecs: [{ slug: 'legacy', url: 'https://legacy.example/openapi.json' }],
    glossary: [
      { id: 'gle_ws', translations: { en: 'Workspace', fr: 'Espace' } },
      { id: 'gle_gone', translations: { en: 'Bucket', fr: 'Seau' } },
    ],
  });
  emulator = await startEmulator({ port: 0, state, seed: 7 });
  dir = mkdtempSync(join(tmpdir(), 'docplane-oas-'));
  mkdirSync(join(dir, 'specs'));
  writeFileSync(join(dir, 'specs/billing.yaml'), BILLING);
  writeFileSync(join(dir, 'docplane.yaml'), CONFIG);
});

afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('OpenAPI specs and the glossary against the emulator', () => {
  it('plans creates, the pruned delete and one glossary batch; applies; then plans no changes', async () => {
    const plan = await planOf();
    const steps = plan.steps.map((s) => [s.address, s.action, ...s.requests.map((r) => `${r.method} ${r.path}`)]);
    expect(steps).toEqual(
      expect.arrayContaining([
        ['openapiSpecs["billing"]', 'create', 'PUT /v1/orgs/org_acme/openapi/billing', 'PATCH /v1/orgs/org_acme/openapi/billing'],
        ['openapiSpecs["petstore"]', 'create', 'PUT /v1/orgs/org_acme/openapi/petstore'],
        ['openapiSpecs["legacy"]', 'delete', 'DELETE /v1/orgs/org_acme/openapi/legacy'],
        ['glossary', 'update', 'PUT /v1/orgs/org_acme/translations-glossary'],
      ]),
    );
    expect(plan.steps).toHaveLength(4);
    const glossary = plan.steps.find((s) => s.address === 'glossary')!;
    // One batch: the new entry inserted, the matched one updated, the one the config leaves out deleted.
    expect(glossary.requests[0].body).toEqual({
      operations: [
        { type: 'insert', translations: { en: 'API', fr: 'API', de: 'API' } },
        { type: 'update', id: 'gle_ws', translations: { en: 'Workspace', fr: 'Espace de travail' } },
        { type: 'delete', id: 'gle_gone' },
      ],
    });
    expect(glossary.changes.map((c) => `${c.kind} ${c.path}`)).toEqual(['add en:API', 'remove en:Bucket', 'change en:Workspace.fr']);
    // The text is shown by its digest, never whole.
    const billing = plan.steps.find((s) => s.address === 'openapiSpecs["billing"]')!;
    expect(billing.after).toEqual({ source: { text: expect.stringMatching(/^sha256:[0-9a-f]{12} \(\d+ bytes\)$/) }, visibility: 'public' });

    await apply();
    expect([...org().openapiSpecs.keys()].sort()).toEqual(['billing', 'petstore']);
    expect(org().openapiSpecs.get('billing')!.visibility).toBe('public');
    expect([...org().glossary.values()].map((e) => e.translations)).toEqual([{ en: 'Workspace', fr: 'Espace de travail' }, { en: 'API', fr: 'API', de: 'API' }]);
    expect(await rows()).toEqual([]);
  });

  it('restores drift: a spec given another text or visibility, a glossary term changed or added', async () => {
    const client = await connect();
    await client.request('PUT', '/v1/orgs/org_acme/openapi/billing', { body: { source: { text: 'openapi: 3.0.0\n' } } });
    await client.request('PATCH', '/v1/orgs/org_acme/openapi/petstore', { body: { visibility: 'public' } });
    const ws = [...org().glossary.values()].find((e) => e.translations.en === 'Workspace')!;
    await client.request('PUT', '/v1/orgs/org_acme/translations-glossary', {
      body: { operations: [{ type: 'update', id: ws.id, translations: { en: 'Workspace', fr: 'Bureau' } }, { type: 'insert', translations: { en: 'Stray' } }] },
    });
    await client.close();
    // petstore's visibility is not in the config: not managed.
    expect(await rows()).toEqual(['glossary update', 'openapiSpecs["billing"] update']);
    await apply();
    expect(await rows()).toEqual([]);
  });

  it('a new content of the spec file is a new version; --replace sends a URL spec again', async () => {
    writeFileSync(join(dir, 'specs/billing.yaml'), `${BILLING}# v2\n`);
    const plan = await planOf();
    expect(plan.steps.map((s) => [s.address, s.action, s.changes.map((c) => c.path)])).toEqual([['openapiSpecs["billing"]', 'update', ['source.text']]]);
    const versions = org().openapiSpecs.get('billing')!.versions.length;
    await apply();
    expect(org().openapiSpecs.get('billing')!.versions.length).toBe(versions + 1);
    const replaced = await planOf(undefined, ['openapiSpecs["petstore"]']);
    expect(replaced.steps.map((s) => `${s.address} ${s.requests.map((r) => r.method).join(',')}`)).toEqual(['openapiSpecs["petstore"] PUT']);
  });

  it('import writes URL specs as URLs, text specs to files beside the YAML, the glossary with ids; a plan of it has no changes', async () => {
    const out = join(dir, 'imported');
    const result = await runImport({ orgs: ['org_acme'], out, connect });
    expect(result.written).toContain('openapi/billing.yaml');
    expect(readFileSync(join(out, 'openapi/billing.yaml'), 'utf8')).toBe(`${BILLING}# v2\n`);
    const yaml = readFileSync(join(out, 'org_acme.yaml'), 'utf8');
    expect(yaml).toContain('source: { text: "${file:openapi/billing.yaml}" }');
    expect(yaml).toContain('source: { url: https://petstore.example/openapi.json }');
    expect(yaml).toMatch(/- \{ id: gle_\w+, translations: \{ en: API, fr: API, de: API \} \}/);
    expect(await rows(out)).toEqual([]);
  });
});

describe('config errors of OpenAPI specs and glossary entries', () => {
  async function problems(yaml: string): Promise<string[]> {
    writeFileSync(join(dir, 'bad.yaml'), yaml);
    try {
      await loadConfig({ path: join(dir, 'bad.yaml'), cwd: dir, env: {} });
    } catch (e) {
      if (e instanceof ConfigError) return e.issues.map((i) => `${i.file}:${i.line}:${i.column}: ${i.message}`);
      throw e;
    }
    return [];
  }

  it('a file outside the config folder, a missing file, a bad slug, a duplicate slug, a glossary entry without terms', async () => {
    writeFileSync(join(tmpdir(), 'docplane-outside.yaml'), BILLING);
    const got = await problems(`version: 1
organization: { id: org_acme }
openapiSpecs:
  - { slug: outside, source: { text: "\${file:../docplane-outside.yaml}" } }
  - { slug: missing, source: { text: "\${file:specs/missing.yaml}" } }
  - { slug: Bad_Slug, source: { url: "https://x.example/a.json" } }
  - { slug: twice, source: { url: "https://x.example/a.json" } }
  - { slug: twice, source: { url: "ftp://x.example/a.json" } }
glossary:
  - translations: {}
  - translations: { en: API, xx: API }
`);
    expect(got).toEqual([
      expect.stringMatching(/^bad\.yaml:4:38: file "\.\.\/docplane-outside\.yaml" is outside the config folder .*; keep referenced files inside it$/),
      'bad.yaml:5:38: file "specs/missing.yaml" does not exist (paths are relative to the YAML file)',
      'bad.yaml:6:13: must be letters and digits, in groups joined by single "-" (the API\'s slug pattern, such as "billing-api")',
      'bad.yaml:8:35: must be a URL starting with https:// (or http://)',
      'bad.yaml:10:19: an entry needs its term in at least one language ({ en: API, fr: API })',
      'bad.yaml:11:30: unknown key "xx"',
    ]);
  });

  it('two entries with one slug, two glossary entries with one name', async () => {
    const got = await problems(`version: 1
organization: { id: org_acme }
openapiSpecs:
  - { slug: twice, source: { url: "https://x.example/a.json" } }
  - { slug: twice, source: { url: "https://x.example/b.json" } }
glossary:
  - translations: { en: API }
  - translations: { en: API, fr: API }
`);
    expect(got).toEqual([
      expect.stringMatching(/^bad\.yaml:4:5: openapiSpecs\["twice"\] is defined twice: here and at bad\.yaml:5:5/),
      expect.stringMatching(/^bad\.yaml:5:5: openapiSpecs\["twice"\] is defined twice: here and at bad\.yaml:4:5/),
      expect.stringMatching(/^bad\.yaml:7:5: glossary entry en:API is defined twice: here and at bad\.yaml:8:5/),
      expect.stringMatching(/^bad\.yaml:8:5: glossary entry en:API is defined twice/),
    ]);
  });
});
