/** Plans of a site's agent settings, MCP servers and adaptive schema (ai.ts), and the claims of conditions (conditions.ts). */
import { describe, expect, it } from 'vitest';
import { textToDocument } from '../../core/richtext.js';
import type { Kind } from '../../model/step.js';
import { parseAgentSettings, parseMcpServer, type ClaimT } from './ai-read.js';
import { unknownClaims } from './conditions.js';
import { planSite, type SitePlans } from './plan.js';
import { sitePath, structureSite, type RemoteSite } from './remote.js';
import { Site, type SiteT } from './schema.js';

const ORG = 'org_acme';
const BASE = '/v1/orgs/org_acme/sites/site_docs';
const A = 'sites["site_docs"]';

function remote(extra: Partial<Pick<RemoteSite, 'agentSettings' | 'mcpServers' | 'adaptiveSchema'>>): RemoteSite {
  return { ...structureSite('site_docs', { type: 'sections', structure: [] }, []), ...extra };
}

function plan(site: Omit<SiteT, 'id'>, current: RemoteSite, prune: Kind[] = [], isNew = false): SitePlans {
  return planSite({
    org: ORG,
    site: Site.parse({ id: 'site_docs', ...site }) as SiteT,
    remote: current,
    prunes: (k) => prune.includes(k),
    base: sitePath(ORG, 'site_docs'),
    ...(isNew ? {} : { info: { id: 'site_docs', title: 'Docs' } as never }),
  });
}

const settings = (topics: string, changeRequests: string, text: string) =>
  parseAgentSettings({ object: 'site-agent-settings', urls: { location: '/x' }, scans: { topics }, findings: { changeRequests }, editing: { customInstructions: textToDocument(text) } });

const server = (id: string, name: string, more: Record<string, unknown> = {}) =>
  parseMcpServer({ object: 'site-mcp-server', id, name, url: `https://${id}.test/mcp`, transport: 'sse', headers: { Authorization: `Bearer ${id}-token` }, urls: { location: 'x' }, ...more });

describe('agent settings', () => {
  it('nothing when the parts the config gives are as the site has them', () => {
    const p = plan({ agentSettings: { scans: { topics: 'auto' }, editing: { customInstructions: 'Be brief.' } } }, remote({ agentSettings: settings('auto', 'never', 'Be brief.') }));
    expect(p.agentSettings.steps).toEqual([]);
    expect(p.agentSettings.remoteCount).toBe(1);
  });

  it('one PUT of all three parts: the parts the config leaves out as the site has them', () => {
    const p = plan({ agentSettings: { findings: { changeRequests: 'always' }, editing: { customInstructions: 'Be brief.' } } }, remote({ agentSettings: settings('never', 'never', 'Old.') }));
    expect(p.agentSettings.steps).toHaveLength(1);
    const s = p.agentSettings.steps[0];
    expect(s.address).toBe(`${A}.agentSettings`);
    expect(s.changes.map((c) => `${c.path}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`)).toEqual([
      'editing.customInstructions: "Old." → "Be brief."',
      'findings.changeRequests: "never" → "always"',
    ]);
    expect(s.requests).toEqual([
      { method: 'PUT', path: `${BASE}/agent-settings`, body: { scans: { topics: 'never' }, findings: { changeRequests: 'always' }, editing: { customInstructions: textToDocument('Be brief.') } } },
    ]);
  });

  it('null instructions are an empty document', () => {
    const p = plan({ agentSettings: { editing: { customInstructions: null } } }, remote({ agentSettings: settings('auto', 'never', 'Old.') }));
    expect((p.agentSettings.steps[0].requests[0].body as { editing: unknown }).editing).toEqual({ customInstructions: { object: 'document', data: { schemaVersion: 1 }, nodes: [] } });
  });

  it('on a site this plan creates: set when the config gives all three parts, else a note', () => {
    const all = { scans: { topics: 'auto' }, findings: { changeRequests: 'never' }, editing: { customInstructions: 'Hi.' } } as const;
    expect(plan({ agentSettings: all }, remote({}), [], true).agentSettings.steps).toHaveLength(1);
    const part = plan({ agentSettings: { scans: { topics: 'never' } } }, remote({}), [], true).agentSettings;
    expect(part.steps).toEqual([]);
    expect(part.notes?.[0]).toContain('the next plan sets them');
  });
});

describe('MCP servers', () => {
  it('creates a missing server with headers (none: an empty map) and its condition', () => {
    const p = plan({ mcpServers: [{ name: 'Docs', url: 'https://docs.test/mcp', transport: 'http', condition: 'visitor.claims.pro' }] }, remote({ mcpServers: [] }));
    expect(p.mcpServers.steps.map((s) => `${s.action} ${s.address}`)).toEqual([`create ${A}.mcpServers["Docs"]`]);
    expect(p.mcpServers.steps[0].requests[0]).toMatchObject({
      method: 'POST',
      path: `${BASE}/mcp-servers`,
      body: { name: 'Docs', url: 'https://docs.test/mcp', transport: 'http', headers: {}, condition: 'visitor.claims.pro' },
      capture: true,
      lookup: { path: `${BASE}/mcp-servers`, match: { name: 'Docs' } },
    });
  });

  it('updates only the fields that differ; the API\'s header values are never shown', () => {
    const p = plan({ mcpServers: [{ name: 'a', url: 'https://a.test/mcp', headers: { Authorization: 'Bearer new-token' }, condition: null }] }, remote({ mcpServers: [server('a', 'a', { condition: 'x' })] }));
    const s = p.mcpServers.steps[0];
    expect(s.requests).toEqual([{ method: 'PATCH', path: `${BASE}/mcp-servers/a`, body: { headers: { Authorization: 'Bearer new-token' }, condition: null } }]);
    expect(JSON.stringify(s.before)).not.toContain('a-token');
    expect(s.before).toEqual({ headers: { Authorization: '(sensitive)' }, condition: 'x' });
  });

  it('matches by id across a rename', () => {
    const p = plan({ mcpServers: [{ id: 'a', name: 'renamed', url: 'https://a.test/mcp' }] }, remote({ mcpServers: [server('a', 'old')] }));
    expect(p.mcpServers.steps.map((s) => `${s.action} ${s.address}`)).toEqual([`update ${A}.mcpServers["renamed"]`]);
    expect(p.mcpServers.steps[0].requests[0].body).toEqual({ name: 'renamed' });
  });

  it('an unlisted server is unmanaged, or deleted when mcpServers are pruned', () => {
    const current = remote({ mcpServers: [server('a', 'a'), server('b', 'b')] });
    const kept = plan({ mcpServers: [{ name: 'a', url: 'https://a.test/mcp' }] }, current);
    expect(kept.mcpServers.steps).toEqual([]);
    expect(kept.mcpServers.unmanaged).toEqual([`${A}.mcpServers["b"]`]);
    const pruned = plan({ mcpServers: [{ name: 'a', url: 'https://a.test/mcp' }] }, current, ['mcpServers']);
    expect(pruned.mcpServers.steps.map((s) => `${s.action} ${s.address}`)).toEqual([`delete ${A}.mcpServers["b"]`]);
    expect(pruned.mcpServers.steps[0].requests).toEqual([{ method: 'DELETE', path: `${BASE}/mcp-servers/b` }]);
    expect(JSON.stringify(pruned.mcpServers.steps[0].before)).not.toContain('b-token');
  });

  it('a site without mcpServers in its config manages none, even when pruned', () => {
    const p = plan({}, remote({ mcpServers: [server('a', 'a')] }), ['mcpServers']);
    expect(p.mcpServers.steps).toEqual([]);
  });
});

describe('adaptive schema', () => {
  const plan1 = { plan: { type: 'string', enum: ['free', 'pro'], description: 'The plan' } };
  it('a site without one gets the config\'s in one PUT', () => {
    const p = plan({ adaptiveSchema: { properties: plan1 } as SiteT['adaptiveSchema'] }, remote({ adaptiveSchema: { properties: null } }));
    expect(p.adaptiveSchema.steps[0].requests).toEqual([
      { method: 'PUT', path: `${BASE}/adaptive-schema`, body: { jsonSchema: { type: 'object', properties: plan1, additionalProperties: false } } },
    ]);
  });
  it('nothing when the claims are the same; the claims that differ when not', () => {
    expect(plan({ adaptiveSchema: { properties: plan1 } as SiteT['adaptiveSchema'] }, remote({ adaptiveSchema: { properties: plan1 } })).adaptiveSchema.steps).toEqual([]);
    const p = plan(
      { adaptiveSchema: { properties: { ...plan1, beta: { type: 'boolean', description: 'Beta' } } } as SiteT['adaptiveSchema'] },
      remote({ adaptiveSchema: { properties: { ...plan1, old: { type: 'number', description: 'Old' } } } }),
    );
    expect(p.adaptiveSchema.steps[0].changes.map((c) => `${c.kind} ${c.path}`)).toEqual(['add properties.beta', 'remove properties.old']);
  });
});

describe('claims named by conditions', () => {
  const claims: Record<string, ClaimT> = {
    plan: { type: 'string', enum: ['free', 'pro'], description: 'p' },
    roles: { type: 'array', description: 'r', items: { type: 'string', description: 'x' } },
    account: { type: 'object', description: 'a', additionalProperties: false, properties: { tier: { type: 'number', description: 't' } } },
    unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', additionalProperties: false, properties: { bucket: { type: 'string', description: 'b' } } },
  };
  const cases: Array<[string, string[]]> = [
    ['visitor.claims.plan == "pro"', []],
    ['visitor.claims.roles.includes("admin") && visitor.claims.account.tier > 2', []],
    ['visitor.claims.unsigned.bucket == "a"', []],
    ['visitor.claims.plann == "pro"', ['names claim "plann" (visitor.claims.plann), which the site\'s adaptiveSchema does not define — did you mean "plan"?']],
    ['visitor.claims.account.tierr > 1', ['claim account has no claim "tierr" (visitor.claims.account.tierr), which the site\'s adaptiveSchema does not define — did you mean "tier"?']],
    ['visitor.claims.unsigned.buckt', ['claim unsigned has no claim "buckt" (visitor.claims.unsigned.buckt), which the site\'s adaptiveSchema does not define — did you mean "bucket"?']],
    // Text in quotes is not a path; a claim named twice is reported once.
    ['"visitor.claims.nope" == visitor.claims.plan', []],
    ['visitor.claims.x || visitor.claims.x', ['names claim "x" (visitor.claims.x), which the site\'s adaptiveSchema does not define']],
    // A claim compared with a literal: its type, and a string's enum.
    ['visitor.claims.plan === \'free\' || visitor.claims.plan != "pro"', []],
    ['visitor.claims.plan == "gold"', ['compares claim plan (visitor.claims.plan) with "gold", which is not one of its values in the site\'s adaptiveSchema (free, pro)']],
    ['visitor.claims.plan == "prro"', ['compares claim plan (visitor.claims.plan) with "prro", which is not one of its values in the site\'s adaptiveSchema (free, pro) — did you mean "pro"?']],
    ['visitor.claims.plan == 2', ['compares claim plan (visitor.claims.plan), a string in the site\'s adaptiveSchema, with a number (2)']],
    ['visitor.claims.account.tier >= 2 && visitor.claims.account.tier !== "2"', ['compares claim account.tier (visitor.claims.account.tier), a number in the site\'s adaptiveSchema, with a string ("2")']],
    ['visitor.claims.unsigned.bucket == true', ['compares claim unsigned.bucket (visitor.claims.unsigned.bucket), a string in the site\'s adaptiveSchema, with a boolean (true)']],
  ];
  for (const [condition, expected] of cases) it(condition, () => expect(unknownClaims(condition, claims)).toEqual(expected));
});
