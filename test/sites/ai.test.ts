/**
 * A site's agent settings, MCP servers and adaptive schema, in-process against the emulator (every
 * exchange checked against the live description): plan → apply → plan (no changes); changes behind
 * docplane's back planned exactly and restored; a pruned MCP server deleted; the import round trip;
 * the MCP server's token in no rendering of the plan; the bad configs of these blocks at file:line.
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
const TOKEN = 'mcp-secret-token-4711';

const STATE: EmulatorState = {
  tokens: [{ token: 'dev-token', access: 'write' }],
  users: [{ id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' }],
  organizations: [
    {
      id: 'org_acme',
      title: 'Acme',
      members: [{ user: 'u_alice', role: 'admin' }],
      spaces: [{ id: 'space_guides', title: 'Guides' }],
      sites: [
        {
          id: 'site_docs',
          title: 'Docs',
          sections: [{ id: 'sec_guides', title: 'Guides', path: 'guides', siteSpaces: [{ space: 'space_guides', path: 'guides' }] }],
          mcpServers: [{ id: 'mcp_old', name: 'Old tools', url: 'https://old.acme.test/mcp', headers: { 'X-Api-Key': 'old-secret-value-99' } }],
        },
      ],
    },
  ],
};

const CONFIG = `version: 1
organization: { id: org_acme }
sites:
  - id: site_docs
    sections:
      - { path: guides, title: Guides, space: space_guides, condition: 'visitor.claims.plan == "pro"' }
    agentSettings:
      scans: { topics: never }
      editing: { customInstructions: Write short sentences. }
    mcpServers:
      - name: Acme API
        url: https://mcp.acme.test/sse
        headers: { Authorization: "Bearer \${env:ACME_MCP_TOKEN}" }
        condition: visitor.claims.plan == "pro"
    adaptiveSchema:
      properties:
        plan: { type: string, enum: [free, pro], description: The visitor's plan }
        unsigned:
          type: object
          description: Unsigned claims of the site visitor.
          additionalProperties: false
          properties: { beta: { type: boolean, description: In the beta }  }
`;

let emulator: RunningEmulator;
let dir: string;
const env = { ACME_MCP_TOKEN: TOKEN } as Record<string, string>;

const connect = async () => createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 1 });

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function plan(configPath: string) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return await runPlan({ configPath, toolVersion: '0.1.0', connect });
  } finally {
    process.env = saved;
  }
}

const summary = (p: Awaited<ReturnType<typeof plan>>) => p.plan.steps.map((s) => `${s.action} ${s.address}`);

async function apply(configPath: string): Promise<void> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const report = await runApply(quietApply(configPath, connect));
    expect(outcomeError(report)?.message).toBeUndefined();
  } finally {
    process.env = saved;
  }
}

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: res.status === 204 || res.status === 205 ? null : await res.json() };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, state: STATE, seed: 7 });
  dir = mkdtempSync(join(tmpdir(), 'docplane-site-ai-'));
});

afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('site AI and adaptive content (in-process, emulator)', () => {
  it('plan, apply, plan again: no changes; the token in no rendering of the plan', async () => {
    const config = write('docplane.yaml', CONFIG);
    const first = await plan(config);
    expect(summary(first)).toEqual([
      'update sites["site_docs"].sections["guides"]',
      'update sites["site_docs"].agentSettings',
      'create sites["site_docs"].mcpServers["Acme API"]',
      'update sites["site_docs"].adaptiveSchema',
    ]);
    expect(first.plan.unmanaged.org_acme.mcpServers).toEqual(['sites["site_docs"].mcpServers["Old tools"]']);
    const text = renderText(maskPlan(first.plan, first.secrets), { color: false, requests: true });
    const json = renderJson(maskPlan(first.plan, first.secrets));
    for (const out of [text, json]) {
      expect(out).not.toContain(TOKEN);
      expect(out).toContain('Acme API');
    }

    await apply(config);
    expect((await plan(config)).plan.steps).toEqual([]);

    const servers = await api('GET', `${SITE}/mcp-servers?limit=1000`);
    expect(servers.body.items.find((s: { name: string }) => s.name === 'Acme API')).toMatchObject({ url: 'https://mcp.acme.test/sse', transport: 'sse', headers: { Authorization: `Bearer ${TOKEN}` } });
    const settings = await api('GET', `${SITE}/agent-settings`);
    expect(settings.body).toMatchObject({ scans: { topics: 'never' }, findings: { changeRequests: 'never' } });
    const schema = await api('GET', `${SITE}/adaptive-schema`);
    expect(schema.body.jsonSchema).toMatchObject({ type: 'object', additionalProperties: false, properties: { plan: { enum: ['free', 'pro'] } } });
  });

  it('changes behind docplane\'s back are planned exactly and restored', async () => {
    const config = join(dir, 'docplane.yaml');
    const servers = await api('GET', `${SITE}/mcp-servers?limit=1000`);
    const id = servers.body.items.find((s: { name: string }) => s.name === 'Acme API').id;
    expect((await api('PATCH', `${SITE}/mcp-servers/${id}`, { url: 'https://elsewhere.test/mcp', headers: { Authorization: 'Bearer stolen-token-000' }, condition: null })).status).toBe(200);
    const settings = (await api('GET', `${SITE}/agent-settings`)).body;
    expect((await api('PUT', `${SITE}/agent-settings`, { scans: { topics: 'auto' }, findings: settings.findings, editing: settings.editing })).status).toBe(200);

    const drifted = await plan(config);
    const steps = drifted.plan.steps.map((s) => ({ address: s.address, changes: s.changes.map((c) => `${c.path}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`) }));
    expect(steps).toEqual([
      { address: 'sites["site_docs"].agentSettings', changes: ['scans.topics: "auto" → "never"'] },
      {
        address: 'sites["site_docs"].mcpServers["Acme API"]',
        changes: [
          'condition: null → "visitor.claims.plan == \\"pro\\""',
          `headers.Authorization: "(sensitive)" → "Bearer ${TOKEN}"`,
          'url: "https://elsewhere.test/mcp" → "https://mcp.acme.test/sse"',
        ],
      },
    ]);
    // The API's header value is never shown; the config's is masked in every rendering.
    const text = renderJson(maskPlan(drifted.plan, drifted.secrets));
    expect(text).not.toContain('stolen-token-000');
    expect(text).not.toContain(TOKEN);
    await apply(config);
    expect((await plan(config)).plan.steps).toEqual([]);
  });

  it('import round trip: the written config plans no changes', async () => {
    const imported = await runImport({ orgs: ['org_acme'], sites: ['site_docs'], out: 'imported', cwd: dir, connect });
    const yaml = imported.documents[0].yaml;
    // Header values are written as ${env:…} references, never as values.
    expect(yaml).not.toContain(TOKEN);
    expect(yaml).not.toContain('old-secret-value-99');
    expect(yaml).toContain('Authorization: ${env:SITE_DOCS_MCP_ACME_API_AUTHORIZATION}');
    expect(imported.orgs[0].warnings.join('\n')).toContain('SITE_DOCS_MCP_OLD_TOOLS_X_API_KEY');
    env.SITE_DOCS_MCP_ACME_API_AUTHORIZATION = `Bearer ${TOKEN}`;
    env.SITE_DOCS_MCP_OLD_TOOLS_X_API_KEY = 'old-secret-value-99';
    const again = await plan(join(dir, 'imported'));
    expect(again.plan.steps).toEqual([]);
  });

  it('an MCP server the config leaves out is deleted when mcpServers are pruned', async () => {
    const config = write('pruned.yaml', `${CONFIG}prune: [mcpServers]\n`);
    const p = await plan(config);
    expect(summary(p)).toContain('delete sites["site_docs"].mcpServers["Old tools"]');
    expect(renderJson(maskPlan(p.plan, p.secrets))).not.toContain('old-secret-value-99');
    await apply(config);
    expect((await api('GET', `${SITE}/mcp-servers/mcp_old`)).status).toBe(404);
    expect((await plan(config)).plan.steps).toEqual([]);
  });

  it('import leaves out a schema that does not cover the site\'s own conditions (the config would not load)', async () => {
    const jsonSchema = { type: 'object', properties: { tier: { type: 'number', description: 'Tier' } }, additionalProperties: false };
    expect((await api('PUT', `${SITE}/adaptive-schema`, { jsonSchema })).status).toBe(200);
    const imported = await runImport({ orgs: ['org_acme'], sites: ['site_docs'], out: '-', cwd: dir, connect });
    expect(imported.documents[0].yaml).not.toContain('adaptiveSchema');
    expect(imported.orgs[0].warnings.join('\n')).toContain(
      'sites["site_docs"].adaptiveSchema: the condition "visitor.claims.plan == \\"pro\\"" names claim "plan" (visitor.claims.plan), which the site\'s adaptiveSchema does not define; the schema is not written (it stays unmanaged), so that the config loads',
    );
  });
});

describe('bad configs', () => {
  const head = 'version: 1\norganization: { id: org_acme }\nsites:\n  - id: site_docs\n';
  const schema = '    adaptiveSchema:\n      properties:\n        plan: { type: string, enum: [free, pro], description: Plan }\n';
  const cases: Array<{ name: string; yaml: string; expected: string[] }> = [
    {
      name: 'a condition names a claim the adaptive schema lacks',
      yaml: `${head}    sections:\n      - { path: g, title: Guides, space: s1, condition: visitor.claims.plann == "pro", siteSpaces: [{ space: s2, condition: visitor.claims.tier }] }\n${schema}`,
      expected: [
        'docplane.yaml:6:57: sites[0].sections[0].condition: the condition names claim "plann" (visitor.claims.plann), which the site\'s adaptiveSchema does not define — did you mean "plan"?',
        'docplane.yaml:6:125: sites[0].sections[0].siteSpaces[0].condition: the condition names claim "tier" (visitor.claims.tier), which the site\'s adaptiveSchema does not define',
      ],
    },
    {
      name: 'an MCP server\'s condition is checked too; without a schema in the config nothing is',
      yaml: `${head}    mcpServers:\n      - { name: a, url: https://a.test/mcp, condition: visitor.claims.paln }\n${schema}  - id: site_other\n    sections:\n      - { path: g, title: Guides, space: s1, condition: visitor.claims.anything }\n`,
      expected: ['docplane.yaml:6:56: sites[0].mcpServers[0].condition: the condition names claim "paln" (visitor.claims.paln), which the site\'s adaptiveSchema does not define — did you mean "plan"?'],
    },
    {
      name: 'a bad transport, a header value too long',
      yaml: `${head}    mcpServers:\n      - { name: a, url: https://a.test/mcp, transport: websocket }\n      - { name: b, url: https://b.test/mcp, headers: { X-Key: ${'k'.repeat(513)} } }\n`,
      expected: [
        'docplane.yaml:6:56: sites[0].mcpServers[0].transport: must be one of sse, http',
        'docplane.yaml:7:63: sites[0].mcpServers[1].headers["X-Key"]: must be at most 512 characters (the API\'s limit)',
      ],
    },
    {
      name: 'an MCP server named twice on one site',
      yaml: `${head}    mcpServers:\n      - { name: a, url: https://a.test/mcp }\n      - { name: a, url: https://b.test/mcp }\n`,
      expected: [
        expect.stringMatching(/^docplane\.yaml:6:9: .*MCP server "a" of site site_docs is defined twice: here and at docplane\.yaml:7:9/) as unknown as string,
        expect.stringMatching(/^docplane\.yaml:7:9: .*MCP server "a" of site site_docs/) as unknown as string,
      ],
    },
    {
      name: 'agent settings and claims outside the API\'s enums and shapes',
      yaml: `${head}    agentSettings: { scans: { topics: sometimes } }\n    adaptiveSchema:\n      properties:\n        plan: { type: date, description: x }\n`,
      expected: [
        'docplane.yaml:5:39: sites[0].agentSettings.scans.topics: must be one of auto, never',
        'docplane.yaml:8:23: sites[0].adaptiveSchema.properties.plan.type: a claim\'s type must be one of boolean, string, number, array, object',
      ],
    },
    {
      name: 'unsigned claims that are not the API\'s unsigned object',
      yaml: `${head}    adaptiveSchema:\n      properties:\n        unsigned: { type: boolean, description: y }\n`,
      expected: ['docplane.yaml:7:19: sites[0].adaptiveSchema.properties.unsigned: the unsigned claims are an object claim whose description is "Unsigned claims of the site visitor."'],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const problems = await withFiles({ 'docplane.yaml': c.yaml }, (t) => problemsOf({ cwd: t.dir }));
      expect(problems).toEqual(c.expected);
    });
  }
});
