/** Teams and their members, and the teams of a member. */
import { z } from 'zod';
import { badRequest, bodyObject, created, deleted, listReply, noContent, notFound, ok, validate } from '../http.js';
import type { RouteRequest } from '../http.js';
import { SeedError, defineKind } from '../kind.js';
import type { OrgRec } from '../model.js';
import { nowIso, orgOf, viewCtx } from '../routing.js';
import { Id, Timestamp } from '../schemas.js';
import { apiUrl, perms } from '../views.js';
import type { Obj, ViewContext } from '../views.js';
import { findUser, memberOf, memberView } from './members.js';

export type TeamRole = 'owner' | 'member';

export interface TeamRec {
  id: string;
  title: string;
  createdAt: string;
  /** User id → role in the team, in the order they joined. */
  members: Map<string, TeamRole>;
}

declare module '../model.js' {
  interface OrgRec {
    teams: Map<string, TeamRec>;
  }
}

const TeamMemberSeed = z.union([Id, z.strictObject({ user: Id, role: z.enum(['owner', 'member']).default('member') })]);

const TeamSeed = z.strictObject({
  id: Id.optional(),
  title: z.string().min(1).max(64),
  members: z.array(TeamMemberSeed).default([]),
  createdAt: Timestamp.optional(),
});

const TeamTitle = z.string().min(1).max(64);
const CreateTeam = z.strictObject({ title: TeamTitle, members: z.array(z.string().min(1)).optional() });
const PatchTeam = z.strictObject({ title: TeamTitle });
const TeamRoleSchema = z.enum(['owner', 'member']);
const PutTeamMembers = z.strictObject({
  add: z.array(z.string().min(1)).optional(),
  remove: z.array(z.string().min(1)).optional(),
  memberships: z.record(z.string(), z.strictObject({ role: TeamRoleSchema })).optional(),
});
const PutTeamMember = z.strictObject({ role: TeamRoleSchema.optional() });

export function teamView(ctx: ViewContext, org: OrgRec, team: TeamRec): Obj {
  return {
    object: 'team',
    id: team.id,
    title: team.title,
    members: team.members.size,
    spaces: 0,
    createdAt: team.createdAt,
    permissions: perms(ctx, ['admin', 'view']),
    urls: { location: apiUrl(ctx, `/orgs/${org.id}/teams/${team.id}`) },
  };
}

/** A team of the organization, by id or title (the state file may name it either way). */
export function findTeam(org: OrgRec, idOrTitle: string): TeamRec | undefined {
  return org.teams.get(idOrTitle) ?? [...org.teams.values()].find((t) => t.title === idOrTitle);
}

function teamOf(req: RouteRequest, org: OrgRec): TeamRec {
  const team = org.teams.get(req.params.team);
  if (!team) throw notFound(`no team ${req.params.team} in organization ${org.id}`);
  return team;
}

/** A user id or email that names a member of the organization; 400 naming `field` otherwise. */
function resolveMember(org: OrgRec, req: RouteRequest, idOrEmail: string, field: string): string {
  const user = findUser(req.world, idOrEmail);
  if (!user || !org.members.has(user.id)) throw badRequest(`${field}: ${idOrEmail} is not a member of organization ${org.id}`);
  return user.id;
}

export const teamsKind = defineKind({
  name: 'teams',
  auditObjects: { teams: 'team' },
  orgSeed: {
    teams: z.array(TeamSeed).default([]),
  },
  seedOrg(ctx, org, seed, place) {
    org.teams = new Map();
    seed.teams.forEach((t, i) => {
      const tid = t.id ?? ctx.world.newId('team');
      const members = new Map<string, TeamRole>();
      t.members.forEach((m, j) => {
        const who = typeof m === 'string' ? m : m.user;
        const user = findUser(ctx.world, who);
        if (!user || !org.members.has(user.id)) {
          throw new SeedError(`${place}.teams[${i}].members[${j}]`, `${who} is not a member of ${org.id}`);
        }
        members.set(user.id, typeof m === 'string' ? 'member' : m.role);
      });
      org.teams.set(tid, { id: tid, title: t.title, createdAt: t.createdAt ?? ctx.stamp(), members });
    });
  },
  on(_world, event) {
    // A member's removal takes them out of their teams.
    if (event.type === 'member-removed') for (const team of event.org.teams.values()) team.members.delete(event.userId);
  },
  routes(router) {
    router.add('GET', '/v1/orgs/:org/teams', (req) => {
      const org = orgOf(req);
      const title = req.query.get('title')?.toLowerCase();
      const owner = req.query.get('owner');
      let teams = [...org.teams.values()];
      if (title) teams = teams.filter((t) => t.title.toLowerCase().includes(title));
      if (owner) {
        // An organization admin manages every team; anyone else the teams they own.
        const isAdmin = org.members.get(owner)?.role === 'admin';
        if (!isAdmin) teams = teams.filter((t) => t.members.get(owner) === 'owner');
      }
      return listReply(req.query, teams, (t) => teamView(viewCtx(req), org, t));
    });

    router.add('PUT', '/v1/orgs/:org/teams', (req) => {
      const org = orgOf(req);
      const body = validate(CreateTeam, bodyObject(req));
      const members = new Map<string, TeamRole>();
      (body.members ?? []).forEach((m, i) => members.set(resolveMember(org, req, m, `members[${i}]`), 'member'));
      const team: TeamRec = { id: req.world.newId('team'), title: body.title, createdAt: nowIso(req), members };
      org.teams.set(team.id, team);
      // No Location: the live description documents none for createOrganizationTeam.
      return created(teamView(viewCtx(req), org, team));
    });

    router.add('GET', '/v1/orgs/:org/teams/:team', (req) => {
      const org = orgOf(req);
      return ok(teamView(viewCtx(req), org, teamOf(req, org)));
    });

    router.add('PATCH', '/v1/orgs/:org/teams/:team', (req) => {
      const org = orgOf(req);
      const team = teamOf(req, org);
      const body = validate(PatchTeam, bodyObject(req));
      team.title = body.title;
      return ok(teamView(viewCtx(req), org, team));
    });

    router.add('DELETE', '/v1/orgs/:org/teams/:team', (req) => {
      const org = orgOf(req);
      const team = org.teams.get(req.params.team);
      if (!team) return deleted(false);
      org.teams.delete(team.id);
      req.emit({ type: 'team-deleted', org, teamId: team.id });
      return deleted(true);
    });

    router.add('GET', '/v1/orgs/:org/teams/:team/members', (req) => {
      const org = orgOf(req);
      const team = teamOf(req, org);
      return listReply(req.query, [...team.members], ([userId, role]) => ({
        organization: memberView(viewCtx(req), org, org.members.get(userId)!),
        team: { role },
        permissions: { view: true },
      }));
    });

    router.add('PUT', '/v1/orgs/:org/teams/:team/members', (req) => {
      const org = orgOf(req);
      const team = teamOf(req, org);
      const body = validate(PutTeamMembers, bodyObject(req));
      // Resolve everything first, so that a bad entry changes nothing.
      const add = (body.add ?? []).map((m, i) => resolveMember(org, req, m, `add[${i}]`));
      const memberships = Object.entries(body.memberships ?? {}).map(
        ([m, v]) => [resolveMember(org, req, m, `memberships.${m}`), v.role] as const,
      );
      const remove = (body.remove ?? []).map((m) => findUser(req.world, m)?.id).filter((id): id is string => id !== undefined);
      for (const id of add) if (!team.members.has(id)) team.members.set(id, 'member');
      for (const [id, role] of memberships) team.members.set(id, role);
      // A user in both `add` and `remove` ends up removed.
      for (const id of remove) team.members.delete(id);
      return noContent();
    });

    router.add('PUT', '/v1/orgs/:org/teams/:team/members/:user', (req) => {
      const org = orgOf(req);
      const team = teamOf(req, org);
      const body = validate(PutTeamMember, bodyObject(req));
      const userId = resolveMember(org, req, req.params.user, 'user');
      team.members.set(userId, body.role ?? team.members.get(userId) ?? 'member');
      return noContent();
    });

    router.add('DELETE', '/v1/orgs/:org/teams/:team/members/:user', (req) => {
      const org = orgOf(req);
      const team = teamOf(req, org);
      const userId = findUser(req.world, req.params.user)?.id ?? req.params.user;
      return deleted(team.members.delete(userId));
    });

    router.add('GET', '/v1/orgs/:org/members/:user/teams', (req) => {
      const org = orgOf(req);
      const member = memberOf(req, org);
      const title = req.query.get('title')?.toLowerCase();
      const items = [...org.teams.values()]
        .filter((t) => t.members.has(member.userId) && (!title || t.title.toLowerCase().includes(title)))
        .map((t) => ({ team: teamView(viewCtx(req), org, t), member: { role: t.members.get(member.userId) } }));
      return listReply(req.query, items);
    });
  },
});
