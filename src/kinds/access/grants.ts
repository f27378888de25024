/**
 * Direct grants on a collection, a space or a site (the live description's
 * `list{Team,User}PermissionsIn…`, `inviteTo…`, `update{Team,User}PermissionIn…`,
 * `remove{Team,User}From…`): where they live, how they are read (two lists per object) and how a
 * config's `access` compares with them.
 */
import { ApiError } from '../../core/errors.js';
import { key } from '../../model/address.js';
import { type Draft } from '../common/import.js';
import { enc, orgPath } from '../common/paths.js';
import type { Reader } from '../kind.js';
import { indexMembers, memberLabel, type RemoteMember } from '../shared/members.js';
import type { AccessT } from '../shared/access-schema.js';
import { TeamGrantAnswer, UserGrantAnswer } from './answers.js';

/** What a grant is on. */
export type AccessTarget = 'collection' | 'space' | 'site';

export interface TeamGrant {
  permission: string | null;
  team: { id: string; title?: string };
}

export interface UserGrant {
  permission: string | null;
  user: { id: string; email?: string };
}

export interface RemoteGrants {
  teams: TeamGrant[];
  users: UserGrant[];
}

/** The permissions path of an object (`/v1/spaces/ID/permissions`); `id` may be a ref. */
export function permissionsPath(org: string, target: AccessTarget, id: string): string {
  if (target === 'site') return `${orgPath(org)}/sites/${id}/permissions`;
  return `/v1/${target === 'collection' ? 'collections' : 'spaces'}/${id}/permissions`;
}

/**
 * The direct grants of one object: its team list and its user list, read once per plan or import.
 * Undefined when the object does not exist (404): whoever owns the object reports that.
 */
export function readGrants(ctx: Reader, target: AccessTarget, id: string): Promise<RemoteGrants | undefined> {
  return ctx.shared(`access:${target}:${id}`, async () => {
    const base = permissionsPath(ctx.org, target, enc(id));
    try {
      const [teams, users] = await Promise.all([
        ctx.client.listAll<TeamGrant>(`${base}/teams`, {}, { schema: TeamGrantAnswer }),
        ctx.client.listAll<UserGrant>(`${base}/users`, {}, { schema: UserGrantAnswer }),
      ]);
      return { teams, users };
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  });
}

/** The grants of many objects, concurrently; id → grants (objects that do not exist are left out). */
export async function readAllGrants(ctx: Reader, target: AccessTarget, ids: readonly string[]): Promise<Map<string, RemoteGrants>> {
  const out = new Map<string, RemoteGrants>();
  const read = await Promise.all(ids.map(async (id) => [id, await readGrants(ctx, target, id)] as const));
  for (const [id, g] of read) if (g) out.set(id, g);
  return out;
}

/** The address of one grant: `spaces["s1"].access.teams["Engineering"]`. */
export function grantAddress(objectAddress: string, who: 'teams' | 'users', name: string): string {
  return `${objectAddress}.access.${who}${key(name)}`;
}

function sortedRecord(entries: Iterable<[string, string]>): Record<string, string> {
  return Object.fromEntries([...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
}

/**
 * The `access` import writes for an object: its direct grants, teams by title and users by email
 * (as members are written); undefined when it has none, so that the object's access is left
 * unmanaged rather than emptied.
 */
export function accessDraft(grants: RemoteGrants | undefined, members: readonly RemoteMember[], warn: (m: string) => void, where: string): Draft | undefined {
  if (!grants || (grants.teams.length === 0 && grants.users.length === 0)) return undefined;
  // Indexed once per list read: an import writes the access of every collection, space and site.
  const { byId } = indexMembers(members);
  const teams: Array<[string, string]> = [];
  const seenTeams = new Set<string>();
  for (const g of grants.teams) {
    const title = g.team.title ?? g.team.id;
    if (seenTeams.has(title)) {
      warn(`${where}.access: two teams are titled ${JSON.stringify(title)}; only the first grant is written`);
      continue;
    }
    seenTeams.add(title);
    teams.push([title, g.permission ?? 'read']);
  }
  const users: Array<[string, string]> = [];
  for (const g of grants.users) {
    const m = byId.get(g.user.id);
    const label = m ? memberLabel(m) : g.user.email ? g.user.email.toLowerCase() : g.user.id;
    users.push([label, g.permission ?? 'read']);
  }
  const out: Draft = {};
  if (teams.length > 0) out.teams = sortedRecord(teams);
  if (users.length > 0) out.users = sortedRecord(users);
  return out;
}

/** Whether a config's `access` names any team (the teams list is read only then). */
export function namesTeams(access: AccessT | undefined): boolean {
  return Object.keys(access?.teams ?? {}).length > 0;
}

/** Whether a config's `access` names any user (the members list is read only then). */
export function namesUsers(access: AccessT | undefined): boolean {
  return Object.keys(access?.users ?? {}).length > 0;
}
