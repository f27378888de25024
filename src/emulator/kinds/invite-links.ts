/**
 * The organization's invite links (`/orgs/{org}/link-invites`): to the organization with a role, to
 * a space or a collection with a level (a role, or null for guests). As the live description says:
 * the list is paged, create answers 201 with the link, update (`{role}` or `{level}`) answers 200,
 * delete 205 or 204; a link to a space or a collection carries the whole space or collection.
 * A link to a collection that is deleted or leaves the organization goes with it; one to a deleted
 * space is not listed.
 */
import { z } from 'zod';
import { badRequest, bodyObject, created, deleted, listReply, notFound, ok, validate } from '../http.js';
import type { RouteRequest } from '../http.js';
import { SeedError, defineKind } from '../kind.js';
import type { OrgRec, Role as RoleT, World } from '../model.js';
import { orgOf, viewCtx } from '../routing.js';
import { Id, Role } from '../schemas.js';
import type { Obj } from '../views.js';
import { collectionView, collectionsByPath } from './collections.js';
import { isPurged, spaceView } from './spaces.js';

export interface InviteLinkRec {
  id: string;
  /** The organization's link: the role it gives (null: guest). */
  role?: RoleT | null;
  /** A space's or a collection's link: the level it gives (null: guest). */
  level?: RoleT | null;
  space?: string;
  collection?: string;
}

declare module '../model.js' {
  interface OrgRec {
    /**
     * Invite links by id, in creation order (named after their path, `link-invites`: the
     * organization's `inviteLinks` is its setting that enables them).
     */
    linkInvites: Map<string, InviteLinkRec>;
  }
}

const RoleOrGuest = Role.nullable();

const LinkSeed = z
  .strictObject({
    id: Id.optional(),
    role: RoleOrGuest.optional(),
    level: RoleOrGuest.optional(),
    space: Id.optional(),
    /** The collection by its path of titles (`Archive/2023`). */
    collection: z.string().min(1).optional(),
  })
  .refine((l) => !(l.space !== undefined && l.collection !== undefined), 'give space or collection, not both')
  .refine((l) => (l.space === undefined && l.collection === undefined ? l.role !== undefined && l.level === undefined : l.level !== undefined && l.role === undefined), 'the organization\'s link takes role, a space\'s or a collection\'s takes level');

// createOrganizationInvite (CreateOrganizationInvite): one of three shapes.
const CreateForOrganization = z.strictObject({ role: RoleOrGuest });
const CreateForSpace = z.strictObject({ level: RoleOrGuest, space: z.string().min(1) });
const CreateForCollection = z.strictObject({ level: RoleOrGuest, collection: z.string().min(1) });
// updateOrganizationInviteById: `{role}` for the organization's link, `{level}` for the others.
const UpdateRole = z.strictObject({ role: RoleOrGuest });
const UpdateLevel = z.strictObject({ level: RoleOrGuest });

/** Whether the link's target is still there (a deleted space's link is not listed). */
function live(world: World, org: OrgRec, l: InviteLinkRec): boolean {
  if (l.space !== undefined) {
    const s = world.spaces.get(l.space);
    return s !== undefined && s.org === org.id && s.deletedAt === undefined && !isPurged(world, s);
  }
  if (l.collection !== undefined) return world.collections.get(l.collection)?.org === org.id;
  return true;
}

/** The link as the API answers it (InviteLinkToOrganization, InviteLinkToSpace, InviteLinkToCollection). */
function linkView(req: RouteRequest, org: OrgRec, l: InviteLinkRec): Obj {
  // Redundant: the asking user is a member already (a token acting for no user never is).
  const redundant = req.userId !== undefined && org.members.has(req.userId);
  if (l.space !== undefined) return { object: 'invite', id: l.id, level: l.level ?? null, redundant, space: spaceView(viewCtx(req), req.world.spaces.get(l.space)!) };
  if (l.collection !== undefined) return { object: 'invite', id: l.id, level: l.level ?? null, redundant, collection: collectionView(viewCtx(req), req.world.collections.get(l.collection)!) };
  return { object: 'invite', id: l.id, role: l.role ?? null, redundant };
}

function linkOf(req: RouteRequest, org: OrgRec): InviteLinkRec {
  const l = org.linkInvites.get(req.params.invite);
  if (!l || !live(req.world, org, l)) throw notFound(`no invite link ${req.params.invite} in organization ${org.id}`);
  return l;
}

/** The new link of a create's body, its target checked. */
function newLink(req: RouteRequest, org: OrgRec): InviteLinkRec {
  const body = bodyObject(req);
  const id = req.world.newId('invite');
  if ('space' in body) {
    const b = validate(CreateForSpace, body);
    const s = req.world.spaces.get(b.space);
    if (!s || s.org !== org.id || s.deletedAt !== undefined) throw badRequest(`space: no space ${b.space} in organization ${org.id}`);
    return { id, level: b.level, space: b.space };
  }
  if ('collection' in body) {
    const b = validate(CreateForCollection, body);
    if (req.world.collections.get(b.collection)?.org !== org.id) throw badRequest(`collection: no collection ${b.collection} in organization ${org.id}`);
    return { id, level: b.level, collection: b.collection };
  }
  return { id, role: validate(CreateForOrganization, body).role };
}

export const inviteLinksKind = defineKind({
  name: 'inviteLinks',
  auditObjects: { 'link-invites': 'invite' },
  orgSeed: {
    linkInvites: z.array(LinkSeed).default([]),
  },
  seedOrg(ctx, org, seed, place) {
    org.linkInvites = new Map();
    const paths = collectionsByPath(ctx.world, org.id);
    seed.linkInvites.forEach((l, i) => {
      const at = `${place}.linkInvites[${i}]`;
      const id = l.id ?? ctx.world.newId('invite');
      if (org.linkInvites.has(id)) throw new SeedError(`${at}.id`, `invite link ${id} is listed twice`);
      if (l.space !== undefined && ctx.world.spaces.get(l.space)?.org !== org.id) throw new SeedError(`${at}.space`, `no space ${l.space} in ${org.id}`);
      const collection = l.collection === undefined ? undefined : paths.get(l.collection);
      if (l.collection !== undefined && collection === undefined) throw new SeedError(`${at}.collection`, `no collection ${l.collection} in ${org.id}`);
      org.linkInvites.set(id, { id, ...(l.role !== undefined ? { role: l.role } : {}), ...(l.level !== undefined ? { level: l.level } : {}), ...(l.space !== undefined ? { space: l.space } : {}), ...(collection !== undefined ? { collection } : {}) });
    });
  },
  routes(router) {
    // The description gives the list's items as InviteLinkToOrganization, which requires `role`: a
    // space's or a collection's link carries `role: null` there (its holder joins as a guest). Its
    // own answers leave it out (OrganizationInviteLink is oneOf the three shapes).
    router.add('GET', '/v1/orgs/:org/link-invites', (req) => {
      const org = orgOf(req);
      return listReply(req.query, [...org.linkInvites.values()].filter((l) => live(req.world, org, l)), (l) => ({ role: null, ...linkView(req, org, l) }));
    });

    router.add('POST', '/v1/orgs/:org/link-invites', (req) => {
      const org = orgOf(req);
      const l = newLink(req, org);
      org.linkInvites.set(l.id, l);
      return created(linkView(req, org, l));
    });

    router.add('GET', '/v1/orgs/:org/link-invites/:invite', (req) => {
      const org = orgOf(req);
      return ok(linkView(req, org, linkOf(req, org)));
    });

    router.add('PATCH', '/v1/orgs/:org/link-invites/:invite', (req) => {
      const org = orgOf(req);
      const l = linkOf(req, org);
      const body = bodyObject(req);
      if (l.space === undefined && l.collection === undefined) {
        if ('level' in body) throw badRequest('level: this link invites to the organization: send role');
        l.role = validate(UpdateRole, body).role;
      } else {
        if ('role' in body) throw badRequest(`role: this link invites to a ${l.space !== undefined ? 'space' : 'collection'}: send level`);
        l.level = validate(UpdateLevel, body).level;
      }
      return ok(linkView(req, org, l));
    });

    router.add('DELETE', '/v1/orgs/:org/link-invites/:invite', (req) => {
      const org = orgOf(req);
      const l = org.linkInvites.get(req.params.invite);
      return deleted(l !== undefined && org.linkInvites.delete(l.id));
    });
  },
  on(world, event) {
    if (event.type !== 'collections-deleted' && event.type !== 'collections-transferred') return;
    for (const org of world.orgs.values()) {
      for (const l of [...org.linkInvites.values()]) if (l.collection !== undefined && event.ids.has(l.collection)) org.linkInvites.delete(l.id);
    }
  },
});
