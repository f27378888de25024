/**
 * The plan of the direct grants on the objects whose `access` the config gives: one step per team
 * or user grant (create = invite, update = role change, delete = removal), so that removed grants
 * count toward the safety thresholds as deletes. Teams resolve to ids as every reference to a team does
 * (the config first, then the remote list); users by email or user id, as members.
 */
import { fingerprint } from '../../core/json.js';
import { ref } from '../../model/address.js';
import type { JsonObject, Kind } from '../../model/step.js';
import { enc } from '../common/paths.js';
import { emptyKindPlan, type KindPlan, type PlanContext } from '../kind.js';
import { indexMembers, memberLabel, memberRefs, type RemoteMember } from '../shared/members.js';
import type { RemoteTeam } from '../shared/teams.js';
import { teamAddress, teamIdsOrRefs } from '../shared/teams.js';
import { grantAddress, permissionsPath, type AccessTarget, type RemoteGrants } from './grants.js';
import type { AccessT } from '../shared/access-schema.js';
import { step } from '../common/step.js';
import type { AccessGrantRow, AccessResult } from '../../model/access-result.js';

/** One object whose access the config manages. */
export interface AccessObject {
  /** The object's address (`spaces["s1"]`). */
  address: string;
  /** Its remote id, when it exists. */
  id?: string;
  /** What a reviewer calls it: a collection's path, a space's or a site's title (when the config or the reads give it). */
  title?: string;
  access: AccessT;
}

/** What an access kind read: the objects, their grants, and the teams and members they name. */
export interface RemoteAccess {
  objects: AccessObject[];
  grants: Record<string, RemoteGrants>;
  teams: RemoteTeam[];
  members: RemoteMember[];
}

interface Grant {
  who: 'teams' | 'users';
  /** Remote id, or a ref to the team's create. */
  id: string;
  name: string;
  role: string | null;
  /** The invite step of a person this plan invites. */
  invite?: string;
}

/** Desired vs remote grants of every object → one step per grant that differs. */
export function planAccess(ctx: PlanContext, kind: Kind, target: AccessTarget, remote: RemoteAccess | undefined): KindPlan {
  const kp = emptyKindPlan();
  if (remote === undefined) return kp;
  const index = indexMembers(remote.members);
  const memberOf = memberRefs(ctx.org, ctx.desired.members, index);
  const teamTitle = new Map(remote.teams.map((t) => [t.id, t.title]));
  const teamId = teamIdsOrRefs(ctx.org, ctx.desired.teams, remote.teams);

  for (const obj of remote.objects) {
    const grants = obj.id === undefined ? undefined : remote.grants[obj.id];
    if (obj.id !== undefined && grants === undefined) continue; // the object is gone: its own kind says so
    const accessAddress = `${obj.address}.access`;
    const want = new Map<string, Grant>();
    for (const [title, role] of Object.entries(obj.access.teams ?? {})) {
      const id = teamId(title);
      if (id === undefined) {
        kp.problems.push({ org: ctx.org, address: accessAddress, message: `teams ${JSON.stringify(title)} names a team that exists neither in the config nor in organization ${ctx.org}`, reference: { field: 'teams', key: title } });
        continue;
      }
      want.set(`teams:${id}`, { who: 'teams', id, name: title, role });
    }
    for (const [user, role] of Object.entries(obj.access.users ?? {})) {
      const m = memberOf(user);
      if (!m) {
        kp.problems.push({
          org: ctx.org,
          address: accessAddress,
          message: `users ${JSON.stringify(user)} is not a member of organization ${ctx.org}: list their email under members (this plan then invites them and grants this access at once), or remove them from this access`,
          reference: { field: 'users', key: user },
        });
        continue;
      }
      const prev = want.get(`users:${m.id}`);
      if (prev) {
        kp.problems.push({ org: ctx.org, address: accessAddress, message: `${user} names the same member as ${prev.name}` });
        continue;
      }
      want.set(`users:${m.id}`, { who: 'users', id: m.id, name: m.label, role, ...(m.invite ? { invite: m.invite } : {}) });
    }
    const have = new Map<string, Grant>();
    for (const g of grants?.teams ?? []) {
      have.set(`teams:${g.team.id}`, { who: 'teams', id: g.team.id, name: teamTitle.get(g.team.id) ?? g.team.title ?? g.team.id, role: g.permission });
    }
    for (const g of grants?.users ?? []) {
      const m = index.byId.get(g.user.id);
      have.set(`users:${g.user.id}`, { who: 'users', id: g.user.id, name: m ? memberLabel(m) : (g.user.email?.toLowerCase() ?? g.user.id), role: g.permission });
    }
    kp.remoteCount += have.size;
    const stepsBefore = kp.steps.length;

    const hadAdmin = [...have.values()].some((g) => g.role === 'admin');
    const keepsAdmin = [...want.values()].some((g) => g.role === 'admin');
    if (hadAdmin && !keepsAdmin) {
      kp.problems.push({
        org: ctx.org,
        address: accessAddress,
        message: `the plan would leave ${obj.address} without a direct admin; keep at least one team or user with role admin in its access` });
    }

    const base = permissionsPath(ctx.org, target, obj.id === undefined ? ref(ctx.org, obj.address) : enc(obj.id));
    const objectNeeds = obj.id === undefined ? [obj.address] : [];
    for (const [k, w] of want) {
      const h = have.get(k);
      const address = grantAddress(obj.address, w.who, w.name);
      const needs = [...objectNeeds, ...(w.who === 'teams' ? [teamAddress(w.name)] : []), ...(w.invite ? [w.invite] : [])];
      if (!h) {
        const after: JsonObject = { role: w.role };
        kp.steps.push(step({
          address,
          kind,
          action: 'create',
          before: null,
          after,
          requests: [
            {
              method: 'POST',
              path: base,
              body: { role: w.role, [w.who]: [w.id] },
              // After an unclear outcome, the grant is looked for before the invite is sent again.
              lookup: { path: `${base}/${w.who}`, match: { [w.who === 'teams' ? 'team.id' : 'user.id']: w.id, permission: w.role } } },
          ],
          needs }));
        kp.fingerprints[address] = fingerprint(null);
      } else if (h.role !== w.role) {
        const before: JsonObject = { role: h.role };
        const after: JsonObject = { role: w.role };
        kp.steps.push(step({
          address,
          kind,
          action: 'update',
          before,
          after,
          requests: [{ method: 'PATCH', path: `${base}/${w.who}/${enc(h.id)}`, body: { role: w.role } }],
          needs,
          remoteId: h.id }));
        kp.fingerprints[address] = fingerprint({ id: h.id, role: h.role });
      }
    }
    for (const [k, h] of have) {
      if (want.has(k)) continue;
      const address = grantAddress(obj.address, h.who, h.name);
      kp.steps.push(step({
        address,
        kind,
        action: 'delete',
        before: { role: h.role },
        after: null,
        changes: [],
        requests: [{ method: 'DELETE', path: `${base}/${h.who}/${enc(h.id)}` }],
        remoteId: h.id }));
      kp.fingerprints[address] = fingerprint({ id: h.id, role: h.role });
    }
    if (kp.steps.length > stepsBefore) (kp.access ??= []).push(accessResult(ctx, obj, want, have, remote.teams));
  }
  return kp;
}

/**
 * Who can do what on an object after the plan: each direct grant as it is and as it will be, and for
 * a team, who holds its role through it — the members the config lists, else how many the team has.
 */
function accessResult(ctx: PlanContext, obj: AccessObject, want: ReadonlyMap<string, Grant>, have: ReadonlyMap<string, Grant>, teams: readonly RemoteTeam[]): AccessResult {
  const rows: AccessGrantRow[] = [];
  for (const k of new Set([...want.keys(), ...have.keys()])) {
    const w = want.get(k);
    const h = have.get(k);
    const g = (w ?? h) as Grant;
    const row: AccessGrantRow = { who: g.who === 'teams' ? 'team' : 'user', name: w?.name ?? g.name, before: h?.role ?? null, after: w?.role ?? null };
    if (g.who === 'teams' && row.after !== null) {
      const listed = ctx.desired.teams?.find((t) => t.title === row.name)?.members;
      const count = teams.find((t) => t.id === g.id)?.members;
      if (listed !== undefined) row.members = listed.map((m) => (typeof m === 'string' ? m : m.user));
      else if (count !== undefined) row.memberCount = count;
    }
    rows.push(row);
  }
  rows.sort((a, b) => (a.who === b.who ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.who === 'team' ? -1 : 1));
  return { address: obj.address, ...(obj.title !== undefined ? { title: obj.title } : {}), rows };
}
