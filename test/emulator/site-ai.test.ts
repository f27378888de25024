/** The emulator's site agent settings, MCP servers and adaptive schema, as the live description says. */
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusedRequestsExpected } from '../conformance/session.js';
import { SITE, demoState, useEmulator } from './helpers.js';

// Bad requests on purpose: their refusals are not checked (docs/conformance.md).
refusedRequestsExpected('the emulator\'s own tests send bad requests on purpose');

const start = useEmulator();
const doc = { object: 'document', data: {}, nodes: [] };

describe('agent settings', () => {
  it('answers the seeded settings; a PUT replaces all three parts (and needs all three)', async () => {
    const api = await start();
    const seeded = (await api.get(`${SITE}/agent-settings`)).body;
    expect(seeded).toMatchObject({ object: 'site-agent-settings', scans: { topics: 'auto' }, findings: { changeRequests: 'never' }, urls: { location: '/orgs/org_acme/sites/site_docs/agent-settings' } });
    const put = await api.put(`${SITE}/agent-settings`, { scans: { topics: 'never' }, findings: { changeRequests: 'always' }, editing: { customInstructions: doc } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ scans: { topics: 'never' }, findings: { changeRequests: 'always' }, editing: { customInstructions: { object: 'document', nodes: [] } } });
    expect((await api.put(`${SITE}/agent-settings`, { scans: { topics: 'never' }, findings: { changeRequests: 'always' } })).status).toBe(400);
    expect((await api.put(`${SITE}/agent-settings`, { scans: { topics: 'sometimes' }, findings: { changeRequests: 'always' }, editing: { customInstructions: doc } })).status).toBe(400);
  });
});

describe('MCP servers', () => {
  it('creates (201, no Location), gets, lists, updates (null removes the condition), deletes (205, then 204)', async () => {
    const api = await start();
    expect((await api.all(`${SITE}/mcp-servers`)).map((m) => m.name)).toEqual(['Legacy search']);
    const made = await api.post(`${SITE}/mcp-servers`, { name: 'Tools', url: 'https://tools.test/sse', headers: { Authorization: 'Bearer t0ken-value' }, condition: 'visitor.claims.pro' });
    expect(made.status).toBe(201);
    expect(made.headers.get('location')).toBeNull();
    expect(made.body).toMatchObject({ object: 'site-mcp-server', name: 'Tools', transport: 'sse', headers: { Authorization: 'Bearer t0ken-value' }, condition: 'visitor.claims.pro' });
    expect((await api.get(`${SITE}/mcp-servers/${made.body.id}`)).body.name).toBe('Tools');
    const patched = await api.patch(`${SITE}/mcp-servers/${made.body.id}`, { transport: 'http', condition: null });
    expect(patched.status).toBe(200);
    expect(patched.body.transport).toBe('http');
    expect(patched.body.condition).toBeUndefined();
    expect((await api.del(`${SITE}/mcp-servers/${made.body.id}`)).status).toBe(205);
    expect((await api.del(`${SITE}/mcp-servers/${made.body.id}`)).status).toBe(204);
    expect((await api.get(`${SITE}/mcp-servers/${made.body.id}`)).status).toBe(404);
  });

  const refusals: Array<[string, unknown]> = [
    ['no headers', { name: 'a', url: 'https://a.test/' }],
    ['a name too long', { name: 'x'.repeat(101), url: 'https://a.test/', headers: {} }],
    ['an unknown transport', { name: 'a', url: 'https://a.test/', headers: {}, transport: 'ws' }],
    ['an empty header value', { name: 'a', url: 'https://a.test/', headers: { X: '' } }],
  ];
  for (const [name, body] of refusals) {
    it(`refuses ${name} (400)`, async () => {
      const api = await start();
      expect((await api.post(`${SITE}/mcp-servers`, body)).status).toBe(400);
    });
  }

  it('masks header values in the exchange log', async () => {
    const logFile = join(mkdtempSync(join(tmpdir(), 'docplane-site-ai-log-')), 'log.jsonl');
    const api = await start({ state: demoState(), logFile });
    await api.post(`${SITE}/mcp-servers`, { name: 'Tools', url: 'https://tools.test/sse', headers: { Authorization: 'Bearer t0ken-value' } });
    await api.emu.close();
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain('"Authorization"');
    expect(log).not.toContain('t0ken-value');
  });
});

describe('adaptive schema', () => {
  const schema = { type: 'object', properties: { plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' } }, additionalProperties: false };
  it('answers 404 until a PUT sets one, then the schema', async () => {
    const api = await start();
    expect((await api.get(`${SITE}/adaptive-schema`)).status).toBe(404);
    const put = await api.put(`${SITE}/adaptive-schema`, { jsonSchema: schema });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ object: 'site-adaptive-schema', jsonSchema: schema });
    expect((await api.get(`${SITE}/adaptive-schema`)).body.jsonSchema).toEqual(schema);
  });

  const refusals: Array<[string, unknown]> = [
    ['a claim without a description', { ...schema, properties: { plan: { type: 'string' } } }],
    ['a claim of an unknown type', { ...schema, properties: { plan: { type: 'date', description: 'x' } } }],
    ['unsigned claims that are not the unsigned object', { ...schema, properties: { unsigned: { type: 'boolean', description: 'x' } } }],
    ['additional properties allowed', { ...schema, additionalProperties: true }],
  ];
  for (const [name, jsonSchema] of refusals) {
    it(`refuses ${name} (400)`, async () => {
      const api = await start();
      expect((await api.put(`${SITE}/adaptive-schema`, { jsonSchema })).status).toBe(400);
    });
  }
});
