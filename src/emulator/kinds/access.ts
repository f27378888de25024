/**
 * Access on collections, spaces and sites (the live description's `inviteTo…`,
 * `list{Team,User}PermissionsIn…`, `update{Team,User}PermissionIn…`, `remove{Team,User}From…`,
 * `listPermissionsAggregateIn…`): the direct grants of teams and users on one object. Grants are
 * kept by the object's id, so a moved space keeps its direct grants; a deleted team loses its
 * grants, a user removed from the organization loses theirs.
 */
import { z } from 'zod';
import { badRequest, bodyObject, deleted, listReply, noContent, notFound, validate } from '../http.js';
import type { RouteRequest, Router } from '../http.js';
import { SeedError, defineKind } from '../kind.js';
import type { OrgRec, Role as RoleT } from '../model.js';
import { orgOf, viewCtx } from '../routing.js';
import { Id, Role } from '../schemas.js';
import { collectionOf, collectionsByPath } from './collections.js';
import { findUser, userView } from './members.js';
import { spaceOf } from './spaces.js';
import { findTeam, teamView } from './teams.js';

type Target = 'collection' | 'space' | 'site';

export interface GrantsRec {
  org: string;
  /** Team id → role, in the order granted. */
  teams: Map<string, RoleT | null>;
  /** User id → role, in the order granted. */
  users: Map<string, RoleT | null>;
}

declare module '../model.js' {
  interface World {
    /** Direct grants by object (`space:ID`, `collection:ID`, `site:ID`). */
    grants: Map<string, GrantsRec>;
  }
}

const AccessSeed = z
  .strictObject({
    /** Collection by id or path of titles. */
    collection: z.string().min(1).optional(),
    space: Id.optional(),
    site: Id.optional(),
    /** Team id or title → role. */
    teams: z.record(z.string().min(1), Role).default({}),
    /** User id or email → role. */
    users: z.record(z.string().min(1), Role).default({}),
  })
  .refine((a) => [a.collection, a.space, a.site].filter((x) => x !== undefined).length === 1, 'give exactly one of collection, space, site');

const Invite = z.union([
  z.strictObject({ role: Role.nullable(), teams: z.array(Id).min(1), users: z.array(Id).min(1).optional() }),
  z.strictObject({ role: Role.nullable(), users: z.array(Id).min(1) }),
]);
const SetRole = z.strictObject({ role: Role.nullable().optional() });

function grantsOf(world: { grants: Map<string, GrantsRec> }, key: string, org: string): GrantsRec {
  let g = world.grants.get(key);
  if (!g) {
    g = { org, teams: new Map(), users: new Map() };
    world.grants.set(key, g);
  }
  return g;
}

/** The object of a permissions route: its grants key and its organization (404 when it does not exist). */
function objectOf(req: RouteRequest, target: Target): { key: string; org: OrgRec } {
  if (target === 'collection') {
    const c = collectionOf(req);
    return { key: `collection:${c.id}`, org: req.world.orgs.get(c.org)! };
  }
  if (target === 'space') {
    const s = spaceOf(req);
    return { key: `space:${s.id}`, org: req.world.orgs.get(s.org)! };
  }
  const org = orgOf(req);
  const site = org.sites.get(req.params.site);
  if (!site) throw notFound(`no site ${req.params.site} in organization ${org.id}`);
  return { key: `site:${site.id}`, org };
}

/** Content lists show a role for every grant (a guest grant reads as read). */
function shown(target: Target, role: RoleT | null): RoleT | null {
  return target === 'site' ? role : (role ?? 'read');
}

const RANK: Record<RoleT, number> = { read: 0, comment: 1, edit: 2, review: 3, create: 4, admin: 5 };

function routesFor(router: Router, target: Target, base: string): void {
  router.add('POST', base, (req) => {
    const { key, org } = objectOf(req, target);
    const body = validate(Invite, bodyObject(req));
    // Resolve everything first, so that a bad entry changes nothing.
    const teams = ('teams' in body ? body.teams : []).map((t, i) => {
      const team = org.teams.get(t);
      if (!team) throw badRequest(`teams[${i}]: no team ${t} in organization ${org.id}`);
      return team.id;
    });
    const users = (body.users ?? []).map((u, i) => {
      const user = findUser(req.world, u);
      if (!user || !org.members.has(user.id)) throw badRequest(`users[${i}]: ${u} is not a member of organization ${org.id}`);
      return user.id;
    });
    const g = grantsOf(req.world, key, org.id);
    for (const t of teams) g.teams.set(t, body.role);
    for (const u of users) g.users.set(u, body.role);
    return noContent();
  });
  router.add('GET', `${base}/teams`, (req) => {
    const { key, org } = objectOf(req, target);
    const g = req.world.grants.get(key);
    const items = [...(g?.teams ?? [])].flatMap(([id, role]) => {
      const team = org.teams.get(id);
      return team ? [{ permission: shown(target, role), team: teamView(viewCtx(req), org, team) }] : [];
    });
    return listReply(req.query, items);
  });
  router.add('GET', `${base}/users`, (req) => {
    const { key } = objectOf(req, target);
    const g = req.world.grants.get(key);
    const items = [...(g?.users ?? [])].flatMap(([id, role]) => {
      const user = req.world.users.get(id);
      return user ? [{ permission: shown(target, role), user: userView(viewCtx(req), user) }] : [];
    });
    return listReply(req.query, items);
  });
  for (const who of ['teams', 'users'] as const) {
    const param = who === 'teams' ? 'team' : 'user';
    router.add('PATCH', `${base}/${who}/:${param}`, (req) => {
      const { key } = objectOf(req, target);
      const body = validate(SetRole, bodyObject(req));
      const map = req.world.grants.get(key)?.[who];
      const id = req.params[param];
      if (!map || !map.has(id)) throw notFound(`no ${param} ${id} has access to this ${target}`);
      if (body.role !== undefined) map.set(id, body.role);
      return noContent();
    });
    router.add('DELETE', `${base}/${who}/:${param}`, (req) => {
      const { key } = objectOf(req, target);
      return deleted(req.world.grants.get(key)?.[who].delete(req.params[param]) ?? false);
    });
  }
  router.add('GET', `${base}/aggregate`, (req) => {
    const { key, org } = objectOf(req, target);
    // The effective role of each user: direct grants and their teams' grants on this object, and for
    // a space in a collection the collection's grants (inherited access).
    const keys = [key];
    if (target === 'space') {
      const parent = req.world.spaces.get(key.slice('space:'.length))?.parent;
      if (parent) keys.push(`collection:${parent}`);
    }
    const best = new Map<string, RoleT>();
    const give = (user: string, role: RoleT | null) => {
      const r = role ?? 'read';
      const had = best.get(user);
      if (!had || RANK[r] > RANK[had]) best.set(user, r);
    };
    for (const k of keys) {
      const g = req.world.grants.get(k);
      if (!g) continue;
      for (const [u, role] of g.users) give(u, role);
      for (const [t, role] of g.teams) for (const u of org.teams.get(t)?.members.keys() ?? []) give(u, role);
    }
    const role = req.query.get('role');
    const items = [...best].filter(([, r]) => role === null || r === role).flatMap(([id, r]) => {
      const user = req.world.users.get(id);
      if (!user) return [];
      const view = { permission: r, user: userView(viewCtx(req), user) };
      if (target !== 'site') return [view];
      return [{ ...view, origin: { type: 'site', site: key.slice('site:'.length), reason: 'member' }, disabled: org.members.get(id)?.disabled ?? false }];
    });
    return listReply(req.query, items);
  });
}

export const accessKind = defineKind({
  name: 'access',
  orgSeed: {
    access: z.array(AccessSeed).default([]),
  },
  initWorld(world) {
    world.grants = new Map();
  },
  seedOrg(ctx, org, seed, place) {
    const byPath = collectionsByPath(ctx.world, org.id);
    seed.access.forEach((a, i) => {
      const at = `${place}.access[${i}]`;
      let key: string;
      if (a.collection !== undefined) {
        const id = ctx.world.collections.get(a.collection)?.org === org.id ? a.collection : byPath.get(a.collection);
        if (!id) throw new SeedError(`${at}.collection`, `no collection ${a.collection} in ${org.id}`);
        key = `collection:${id}`;
      } else if (a.space !== undefined) {
        if (ctx.world.spaces.get(a.space)?.org !== org.id) throw new SeedError(`${at}.space`, `no space ${a.space} in ${org.id}`);
        key = `space:${a.space}`;
      } else {
        if (!org.sites.has(a.site as string)) throw new SeedError(`${at}.site`, `no site ${a.site} in ${org.id}`);
        key = `site:${a.site}`;
      }
      const g = grantsOf(ctx.world, key, org.id);
      for (const [t, role] of Object.entries(a.teams)) {
        const team = findTeam(org, t);
        if (!team) throw new SeedError(`${at}.teams`, `no team ${t} in ${org.id}`);
        g.teams.set(team.id, role);
      }
      for (const [u, role] of Object.entries(a.users)) {
        const user = findUser(ctx.world, u);
        if (!user || !org.members.has(user.id)) throw new SeedError(`${at}.users`, `${u} is not a member of ${org.id}`);
        g.users.set(user.id, role);
      }
    });
  },
  on(world, event) {
    if (event.type === 'team-deleted') {
      for (const g of world.grants.values()) if (g.org === event.org.id) g.teams.delete(event.teamId);
    } else if (event.type === 'member-removed') {
      for (const g of world.grants.values()) if (g.org === event.org.id) g.users.delete(event.userId);
    } else if (event.type === 'collections-deleted') {
      for (const id of event.ids) world.grants.delete(`collection:${id}`);
    }
  },
  routes(router) {
    routesFor(router, 'collection', '/v1/collections/:collection/permissions');
    routesFor(router, 'space', '/v1/spaces/:space/permissions');
    routesFor(router, 'site', '/v1/orgs/:org/sites/:site/permissions');
  },
});
