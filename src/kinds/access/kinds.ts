/**
 * The three access kinds: direct grants on collections (`collections["Product"].access.teams["Eng"]`),
 * on spaces and on sites. Each reads two lists per object whose `access` the config gives (teams and
 * users) and nothing for the others; the teams list when a team is named, the members list when a
 * user is named. Only direct grants are managed; inherited access (a space in a collection, a
 * collection's grants) is not read.
 */
import { key } from '../../model/address.js';
import { readCollections, resolveCollections, collectionAddress } from '../shared/collections.js';
import type { KindSpec, ReadContext } from '../kind.js';
import { readMembers, type RemoteMember } from '../shared/members.js';
import { readSpaceList } from '../shared/space-list.js';
import { matchSpaces, placesInCollections } from '../shared/spaces.js';
import { siteKey } from '../shared/sites.js';
import { matchSites, readSiteInfos } from '../shared/sites.js';
import { readTeams, type RemoteTeam } from '../shared/teams.js';
import { readAllGrants, namesTeams, namesUsers, type AccessTarget } from './grants.js';
import { planAccess, type AccessObject, type RemoteAccess } from './plan.js';
import type { AccessT } from '../shared/access-schema.js';

/** How many grants the `access` of some objects gives (`docplane validate`). */
function grants(objects: ReadonlyArray<{ access?: AccessT }>): number {
  return objects.reduce((n, o) => n + Object.keys(o.access?.teams ?? {}).length + Object.keys(o.access?.users ?? {}).length, 0);
}

/** The object's title for a reviewer, when the config or the reads give one. */
const titled = (title: string | undefined): { title?: string } => (title ? { title } : {});

async function readFor(ctx: ReadContext, target: AccessTarget, objects: AccessObject[]): Promise<RemoteAccess | undefined> {
  if (objects.length === 0) return undefined;
  const [teams, members, grants] = await Promise.all([
    objects.some((o) => namesTeams(o.access)) ? readTeams(ctx) : Promise.resolve([] as RemoteTeam[]),
    objects.some((o) => namesUsers(o.access)) ? readMembers(ctx) : Promise.resolve([] as RemoteMember[]),
    readAllGrants(ctx, target, objects.flatMap((o) => (o.id === undefined ? [] : [o.id]))),
  ]);
  return { objects, teams, members, grants: Object.fromEntries(grants) };
}

export const collectionAccessModule: KindSpec<RemoteAccess | undefined> = {
  kind: 'collectionAccess',
  label: { one: 'collection grant', many: 'collection grants' },
  count: (org) => grants(resolveCollections(org.collections, []).entries.map((e) => e.node)),
  async read(ctx) {
    const resolvedWithout = resolveCollections(ctx.desired.collections, []);
    if (!resolvedWithout.entries.some((e) => e.node.access !== undefined)) return undefined;
    const resolved = resolveCollections(ctx.desired.collections, await readCollections(ctx));
    const objects = resolved.entries
      .filter((e) => e.node.access !== undefined)
      .map((e): AccessObject => ({ address: collectionAddress(e.path), title: e.path, ...(e.remote ? { id: e.remote.id } : {}), access: e.node.access ?? {} }));
    return readFor(ctx, 'collection', objects);
  },
  plan: (ctx, remote) => planAccess(ctx, 'collectionAccess', 'collection', remote),
};

export const spaceAccessModule: KindSpec<RemoteAccess | undefined> = {
  kind: 'spaceAccess',
  label: { one: 'space grant', many: 'space grants' },
  count: (org) => grants(org.spaces ?? []),
  async read(ctx) {
    const desired = (ctx.desired.spaces ?? []).filter((s) => s.access !== undefined);
    if (desired.length === 0) return undefined;
    // Spaces without id are matched as the spaces kind matches them: on the same lists.
    const needsList = desired.some((s) => s.id === undefined);
    const placed = needsList && placesInCollections(ctx.desired.spaces ?? []);
    const [spaces, collections] = await Promise.all([
      needsList ? readSpaceList(ctx) : Promise.resolve([]),
      placed ? readCollections(ctx) : Promise.resolve([]),
    ]);
    const resolved = resolveCollections(ctx.desired.collections, collections);
    const objects = matchSpaces(ctx.desired.spaces ?? [], spaces, spaces.length, resolved)
      .filter((p) => p.desired.access !== undefined)
      .map((p): AccessObject => {
        const id = p.desired.id ?? p.remote?.id;
        return { address: p.address, ...titled(p.desired.title ?? p.remote?.title), ...(id === undefined ? {} : { id }), access: p.desired.access ?? {} };
      });
    return readFor(ctx, 'space', objects);
  },
  plan: (ctx, remote) => planAccess(ctx, 'spaceAccess', 'space', remote),
};

export const siteAccessModule: KindSpec<RemoteAccess | undefined> = {
  kind: 'siteAccess',
  label: { one: 'site grant', many: 'site grants' },
  count: (org) => grants(org.sites ?? []),
  async read(ctx) {
    const desired = (ctx.desired.sites ?? []).filter((s) => s.access !== undefined);
    // Sites without id are matched as the sites kind matches them: on the organization's list.
    const list = desired.some((s) => s.id === undefined) ? await readSiteInfos(ctx) : [];
    const objects = matchSites(desired, list).pairs.map((p): AccessObject => {
      const id = p.desired.id ?? p.remote?.id;
      return { address: `sites${key(siteKey(p.desired))}`, ...titled(p.desired.title ?? p.remote?.title), ...(id === undefined ? {} : { id }), access: p.desired.access ?? {} };
    });
    return readFor(ctx, 'site', objects);
  },
  plan: (ctx, remote) => planAccess(ctx, 'siteAccess', 'site', remote),
};
