/**
 * Team membership (`teams["Engineering"].members`): the whole membership of a team as one resource,
 * for each team whose `members` list the config gives. One PUT .../members with `add`, `remove` and
 * `memberships` (roles) makes it so. A user who is not a member of the organization is a problem.
 */
import { fingerprint } from '../../core/json.js';
import type { JsonObject, JsonValue } from '../../model/step.js';
import { indexMembers, memberLabel, memberRefs, notAMemberMessage, readMembers, type MemberRef, type RemoteMember } from '../shared/members.js';
import { emptyKindPlan, type Reader, type KindPlan, type KindSpec } from '../kind.js';
import { enc, orgPath } from '../common/paths.js';
import { teamMemberEntry } from './teams.js';
import { matchTeams, readTeams, teamAddress, type RemoteTeam } from '../shared/teams.js';
import { ref } from '../../model/address.js';
import { step } from '../common/step.js';
import { TeamMemberAnswer } from '../shared/team-answers.js';

/** What TeamMemberAnswer keeps of a team's member. */
export interface RemoteTeamMember {
  organization: Pick<RemoteMember, 'id' | 'user'>;
  team: { role: 'owner' | 'member' };
}

export interface RemoteTeamMembers {
  teams: RemoteTeam[];
  members: RemoteMember[];
  /** Team id → its members, for the config teams that exist and list members. */
  lists: Record<string, RemoteTeamMember[]>;
}

type Role = 'owner' | 'member';

/** A team's member as planned: the member or the person this plan invites (whose label the step shows) and the team role. */
interface Membership {
  member: Pick<MemberRef, 'id' | 'label'>;
  role: Role;
}

function shownList(entries: Map<string, Membership>): JsonValue {
  return [...entries.values()]
    .map((e) => ({ user: e.member.label, role: e.role }))
    .sort((a, b) => (a.user < b.user ? -1 : a.user > b.user ? 1 : 0));
}

/** Whether two memberships name the same members with the same roles (most teams, on most plans). */
function sameMemberships(want: Map<string, Membership>, have: Map<string, Membership>): boolean {
  if (want.size !== have.size) return false;
  for (const [id, w] of want) if (have.get(id)?.role !== w.role) return false;
  return true;
}

/** The members of each given team: one list per team, shared with other reads of the same team. */
async function readTeamMemberLists(ctx: Reader, teams: readonly RemoteTeam[]): Promise<Record<string, RemoteTeamMember[]>> {
  const lists: Record<string, RemoteTeamMember[]> = {};
  await Promise.all(
    teams.map(async (t) => {
      lists[t.id] = await ctx.shared(`teamMembers:${t.id}`, () => ctx.client.listAll<RemoteTeamMember>(`${orgPath(ctx.org)}/teams/${enc(t.id)}/members`, {}, { schema: TeamMemberAnswer }));
    }),
  );
  return lists;
}

/**
 * The teams, the organization's members, and the member lists of the teams `pick` chooses. The lists
 * start once the teams are known, beside the organization's member list (its pages come one after the
 * other), not after it.
 */
export async function readTeamsAndLists(
  ctx: Reader,
  pick: (teams: RemoteTeam[]) => readonly RemoteTeam[],
): Promise<{ teams: RemoteTeam[]; members: RemoteMember[]; lists: Record<string, RemoteTeamMember[]> }> {
  const teamsRead = readTeams(ctx);
  const [teams, members, lists] = await Promise.all([teamsRead, readMembers(ctx), teamsRead.then((teams) => readTeamMemberLists(ctx, pick(teams)))]);
  return { teams, members, lists };
}

export const teamMembersModule: KindSpec<RemoteTeamMembers | undefined> = {
  kind: 'teamMembers',
  label: { one: 'team membership', many: 'team memberships' },

  async read(ctx) {
    const desired = (ctx.desired.teams ?? []).filter((t) => t.members !== undefined);
    if (desired.length === 0) return undefined;
    // One member list per existing team whose membership the config manages; no other reads.
    return readTeamsAndLists(ctx, (teams) =>
      matchTeams(ctx.desired.teams ?? [], teams)
        .pairs.filter((p) => p.remote && p.desired.members !== undefined)
        .map((p) => p.remote as RemoteTeam),
    );
  },

  plan(ctx, remote): KindPlan {
    const kp = emptyKindPlan();
    if (remote === undefined) return kp;
    const index = indexMembers(remote.members);
    const memberOf = memberRefs(ctx.org, ctx.desired.members, index);
    const { pairs } = matchTeams(ctx.desired.teams ?? [], remote.teams);
    for (const { desired: team, remote: r } of pairs) {
      if (team.members === undefined) continue;
      const teamAddr = teamAddress(team.title);
      const address = `${teamAddr}.members`;
      kp.remoteCount++;
      // An existing team whose list was not read (a targeted plan or a check that does not name it):
      // nothing can be said of it, and what would be said is dropped (src/plan/narrow.ts).
      if (r && remote.lists[r.id] === undefined) continue;

      const want = new Map<string, Membership>();
      const invites = new Set<string>();
      for (const entry of team.members.map(teamMemberEntry)) {
        const m = memberOf(entry.user);
        if (!m) {
          kp.problems.push({ org: ctx.org, address, message: `team "${team.title}": ${notAMemberMessage(entry.user, ctx.org)}`, reference: { field: 'members', key: entry.user } });
          continue;
        }
        // The same member named twice: the owner role wins.
        const prev = want.get(m.id);
        want.set(m.id, { member: m, role: prev?.role === 'owner' ? 'owner' : entry.role });
        if (m.invite) invites.add(m.invite);
      }

      // What is there now: the remote list, or for a team created by this plan what its create adds.
      const have = new Map<string, Membership>();
      if (r) {
        for (const tm of remote.lists[r.id] ?? []) {
          const m = tm.organization;
          have.set(m.id, { member: { id: m.id, label: memberLabel(index.byId.get(m.id) ?? m) }, role: tm.team?.role === 'owner' ? 'owner' : 'member' });
        }
      } else {
        for (const [id, w] of want) have.set(id, { member: w.member, role: 'member' });
      }
      // The team's members, as the team's create shows them (a saved plan's done create is held to them).
      if (r) (kp.observed ??= {})[teamAddr] = { members: [...have.values()].map((h) => h.member.label) };
      if (sameMemberships(want, have)) continue;

      const add = [...want.keys()].filter((id) => !have.has(id)).sort();
      const remove = [...have.keys()].filter((id) => !want.has(id)).sort();
      const memberships: Record<string, { role: Role }> = {};
      for (const [id, w] of [...want.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
        const h = have.get(id);
        // A new member gets role member from `add`; only owners need a membership entry.
        if ((h && h.role !== w.role) || (!h && w.role !== 'member')) memberships[id] = { role: w.role };
      }
      if (add.length === 0 && remove.length === 0 && Object.keys(memberships).length === 0) continue;

      const before = { members: shownList(have) } as JsonObject;
      const after = { members: shownList(want) } as JsonObject;
      const teamId = r ? enc(r.id) : ref(ctx.org, teamAddr);
      kp.steps.push(step({
        address,
        kind: 'teamMembers',
        action: 'update',
        before,
        after,
        keys: { members: 'user' },
        requests: [
          {
            method: 'PUT',
            path: `${orgPath(ctx.org)}/teams/${teamId}/members`,
            body: {
              ...(add.length > 0 ? { add } : {}),
              ...(remove.length > 0 ? { remove } : {}),
              ...(Object.keys(memberships).length > 0 ? { memberships } : {}) } },
        ],
        needs: [teamAddr, ...[...invites].sort()],
        ...(r ? { remoteId: r.id } : {}),
        ...(r ? {} : { notes: ['the team is created by this plan with its members; this step sets the owners'] }) }));
      kp.fingerprints[address] = fingerprint(
        r ? [...have.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([id, h]) => ({ id, role: h.role })) : null,
      );
    }
    return kp;
  } };
