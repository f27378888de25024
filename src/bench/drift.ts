/**
 * Drift made behind docplane's back: 5% of the resources of each kind changed through the API
 * (member roles, team memberships, collection descriptions, space emojis, section titles, site
 * space paths, share link states, group icons). Each change is one field of one resource, so a plan
 * afterwards should hold exactly one step per change.
 */
import type { ApiClient } from '../api/types.js';
import { seededRandom, type Random } from '../emulator/random.js';
import type { BenchWorld } from './generate.js';

export interface DriftResult {
  /** Changes made, per kind. */
  changes: Record<string, number>;
  total: number;
  /** Requests the drift itself sent (reads of ids included); not counted against docplane. */
  requests: number;
}

interface Listed {
  id: string;
  [k: string]: unknown;
}

function pick<T>(random: Random, items: readonly T[], k: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < k && pool.length > 0) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
  return out;
}

const share = (n: number, fraction: number) => Math.max(1, Math.round(n * fraction));

export async function makeDrift(world: BenchWorld, client: ApiClient, fraction = 0.05): Promise<DriftResult> {
  const random = seededRandom(world.seed + 1);
  const org = `/v1/orgs/${world.org}`;
  const before = client.stats().requests;
  const changes: Record<string, number> = {};
  const writes: Array<() => Promise<unknown>> = [];
  const change = (kind: string, send: () => Promise<unknown>) => {
    changes[kind] = (changes[kind] ?? 0) + 1;
    writes.push(send);
  };

  const desiredRole = new Map((world.config.members ?? []).map((m) => [m.user, m.role]));
  const [members, teams, collections, spaces] = await Promise.all([
    client.listAll<Listed & { role: string | null; user: { email: string } }>(`${org}/members`),
    client.listAll<Listed & { title: string }>(`${org}/teams`),
    client.listAll<Listed & { description?: string }>(`${org}/collections`, { nested: true }),
    client.listAll<Listed>(`${org}/spaces`),
  ]);

  for (const m of pick(random, members.filter((m) => m.role !== 'admin'), share(members.length, fraction))) {
    const role = desiredRole.get(m.user.email) === 'read' ? 'comment' : 'read';
    change('members', () => client.request('PATCH', `${org}/members/${m.id}`, { body: { role } }));
  }
  for (const t of pick(random, teams, share(teams.length, fraction))) {
    change('teamMembers', async () => {
      const list = await client.listAll<{ organization: { id: string }; team: { role: string } }>(`${org}/teams/${t.id}/members`);
      const leaving = list.find((x) => x.team.role !== 'owner');
      if (leaving) await client.request('PUT', `${org}/teams/${t.id}/members`, { body: { remove: [leaving.organization.id] } });
    });
  }
  // Only collections whose description the config manages (the top-level ones).
  const described = collections.filter((c) => typeof c.description === 'string' && c.description !== '');
  for (const c of pick(random, described, Math.min(described.length, share(collections.length, fraction)))) {
    change('collections', () => client.request('PATCH', `/v1/collections/${c.id}`, { body: { description: 'Changed by hand' } }));
  }
  for (const s of pick(random, spaces, share(spaces.length, fraction))) {
    change('spaces', () => client.request('PATCH', `/v1/spaces/${s.id}`, { body: { emoji: '🔥' } }));
  }

  for (const site of world.siteIds) {
    const base = `${org}/sites/${site}`;
    const [sections, groups, links] = await Promise.all([
      client.listAll<Listed & { siteSpaces: Array<{ id: string; path: string }> }>(`${base}/sections`),
      client.listAll<Listed>(`${base}/section-groups`),
      client.listAll<Listed & { active?: boolean }>(`${base}/share-links`),
    ]);
    for (const s of pick(random, sections, share(sections.length, fraction))) {
      change('sections', () => client.request('PATCH', `${base}/sections/${s.id}`, { body: { title: `Renamed ${s.id}`.slice(0, 128) } }));
    }
    const extra = sections.map((s) => s.siteSpaces.find((x) => x.path === 'v2')).filter((x): x is { id: string; path: string } => x !== undefined);
    for (const x of pick(random, extra, share(extra.length, fraction))) {
      change('siteSpaces', () => client.request('PATCH', `${base}/site-spaces/${x.id}`, { body: { path: 'v3' } }));
    }
    for (const l of pick(random, links, share(links.length, fraction))) {
      change('shareLinks', () => client.request('PATCH', `${base}/share-links/${l.id}`, { body: { active: l.active === false } }));
    }
    for (const g of pick(random, groups, share(groups.length, fraction))) {
      change('sectionGroups', () => client.request('PATCH', `${base}/section-groups/${g.id}`, { body: { icon: 'star' } }));
    }
  }

  // The client holds them to its connections.
  await Promise.all(writes.map((w) => w()));
  const total = Object.values(changes).reduce((a, n) => a + n, 0);
  return { changes, total, requests: client.stats().requests - before };
}
