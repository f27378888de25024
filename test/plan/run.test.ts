/**
 * planOrgs against the emulator over real HTTP on loopback: the example config plans, applies and
 * then plans no changes; the request count of a large organization; several organizations; stale
 * plans; restores; --target and --replace.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import { applyPlan } from '../../src/apply/executor.js';
import { loadConfig } from '../../src/config/load.js';
import { loadEmulatorState, startEmulator, type EmulatorState, type RunningEmulator } from '../../src/emulator/server.js';
import { planOrgs } from '../../src/plan/run.js';
import type { Plan } from '../../src/plan/types.js';
import { fakeClient, loaded, orgConfig } from './fixtures.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const demo = () => loadEmulatorState(join(ROOT, 'examples/emulator-state.yaml'));
const opts = { toolVersion: '0.1.0', now: new Date('2025-01-01T00:00:00Z') };

let running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const r of running.reverse()) await r.close();
  running = [];
});

async function world(state: EmulatorState): Promise<{ emulator: RunningEmulator; client: ApiClient }> {
  const emulator = await startEmulator({ port: 0, state, seed: 7 });
  const client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 5 });
  running.push(emulator, client);
  return { emulator, client };
}

const ids = (plan: Plan) => plan.steps.map((s) => s.id);

/** The addresses of `saved` whose remote objects a later plan read differently (or not at all). */
function changedSince(saved: Plan, fresh: Plan): string[] {
  return Object.keys(saved.fingerprints)
    .filter((address) => fresh.fingerprints[address] !== saved.fingerprints[address])
    .sort();
}

describe('planOrgs against the emulator', () => {
  it('plans the example config, which applied leaves nothing to do, and a saved plan then reads as stale', async () => {
    const { client } = await world(demo());
    const config = await loadConfig({ path: join(ROOT, 'examples/docplane.yaml'), env: {} });
    const plan = await planOrgs(config, client, opts);
    expect(plan.problems).toEqual([]);
    expect(plan.summary.create).toBeGreaterThan(5);
    expect(ids(plan)).toContain('org_acme/teams["Legacy"]:delete');
    expect(ids(plan)).toContain('org_acme/saml["Okta"]:create');
    // The team goes before the SAML provider that names it; the collection before the space moved into it.
    expect(ids(plan).indexOf('org_acme/teams["Engineering"]:create')).toBeLessThan(ids(plan).indexOf('org_acme/saml["Okta"]:create'));
    expect(ids(plan).indexOf('org_acme/collections["Product/API"]:create')).toBeLessThan(ids(plan).indexOf('org_acme/spaces["space_api"]:move'));
    expect(Object.keys(plan.fingerprints).length).toBe(new Set(plan.steps.map((s) => `${s.org}/${s.address}`)).size);

    const result = await applyPlan(plan, client, { concurrency: 4 });
    expect(result.failed).toEqual([]);
    expect(result.applied.length).toBe(plan.steps.length);

    const again = await planOrgs(config, client, opts);
    expect(again.steps).toEqual([]);
    expect(again.problems).toEqual([]);
    // Every address of the first plan has changed (creates now exist, updates are done).
    expect(changedSince(plan, again)).toEqual(Object.keys(plan.fingerprints).sort());
    expect(changedSince(again, again)).toEqual([]);
  });

  it('sees a saved plan as fresh while nothing changed, and stale when someone changed a resource it touches', async () => {
    const { client } = await world(demo());
    const config = loaded([orgConfig({ teams: [{ title: 'Legacy', renamedFrom: 'Legacy' }, { title: 'New' }], members: [{ user: 'judy@acme.com', role: 'comment' }] })]);
    const saved = await planOrgs(config, client, opts);
    expect(ids(saved)).toEqual(['org_acme/members["judy@acme.com"]:update', 'org_acme/teams["New"]:create']);
    expect(changedSince(saved, await planOrgs(config, client, opts))).toEqual([]);
    await client.request('PATCH', '/v1/orgs/org_acme/members/u_judy', { body: { role: 'edit' } });
    expect(changedSince(saved, await planOrgs(config, client, opts))).toEqual(['org_acme/members["judy@acme.com"]']);
  });

  it('plans an organization of 2,000 members and 200 teams with the list pages and one member list per team', async () => {
    const users = Array.from({ length: 2000 }, (_, i) => ({ id: `u_${i}`, email: `user${i}@big.com` }));
    const teams = Array.from({ length: 200 }, (_, t) => ({ title: `Team ${t}`, members: Array.from({ length: 5 }, (_, k) => `u_${(t * 7 + k) % 2000}`) }));
    const state: EmulatorState = {
      users,
      organizations: [{ id: 'org_big', title: 'Big', members: users.map((u, i) => ({ user: u.id, role: i === 0 ? 'admin' : 'read' })), teams }],
    };
    const { emulator, client } = await world(state);
    const config = loaded([
      orgConfig({
        organization: { id: 'org_big' },
        members: users.map((u, i) => ({ user: u.email, role: i === 0 ? 'admin' : i % 10 === 0 ? 'edit' : 'read' })),
        // Every team keeps its list except that the first member becomes an owner in even teams.
        teams: teams.map((t, i) => ({ title: t.title, members: t.members.map((m, k) => (k === 0 && i % 2 === 0 ? { user: m, role: 'owner' as const } : m)) })),
        prune: ['teams'],
      }),
    ]);
    const before = emulator.requestCount();
    const plan = await planOrgs(config, client, opts);
    const sent = emulator.requestCount() - before;
    // The organization (read once per plan, so that one that does not exist is an error); members: 2
    // pages of 1000; teams: 1 page; one member list per team (5 members: 1 page each).
    expect(sent).toBe(1 + 2 + 1 + 200);
    expect(client.stats().requests).toBe(sent);
    expect(plan.problems).toEqual([]);
    expect(plan.summary).toMatchObject({ create: 0, update: 199 + 100, delete: 0 });
  });

  it('plans several organizations at once, each with its own steps and problems', async () => {
    const { client } = await world(demo());
    const config = loaded([
      orgConfig({ organization: { id: 'org_globex', title: 'Globex Corp' }, members: [{ user: 'u_bob', role: 'read' }] }),
      orgConfig({ teams: [{ title: 'Legacy' }, { title: 'Docs' }] }),
    ]);
    const plan = await planOrgs(config, client, opts);
    expect(plan.orgs).toEqual(['org_acme', 'org_globex']);
    expect(ids(plan)).toEqual(['org_acme/teams["Docs"]:create', 'org_globex/organization:update']);
    expect(plan.problems.map((p) => `${p.org}/${p.address}`)).toEqual(['org_globex/members["u_bob"]']);
    expect(plan.unmanaged).toEqual({ org_acme: {}, org_globex: { members: ['members["alice@acme.com"]'] } });
  });

  it('restores a deleted space the config names, and reports one that does not exist', async () => {
    const { client } = await world(demo());
    await client.request('DELETE', '/v1/spaces/space_old');
    const config = loaded([orgConfig({ spaces: [{ id: 'space_old', title: 'Old docs (restored)' }, { id: 'space_nope' }] })]);
    const plan = await planOrgs(config, client, opts);
    expect(ids(plan)).toEqual(['org_acme/spaces["space_old"]:restore', 'org_acme/spaces["space_old"]:update']);
    expect(plan.problems.map((p) => p.message)).toEqual(['space space_nope does not exist (check the id, or leave it out to create a space by title)']);
    const ok = loaded([orgConfig({ spaces: [{ id: 'space_old', title: 'Old docs (restored)' }] })]);
    const fixed = await planOrgs(ok, client, opts);
    expect((await applyPlan(fixed, client, { concurrency: 2 })).failed).toEqual([]);
    expect((await planOrgs(ok, client, opts)).steps).toEqual([]);
  });

  it('keeps protected resources, limits the plan to --target and what it needs, and checks --replace', async () => {
    const { client } = await world(demo());
    const config = loaded([
      orgConfig({
        teams: [{ title: 'Engineering' }],
        saml: [{ label: 'Okta', ssoURL: 'https://okta.example/sso', defaultTeam: 'Engineering' }],
        prune: ['teams'],
        protect: ['teams["Legacy"]'],
      }),
    ]);
    const plan = await planOrgs(config, client, opts);
    expect(ids(plan)).toEqual(['org_acme/teams["Engineering"]:create', 'org_acme/saml["Okta"]:create']);
    expect(plan.violations.map((v) => v.rule)).toEqual(['protect']);
    const targeted = await planOrgs(config, client, { ...opts, targets: ['saml["Okta"]', 'organization'] });
    expect(ids(targeted)).toEqual(ids(plan));
    expect(targeted.targets).toEqual(['saml["Okta"]', 'organization']);
    expect(targeted.notes).toEqual(['--target organization selects no step: nothing there would change']);
    // A target that names nothing the config defines is an error, with the closest address.
    const strict = { ...opts, unmatchedTargets: 'error' as const };
    await expect(planOrgs(config, client, { ...strict, targets: ['collections'] })).rejects.toThrow(/^--target collections matches nothing in the config or the plan$/);
    // Apply's re-plan of what it touched names deleted resources: a note there, not an error.
    expect((await planOrgs(config, client, { ...opts, targets: ['collections'] })).notes).toEqual(['--target collections selects no step: nothing there would change']);
    await expect(planOrgs(config, client, { ...strict, targets: ['teams["Enginering"]'] })).rejects.toThrow(/did you mean "teams\["Engineering"\]"\?/);
    const teamOnly = await planOrgs(config, client, { ...opts, targets: ['teams["Engineering"]'] });
    expect(ids(teamOnly)).toEqual(['org_acme/teams["Engineering"]:create']);
    const replaced = await planOrgs(config, client, { ...opts, replace: ['integrations["nope"]'] });
    expect(replaced.problems.map((p) => p.message)).toEqual(['--replace integrations["nope"] names no context connection or integration or OpenAPI spec or SAML provider or visitor-auth key of the config (only those can be forced)']);
  });

  it('says which protect entries select nothing, where the plan read enough to know', async () => {
    const { client } = await world(demo());
    const protect = [
      'teams["Legacy"]', // a remote team the plan would delete: kept
      'teams["Eng*"]', // a glob over a team of the config
      'saml["Okta"]', // a resource of the config, created by this plan
      'organization',
      'teams["Legasy"]', // mistyped
      'saml["Okta"].x', // under a resource: what lies there is read only where the config manages it, so not judged
      'org_other/teams["Legacy"]', // another organization's
      'collections["Nowhere"]', // collections are not in this config: not read, not judged
    ];
    const config = loaded([
      orgConfig({
        teams: [{ title: 'Engineering' }],
        saml: [{ label: 'Okta', ssoURL: 'https://okta.example/sso', defaultTeam: 'Engineering' }],
        prune: ['teams'],
        protect,
      }),
    ]);
    const plan = await planOrgs(config, client, opts);
    const nothing = (entry: string) => `org_acme: protect ${entry} selects nothing: no address of the config, and no resource of the organization as this plan leaves it; a mistyped entry protects nothing`;
    expect(plan.notes).toEqual([nothing('teams["Legasy"]'), nothing('org_other/teams["Legacy"]')]);
    expect(plan.violations.map((v) => v.message)).toEqual(['org_acme: teams["Legacy"] is protected: its delete was left out of the plan (kept)']);
    // Unmanaged resources are named too: without prune, Legacy is left alone and its entry selects it.
    const unpruned = loaded([orgConfig({ teams: [{ title: 'Engineering' }], protect: ['teams["Legacy"]', 'teams["Legasy"]'] })]);
    expect((await planOrgs(unpruned, client, opts)).notes).toEqual([nothing('teams["Legasy"]')]);
    // A targeted plan reads part of the organization: it does not judge.
    expect((await planOrgs(config, client, { ...opts, targets: ['teams'] })).notes).toBeUndefined();
  });
});

describe('planOrgs: addresses of --target and --replace', () => {
  it('refuses a malformed address before any request', async () => {
    const client = fakeClient({});
    const config = loaded([orgConfig({ teams: [] })]);
    await expect(planOrgs(config, client, { toolVersion: 't', targets: ['teams[Eng'] })).rejects.toThrow(/--target teams\[Eng: /);
    await expect(planOrgs(config, client, { toolVersion: 't', replace: ['integrations[x'] })).rejects.toThrow(/--replace integrations\[x: /);
    expect(client.stats().requests).toBe(0);
  });
});
