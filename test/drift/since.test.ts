/**
 * Drift from the audit log (src/drift/): a config applied, then changes made in the app by two people,
 * by an integration and through docplane's own token; `plan --since` reads only what their events
 * touch, shows exactly the full plan's steps for it, and names who changed each, from where and
 * when. And its fallbacks to a full read, each with its reason: no audit log (403), a target docplane
 * cannot map, a window longer than the log.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { applyPlan } from '../../src/apply/executor.js';
import { startEmulator, type EmulatorState, type RunningEmulator } from '../../src/emulator/server.js';
import { runPlan } from '../../src/plan/service.js';
import type { Plan, Step } from '../../src/plan/types.js';
import { renderPlan } from '../../src/render/index.js';
import { client as testApi } from '../emulator/helpers.js';

const CONFIG = `version: 1
organization: { id: org_acme }
teams:
  - title: Writers
    members: [bob@acme.com, carol@acme.com]
spaces:
  - { id: space_api, title: API reference }
  - { id: space_guides, title: Guides }
  - { id: space_changelog, title: Changelog }
  - { id: space_handbook, title: Handbook }
sites:
  - id: site_docs
    sections:
      - { path: guides, title: Guides, space: space_guides }
      - { path: api, title: API, space: space_api }
`;

const member = (user: string) => ({ user, role: 'admin' as const });

function state(auditLog = true): EmulatorState {
  return {
    tokens: [
      { token: 'dev-token', access: 'write', user: 'u_alice' },
      { token: 'bob-app', access: 'write', user: 'u_bob', source: 'ui' },
      { token: 'carol-app', access: 'write', user: 'u_carol', source: 'ui' },
      { token: 'bot', access: 'write', user: 'u_bot', source: 'integration' },
    ],
    users: [
      { id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice Admin' },
      { id: 'u_bob', email: 'bob@acme.com', displayName: 'Bob Stone' },
      { id: 'u_carol', email: 'carol@acme.com', displayName: 'Ana Lima' },
      { id: 'u_bot', email: 'bot@acme.com', displayName: 'Acme Bot' },
    ],
    organizations: [
      {
        id: 'org_acme',
        title: 'Acme',
        ...(auditLog ? {} : { auditLog: false }),
        members: [member('u_alice'), member('u_bob'), member('u_carol'), member('u_bot')],
        spaces: ['api', 'guides', 'changelog', 'handbook'].map((s) => ({ id: `space_${s}`, title: s })),
        sites: [{ id: 'site_docs', title: 'Docs' }],
      },
    ],
  };
}

/** A world with the config applied at 08:00 and the clock of the emulator under the test's hand. */
async function appliedWorld(dir: string, auditLog = true) {
  let clock = Date.parse('2026-11-20T08:00:00Z');
  const emulator = await startEmulator({ port: 0, seed: 5, state: state(auditLog), now: () => new Date(clock) });
  const client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 5 });
  const plan = (options: { since?: string; attribute?: string } = {}) =>
    runPlan({ configPath: join(dir, 'docplane.yaml'), toolVersion: '0.0.0', connect: async () => createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 5 }), ...options });
  const first = await plan();
  const applied = await applyPlan(first.plan, client, { concurrency: 4 });
  expect(applied.failed).toEqual([]);
  expect((await plan()).plan.steps).toEqual([]);
  return { emulator, client, plan, at: (iso: string) => (clock = Date.parse(iso)) };
}

/** Requests the emulator answered while `run` ran. */
async function counted<T>(emulator: RunningEmulator, run: () => Promise<T>): Promise<{ result: T; requests: number }> {
  const before = emulator.requestCount();
  const result = await run();
  return { result, requests: emulator.requestCount() - before };
}

const withoutWho = (s: Step) => {
  const { changedBy: _, ...rest } = s;
  return rest;
};

let dir: string;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'docplane-drift-'));
  writeFileSync(join(dir, 'docplane.yaml'), CONFIG);
});

afterAll(async () => {
  for (const o of open.reverse()) await o.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('plan --since', () => {
  it('reads only what the window\'s events touch, plans exactly the full plan\'s steps there, and names who changed each', async () => {
    const w = await appliedWorld(dir);
    open.push(w.emulator, w.client);
    const bob = testApi(w.emulator, 'bob-app');
    const ana = testApi(w.emulator, 'carol-app');
    const bot = testApi(w.emulator, 'bot');
    const me = testApi(w.emulator, 'dev-token');
    const ORG = '/v1/orgs/org_acme';
    // Before the window: drift the check since 09:00 does not look at.
    w.at('2026-11-20T08:30:00Z');
    expect((await ana.patch('/v1/spaces/space_handbook', { title: 'Handbook (old)' })).status).toBe(200);
    // In the window: two people in the app, an integration, and docplane's own token.
    const team = (await me.get(`${ORG}/teams?limit=1000`)).body.items.find((t: { title: string }) => t.title === 'Writers');
    w.at('2026-11-20T09:30:00Z');
    expect((await bob.put(`${ORG}/teams/${team.id}/members`, { add: ['u_alice'] })).status).toBeLessThan(300);
    w.at('2026-11-20T09:35:00Z');
    expect((await ana.patch('/v1/spaces/space_api', { title: 'API (renamed)' })).status).toBe(200);
    const sections = (await me.get(`${ORG}/sites/site_docs/sections?limit=1000`)).body.items as Array<{ id: string; path: string }>;
    const id = (path: string) => sections.find((s) => s.path === path)!.id;
    w.at('2026-11-20T09:40:00Z');
    const sorted = await bob.patch(`${ORG}/sites/site_docs/structure/sort`, { item: { type: 'site-section', id: id('api') }, position: { before: { type: 'site-section', id: id('guides') } } });
    expect(sorted.status).toBe(200);
    w.at('2026-11-20T09:45:00Z');
    expect((await bot.patch('/v1/spaces/space_guides', { title: 'Guides by the bot' })).status).toBe(200);
    w.at('2026-11-20T09:50:00Z');
    expect((await me.patch('/v1/spaces/space_changelog', { title: 'Changelog v2' })).status).toBe(200);
    w.at('2026-11-20T10:00:00Z');

    const full = await counted(w.emulator, () => w.plan());
    const since = await counted(w.emulator, () => w.plan({ since: '2026-11-20T09:00:00Z' }));
    const plan: Plan = since.result.plan;

    // What it read: the five objects of the window, not the handbook space changed before it.
    // Unread: the handbook space and the organization's own settings.
    expect(plan.since).toEqual({ from: '2026-11-20T09:00:00.000Z', objects: 5, unread: 2 });
    const addresses = plan.steps.map((s) => s.address);
    expect(addresses).not.toContain('spaces["space_handbook"]');
    expect(full.result.plan.steps.map((s) => s.address)).toContain('spaces["space_handbook"]');
    // Exactly the full plan's steps for what it read.
    const fullThere = full.result.plan.steps.filter((s) => s.address !== 'spaces["space_handbook"]');
    expect(plan.steps.map(withoutWho)).toEqual(fullThere.map(withoutWho));
    // In a world this small every object changed: its reads are the full plan's at most, beside the
    // audit page, the probe of how far back the log reaches and the token's user (src/bench checks a large one).
    expect(since.requests).toBeLessThanOrEqual(full.requests + 3);

    const who = (address: string) => plan.steps.find((s) => s.address === address)?.changedBy;
    expect(who('teams["Writers"].members')).toMatchObject({ by: 'person', source: 'ui', actor: { id: 'u_bob', label: 'Bob Stone' }, at: '2026-11-20T09:30:00.000Z' });
    expect(who('spaces["space_api"]')).toMatchObject({ by: 'person', source: 'ui', actor: { label: 'Ana Lima' }, at: '2026-11-20T09:35:00.000Z' });
    const siteSteps = plan.steps.filter((s) => s.address.startsWith('sites["site_docs"]'));
    expect(siteSteps.length).toBeGreaterThan(0);
    expect(siteSteps.some((s) => s.changedBy?.actor.label === 'Bob Stone' && s.changedBy.at === '2026-11-20T09:40:00.000Z')).toBe(true);
    expect(who('spaces["space_guides"]')).toMatchObject({ by: 'integration', source: 'integration', actor: { type: 'integration', label: 'Acme Bot' } });
    // docplane's own token: not a person's change.
    expect(who('spaces["space_changelog"]')).toMatchObject({ by: 'docplane', source: 'api', actor: { id: 'u_alice' } });

    const text = renderPlan(plan, { format: 'text', color: false, secrets: [] });
    expect(text).toContain('~ teams["Writers"].members  (changed in the app by Bob Stone, 2026-11-20 09:30 UTC)');
    expect(text).toContain('(changed by an integration, Acme Bot, 2026-11-20 09:45 UTC)');
    expect(text).toContain('(applied by docplane (as Alice Admin), 2026-11-20 09:50 UTC)');
    expect(text).toContain('Drift check: 5 objects changed since 2026-11-20 09:00 UTC were read; everything else was not');
    const markdown = renderPlan(plan, { format: 'markdown', color: false, secrets: [] });
    expect(markdown).toContain('teams["Writers"].members  (changed in the app by Bob Stone, 2026-11-20 09:30 UTC)');
    const json = JSON.parse(renderPlan(plan, { format: 'json', color: false, secrets: [] }));
    expect(json.steps.find((s: { address: string }) => s.address === 'spaces["space_api"]').changedBy).toMatchObject({ by: 'person', actor: { label: 'Ana Lima' } });
    expect(json.since).toMatchObject({ objects: 5 });

    // Nothing changed since: the audit page and the probe, nothing else.
    const quiet = await counted(w.emulator, () => w.plan({ since: '2026-11-20T09:55:00Z' }));
    expect(quiet.result.plan.steps).toEqual([]);
    expect(quiet.result.plan.since).toMatchObject({ objects: 0 });
    expect(quiet.requests).toBe(2);

    // A full plan names who changed its steps only when asked (--attribute), from the log.
    expect(full.result.plan.steps.every((s) => s.changedBy === undefined)).toBe(true);
    const attributed = (await w.plan({ attribute: '2026-11-20T08:00:00Z' })).plan;
    expect(attributed.steps.find((s) => s.address === 'spaces["space_handbook"]')?.changedBy).toMatchObject({ by: 'person', actor: { label: 'Ana Lima' } });
  });
});

describe('plan --since falls back to the full plan, saying why', () => {
  it('when the organization has no audit log (403)', async () => {
    const w = await appliedWorld(dir, false);
    open.push(w.emulator, w.client);
    w.at('2026-11-20T09:30:00Z');
    await testApi(w.emulator, 'carol-app').patch('/v1/spaces/space_api', { title: 'Elsewhere' });
    const { plan } = await w.plan({ since: '2026-11-20T09:00:00Z' });
    expect(plan.since?.whole).toMatch(/audit log cannot be read .*403/);
    expect(plan.steps.map((s) => s.address)).toEqual(['spaces["space_api"]']);
    expect(renderPlan(plan, { format: 'text', color: false, secrets: [] })).toContain('Whole plan: the audit log cannot be read');
  });

  it('when an event names a target docplane cannot map', async () => {
    const w = await appliedWorld(dir);
    open.push(w.emulator, w.client);
    w.at('2026-11-20T09:30:00Z');
    await testApi(w.emulator, 'carol-app').patch('/v1/spaces/space_api', { title: 'Elsewhere' });
    // An event of a kind docplane does not manage, as the live log may hold.
    const org = w.emulator.world.orgs.get('org_acme')!;
    org.auditEvents.push({ ...org.auditEvents[org.auditEvents.length - 1], id: '00000000-0000-4000-8000-00000000ffff', target: { type: 'change-request', id: 'cr_1' } });
    const { plan } = await w.plan({ since: '2026-11-20T09:00:00Z' });
    expect(plan.since?.whole).toBe("an event's target (change-request cr_1) maps to nothing docplane knows");
    expect(plan.steps.map((s) => s.address)).toEqual(['spaces["space_api"]']);
  });

  it('when the window reaches back further than the log', async () => {
    const w = await appliedWorld(dir);
    open.push(w.emulator, w.client);
    w.at('2026-11-20T09:30:00Z');
    const { plan } = await w.plan({ since: '2026-11-01T00:00:00Z' });
    expect(plan.since?.whole).toMatch(/holds nothing at or before 2026-11-01 00:00 UTC/);
    expect(plan.steps).toEqual([]);
  });

  it('when the window holds more events than a few pages: reading what they touch would cost a full read', async () => {
    const w = await appliedWorld(dir);
    open.push(w.emulator, w.client);
    w.at('2026-11-20T09:30:00Z');
    await testApi(w.emulator, 'carol-app').patch('/v1/spaces/space_api', { title: 'Elsewhere' });
    const org = w.emulator.world.orgs.get('org_acme')!;
    const last = org.auditEvents[org.auditEvents.length - 1];
    for (let n = 0; n < 500; n++) org.auditEvents.push({ ...last, id: `00000000-0000-4000-8000-${(0xa0000 + n).toString(16).padStart(12, '0')}` });
    const { plan } = await w.plan({ since: '2026-11-20T09:00:00Z' });
    expect(plan.since?.whole).toBe('more than 500 events since 2026-11-20 09:00 UTC in org_acme: reading what they touch costs about what a full read does');
    expect(plan.steps.map((s) => s.address)).toEqual(['spaces["space_api"]']);
  });

  it('refuses a time that is neither RFC 3339 nor a duration, before any request', async () => {
    const w = await appliedWorld(dir);
    open.push(w.emulator, w.client);
    const before = w.emulator.requestCount();
    await expect(w.plan({ since: 'yesterday' })).rejects.toThrow(/--since yesterday: not an RFC 3339 time/);
    expect(w.emulator.requestCount()).toBe(before);
  });
});
