/**
 * Scenarios in the style of DNSControl's integration tests: a sequence of whole desired states over
 * every kind, each applied to the emulator, and after each apply the plan has no changes left.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import { applyPlan } from '../../src/apply/executor.js';
import { loadConfig } from '../../src/config/load.js';
import { startEmulator, type RunningEmulator, type World } from '../../src/emulator/server.js';
import { planOrgs } from '../../src/plan/run.js';
import type { Plan } from '../../src/plan/types.js';
import { demoState, ROOT } from './cli-helpers.js';

/** The parts of the emulator's world the stages change, in a comparable shape. */
function snapshot(world: World) {
  const org = world.orgs.get('org_acme')!;
  const docs = org.sites.get('site_docs')!;
  const teamTitle = (id: string | null) => (id ? org.teams.get(id)?.title : null);
  const collectionPath = (id: string | undefined): string =>
    id === undefined ? '' : `${collectionPath(world.collections.get(id)?.parent)}/${world.collections.get(id)?.title}`;
  const sectionPath = (id: string) => docs.sections.get(id)?.path;
  /** A section by path, a link by title, a group by title with its children (nested groups in brackets). */
  const itemName = (item: { type: string; id: string }, depth = 0): string | undefined => {
    if (item.type === 'section') return sectionPath(item.id);
    if (item.type === 'link') return `link ${docs.links.get(item.id)?.title}`;
    const g = docs.groups.get(item.id);
    const inner = `group ${g?.title}: ${g?.children.map((c) => itemName(c, depth + 1)).join(',')}`;
    return depth > 0 ? `[${inner}]` : inner;
  };
  return {
    teams: Object.fromEntries([...org.teams.values()].map((t) => [t.title, [...t.members.entries()].sort()])),
    teamIds: Object.fromEntries([...org.teams.values()].map((t) => [t.title, t.id])),
    collections: [...world.collections.values()].filter((c) => c.org === 'org_acme').map((c) => collectionPath(c.id)).sort(),
    spaces: Object.fromEntries(['space_api', 'space_guides', 'space_handbook', 'space_runbooks'].map((id) => [id, collectionPath(world.spaces.get(id)?.parent)])),
    docsTop: docs.top.map((t) => itemName(t)),
    guidesSpaces: [...docs.sections.values()].filter((s) => s.path === 'guides').flatMap((s) => s.siteSpaces.map((id) => docs.siteSpaces.get(id)?.space)),
    shareLinks: Object.fromEntries([...docs.shareLinks.values()].map((l) => [l.name, l.active])),
    saml: [...org.saml.values()].map((p) => `${p.label} → ${teamTitle(p.defaultTeam)}`).sort(),
    translations: [...org.translations.values()].map((t) => `${t.source.space}/${t.language}`).sort(),
  };
}

type Snapshot = ReturnType<typeof snapshot>;

const EXAMPLE: Partial<Snapshot> = {
  teams: {
    Engineering: [['u_alice', 'owner'], ['u_bob', 'member'], ['u_carol', 'member'], ['u_dave', 'member']],
    Support: [['u_erin', 'member'], ['u_frank', 'member'], ['u_grace', 'member']],
  },
  spaces: { space_api: '/Product/API', space_guides: '/Product', space_handbook: '/Internal', space_runbooks: '/Internal' },
  docsTop: ['guides', 'group Reference: api,[group Release notes: changelog],link Status page'],
  guidesSpaces: ['space_guides', 'space_guides_v2'],
  shareLinks: { 'partner-acme': false },
  saml: ['Okta → Engineering', 'Old IdP → null'],
  translations: ['space_guides/fr'],
};

const STAGES: Array<[string, string, (now: Snapshot, before: Snapshot) => void]> = [
  ['1. the example config', join(ROOT, 'examples/docplane.yaml'), (now) => expect(now).toMatchObject(EXAMPLE)],
  [
    '2. every kind reshaped',
    join(ROOT, 'test/apply/scenarios/2-reshape.yaml'),
    (now, before) => {
      expect(now).toMatchObject({
        teams: {
          Platform: [['u_alice', 'owner'], ['u_bob', 'member'], ['u_heidi', 'member']],
          Support: [['u_erin', 'owner'], ['u_frank', 'member']],
          Docs: [['u_ivan', 'member']],
        },
        collections: ['/Internal', '/Internal/Ops', '/Product', '/Product/Guides', '/Product/Reference'],
        spaces: { space_api: '/Product/Reference', space_guides: '/Product/Guides', space_handbook: '', space_runbooks: '/Internal/Ops' },
        // The external link is not in this config (nor pruned): it stays in its group.
        docsTop: ['guides', 'group Reference: changelog,api,link Status page'],
        guidesSpaces: ['space_guides_v2', 'space_guides'],
        shareLinks: { 'partner-acme': false, 'partner-globex': true },
        saml: ['Okta → Docs', 'Old IdP → null'],
        translations: ['space_guides/de', 'space_guides/fr'],
      });
      // A rename keeps the resource: same id, not a delete and a create.
      expect(now.teamIds.Platform).toBe(before.teamIds.Engineering);
    },
  ],
  [
    '3. nearly everything torn down',
    join(ROOT, 'test/apply/scenarios/3-teardown.yaml'),
    (now) =>
      expect(now).toMatchObject({
        teams: {},
        collections: [],
        spaces: { space_api: '', space_guides: '', space_handbook: '', space_runbooks: '' },
        // The external link, unmanaged here, stays where its group stood.
        docsTop: ['guides', 'link Status page'],
        guidesSpaces: ['space_guides'],
        shareLinks: {},
        saml: [],
        translations: [],
      }),
  ],
  [
    '4. the example config again, from the torn-down state',
    join(ROOT, 'examples/docplane.yaml'),
    // The old SAML provider was pruned in stage 3 and the example does not bring it back.
    (now) => expect(now).toMatchObject({ ...EXAMPLE, saml: ['Okta → Engineering'] }),
  ],
  ['5. reshaped again', join(ROOT, 'test/apply/scenarios/2-reshape.yaml'), (now) => expect(Object.keys(now.teams).sort()).toEqual(['Docs', 'Platform', 'Support'])],
];

/** What is left, readable in a failure message. */
function leftover(plan: Plan): string[] {
  return plan.steps.map((s) => `${s.action} ${s.address}: ${JSON.stringify(s.changes)}`);
}

const FAULTS = [
  { name: 'no faults', seed: 11, faultRate: 0, resetRate: 0 },
  // Every kind's creates, moves and sorts with answers lost before and after the write.
  { name: 'faults (seed 1)', seed: 1, faultRate: 0.08, resetRate: 0.08 },
  { name: 'faults (seed 2)', seed: 2, faultRate: 0.08, resetRate: 0.08 },
];

describe.each(FAULTS)('scenarios with $name: whole desired states in sequence, each converging', ({ seed, faultRate, resetRate }) => {
  let emulator: RunningEmulator;
  let client: ApiClient;
  let dir: string;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, state: demoState(), seed, faultRate, resetRate });
    client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 2, maxAttempts: 8 });
    dir = mkdtempSync(join(tmpdir(), 'docplane-scenarios-'));
    // The configs name ${file:certs/…} and ${file:integrations/…} beside them.
    for (const part of ['certs', 'integrations']) cpSync(join(ROOT, 'examples', part), join(dir, part), { recursive: true });
  });
  afterAll(async () => {
    await client.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // The stages build on each other: one emulator, in order.
  it.each(STAGES)('%s: applies without failure, then plans no changes', async (_name, file, check) => {
    const before = snapshot(emulator.world);
    const path = join(dir, 'docplane.yaml');
    cpSync(file, path);
    const config = await loadConfig({ path });
    const plan = await planOrgs(config, client, { toolVersion: 'test' });
    expect(plan.problems).toEqual([]);
    expect(plan.steps.length).toBeGreaterThan(0);
    const result = await applyPlan(plan, client, { concurrency: 8, backoffBaseMs: 2 });
    expect(result.failed).toEqual([]);
    expect(result.skipped).toEqual([]);
    const again = await planOrgs(config, client, { toolVersion: 'test' });
    expect(leftover(again)).toEqual([]);
    check(snapshot(emulator.world), before);
  });
});
