/** What every route group shares: finding the organization, site, space or collection of a path. */
import { z } from 'zod';
import { notFound } from '../http.js';
import type { RouteRequest } from '../http.js';
import type { ViewContext } from '../views.js';
import type { CollectionRec, OrgRec, RichTextDoc, SiteRec, SpaceRec } from '../world.js';
import { isPurged, withBlockKeys } from '../world.js';

export const Role = z.enum(['admin', 'create', 'review', 'edit', 'comment', 'read']);
export const Level = z.enum(['admin', 'create', 'review', 'edit', 'comment', 'read', 'inherit']);

export const Doc = z.looseObject({
  object: z.literal('document'),
  data: z.record(z.string(), z.unknown()).optional(),
  nodes: z.array(z.looseObject({ object: z.string() })),
});

/** A URI of at most `max` characters (API §8: `ssoURL`, `logo`). */
export const Uri = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => URL.canParse(s), 'must be a valid URI');

export function viewCtx(req: RouteRequest): ViewContext {
  return { world: req.world, access: req.access };
}

export function location(req: RouteRequest, path: string): string {
  return `${req.world.baseUrl}/v1${path}`;
}

/** Whether the token may reach the organization: a token tied to a user reaches that user's organizations. */
export function canReach(req: RouteRequest, org: OrgRec): boolean {
  return req.userId === undefined || org.members.has(req.userId);
}

export function orgOf(req: RouteRequest, id = req.params.org): OrgRec {
  const org = req.world.orgs.get(id);
  if (!org || !canReach(req, org)) throw notFound(`no organization ${id}`);
  return org;
}

export function siteOf(req: RouteRequest): { org: OrgRec; site: SiteRec } {
  const org = orgOf(req);
  const site = org.sites.get(req.params.site);
  if (!site) throw notFound(`no site ${req.params.site} in organization ${org.id}`);
  return { org, site };
}

/** A space the API still knows (deleted ones too, within the 7 days of retention). */
export function spaceOf(req: RouteRequest, id = req.params.space): SpaceRec {
  const space = req.world.spaces.get(id);
  const org = space ? req.world.orgs.get(space.org) : undefined;
  if (!space || !org || !canReach(req, org) || isPurged(req.world, space)) throw notFound(`no space ${id}`);
  return space;
}

export function collectionOf(req: RouteRequest, id = req.params.collection): CollectionRec {
  const c = req.world.collections.get(id);
  const org = c ? req.world.orgs.get(c.org) : undefined;
  if (!c || !org || !canReach(req, org)) throw notFound(`no collection ${id}`);
  return c;
}

/** The organization's spaces that are not deleted, in the order the API lists them. */
export function liveSpaces(req: RouteRequest, org: OrgRec): SpaceRec[] {
  return org.spaceOrder.map((id) => req.world.spaces.get(id)!).filter((s) => s.deletedAt === undefined);
}

export function storeDoc(req: RouteRequest, doc: z.infer<typeof Doc>): RichTextDoc {
  return withBlockKeys(structuredClone(doc) as RichTextDoc, () => req.world.newId('blk'));
}

export function nowIso(req: RouteRequest): string {
  return req.world.now().toISOString();
}
