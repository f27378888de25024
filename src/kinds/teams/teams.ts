/**
 * Teams (`teams["Engineering"]`): created with PUT ORG/teams `{title, members}`, renamed with PATCH,
 * deleted when pruned. The membership of a team is its own resource (team-members.ts).
 */
import type { TeamT } from './schema.js';
import { fingerprintEntries } from '../../model/fingerprint.js';
import type { JsonObject } from '../../model/step.js';
import { collisionMessage, keyCollisions } from '../common/match.js';
import { indexMembers, memberRefs, readMembers, type MemberRef, type RemoteMember } from '../shared/members.js';
import { emptyKindPlan, type KindPlan, type KindSpec } from '../kind.js';
import { planUnmatched } from '../common/skeleton.js';
import { lookAlikeNote } from '../common/text.js';
import { enc, orgPath } from '../common/paths.js';
import { step } from '../common/step.js';
import { matchTeams, readTeams, teamAddress, type RemoteTeam } from '../shared/teams.js';

export interface RemoteTeams {
  teams: RemoteTeam[];
  /** The organization's members, when a team of the config lists members (to turn emails into ids). */
  members?: RemoteMember[];
}


/** A team member entry of the config as `{user, role}`. */
export function teamMemberEntry(m: NonNullable<TeamT['members']>[number]): { user: string; role: 'owner' | 'member' } {
  return typeof m === 'string' ? { user: m, role: 'member' } : { user: m.user, role: m.role ?? 'member' };
}

function notesOf(notes: string[]): { notes?: string[] } {
  return notes.length > 0 ? { notes } : {};
}

function normalized(t: RemoteTeam): JsonObject {
  return { id: t.id, title: t.title };
}

export const teamsModule: KindSpec<RemoteTeams | undefined> = {
  kind: 'teams',
  label: { one: 'team', many: 'teams' },
  prunable: true,
  count: (org) => org.teams?.length ?? 0,

  async read(ctx) {
    const desired = ctx.desired.teams;
    if (desired === undefined) return undefined;
    const withMembers = desired.some((t) => t.members !== undefined);
    const [teams, members] = await Promise.all([readTeams(ctx), withMembers ? readMembers(ctx) : Promise.resolve(undefined)]);
    return { teams, members };
  },

  plan(ctx, remote): KindPlan {
    const kp = emptyKindPlan();
    const desired = ctx.desired.teams;
    if (desired === undefined || remote === undefined) return kp;
    kp.remoteCount = remote.teams.length;
    const memberOf = memberRefs(ctx.org, ctx.desired.members, indexMembers(remote.members ?? []));
    const prints: Array<[string, unknown]> = [];
    const match = matchTeams(desired, remote.teams);
    const { pairs, unmatched } = match;
    if (!ctx.prunes('teams')) {
      for (const { desired: d } of keyCollisions(match, { desiredKey: (t) => t.title, remoteKey: (t) => t.title })) {
        kp.problems.push({ org: ctx.org, address: teamAddress(d.title), message: collisionMessage('teams', d.title, 'teams') });
      }
    }

    for (const { desired: d, remote: r } of pairs) {
      const address = teamAddress(d.title);
      if (!r) {
        // Members go in with the create (people this plan invites too, by the invite's answer); unknown
        // users are the team members' problem to report, and owners get their role from the team
        // members' step.
        const found = (d.members ?? []).map((m) => memberOf(teamMemberEntry(m).user)).filter((m): m is MemberRef => m !== undefined);
        const ids = [...new Set(found.map((m) => m.id))];
        const invites = [...new Set(found.flatMap((m) => (m.invite ? [m.invite] : [])))];
        const after: JsonObject = { title: d.title, ...(d.members === undefined ? {} : { members: [...new Set(found.map((m) => m.label))] }) };
        kp.steps.push(step({
          address,
          kind: 'teams',
          action: 'create',
          before: null,
          after,
          requests: [
            {
              method: 'PUT',
              path: `${orgPath(ctx.org)}/teams`,
              body: { title: d.title, ...(d.members === undefined ? {} : { members: ids }) },
              capture: true,
              lookup: { path: `${orgPath(ctx.org)}/teams`, match: { title: d.title } },
            },
          ],
          needs: invites,
          ...notesOf(lookAlikeNote('team', d.title, remote.teams.map((t) => t.title))),
        }));
        prints.push([address, null]);
        continue;
      }
      if (r.title === d.title) continue;
      const before = { title: r.title };
      const after = { title: d.title };
      kp.steps.push(step({
        address,
        kind: 'teams',
        action: 'update',
        before,
        after,
        requests: [{ method: 'PATCH', path: `${orgPath(ctx.org)}/teams/${enc(r.id)}`, body: after }],
        remoteId: r.id }));
      prints.push([address, normalized(r)]);
    }

    planUnmatched(kp, prints, unmatched, {
      kind: 'teams',
      prune: ctx.prunes('teams'),
      address: teamAddress,
      naturalKey: (r) => r.title,
      id: (r) => r.id,
      twinOf: (r) => pairs.find((p) => p.remote && p.remote.title === r.title)?.remote?.id,
      before: (r) => ({ title: r.title, ...(typeof r.members === 'number' ? { members: r.members } : {}) }),
      requests: (r) => [{ method: 'DELETE', path: `${orgPath(ctx.org)}/teams/${enc(r.id)}` }],
      normalized });
    kp.fingerprints = fingerprintEntries(prints);
    return kp;
  } };

