/**
 * A site's redirects (`listSiteRedirects`, `createSiteRedirect`, `updateSiteRedirectById`,
 * `deleteSiteRedirectById`): the list answers live redirects unless asked for drafts, a source is
 * unique among the live and among the draft redirects, and a destination names a section or site
 * space of the site, a page of one of its site spaces, or an external URL. A `path` destination
 * (a page found by its path) is not emulated.
 */
import { z } from 'zod';
import { badRequest, bodyObject, created, deleted, listReply, notFound, ok, queryBoolean, validate } from '../../http.js';
import type { RouteRequest, Router } from '../../http.js';
import { nowIso } from '../../routing.js';
import { compact } from '../../views.js';
import type { SiteRec } from './records.js';
import { siteOf } from './routes.js';

export interface RedirectRec {
  id: string;
  source: string;
  destination: Destination;
  permanent: boolean;
  captureWildcard: boolean;
  draft: boolean;
  createdAt: string;
  updatedAt?: string;
}

declare module './records.js' {
  interface SiteRec {
    /** Made on first use. */
    redirects?: Map<string, RedirectRec>;
  }
}

export const SourcePath = z
  .string()
  .max(512)
  .regex(/^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/);

export const Destination = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('site-section'), siteSectionId: z.string().min(1) }),
  z.strictObject({ kind: z.literal('site-space'), siteSpaceId: z.string().min(1) }),
  z.strictObject({ kind: z.literal('site-page'), siteSpaceId: z.string().min(1), pageId: z.string().min(1) }),
  z.strictObject({ kind: z.literal('external'), url: z.url().max(2048) }),
]);
type Destination = z.infer<typeof Destination>;

const CreateRedirect = z.strictObject({
  source: SourcePath,
  destination: Destination,
  captureWildcard: z.boolean().optional(),
  draft: z.boolean().optional(),
  permanent: z.boolean().optional(),
});
const PatchRedirect = CreateRedirect.partial();

export function redirectsOf(site: SiteRec): Map<string, RedirectRec> {
  site.redirects ??= new Map();
  return site.redirects;
}

export function redirectView(r: RedirectRec): Record<string, unknown> {
  return compact({
    object: 'site-redirect',
    id: r.id,
    source: r.source,
    draft: r.draft,
    captureWildcard: r.captureWildcard,
    permanent: r.permanent,
    destination: r.destination,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  });
}

/** A destination the site can hold; 400 naming what is missing. */
export function checkDestination(site: SiteRec, d: Destination, field = 'destination'): void {
  if (d.kind === 'site-section' && !site.sections.has(d.siteSectionId)) throw badRequest(`${field}.siteSectionId: no section ${d.siteSectionId} in site ${site.id}`);
  if ((d.kind === 'site-space' || d.kind === 'site-page') && !site.siteSpaces.has(d.siteSpaceId)) {
    throw badRequest(`${field}.siteSpaceId: no site space ${d.siteSpaceId} in site ${site.id}`);
  }
}

/** A second redirect with the same source and draft state is refused. */
export function checkSourceFree(site: SiteRec, source: string, draft: boolean, except?: string): void {
  const other = [...redirectsOf(site).values()].find((r) => r.source === source && r.draft === draft && r.id !== except);
  if (other) throw badRequest(`source: ${source} is already the source of ${draft ? 'draft ' : ''}redirect ${other.id}`);
}

function pathDestination(body: Record<string, unknown>): void {
  const d = body.destination as { kind?: unknown } | undefined;
  if (d && typeof d === 'object' && d.kind === 'path') throw badRequest('destination: a path destination is not supported by the emulator');
}

const ORDER: Record<string, (a: RedirectRec, b: RedirectRec) => number> = {
  createdAt: (a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0),
  updatedAt: (a, b) => ((a.updatedAt ?? a.createdAt) < (b.updatedAt ?? b.createdAt) ? 1 : (a.updatedAt ?? a.createdAt) > (b.updatedAt ?? b.createdAt) ? -1 : 0),
  source: (a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0),
};

function redirectOf(req: RouteRequest, site: SiteRec): RedirectRec {
  const r = redirectsOf(site).get(req.params.redirect);
  if (!r) throw notFound(`no redirect ${req.params.redirect} in site ${site.id}`);
  return r;
}

export function redirectRoutes(router: Router): void {
  const SITE = '/v1/orgs/:org/sites/:site';

  router.add('GET', `${SITE}/redirects`, (req) => {
    const { site } = siteOf(req);
    const draft = queryBoolean(req.query, 'draft') ?? false;
    const search = req.query.get('search');
    const orderBy = req.query.get('orderBy') ?? 'createdAt';
    const order = ORDER[orderBy];
    if (!order) throw badRequest(`orderBy: must be one of ${Object.keys(ORDER).join(', ')}`);
    // Stable: the same order for the same state, the id breaking ties.
    const list = [...redirectsOf(site).values()]
      .filter((r) => r.draft === draft && (!search || r.source.includes(search)))
      .sort((a, b) => order(a, b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return listReply(req.query, list, redirectView);
  });

  router.add('POST', `${SITE}/redirects`, (req) => {
    const { site } = siteOf(req);
    const raw = bodyObject(req);
    pathDestination(raw);
    const body = validate(CreateRedirect, raw);
    checkDestination(site, body.destination);
    checkSourceFree(site, body.source, body.draft ?? false);
    const r: RedirectRec = {
      id: req.world.newId('redir'),
      source: body.source,
      destination: body.destination,
      permanent: body.permanent ?? false,
      captureWildcard: body.captureWildcard ?? false,
      draft: body.draft ?? false,
      createdAt: nowIso(req),
    };
    redirectsOf(site).set(r.id, r);
    // The description documents no Location header for this answer.
    return created(redirectView(r));
  });

  router.add('PATCH', `${SITE}/redirects/:redirect`, (req) => {
    const { site } = siteOf(req);
    const r = redirectOf(req, site);
    const raw = bodyObject(req);
    pathDestination(raw);
    const body = validate(PatchRedirect, raw);
    if (body.destination) checkDestination(site, body.destination);
    checkSourceFree(site, body.source ?? r.source, body.draft ?? r.draft, r.id);
    if (body.source !== undefined) r.source = body.source;
    if (body.destination !== undefined) r.destination = body.destination;
    if (body.permanent !== undefined) r.permanent = body.permanent;
    if (body.captureWildcard !== undefined) r.captureWildcard = body.captureWildcard;
    if (body.draft !== undefined) r.draft = body.draft;
    r.updatedAt = nowIso(req);
    return ok(redirectView(r));
  });

  router.add('DELETE', `${SITE}/redirects/:redirect`, (req) => {
    const { site } = siteOf(req);
    return deleted(redirectsOf(site).delete(req.params.redirect));
  });
}

/** A redirect in the state file. */
export const RedirectSeed = z.strictObject({
  id: z.string().min(1).optional(),
  source: SourcePath,
  destination: Destination,
  permanent: z.boolean().optional(),
  captureWildcard: z.boolean().optional(),
  draft: z.boolean().optional(),
});

export function seedRedirects(site: SiteRec, seeds: ReadonlyArray<z.output<typeof RedirectSeed>>, newId: (prefix: string) => string, stamp: () => string): void {
  for (const s of seeds) {
    checkDestination(site, s.destination);
    checkSourceFree(site, s.source, s.draft ?? false);
    const id = s.id ?? newId('redir');
    redirectsOf(site).set(id, { id, source: s.source, destination: s.destination, permanent: s.permanent ?? false, captureWildcard: s.captureWildcard ?? false, draft: s.draft ?? false, createdAt: stamp() });
  }
}
