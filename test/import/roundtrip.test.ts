/**
 * The round trip through the built CLI, on a rich emulator world holding every kind: import, then
 * plan shows no changes; import again and from the same world seeded in another order gives the
 * same bytes; a change made through the API behind docplane's back shows up as exactly that change.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { api, ensureBuilt, readTree, reorderedState, richState, runCli, type CliResult } from './helpers.js';

let emulator: RunningEmulator;
let work: string;

// Without --site: every site of the organizations.
const importArgs = (out: string) => ['import', '--org', 'org_rich', '--org', 'org_side', '--out', out];

function cli(args: string[], url = emulator.url, token = 'read-token'): Promise<CliResult> {
  return runCli(args, { DOCPLANE_API_URL: url, DOCPLANE_TOKEN: token }, work);
}

interface JsonStep {
  org: string;
  address: string;
  action: string;
  changes: Array<{ path: string; kind: string; before?: unknown; after?: unknown }>;
}

beforeAll(async () => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'docplane-import-roundtrip-'));
  emulator = await startEmulator({ port: 0, state: richState(), seed: 11 });
});

afterAll(async () => {
  await emulator?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('import → plan round trip (built CLI, rich emulator world)', () => {
  it('import then plan shows no changes and nothing unmanaged (exit 0 with --detailed-exitcode)', async () => {
    const imported = await cli(importArgs('first'));
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('Imported org_rich: 7 members, 3 teams, 5 collections, 7 spaces, 1 space Git Sync configuration, 1 custom font, 2 sites, 6 sections, 2 agent channels, 1 context connection, 1 agent topic, 2 SAML providers, 2 integrations, 3 translations, 3 invite links');
    // Invite links are written by target: their ids let anyone join, and are never written.
    expect(readTree(join(work, 'first'))['org_rich.yaml']).not.toContain('invite_rich');
    expect(Object.keys(readTree(join(work, 'first'))).sort()).toEqual([
      'certs/azure-ad.pem',
      'certs/okta-2.pem',
      'certs/okta.pem',
      'docplane.schema.json',
      'integrations/rich-analytics.js',
      'integrations/rich-chat.js',
      'org_rich.yaml',
      'org_side.yaml',
    ]);

    const plan = await cli(['plan', '-c', 'first', '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('No changes.');

    const json = await cli(['plan', '-c', 'first', '--format', 'json']);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as { steps: unknown[]; problems: unknown[]; summary: { unmanaged: number } };
    expect(doc.steps).toEqual([]);
    expect(doc.problems).toEqual([]);
    // Everything the organizations hold (of the sites given) is in the config.
    expect(doc.summary.unmanaged).toBe(0);
  });

  it('a second import is byte-identical', async () => {
    const again = await cli(importArgs('second'));
    expect(again.code, again.stderr).toBe(0);
    expect(readTree(join(work, 'second'))).toEqual(readTree(join(work, 'first')));
  });

  it('the same world seeded in another order (so the API lists it in another order) imports identically', async () => {
    const other = await startEmulator({ port: 0, state: reorderedState(richState()), seed: 99 });
    try {
      // The seed order really reaches the API: its lists come back in another order.
      const teams = async (url: string) =>
        ((await (await fetch(`${url}/v1/orgs/org_rich/teams?limit=1000`, { headers: { authorization: 'Bearer read-token' } })).json()) as { items: Array<{ id: string }> }).items.map((t) => t.id);
      expect(await teams(other.url)).not.toEqual(await teams(emulator.url));

      const r = await cli(importArgs('reordered'), other.url);
      expect(r.code, r.stderr).toBe(0);
      expect(readTree(join(work, 'reordered'))).toEqual(readTree(join(work, 'first')));
    } finally {
      await other.close();
    }
  });

  it('after changes made through the API behind docplane\'s back, plan shows exactly those changes', async () => {
    const drifted = await startEmulator({ port: 0, state: richState(), seed: 5 });
    try {
      const imported = await cli(importArgs('drift'), drifted.url);
      expect(imported.code, imported.stderr).toBe(0);
      expect((await cli(['plan', '-c', 'drift', '--detailed-exitcode'], drifted.url)).code).toBe(0);

      expect(await api(drifted.url, 'PATCH', '/v1/orgs/org_rich/teams/team_writers', { title: 'Authors' })).toBe(200);
      expect(await api(drifted.url, 'PATCH', '/v1/orgs/org_rich/members/u_cat', { role: 'edit' })).toBe(200);
      expect(await api(drifted.url, 'DELETE', '/v1/orgs/org_rich/sites/site_docs/share-links/link_partner')).toBe(205);
      expect(await api(drifted.url, 'PATCH', '/v1/orgs/org_side', { ai: true })).toBe(200);
      // Fields import wrote as empty (null) are managed too: filling them in by hand is drift.
      expect(await api(drifted.url, 'PATCH', '/v1/orgs/org_rich/sites/site_docs/sections/sec_status', { condition: 'visitor.claims.beta' })).toBe(200);
      expect(await api(drifted.url, 'PATCH', '/v1/collections/col_internal', { description: 'Staff only' })).toBe(200);
      expect(await api(drifted.url, 'PATCH', '/v1/orgs/org_rich/sites/site_docs', { visibility: 'public' })).toBe(200);

      const detailed = await cli(['plan', '-c', 'drift', '--detailed-exitcode'], drifted.url);
      expect(detailed.code).toBe(2);

      const json = await cli(['plan', '-c', 'drift', '--format', 'json'], drifted.url);
      expect(json.code, json.stderr).toBe(0);
      const steps = (JSON.parse(json.stdout) as { steps: JsonStep[] }).steps.map((s) => ({ org: s.org, address: s.address, action: s.action, changes: s.changes }));
      expect(steps.sort((a, b) => `${a.org}/${a.address}`.localeCompare(`${b.org}/${b.address}`))).toEqual([
        { org: 'org_rich', address: 'collections["Internal"]', action: 'update', changes: [{ path: 'description', kind: 'change', before: 'Staff only', after: null }] },
        { org: 'org_rich', address: 'members["cat@rich.test"]', action: 'update', changes: [{ path: 'role', kind: 'change', before: 'edit', after: 'create' }] },
        { org: 'org_rich', address: 'sites["site_docs"]', action: 'update', changes: [{ path: 'visibility', kind: 'change', before: 'public', after: 'unlisted' }] },
        {
          org: 'org_rich',
          address: 'sites["site_docs"].sections["status"]',
          action: 'update',
          changes: [{ path: 'condition', kind: 'change', before: 'visitor.claims.beta', after: null }],
        },
        {
          org: 'org_rich',
          address: 'sites["site_docs"].shareLinks["partner-acme"]',
          action: 'create',
          changes: [
            { path: 'active', kind: 'add', after: true },
            { path: 'name', kind: 'add', after: 'partner-acme' },
          ],
        },
        // Matched by the id import wrote: the rename in the app plans as an update, not a new team.
        { org: 'org_rich', address: 'teams["Writers"]', action: 'update', changes: [{ path: 'title', kind: 'change', before: 'Authors', after: 'Writers' }] },
        { org: 'org_side', address: 'organization', action: 'update', changes: [{ path: 'ai', kind: 'change', before: true, after: false }] },
      ]);

      // Apply puts it all back; the site is unlisted again.
      const applied = await cli(['apply', '-c', 'drift', '--auto-approve'], drifted.url, 'dev-token');
      expect(applied.code, applied.stderr).toBe(0);
      expect((await cli(['plan', '-c', 'drift', '--detailed-exitcode'], drifted.url)).code).toBe(0);
      const site = (await (await fetch(`${drifted.url}/v1/orgs/org_rich/sites/site_docs`, { headers: { authorization: 'Bearer read-token' } })).json()) as { visibility: string };
      expect(site.visibility).toBe('unlisted');
    } finally {
      await drifted.close();
    }
  });
});
