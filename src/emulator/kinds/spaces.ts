/**
 * Spaces: their ids are global (`/v1/spaces/{id}`);
 * a deleted space keeps `deletedAt` and can be restored for 7 days. Also the lists of spaces of an
 * organization and of a collection.
 */
import { z } from 'zod';
import { badRequest, bodyObject, conflict, created, deleted, listReply, notFound, ok, validate } from '../http.js';
import type { RouteRequest } from '../http.js';
import { SeedError, defineKind } from '../kind.js';
import type { Level as LevelT, OrgRec, World } from '../model.js';
import { canReach, location, nowIso, orgOf, viewCtx } from '../routing.js';
import { Id, Language, Level, SpaceMergeRules, Timestamp, Uri } from '../schemas.js';
import { apiUrl, appUrl, compact, perms, publishedUrl } from '../views.js';
import type { Obj, ViewContext } from '../views.js';
import { collectionOf, collectionsByPath, parentCollection } from './collections.js';
import { gitSyncState } from './git-sync.js';

export interface SpaceRec {
  id: string;
  org: string;
  title: string;
  emoji?: string;
  /** URL of its icon: a space shows an emoji or an icon. */
  icon?: string;
  visibility: string;
  editMode: 'live' | 'locked';
  defaultLevel: LevelT | null;
  language?: string;
  parent?: string;
  mergeRules: unknown;
  revision: string;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
}

declare module '../model.js' {
  interface World {
    /** Spaces of every organization (their ids are global: `/v1/spaces/{id}`). */
    spaces: Map<string, SpaceRec>;
  }
  interface OrgRec {
    /** Ids of the organization's spaces in the order the API lists them. */
    spaceOrder: string[];
  }
}

const SpaceSeed = z.strictObject({
  id: Id.optional(),
  title: z.string().min(1),
  emoji: z.string().optional(),
  icon: Uri(2048).optional(),
  visibility: z.enum(['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private']).optional(),
  editMode: z.enum(['live', 'locked']).optional(),
  defaultLevel: Level.nullable().optional(),
  language: z.string().min(1).optional(),
  /** Parent collection by id. */
  parent: Id.optional(),
  /** Parent collection by path of titles (`Archive/2023`). */
  collection: z.string().min(1).optional(),
  mergeRules: SpaceMergeRules.optional(),
  createdAt: Timestamp.optional(),
  deletedAt: Timestamp.optional(),
});

const SpaceRef = z.strictObject({ type: z.literal('space'), space: z.string().min(1) });
const MoveSpace = z.strictObject({
  parent: z.string().min(1).nullable().optional(),
  position: z.strictObject({ before: SpaceRef.optional(), after: SpaceRef.optional() }).optional(),
});
// updateSpaceById's body in the live description: SpaceTitle (at most 50), Emoji (at most 50, null
// removes it), SpaceEditMode, DefaultLevel, the language enum.
const PatchSpace = z.strictObject({
  title: z.string().min(1).max(50).optional(),
  emoji: z.string().max(50).nullable().optional(),
  icon: Uri(2048).nullable().optional(),
  editMode: z.enum(['live', 'locked']).optional(),
  defaultLevel: Level.nullable().optional(),
  language: Language.optional(),
  mergeRules: SpaceMergeRules.optional(),
});

/** createSpace's fields (the description lets other properties through: templates, sources). */
const CreateSpace = z.looseObject({
  title: z.string().max(50).optional(),
  emoji: z.string().max(50).optional(),
  parent: Id.optional(),
  language: Language.optional(),
  editMode: z.enum(['live', 'locked']).optional(),
});

/** How long a deleted space can be restored. */
export const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** A deleted space past the retention window: gone for the API. */
export function isPurged(world: World, space: SpaceRec): boolean {
  return space.deletedAt !== undefined && world.now().getTime() - Date.parse(space.deletedAt) > RETENTION_MS;
}

export function spaceView(ctx: ViewContext, s: SpaceRec): Obj {
  return compact({
    object: 'space',
    id: s.id,
    title: s.title,
    // Required by the live description (Space.emoji): the empty string when the space has none.
    emoji: s.emoji ?? '',
    icon: s.icon,
    visibility: s.visibility,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    deletedAt: s.deletedAt,
    editMode: s.editMode,
    mergeRules: structuredClone(s.mergeRules),
    gitSync: gitSyncState(ctx.world, { space: s.id }),
    urls: {
      location: apiUrl(ctx, `/spaces/${s.id}`),
      app: appUrl(`/o/${s.org}/s/${s.id}`),
      published: publishedUrl(s.org, `/${s.id}`),
    },
    organization: s.org,
    parent: s.parent,
    language: s.language,
    revision: s.revision,
    defaultLevel: s.defaultLevel,
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    permissions: perms(ctx, [
      'view',
      'access',
      'admin',
      'viewInviteLinks',
      'edit',
      'triggerGitSync',
      'comment',
      'merge',
      'review',
      'installIntegration',
    ]),
  });
}

/** A space the API still knows (deleted ones too, within the 7 days of retention). */
export function spaceOf(req: RouteRequest, id = req.params.space): SpaceRec {
  const space = req.world.spaces.get(id);
  const org = space ? req.world.orgs.get(space.org) : undefined;
  if (!space || !org || !canReach(req, org) || isPurged(req.world, space)) throw notFound(`no space ${id}`);
  return space;
}

/** The organization's spaces that are not deleted, in the order the API lists them. */
export function liveSpaces(req: RouteRequest, org: OrgRec): SpaceRec[] {
  return org.spaceOrder.map((id) => req.world.spaces.get(id)!).filter((s) => s.deletedAt === undefined);
}

function liveSpace(req: RouteRequest): SpaceRec {
  const space = spaceOf(req);
  if (space.deletedAt) throw badRequest(`space ${space.id} is deleted: restore it first`);
  return space;
}

function moveSpaceToOrg(source: OrgRec, target: OrgRec, space: SpaceRec): void {
  source.spaceOrder = source.spaceOrder.filter((id) => id !== space.id);
  target.spaceOrder.push(space.id);
  space.org = target.id;
}

export const spacesKind = defineKind({
  name: 'spaces',
  auditObjects: { spaces: 'space' },
  orgSeed: {
    spaces: z.array(SpaceSeed).default([]),
  },
  initWorld(world) {
    world.spaces = new Map();
  },
  seedOrg(ctx, org, seed, place) {
    const { world } = ctx;
    const id = org.id;
    org.spaceOrder = [];
    const byPath = collectionsByPath(world, id);
    seed.spaces.forEach((s, i) => {
      const sid = s.id ?? world.newId('space');
      if (world.spaces.has(sid)) throw new SeedError(`${place}.spaces[${i}].id`, `space ${sid} is listed twice`);
      let parent = s.parent;
      if (parent !== undefined && world.collections.get(parent)?.org !== id) {
        throw new SeedError(`${place}.spaces[${i}].parent`, `no collection ${parent} in ${id}`);
      }
      if (s.collection !== undefined) {
        parent = byPath.get(s.collection);
        if (!parent) throw new SeedError(`${place}.spaces[${i}].collection`, `no collection at path ${s.collection}`);
      }
      const createdAt = s.createdAt ?? ctx.stamp();
      world.spaces.set(sid, {
        id: sid,
        org: id,
        title: s.title,
        emoji: s.emoji,
        icon: s.icon,
        visibility: s.visibility ?? (parent ? 'in-collection' : 'private'),
        editMode: s.editMode ?? 'live',
        defaultLevel: s.defaultLevel ?? null,
        language: s.language,
        parent,
        mergeRules: s.mergeRules ?? { type: 'inherit' },
        revision: world.newId('rev'),
        createdAt,
        updatedAt: createdAt,
        deletedAt: s.deletedAt,
      });
      org.spaceOrder.push(sid);
    });
  },
  on(world, event) {
    if (event.type === 'collections-deleted') {
      // The spaces of deleted collections move to the top level.
      for (const space of world.spaces.values()) if (space.parent && event.ids.has(space.parent)) space.parent = undefined;
    } else if (event.type === 'collections-transferred') {
      // The spaces of transferred collections go with them.
      for (const space of world.spaces.values()) {
        if (space.parent && event.ids.has(space.parent)) moveSpaceToOrg(event.from, event.to, space);
      }
    }
  },
  routes(router) {
    router.add('GET', '/v1/orgs/:org/spaces', (req) => {
      const org = orgOf(req);
      return listReply(req.query, liveSpaces(req, org), (s) => spaceView(viewCtx(req), s));
    });

    // createSpace: title, emoji, parent collection, language, editMode (templates and sources are not emulated).
    router.add('POST', '/v1/orgs/:org/spaces', (req) => {
      const org = orgOf(req);
      const body = validate(CreateSpace, bodyObject(req));
      if (body.parent !== undefined) parentCollection(req, org.id, body.parent);
      const now = nowIso(req);
      const space: SpaceRec = {
        id: req.world.newId('space'),
        org: org.id,
        title: body.title ?? '',
        emoji: body.emoji,
        visibility: body.parent ? 'in-collection' : 'private',
        editMode: body.editMode ?? 'live',
        defaultLevel: null,
        language: body.language,
        parent: body.parent,
        mergeRules: { type: 'inherit' },
        revision: req.world.newId('rev'),
        createdAt: now,
        updatedAt: now,
      };
      req.world.spaces.set(space.id, space);
      org.spaceOrder.push(space.id);
      return created(spaceView(viewCtx(req), space), location(req, `/spaces/${space.id}`));
    });

    router.add('GET', '/v1/collections/:collection/spaces', (req) => {
      const c = collectionOf(req);
      const org = req.world.orgs.get(c.org)!;
      const spaces = org.spaceOrder.map((id) => req.world.spaces.get(id)!).filter((s) => s.parent === c.id && !s.deletedAt);
      return listReply(req.query, spaces, (s) => spaceView(viewCtx(req), s));
    });

    router.add('GET', '/v1/spaces/:space', (req) => ok(spaceView(viewCtx(req), spaceOf(req))));

    router.add('PATCH', '/v1/spaces/:space', (req) => {
      const space = liveSpace(req);
      const body = validate(PatchSpace, bodyObject(req));
      // The description's body is one of: an emoji, an icon, or null for both.
      if (typeof body.emoji === 'string' && typeof body.icon === 'string') throw badRequest('a space takes an emoji or an icon, not both');
      if (body.title !== undefined) space.title = body.title;
      if (body.emoji !== undefined) space.emoji = body.emoji ?? undefined;
      if (body.icon !== undefined) space.icon = body.icon ?? undefined;
      // One replaces the other.
      if (typeof body.emoji === 'string') space.icon = undefined;
      if (typeof body.icon === 'string') space.emoji = undefined;
      if (body.editMode !== undefined) space.editMode = body.editMode;
      if (body.defaultLevel !== undefined) space.defaultLevel = body.defaultLevel;
      if (body.language !== undefined) space.language = body.language;
      if (body.mergeRules !== undefined) space.mergeRules = structuredClone(body.mergeRules);
      space.updatedAt = nowIso(req);
      return ok(spaceView(viewCtx(req), space));
    });

    router.add('DELETE', '/v1/spaces/:space', (req) => {
      const space = req.world.spaces.get(req.params.space);
      const org = space ? req.world.orgs.get(space.org) : undefined;
      if (!space || !org || !canReach(req, org) || space.deletedAt) return deleted(false);
      // A soft delete: the space keeps `deletedAt` and can be restored for 7 days.
      space.deletedAt = nowIso(req);
      return deleted(true);
    });

    router.add('POST', '/v1/spaces/:space/restore', (req) => {
      const space = spaceOf(req);
      // spaceOf answers 404 for a space deleted more than 7 days ago: it is gone for good.
      if (!space.deletedAt) throw badRequest(`space ${space.id} is not deleted`);
      space.deletedAt = undefined;
      space.updatedAt = nowIso(req);
      return ok(spaceView(viewCtx(req), space));
    });

    router.add('POST', '/v1/spaces/:space/move', (req) => {
      const space = liveSpace(req);
      const body = validate(MoveSpace, bodyObject(req));
      const org = req.world.orgs.get(space.org)!;
      const newParent = body.parent === undefined ? space.parent : (body.parent ?? undefined);
      if (newParent !== undefined) parentCollection(req, org.id, newParent);
      const ref = body.position?.before ?? body.position?.after;
      if (body.position && body.position.before && body.position.after) throw badRequest('position: give before or after, not both');
      let anchor: SpaceRec | undefined;
      if (ref) {
        anchor = req.world.spaces.get(ref.space);
        if (!anchor || anchor.org !== org.id || anchor.deletedAt || anchor.parent !== newParent || anchor.id === space.id) {
          throw badRequest(`position: no space ${ref.space} next to which ${space.id} could be placed in that collection`);
        }
      }
      const order = org.spaceOrder.filter((id) => id !== space.id);
      const at = anchor ? order.indexOf(anchor.id) + (body.position?.after ? 1 : 0) : org.spaceOrder.indexOf(space.id);
      order.splice(at, 0, space.id);
      const sameOrder = order.every((id, i) => id === org.spaceOrder[i]);
      if (newParent === space.parent && sameOrder) {
        throw conflict(`parent: space ${space.id} is already there (the move would not result in any update)`);
      }
      space.parent = newParent;
      org.spaceOrder = order;
      space.updatedAt = nowIso(req);
      return ok(spaceView(viewCtx(req), space));
    });
  },
});
