/** Members, teams and team members (API 4.6). A member's id is its user id. */
import { z } from 'zod';
import { badRequest, bodyObject, created, deleted, listReply, noContent, notFound, ok, validate } from '../http.js';
import type { RouteRequest, Router } from '../http.js';
import { memberView, spaceView, teamView } from '../views.js';
import type { MemberRec, OrgRec, TeamRec, TeamRole } from '../world.js';
import { findUser } from '../world.js';
import { Role, liveSpaces, location, nowIso, orgOf, viewCtx } from './common.js';

const PatchMember = z.strictObject({ role: Role.nullable() });
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

const SORTS = ['joinedAt', 'lastSeenAt', 'displayName'] as const;

function memberOf(req: RouteRequest, org: OrgRec): MemberRec {
  const member = org.members.get(req.params.user);
  if (!member) throw notFound(`no member ${req.params.user} in organization ${org.id}`);
  return member;
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

function admins(org: OrgRec): number {
  let n = 0;
  for (const m of org.members.values()) if (m.role === 'admin' && !m.disabled) n++;
  return n;
}

function compareBy(sort: (typeof SORTS)[number], req: RouteRequest) {
  const key = (m: MemberRec): string => {
    if (sort === 'displayName') return req.world.users.get(m.userId)!.displayName.toLowerCase();
    if (sort === 'lastSeenAt') return m.lastSeenAt ?? '';
    return m.joinedAt;
  };
  return (a: MemberRec, b: MemberRec) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) return ka < kb ? -1 : 1;
    return a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0;
  };
}

export function memberRoutes(router: Router): void {
  router.add('GET', '/v1/orgs/:org/members', (req) => {
    const org = orgOf(req);
    const role = req.query.get('role');
    if (role !== null && !Role.options.includes(role as never)) throw badRequest(`role: must be one of ${Role.options.join(', ')}`);
    const sort = (req.query.get('sort') ?? 'joinedAt') as (typeof SORTS)[number];
    if (!SORTS.includes(sort)) throw badRequest(`sort: must be one of ${SORTS.join(', ')}`);
    const order = req.query.get('order') ?? 'desc';
    if (order !== 'asc' && order !== 'desc') throw badRequest('order: must be one of asc, desc');
    const search = req.query.get('search')?.toLowerCase();

    let members = [...org.members.values()];
    if (role !== null) members = members.filter((m) => m.role === role);
    if (search) {
      members = members.filter((m) => {
        const user = req.world.users.get(m.userId)!;
        return user.displayName.toLowerCase().includes(search) || user.email.toLowerCase().includes(search);
      });
    }
    // Sorting by last-seen lists only members who have been active.
    if (sort === 'lastSeenAt') members = members.filter((m) => m.lastSeenAt !== undefined);
    members.sort(compareBy(sort, req));
    if (order === 'desc') members.reverse();
    return listReply(req.query, members, (m) => memberView(viewCtx(req), org, m));
  });

  router.add('GET', '/v1/orgs/:org/members/:user', (req) => {
    const org = orgOf(req);
    return ok(memberView(viewCtx(req), org, memberOf(req, org)));
  });

  router.add('PATCH', '/v1/orgs/:org/members/:user', (req) => {
    const org = orgOf(req);
    const member = memberOf(req, org);
    const body = validate(PatchMember, bodyObject(req));
    if (member.role === 'admin' && body.role !== 'admin' && admins(org) <= 1) {
      throw badRequest('role: the organization must keep at least one admin');
    }
    member.role = body.role;
    return ok(memberView(viewCtx(req), org, member));
  });

  router.add('DELETE', '/v1/orgs/:org/members/:user', (req) => {
    const org = orgOf(req);
    const member = org.members.get(req.params.user);
    if (!member) return deleted(false);
    if (member.role === 'admin' && admins(org) <= 1) throw badRequest('user: the organization must keep at least one admin');
    org.members.delete(member.userId);
    for (const team of org.teams.values()) team.members.delete(member.userId);
    return deleted(true);
  });

  router.add('POST', '/v1/orgs/:org/members/:user/sso', (req) => {
    const org = orgOf(req);
    const member = memberOf(req, org);
    member.sso = true;
    return ok(memberView(viewCtx(req), org, member));
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

  router.add('GET', '/v1/orgs/:org/members/:user/spaces', (req) => {
    const org = orgOf(req);
    const member = memberOf(req, org);
    const order = req.query.get('order') ?? 'desc';
    if (order !== 'asc' && order !== 'desc') throw badRequest('order: must be one of asc, desc');
    // The emulator keeps no per-space permissions: a member reaches every space at its organization role.
    const spaces = liveSpaces(req, org);
    if (order === 'desc') spaces.reverse();
    return listReply(req.query, spaces, (s) => ({ permission: member.role ?? 'read', space: spaceView(viewCtx(req), s) }));
  });
}

export function teamRoutes(router: Router): void {
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
    return created(teamView(viewCtx(req), org, team), location(req, `/orgs/${org.id}/teams/${team.id}`));
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
    // A SAML provider does not keep a default team that is gone.
    for (const provider of org.saml.values()) if (provider.defaultTeam === team.id) provider.defaultTeam = null;
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
}
