/**
 * Members of an organization; a member's id is its user id. Users themselves are seeded
 * only (the world's `users`); their view is here, the only place that shows them.
 */
import { z } from 'zod';
import { badRequest, bodyObject, deleted, listReply, notFound, ok, validate } from '../http.js';
import type { RouteRequest } from '../http.js';
import { SeedError, defineKind } from '../kind.js';
import type { OrgRec, Role as RoleT, UserRec, World } from '../model.js';
import { nowIso, orgOf, viewCtx } from '../routing.js';
import { Id, Role, Timestamp } from '../schemas.js';
import { apiUrl, compact } from '../views.js';
import type { Obj, ViewContext } from '../views.js';
import { liveSpaces, spaceView } from './spaces.js';

export interface MemberRec {
  userId: string;
  role: RoleT | null;
  sso: boolean;
  disabled: boolean;
  joinedAt: string;
  lastSeenAt?: string;
  /** `request`: removing the member only sends a request to the admins (202); else it removes (205). */
  removal?: MemberRemoval;
  /** Set when a removal was requested (202) and not carried out. */
  removalRequestedAt?: string;
}

/**
 * How a member's removal is answered: `immediate` (205, the member is gone) or `request` (202, a
 * request sent to the organization's admins; the member stays), as the live service may answer.
 */
export type MemberRemoval = 'immediate' | 'request';
const Removal = z.enum(['immediate', 'request']);

/**
 * How an invitation is answered: `accepted` (the invited user is a member at once, and the answer
 * lists their id) or `pending` (the invitation waits for the user to accept it: the answer lists no
 * user, and `acceptInvitations` makes them members), as the live service may answer.
 */
export type InvitationAnswer = 'accepted' | 'pending';
const Invitations = z.enum(['accepted', 'pending']);

/** An invitation left pending: the membership it gives once accepted. */
interface PendingInvitation {
  role: MemberRec['role'];
  sso: boolean;
}

declare module '../model.js' {
  interface OrgRec {
    /** User id → membership, in the order they joined. */
    members: Map<string, MemberRec>;
    /** The organization's default for its members' removal. */
    memberRemoval: MemberRemoval;
    invitations: InvitationAnswer;
    /** User id → an invitation not accepted yet (`invitations: pending`). */
    pendingInvitations: Map<string, PendingInvitation>;
  }
}

const MemberSeed = z.strictObject({
  /** User id or email. */
  user: Id,
  role: Role.nullable(),
  sso: z.boolean().optional(),
  disabled: z.boolean().optional(),
  joinedAt: Timestamp.optional(),
  lastSeenAt: Timestamp.optional(),
  /** Overrides the organization's `memberRemoval` for this member. */
  removal: Removal.optional(),
});

const PatchMember = z.strictObject({ role: Role.nullable() });

const InviteEmail = z.email();
const InviteMembers = z.strictObject({
  emails: z.array(z.union([InviteEmail, z.strictObject({ email: InviteEmail, role: Role.nullable() })])),
  role: Role.nullable().optional(),
  sso: z.boolean().optional(),
});

// The live description's `sort` values (listMembersInOrganizationById); `name` sorts by display name.
const SORTS = ['joinedAt', 'lastSeenAt', 'name'] as const;

export function findUser(world: World, idOrEmail: string): UserRec | undefined {
  const byId = world.users.get(idOrEmail);
  if (byId) return byId;
  const lower = idOrEmail.toLowerCase();
  for (const user of world.users.values()) if (user.email.toLowerCase() === lower) return user;
  return undefined;
}

export function userView(ctx: ViewContext, user: UserRec): Obj {
  return compact({
    object: 'user',
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    photoURL: user.photoURL,
    urls: { location: apiUrl(ctx, `/users/${user.id}`) },
  });
}

/**
 * How many of the organization's teams each user is in, from the teams' records (the teams kind
 * builds on members, not the reverse): one pass over every team's members, for the members list.
 * Counting member by member would scan every team for each member of a page, on the emulator's one
 * thread, while other answers wait. A team's list (a few members) counts them one by one.
 */
export function teamCounts(org: OrgRec): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of org.teams.values()) for (const userId of t.members.keys()) counts.set(userId, (counts.get(userId) ?? 0) + 1);
  return counts;
}

/** A member's view; `counts` (teamCounts) when the answer lists the organization's members. */
export function memberView(ctx: ViewContext, org: OrgRec, member: MemberRec, counts?: ReadonlyMap<string, number>): Obj {
  const user = ctx.world.users.get(member.userId)!;
  let teams = 0;
  if (counts) teams = counts.get(member.userId) ?? 0;
  else for (const t of org.teams.values()) if (t.members.has(member.userId)) teams++;
  return compact({
    object: 'member',
    id: member.userId,
    role: member.role,
    user: userView(ctx, user),
    disabled: member.disabled,
    joinedAt: member.joinedAt,
    lastSeenAt: member.lastSeenAt,
    sso: member.sso,
    spaces: 0,
    teams,
    // A number on the live service: the sites the member reaches by a site permission; none here.
    sites: 0,
  });
}

export function memberOf(req: RouteRequest, org: OrgRec): MemberRec {
  const member = org.members.get(req.params.user);
  if (!member) throw notFound(`no member ${req.params.user} in organization ${org.id}`);
  return member;
}

function admins(org: OrgRec): number {
  let n = 0;
  for (const m of org.members.values()) if (m.role === 'admin' && !m.disabled) n++;
  return n;
}

function compareBy(sort: (typeof SORTS)[number], req: RouteRequest) {
  const key = (m: MemberRec): string => {
    if (sort === 'name') return req.world.users.get(m.userId)!.displayName.toLowerCase();
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

export const membersKind = defineKind({
  name: 'members',
  auditObjects: { members: 'member' },
  orgSeed: {
    members: z.array(MemberSeed).default([]),
    /** `request`: removing a member answers 202 and leaves the member (default `immediate`: 205). */
    memberRemoval: Removal.default('immediate'),
    /** `pending`: an invitation answers no user and waits to be accepted (default `accepted`: a member at once). */
    invitations: Invitations.default('accepted'),
  },
  seedOrg(ctx, org, seed, place) {
    org.members = new Map();
    org.memberRemoval = seed.memberRemoval;
    org.invitations = seed.invitations;
    org.pendingInvitations = new Map();
    seed.members.forEach((m, i) => {
      const user = findUser(ctx.world, m.user);
      if (!user) throw new SeedError(`${place}.members[${i}].user`, `no user ${m.user} in users`);
      if (org.members.has(user.id)) throw new SeedError(`${place}.members[${i}].user`, `${m.user} is listed twice`);
      org.members.set(user.id, {
        userId: user.id,
        role: m.role,
        sso: m.sso ?? false,
        disabled: m.disabled ?? false,
        joinedAt: m.joinedAt ?? ctx.stamp(),
        lastSeenAt: m.lastSeenAt,
        removal: m.removal,
      });
    });
  },
  routes(router) {
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
      const view = viewCtx(req);
      const counts = teamCounts(org);
      return listReply(req.query, members, (m) => memberView(view, org, m, counts));
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
      if ((member.removal ?? org.memberRemoval) === 'request') {
        // A request sent to the admins (removeMemberFromOrganizationById 202): the member stays.
        member.removalRequestedAt ??= nowIso(req);
        return { status: 202 };
      }
      org.members.delete(member.userId);
      req.emit({ type: 'member-removed', org, userId: member.userId });
      return deleted(true);
    });

    // inviteUsersToOrganization: an invited user is a member at once (the answer lists their ids),
    // never seen until they accept, or, with `invitations: pending`, once they accept (the answer
    // lists no user); inviting a member again changes nothing.
    router.add('POST', '/v1/orgs/:org/invites', (req) => {
      const org = orgOf(req);
      const body = validate(InviteMembers, bodyObject(req));
      const users: string[] = [];
      for (const entry of body.emails) {
        const email = typeof entry === 'string' ? entry : entry.email;
        const role = typeof entry === 'string' ? (body.role ?? null) : entry.role;
        let user = findUser(req.world, email);
        if (!user) {
          user = { id: req.world.newId('user'), email, displayName: email.split('@')[0] };
          req.world.users.set(user.id, user);
        }
        if (org.members.has(user.id)) continue;
        if (org.invitations === 'pending') {
          org.pendingInvitations.set(user.id, { role, sso: body.sso ?? false });
          continue;
        }
        org.members.set(user.id, { userId: user.id, role, sso: body.sso ?? false, disabled: false, joinedAt: req.world.now().toISOString() });
        users.push(user.id);
      }
      return ok({ users, invited: users.length });
    });

    router.add('POST', '/v1/orgs/:org/members/:user/sso', (req) => {
      const org = orgOf(req);
      const member = memberOf(req, org);
      member.sso = true;
      return ok(memberView(viewCtx(req), org, member));
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
  },
});

/** The users of `org`'s pending invitations accept them, as they would from the email: they are members now. Returns their ids. */
export function acceptInvitations(world: World, org: OrgRec): string[] {
  const accepted = [...org.pendingInvitations.keys()];
  for (const [userId, invitation] of org.pendingInvitations) {
    org.members.set(userId, { userId, role: invitation.role, sso: invitation.sso, disabled: false, joinedAt: world.now().toISOString() });
  }
  org.pendingInvitations.clear();
  return accepted;
}
