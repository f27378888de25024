/**
 * The site kinds against the emulator: plan, apply the steps' requests (in a random order that
 * respects the dependencies, as a concurrent apply may), plan again: nothing is left to do. The
 * random scenarios check the structure simulation and the minimal sort moves end to end.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import type { SiteT } from '../../src/kinds/sites/schema.js';
import type { OrgConfig } from '../../src/config/types.js';
import { startEmulator, type EmulatorState, type RunningEmulator } from '../../src/emulator/server.js';
import { buildPlan } from '../../src/plan/build.js';
import type { JsonValue, Kind, Plan, PlanProblem, Step } from '../../src/plan/types.js';
import { planSites } from '../../src/kinds/sites/plan.js';
import { readSites } from '../../src/kinds/sites/remote.js';
import { readContextFor, sharedPlans } from '../../src/kinds/kind.js';

const ORG = 'org_acme';
const SPACES = ['space_1', 'space_2', 'space_3', 'space_4', 'space_5', 'space_6'];

const running: RunningEmulator[] = [];
const clients: ApiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(running.splice(0).map((e) => e.close()));
});

async function emulator(sites: unknown[]): Promise<{ emu: RunningEmulator; client: ApiClient }> {
  const state = {
    tokens: [{ token: 'dev-token', access: 'write' }],
    users: [{ id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' }],
    organizations: [
      {
        id: ORG,
        title: 'Acme',
        members: [{ user: 'u_alice', role: 'admin' }],
        spaces: SPACES.map((id, i) => ({ id, title: `Space ${i + 1}` })),
        sites,
      },
    ],
  } as unknown as EmulatorState;
  const emu = await startEmulator({ port: 0, state, seed: 7 });
  running.push(emu);
  const client = createClient({ baseUrl: emu.url, token: 'dev-token', backoffBaseMs: 1 });
  clients.push(client);
  return { emu, client };
}

function orgConfig(sites: SiteT[], prune: string[]): OrgConfig {
  return {
    organization: { id: ORG },
    sites,
    prune,
    safety: { maxDeletes: 1000, maxDeletePercent: 100, keepSsoMembers: true },
    protect: [],
    locations: {},
  };
}

async function plan(client: ApiClient, config: OrgConfig): Promise<{ plan: Plan; problems: PlanProblem[] }> {
  const remote = await readSites(readContextFor(config, client));
  const kinds = planSites({ org: ORG, desired: config, prunes: (k: Kind) => config.prune.includes(k), shared: sharedPlans() }, remote);
  const built = buildPlan({
    toolVersion: 'test',
    createdAt: '2024-01-01T00:00:00.000Z',
    configHash: 'x',
    configPaths: [],
    orgs: [{ org: ORG, kinds, safety: config.safety, protect: [] }],
  });
  return { plan: built, problems: built.problems };
}

const TOKEN = /\{\{ref:([^}#]+?)(?:#([^}]+))?\}\}/g;

function field(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);
}

/**
 * A tiny apply: steps in a random order that respects `dependsOn`, each step's requests in order,
 * `{{ref:…}}` resolved from the captured responses (encoded in paths, as apply does).
 */
async function apply(client: ApiClient, steps: Step[], random: () => number): Promise<void> {
  const captured = new Map<string, unknown>();
  const resolve = (text: string, encode: boolean): string =>
    text.replace(TOKEN, (_m, target: string, f: string | undefined) => {
      const out = captured.get(target);
      const value = field(out, f ?? 'id');
      if (typeof value !== 'string') throw new Error(`unresolvable ${_m}`);
      return encode ? encodeURIComponent(value) : value;
    });
  const resolveBody = (v: JsonValue | undefined): JsonValue | undefined => {
    if (typeof v === 'string') return resolve(v, false);
    if (Array.isArray(v)) return v.map((x) => resolveBody(x) as JsonValue);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolveBody(x) as JsonValue]));
    return v;
  };
  const done = new Set<string>();
  const left = [...steps];
  while (left.length > 0) {
    const ready = left.filter((s) => s.dependsOn.every((d) => done.has(d)));
    expect(ready.length).toBeGreaterThan(0);
    const s = ready[Math.floor(random() * ready.length)];
    for (const r of s.requests) {
      const res = await client.request(r.method, resolve(r.path, true), { body: resolveBody(r.body) });
      if (r.capture) captured.set(`${s.org}/${s.address}`, res.body);
    }
    done.add(s.id);
    left.splice(left.indexOf(s), 1);
  }
}

/** A seeded PRNG (mulberry32) for the apply order. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('site kinds against the emulator', () => {
  it('plans the example site, applies it, and a second plan is empty', async () => {
    const { emu, client } = await emulator([
      {
        id: 'site_docs',
        title: 'Docs',
        sections: [
          { id: 'sec_guides', title: 'Guides', path: 'guides', siteSpaces: [{ space: 'space_1', path: 'guides' }] },
          { id: 'sec_old', title: 'Old', path: 'old', siteSpaces: [{ space: 'space_6' }] },
        ],
        sectionGroups: [{ id: 'grp_legacy', title: 'Legacy', sections: ['old'] }],
        shareLinks: [{ id: 'link_old', name: 'old-link', active: true }],
      },
    ]);
    const config = orgConfig(
      [
        {
          id: 'site_docs',
          sections: [
            { path: 'guides', title: 'Guides', space: 'space_1', icon: 'book', siteSpaces: [{ space: 'space_1' }, { space: 'space_2', path: 'v2' }] },
            { path: 'api', title: 'API', space: 'space_3' },
            { path: 'changelog', title: 'Changelog', space: 'space_4', condition: 'visitor.claims.plan == "pro"' },
          ],
          sectionGroups: [{ title: 'Reference', icon: 'box', sections: ['api', 'changelog'] }],
          shareLinks: [{ name: 'partner-acme', active: true }, { name: 'internal', active: false }],
        },
      ],
      ['sections', 'sectionGroups', 'shareLinks'],
    );
    const first = await plan(client, config);
    expect(first.problems).toEqual([]);
    expect(first.plan.steps.map((s) => `${s.action} ${s.address}`)).toEqual(
      expect.arrayContaining([
        'create sites["site_docs"].sections["api"]',
        'create sites["site_docs"].sections["changelog"]',
        'create sites["site_docs"].sectionGroups["Reference"]',
        'create sites["site_docs"].sections["guides"].siteSpaces["space_2"]',
        'update sites["site_docs"].sections["guides"]',
        'delete sites["site_docs"].sections["old"]',
        'delete sites["site_docs"].sectionGroups["Legacy"]',
        'delete sites["site_docs"].shareLinks["old-link"]',
        'create sites["site_docs"].shareLinks["partner-acme"]',
        'create sites["site_docs"].shareLinks["internal"]',
      ]),
    );
    await apply(client, first.plan.steps, prng(1));
    const second = await plan(client, config);
    expect(second.plan.steps).toEqual([]);

    const site = emu.world.orgs.get(ORG)?.sites.get('site_docs');
    const sections = [...(site?.sections.values() ?? [])];
    expect(sections.map((s) => s.path).sort()).toEqual(['api', 'changelog', 'guides']);
    expect([...(site?.shareLinks.values() ?? [])].map((l) => [l.name, l.active]).sort()).toEqual([
      ['internal', false],
      ['partner-acme', true],
    ]);
  });

  it('reports a site that does not exist', async () => {
    const { client } = await emulator([]);
    const { problems, plan: p } = await plan(client, orgConfig([{ id: 'site_nope', sections: [] }], []));
    expect(problems.map((x) => x.message)).toEqual(['site site_nope does not exist in organization org_acme (check the id, or leave it out to create the site by title)']);
    expect(p.steps).toEqual([]);
  });

  it('random sites and configs: after applying the plan in any valid order, nothing is left to do', async () => {
    const scenario = fc
      .record({
        remoteSections: fc.array(fc.record({ spaces: fc.uniqueArray(fc.constantFrom(...SPACES), { minLength: 1, maxLength: 3 }), title: fc.boolean() }), { maxLength: 5 }),
        remoteGroups: fc.array(fc.array(fc.nat(6), { maxLength: 3 }), { maxLength: 3 }),
        remoteLinks: fc.array(fc.boolean(), { maxLength: 3 }),
        keep: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        newSections: fc.array(fc.constantFrom(...SPACES), { maxLength: 3 }),
        order: fc.array(fc.nat(1000), { minLength: 8, maxLength: 8 }),
        siteSpaceLists: fc.array(fc.option(fc.uniqueArray(fc.record({ space: fc.constantFrom(...SPACES), path: fc.boolean() }), { selector: (x) => x.space, maxLength: 3 }), { nil: undefined }), { minLength: 8, maxLength: 8 }),
        groups: fc.array(fc.record({ existing: fc.boolean(), members: fc.option(fc.array(fc.nat(7), { maxLength: 3 }), { nil: undefined }) }), { maxLength: 3 }),
        links: fc.array(fc.record({ existing: fc.boolean(), active: fc.option(fc.boolean(), { nil: undefined }) }), { maxLength: 3 }),
        prune: fc.subarray(['sections', 'siteSpaces', 'sectionGroups', 'shareLinks'] as const),
        applySeed: fc.nat(),
      })
      .map((g) => {
        // The remote site: sections p0…, groups over disjoint sections, links.
        const remoteSections = g.remoteSections.map((s, i) => ({
          id: `sec_${i}`,
          title: `Section ${i}`,
          path: `p${i}`,
          siteSpaces: s.spaces.map((space) => ({ space })),
        }));
        const inGroup = new Set<number>();
        const remoteGroups = g.remoteGroups.map((members, gi) => ({
          id: `grp_${gi}`,
          title: `Group ${gi}`,
          sections: members
            .filter((m) => m < remoteSections.length && !inGroup.has(m) && (inGroup.add(m), true))
            .map((m) => `p${m}`),
        }));
        const remoteLinks = g.remoteLinks.map((active, i) => ({ id: `link_${i}`, name: `link-${i}`, active }));
        // The config: some remote sections kept (some retitled), new ones, in a shuffled order.
        const kept = remoteSections.filter((_s, i) => g.keep[i]);
        const desiredSections: SiteT['sections'] & object = [
          ...kept.map((s, i) => ({ path: s.path, title: g.remoteSections[Number(s.path.slice(1))].title ? `Retitled ${i}` : s.title, space: s.siteSpaces[0].space })),
          ...g.newSections.map((space, i) => ({ path: `n${i}`, title: `New ${i}`, space })),
        ];
        const rank = (i: number) => g.order[i % g.order.length] * 10 + i;
        desiredSections.sort((a, b) => rank(desiredSections.indexOf(a)) - rank(desiredSections.indexOf(b)));
        desiredSections.forEach((s, i) => {
          const list = g.siteSpaceLists[i];
          // Paths unique within the section (v0, v1, …), never a slug the emulator gives by itself.
          if (list) s.siteSpaces = list.map((x, j) => (x.path ? { space: x.space, path: `v${j}` } : { space: x.space }));
        });
        const taken = new Set<number>();
        const usedTitles = new Set<string>();
        const desiredGroups = g.groups
          .map((x, gi) => ({
            title: x.existing && gi < remoteGroups.length ? remoteGroups[gi].title : `Made ${gi}`,
            ...(x.members === undefined
              ? {}
              : { sections: x.members.filter((m) => m < desiredSections.length && !taken.has(m) && (taken.add(m), true)).map((m) => desiredSections[m].path) }),
          }))
          .filter((x) => !usedTitles.has(x.title) && (usedTitles.add(x.title), true));
        const desiredLinks = g.links
          .map((x, i) => ({ name: x.existing && i < remoteLinks.length ? remoteLinks[i].name : `made-${i}`, ...(x.active === undefined ? {} : { active: x.active }) }));
        return {
          seed: { id: 'site_docs', title: 'Docs', sections: remoteSections, sectionGroups: remoteGroups, shareLinks: remoteLinks },
          site: { id: 'site_docs', sections: desiredSections, sectionGroups: desiredGroups, shareLinks: desiredLinks } as SiteT,
          prune: [...g.prune],
          applySeed: g.applySeed,
        };
      });

    await fc.assert(
      fc.asyncProperty(scenario, async ({ seed, site, prune, applySeed }) => {
        const { client, emu } = await emulator([seed]);
        try {
          const config = orgConfig([site], prune);
          const first = await plan(client, config);
          expect(first.problems).toEqual([]);
          await apply(client, first.plan.steps, prng(applySeed));
          const second = await plan(client, config);
          expect(second.plan.steps.map((s) => `${s.action} ${s.address} ${JSON.stringify(s.requests.map((r) => r.body))}`)).toEqual([]);
          // The sort steps of the first plan used the fewest moves: every sort step of a converged
          // site plans nothing, and a plan of the already-sorted site has no sort step (above).
        } finally {
          await clients.pop()?.close();
          await running.pop()?.close();
          void emu;
        }
      }),
      { numRuns: Number(process.env.DOCPLANE_SITES_RUNS ?? 60) },
    );
  });

  it('random trees (nested groups, external links): after applying the plan in any valid order, nothing is left to do', async () => {
    const parentOf = (pick: number, below: number): number | undefined => (below === 0 || pick % (below + 1) === below ? undefined : pick % (below + 1));
    const scenario = fc
      .record({
        sections: fc.integer({ min: 1, max: 5 }),
        remoteGroups: fc.array(fc.record({ parent: fc.nat(9), members: fc.array(fc.nat(6), { maxLength: 3 }) }), { maxLength: 3 }),
        remoteLinks: fc.array(fc.nat(9), { maxLength: 3 }),
        order: fc.array(fc.nat(1000), { minLength: 8, maxLength: 8 }),
        groups: fc.array(fc.record({ existing: fc.boolean(), parent: fc.option(fc.nat(9), { nil: undefined }), members: fc.option(fc.array(fc.nat(7), { maxLength: 3 }), { nil: undefined }) }), { maxLength: 4 }),
        links: fc.array(fc.record({ existing: fc.boolean(), group: fc.option(fc.nat(9), { nil: undefined }), url: fc.boolean() }), { maxLength: 3 }),
        prune: fc.subarray(['sectionGroups', 'externalLinks'] as const),
        applySeed: fc.nat(),
      })
      .map((g) => {
        const remoteSections = Array.from({ length: g.sections }, (_v, i) => ({ id: `sec_${i}`, title: `Section ${i}`, path: `p${i}`, siteSpaces: [{ space: SPACES[i] }] }));
        const inGroup = new Set<number>();
        const remoteGroups = g.remoteGroups.map((x, gi) => {
          const parent = parentOf(x.parent, gi);
          return {
            id: `grp_${gi}`,
            title: `Group ${gi}`,
            ...(parent === undefined ? {} : { parent: `Group ${parent}` }),
            sections: x.members.filter((m) => m < g.sections && !inGroup.has(m) && (inGroup.add(m), true)).map((m) => `p${m}`),
          };
        });
        const remoteLinks = g.remoteLinks.map((x, i) => {
          const group = remoteGroups.length > 0 ? parentOf(x, remoteGroups.length) : undefined;
          return { id: `ext_${i}`, title: `Link ${i}`, url: `https://example.com/${i}`, ...(group === undefined ? {} : { group: `Group ${group}` }) };
        });
        const desiredSections: SiteT['sections'] & object = remoteSections.map((s) => ({ path: s.path, title: s.title, space: s.siteSpaces[0].space }));
        const rank = (i: number) => g.order[i % g.order.length] * 10 + i;
        desiredSections.sort((a, b) => rank(desiredSections.indexOf(a)) - rank(desiredSections.indexOf(b)));
        const taken = new Set<number>();
        const titles = new Set<string>();
        const desiredGroups = g.groups
          .map((x, gi) => ({
            title: x.existing && gi < remoteGroups.length ? remoteGroups[gi].title : `Made ${gi}`,
            parentPick: x.parent,
            ...(x.members === undefined
              ? {}
              : { sections: x.members.filter((m) => m < desiredSections.length && !taken.has(m) && (taken.add(m), true)).map((m) => desiredSections[m].path) }),
          }))
          .filter((x) => !titles.has(x.title) && (titles.add(x.title), true))
          // A parent among the groups listed before: no cycle.
          .map(({ parentPick, ...x }, gi, all) => {
            if (parentPick === undefined) return x;
            const p = parentOf(parentPick, gi);
            return { ...x, parent: p === undefined ? null : all[p].title };
          });
        const desiredLinks = g.links.map((x, i) => {
          const group = x.group === undefined ? undefined : desiredGroups.length > 0 ? parentOf(x.group, desiredGroups.length) : undefined;
          return {
            title: x.existing && i < remoteLinks.length ? remoteLinks[i].title : `Made link ${i}`,
            url: x.url ? `https://example.com/new/${i}` : `https://example.com/${i}`,
            ...(x.group === undefined ? {} : { group: group === undefined ? null : desiredGroups[group].title }),
          };
        });
        return {
          seed: { id: 'site_docs', title: 'Docs', sections: remoteSections, sectionGroups: remoteGroups, externalLinks: remoteLinks },
          site: { id: 'site_docs', sections: desiredSections, sectionGroups: desiredGroups, externalLinks: desiredLinks } as SiteT,
          prune: [...g.prune],
          applySeed: g.applySeed,
        };
      });

    await fc.assert(
      fc.asyncProperty(scenario, async ({ seed, site, prune, applySeed }) => {
        await emulator([seed]);
        try {
          const client = clients[clients.length - 1];
          const config = orgConfig([site], prune);
          const first = await plan(client, config);
          expect(first.problems).toEqual([]);
          await apply(client, first.plan.steps, prng(applySeed));
          const second = await plan(client, config);
          expect(second.plan.steps.map((s) => `${s.action} ${s.address} ${JSON.stringify(s.requests.map((r) => r.body))}`)).toEqual([]);
          // Few moves: each managed item is sorted at most once.
          const sorts = first.plan.steps.filter((s) => s.action === 'sort' && s.kind === 'sections').flatMap((s) => s.requests);
          expect(sorts.length).toBeLessThanOrEqual(site.sections!.length + site.sectionGroups!.length + site.externalLinks!.length);
        } finally {
          await clients.pop()?.close();
          await running.pop()?.close();
        }
      }),
      { numRuns: Number(process.env.DOCPLANE_SITES_RUNS ?? 60) },
    );
  });
});
