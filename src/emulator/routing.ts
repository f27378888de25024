/** What every kind's routes share: the organization of a path, who may reach it, locations, the clock. */
import { storeDocument } from './documents.js';
import { notFound } from './http.js';
import type { RouteRequest } from './http.js';
import type { OrgRec, RichTextDoc } from './model.js';
import type { ViewContext } from './views.js';

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

export function storeDoc(req: RouteRequest, doc: RichTextDoc): RichTextDoc {
  return storeDocument(req.world, doc);
}

export function nowIso(req: RouteRequest): string {
  return req.world.now().toISOString();
}
