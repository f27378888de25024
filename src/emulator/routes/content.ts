/** Collections (API 4.1) and spaces (API 4.7, without change requests and content). */
import { z } from 'zod';
import { badRequest, bodyObject, created, deleted, listReply, ok, queryBoolean, validate } from '../http.js';
import type { RouteRequest, Router } from '../http.js';
import { collectionView, spaceView } from '../views.js';
import type { CollectionRec, OrgRec, SpaceRec } from '../world.js';
import { collectionSubtree, orgCollections } from '../world.js';
import { Level, canReach, collectionOf, location, nowIso, orgOf, spaceOf, viewCtx } from './common.js';

const CreateCollection = z.strictObject({
  title: z.string().min(1).max(50).optional(),
  parent: z.string().min(1).optional(),
});
const PatchCollection = z.strictObject({
  title: z.string().min(1).max(50).optional(),
  description: z.string().max(100).nullable().optional(),
  defaultLevel: Level.nullable().optional(),
});
const Transfer = z.strictObject({ organization: z.string().min(1) });
// Collections keep their siblings in creation order; a position is accepted and not applied.
const MoveCollection = z.strictObject({ parent: z.string().min(1).nullable(), position: z.record(z.string(), z.unknown()).optional() });

const SpaceRef = z.strictObject({ type: z.literal('space'), space: z.string().min(1) });
const MoveSpace = z.strictObject({
  parent: z.string().min(1).nullable().optional(),
  position: z.strictObject({ before: SpaceRef.optional(), after: SpaceRef.optional() }).optional(),
});
const PatchSpace = z.strictObject({
  title: z.string().min(1).optional(),
  emoji: z.string().optional(),
  editMode: z.enum(['live', 'locked']).optional(),
  defaultLevel: Level.nullable().optional(),
  language: z.string().min(1).optional(),
  mergeRules: z.looseObject({ type: z.string() }).optional(),
});

/** The target of `parent`: a collection of the same organization, or 400. */
function parentCollection(req: RouteRequest, org: string, id: string, field = 'parent'): CollectionRec {
  const c = req.world.collections.get(id);
  if (!c || c.org !== org) throw badRequest(`${field}: no collection ${id} in organization ${org}`);
  return c;
}

/** The organization a transfer goes to: one the token reaches, or 400. */
function transferTarget(req: RouteRequest, id: string): OrgRec {
  const target = req.world.orgs.get(id);
  if (!target || !canReach(req, target)) throw badRequest(`organization: no organization ${id}`);
  return target;
}

function liveSpace(req: RouteRequest): SpaceRec {
  const space = spaceOf(req);
  if (space.deletedAt) throw badRequest(`space ${space.id} is deleted: restore it first`);
  return space;
}

export function collectionRoutes(router: Router): void {
  router.add('GET', '/v1/orgs/:org/collections', (req) => {
    const org = orgOf(req);
    const nested = queryBoolean(req.query, 'nested') ?? true;
    const all = orgCollections(req.world, org.id);
    const items = nested ? all : all.filter((c) => c.parent === undefined);
    return listReply(req.query, items, (c) => collectionView(viewCtx(req), c));
  });

  router.add('POST', '/v1/orgs/:org/collections', (req) => {
    const org = orgOf(req);
    const body = validate(CreateCollection, bodyObject(req));
    if (body.parent !== undefined) parentCollection(req, org.id, body.parent);
    const c: CollectionRec = {
      id: req.world.newId('col'),
      org: org.id,
      title: body.title ?? 'Untitled',
      parent: body.parent,
      defaultLevel: null,
      createdAt: nowIso(req),
    };
    req.world.collections.set(c.id, c);
    return created(collectionView(viewCtx(req), c), location(req, `/collections/${c.id}`));
  });

  router.add('GET', '/v1/collections/:collection', (req) => ok(collectionView(viewCtx(req), collectionOf(req))));

  router.add('PATCH', '/v1/collections/:collection', (req) => {
    const c = collectionOf(req);
    const body = validate(PatchCollection, bodyObject(req));
    if (body.title !== undefined) c.title = body.title;
    if (body.description !== undefined) c.description = body.description ?? undefined;
    if (body.defaultLevel !== undefined) c.defaultLevel = body.defaultLevel;
    return ok(collectionView(viewCtx(req), c));
  });

  router.add('DELETE', '/v1/collections/:collection', (req) => {
    const c = req.world.collections.get(req.params.collection);
    const org = c ? req.world.orgs.get(c.org) : undefined;
    if (!c || !org || !canReach(req, org)) return deleted(false);
    // Descendants go with it; the spaces in any of them move to the top level.
    const gone = new Set(collectionSubtree(req.world, c.id));
    for (const space of req.world.spaces.values()) if (space.parent && gone.has(space.parent)) space.parent = undefined;
    for (const id of gone) req.world.collections.delete(id);
    return deleted(true);
  });

  router.add('GET', '/v1/collections/:collection/spaces', (req) => {
    const c = collectionOf(req);
    const org = req.world.orgs.get(c.org)!;
    const spaces = org.spaceOrder.map((id) => req.world.spaces.get(id)!).filter((s) => s.parent === c.id && !s.deletedAt);
    return listReply(req.query, spaces, (s) => spaceView(viewCtx(req), s));
  });

  router.add('POST', '/v1/collections/:collection/move', (req) => {
    const c = collectionOf(req);
    const body = validate(MoveCollection, bodyObject(req));
    if (body.parent !== null) {
      parentCollection(req, c.org, body.parent);
      if (collectionSubtree(req.world, c.id).includes(body.parent)) {
        throw badRequest('parent: a collection cannot be moved into itself or one of its descendants');
      }
    }
    c.parent = body.parent ?? undefined;
    return ok(collectionView(viewCtx(req), c));
  });

  router.add('POST', '/v1/collections/:collection/transfer', (req) => {
    const c = collectionOf(req);
    const body = validate(Transfer, bodyObject(req));
    const target = transferTarget(req, body.organization);
    if (target.id === c.org) throw badRequest(`organization: the collection is already in ${target.id} (the transfer would not result in any update)`);
    const source = req.world.orgs.get(c.org)!;
    const moving = new Set(collectionSubtree(req.world, c.id));
    for (const id of moving) req.world.collections.get(id)!.org = target.id;
    c.parent = undefined;
    for (const space of req.world.spaces.values()) {
      if (space.parent && moving.has(space.parent)) moveSpaceToOrg(source, target, space);
    }
    return ok(collectionView(viewCtx(req), c));
  });
}

function moveSpaceToOrg(source: OrgRec, target: OrgRec, space: SpaceRec): void {
  source.spaceOrder = source.spaceOrder.filter((id) => id !== space.id);
  target.spaceOrder.push(space.id);
  space.org = target.id;
}

export function spaceRoutes(router: Router): void {
  router.add('GET', '/v1/spaces/:space', (req) => ok(spaceView(viewCtx(req), spaceOf(req))));

  router.add('PATCH', '/v1/spaces/:space', (req) => {
    const space = liveSpace(req);
    const body = validate(PatchSpace, bodyObject(req));
    if (body.title !== undefined) space.title = body.title;
    if (body.emoji !== undefined) space.emoji = body.emoji;
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
      throw badRequest(`parent: space ${space.id} is already there (the move would not result in any update)`);
    }
    space.parent = newParent;
    org.spaceOrder = order;
    space.updatedAt = nowIso(req);
    return ok(spaceView(viewCtx(req), space));
  });

  router.add('POST', '/v1/spaces/:space/transfer', (req) => {
    const space = liveSpace(req);
    const body = validate(Transfer, bodyObject(req));
    const target = transferTarget(req, body.organization);
    if (target.id === space.org) throw badRequest(`organization: space ${space.id} is already in ${target.id} (the transfer would not result in any update)`);
    moveSpaceToOrg(req.world.orgs.get(space.org)!, target, space);
    space.parent = undefined;
    space.updatedAt = nowIso(req);
    return ok(spaceView(viewCtx(req), space));
  });
}
