/** Collections: nested by `parent`; their ids are global (`/v1/collections/{id}`). */
import { z } from 'zod';
import { badRequest, bodyObject, conflict, created, deleted, listReply, notFound, ok, queryBoolean, validate } from '../http.js';
import type { RouteRequest } from '../http.js';
import { SeedError, defineKind } from '../kind.js';
import type { SeedContext } from '../kind.js';
import type { Level as LevelT, OrgRec, World } from '../model.js';
import { canReach, location, nowIso, orgOf, viewCtx } from '../routing.js';
import { Id, Level } from '../schemas.js';
import { apiUrl, appUrl, compact, perms } from '../views.js';
import type { Obj, ViewContext } from '../views.js';

export interface CollectionRec {
  id: string;
  org: string;
  title: string;
  description?: string;
  parent?: string;
  defaultLevel: LevelT | null;
  createdAt: string;
}

declare module '../model.js' {
  interface World {
    /** Collections of every organization (`/v1/collections/{id}`). */
    collections: Map<string, CollectionRec>;
  }
}

export interface CollectionSeedInput {
  id?: string;
  title: string;
  description?: string;
  defaultLevel?: LevelT | null;
  collections?: CollectionSeedInput[];
}
export interface CollectionSeed {
  id?: string;
  title: string;
  description?: string;
  defaultLevel?: LevelT | null;
  collections: CollectionSeed[];
}
const CollectionSeedSchema: z.ZodType<CollectionSeed, CollectionSeedInput> = z.lazy(() =>
  z.strictObject({
    id: Id.optional(),
    title: z.string().min(1).max(50),
    description: z.string().max(100).optional(),
    defaultLevel: Level.nullable().optional(),
    collections: z.array(CollectionSeedSchema).default([]),
  }),
);

const CreateCollection = z.strictObject({
  title: z.string().min(1).max(50).optional(),
  parent: z.string().min(1).optional(),
});
const PatchCollection = z.strictObject({
  title: z.string().min(1).max(50).optional(),
  // A string (CollectionDescription): null is refused, the empty string clears it (docs/conformance.md).
  description: z.string().max(100).optional(),
  defaultLevel: Level.nullable().optional(),
});
const Transfer = z.strictObject({ organization: z.string().min(1) });
// Collections keep their siblings in creation order; a position is accepted and not applied.
const MoveCollection = z.strictObject({ parent: z.string().min(1).nullable(), position: z.record(z.string(), z.unknown()).optional() });

export function collectionView(ctx: ViewContext, c: CollectionRec): Obj {
  return compact({
    object: 'collection',
    id: c.id,
    title: c.title,
    description: c.description,
    organization: c.org,
    parent: c.parent,
    defaultLevel: c.defaultLevel,
    urls: { location: apiUrl(ctx, `/collections/${c.id}`), app: appUrl(`/o/${c.org}/c/${c.id}`) },
    permissions: perms(ctx, ['view', 'admin', 'viewInviteLinks', 'create']),
  });
}

/** The collection and every collection under it (depth-first, the collection first). */
export function collectionSubtree(world: World, rootId: string): string[] {
  const out: string[] = [rootId];
  for (let i = 0; i < out.length; i++) {
    for (const c of world.collections.values()) if (c.parent === out[i]) out.push(c.id);
  }
  return out;
}

/** An organization's collections, parents before children, siblings in creation order. */
export function orgCollections(world: World, org: string): CollectionRec[] {
  const all = [...world.collections.values()].filter((c) => c.org === org);
  const out: CollectionRec[] = [];
  const visit = (parent: string | undefined) => {
    for (const c of all) {
      if (c.parent === parent) {
        out.push(c);
        visit(c.id);
      }
    }
  };
  visit(undefined);
  return out;
}

/**
 * An organization's collections by path of titles (`Archive/2023`), for the state file. When two
 * collections share a path, the one made last wins.
 */
export function collectionsByPath(world: World, org: string): Map<string, string> {
  const pathOf = new Map<string, string>();
  const byPath = new Map<string, string>();
  // Creation order: a parent is always made before its children.
  for (const c of world.collections.values()) {
    if (c.org !== org) continue;
    const parentPath = c.parent === undefined ? undefined : pathOf.get(c.parent);
    const path = parentPath === undefined ? c.title : `${parentPath}/${c.title}`;
    pathOf.set(c.id, path);
    byPath.set(path, c.id);
  }
  return byPath;
}

export function collectionOf(req: RouteRequest, id = req.params.collection): CollectionRec {
  const c = req.world.collections.get(id);
  const org = c ? req.world.orgs.get(c.org) : undefined;
  if (!c || !org || !canReach(req, org)) throw notFound(`no collection ${id}`);
  return c;
}

/** The target of `parent`: a collection of the same organization, or 400. */
export function parentCollection(req: RouteRequest, org: string, id: string, field = 'parent'): CollectionRec {
  const c = req.world.collections.get(id);
  if (!c || c.org !== org) throw badRequest(`${field}: no collection ${id} in organization ${org}`);
  return c;
}

/** The organization a transfer goes to: one the token reaches, or 400. */
export function transferTarget(req: RouteRequest, id: string): OrgRec {
  const target = req.world.orgs.get(id);
  if (!target || !canReach(req, target)) throw badRequest(`organization: no organization ${id}`);
  return target;
}

function seedCollections(ctx: SeedContext, org: OrgRec, list: CollectionSeed[], parent: string | undefined, where: string): void {
  const { world } = ctx;
  list.forEach((c, i) => {
    const cid = c.id ?? world.newId('col');
    if (world.collections.has(cid)) throw new SeedError(`${where}[${i}].id`, `collection ${cid} is listed twice`);
    world.collections.set(cid, {
      id: cid,
      org: org.id,
      title: c.title,
      description: c.description,
      parent,
      defaultLevel: c.defaultLevel ?? null,
      createdAt: ctx.stamp(),
    });
    seedCollections(ctx, org, c.collections, cid, `${where}[${i}].collections`);
  });
}

export const collectionsKind = defineKind({
  name: 'collections',
  auditObjects: { collections: 'collection' },
  orgSeed: {
    collections: z.array(CollectionSeedSchema).default([]),
  },
  initWorld(world) {
    world.collections = new Map();
  },
  // Before spaces, which may be placed in them by path.
  seedOrg(ctx, org, seed, place) {
    seedCollections(ctx, org, seed.collections, undefined, `${place}.collections`);
  },
  routes(router) {
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
      if (body.description !== undefined) c.description = body.description === '' ? undefined : body.description;
      if (body.defaultLevel !== undefined) c.defaultLevel = body.defaultLevel;
      return ok(collectionView(viewCtx(req), c));
    });

    router.add('DELETE', '/v1/collections/:collection', (req) => {
      const c = req.world.collections.get(req.params.collection);
      const org = c ? req.world.orgs.get(c.org) : undefined;
      if (!c || !org || !canReach(req, org)) return deleted(false);
      // Descendants go with it (the spaces in any of them move to the top level).
      const gone = new Set(collectionSubtree(req.world, c.id));
      req.emit({ type: 'collections-deleted', ids: gone });
      for (const id of gone) req.world.collections.delete(id);
      return deleted(true);
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
      if ((body.parent ?? undefined) === c.parent && body.position === undefined) {
        throw conflict(`parent: collection ${c.id} is already there (the move would not result in any update)`);
      }
      c.parent = body.parent ?? undefined;
      return ok(collectionView(viewCtx(req), c));
    });

    router.add('POST', '/v1/collections/:collection/transfer', (req) => {
      const c = collectionOf(req);
      const body = validate(Transfer, bodyObject(req));
      const target = transferTarget(req, body.organization);
      if (target.id === c.org) throw conflict(`organization: the collection is already in ${target.id} (the transfer would not result in any update)`);
      const source = req.world.orgs.get(c.org)!;
      const moving = new Set(collectionSubtree(req.world, c.id));
      for (const id of moving) req.world.collections.get(id)!.org = target.id;
      c.parent = undefined;
      req.emit({ type: 'collections-transferred', ids: moving, from: source, to: target });
      return ok(collectionView(viewCtx(req), c));
    });
  },
});
