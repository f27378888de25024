/**
 * Teams (`teams["Engineering"]`): created with PUT ORG/teams `{title, members}`, renamed with PATCH,
 * deleted when pruned. The membership of a team is its own resource (team-members.ts).
 */
import type { TeamT } from './schema.js';
import type { JsonObject } from '../../model/step.js';
import { analyse } from '../common/analyse.js';
import { indexMembers, memberRefs, readMembers, type MemberRef, type RemoteMember } from '../shared/members.js';
import { emptyKindPlan, type KindPlan, type KindSpec } from '../kind.js';
import { lookAlikeNote } from '../common/text.js';
import { enc, orgPath } from '../common/paths.js';
import { step } from '../common/step.js';
import { readTeams, TEAM_KEYS, teamAddress, type RemoteTeam } from '../shared/teams.js';

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
    const desired = ctx.desired.teams;
    if (desired === undefined || remote === undefined) return emptyKindPlan();
    const memberOf = memberRefs(ctx.org, ctx.desired.members, indexMembers(remote.members ?? []));
    return analyse(ctx.org, desired, remote.teams, {
      kind: 'teams',
      what: 'teams',
      address: teamAddress,
      ...TEAM_KEYS,
      prune: ctx.prunes('teams'),
      fingerprint: normalized,
      observe: (r) => ({ title: r.title }),
      create(d, address) {
        // Members go in with the create (people this plan invites too, by the invite's answer); unknown
        // users are the team members' problem to report, and owners get their role from the team
        // members' step.
        const found = (d.members ?? []).map((m) => memberOf(teamMemberEntry(m).user)).filter((m): m is MemberRef => m !== undefined);
        const ids = [...new Set(found.map((m) => m.id))];
        const invites = [...new Set(found.flatMap((m) => (m.invite ? [m.invite] : [])))];
        const after: JsonObject = { title: d.title, ...(d.members === undefined ? {} : { members: [...new Set(found.map((m) => m.label))] }) };
        return [step({
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
        })];
      },
      update(d, r, address) {
        if (r.title === d.title) return [];
        const after = { title: d.title };
        return [step({ address, kind: 'teams', action: 'update', before: { title: r.title }, after, requests: [{ method: 'PATCH', path: `${orgPath(ctx.org)}/teams/${enc(r.id)}`, body: after }], remoteId: r.id })];
      },
      remove: (r) => ({
        before: { title: r.title, ...(typeof r.members === 'number' ? { members: r.members } : {}) },
        requests: [{ method: 'DELETE', path: `${orgPath(ctx.org)}/teams/${enc(r.id)}` }],
      }),
    }).plan;
  } };

