/**
 * Sites themselves: `GET ORG/sites` (paged, with the description's filters), `POST ORG/sites`,
 * `PATCH SITE`, `DELETE SITE`, `POST SITE/publish` and `/unpublish`; the Site object; the settings a
 * state file may seed.
 */
import { z } from 'zod';
import { badRequest, bodyObject, created, deleted, listReply, notFound, ok, queryBoolean, validate } from '../../http.js';
import type { RouteRequest, Router } from '../../http.js';
import type { OrgRec } from '../../model.js';
import { location, nowIso, orgOf, viewCtx } from '../../routing.js';
import { apiUrl, appUrl, compact, perms, publishedUrl, type Obj, type ViewContext } from '../../views.js';
import type { SiteRec, SiteSettings } from './records.js';
import { emptySite, slugify, uniqueSlug } from './records.js';
import { gitSyncState } from '../git-sync.js';
import { adsView } from '../site-ads.js';

const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
const SiteType = z.enum(SITE_TYPES);
const SiteVisibility = z.enum(['public', 'unlisted', 'share-link', 'visitor-auth']);
const SiteTitle = z.string().min(2).max(128);
const SiteBasename = z.string().min(1).max(100);
const SiteProxyOrigin = z
  .string()
  .max(512)
  .regex(/^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/);
const DefaultLevel = z.enum(['admin', 'create', 'review', 'edit', 'comment', 'read', 'inherit']).nullable();

/** The state file's site settings: as if set earlier through the API. */
export const SiteSettingsSeed = {
  type: SiteType.optional(),
  visibility: SiteVisibility.optional(),
  basename: SiteBasename.optional(),
  published: z.boolean().optional(),
  adaptiveContent: z.boolean().optional(),
  defaultLevel: DefaultLevel.optional(),
  proxy: SiteProxyOrigin.optional(),
  /** The style guide space, by id. */
  styleguide: z.string().min(1).optional(),
};

type SettingsInput = { [K in keyof typeof SiteSettingsSeed]?: z.infer<(typeof SiteSettingsSeed)[K]> };

/** Settings with the values a new site has where none is given. */
export function siteSettings(given: SettingsInput, createdAt: string): SiteSettings {
  return {
    type: given.type ?? 'ultimate',
    visibility: given.visibility ?? 'public',
    basename: given.basename,
    published: given.published ?? false,
    adaptiveContent: given.adaptiveContent ?? false,
    defaultLevel: given.defaultLevel === undefined ? 'inherit' : given.defaultLevel,
    proxy: given.proxy,
    styleguide: given.styleguide,
    createdAt,
  };
}

// createSite and updateSiteById, with the description's limits.
const CreateSite = z.strictObject({
  type: SiteType.optional(),
  title: SiteTitle.optional(),
  visibility: SiteVisibility.optional(),
  spaces: z.array(z.string().min(1)).optional(),
});
const PatchSite = z.strictObject({
  title: SiteTitle.optional(),
  visibility: SiteVisibility.optional(),
  basename: SiteBasename.optional(),
  adaptiveContent: z.strictObject({ enabled: z.boolean() }).optional(),
  defaultLevel: DefaultLevel.optional(),
  defaultSiteSpace: z.string().min(1).optional(),
  defaultSiteSection: z.string().min(1).optional(),
  proxy: SiteProxyOrigin.nullable().optional(),
  styleguide: z.string().min(1).nullable().optional(),
});

const SITE_PERMISSIONS = ['view', 'access', 'edit', 'create', 'admin', 'installIntegration', 'viewAdaptiveSchema', 'editAdaptiveSchema'];

const sitePath = (org: OrgRec, site: SiteRec) => `/orgs/${org.id}/sites/${site.id}`;

/** The Site object. */
export function siteView(ctx: ViewContext, site: SiteRec): Obj {
  const s = site.settings;
  const published = publishedUrl(site.org, `/${s.basename ?? site.id}`);
  return compact({
    object: 'site',
    id: site.id,
    type: s.type,
    appliedType: s.type,
    title: site.title,
    hostname: site.customHostname?.hostname,
    basename: s.basename,
    proxy: s.proxy === undefined ? undefined : { origin: s.proxy, target: published },
    visibility: s.visibility,
    defaultLevel: s.defaultLevel,
    styleguide: s.styleguide === undefined ? undefined : { kind: 'space', space: s.styleguide },
    permissions: perms(ctx, SITE_PERMISSIONS),
    published: s.published,
    siteSpaces: site.siteSpaces.size,
    createdAt: s.createdAt,
    adaptiveContent: { enabled: s.adaptiveContent },
    gitSync: gitSyncState(ctx.world, { site: site.id }),
    ads: adsView(site.ads),
    features: [],
    urls: compact({
      location: apiUrl(ctx, `/orgs/${site.org}/sites/${site.id}`),
      app: appUrl(`/o/${site.org}/sites/${site.id}`),
      preview: `${published}?preview=true`,
      published: s.published ? published : undefined,
    }),
  });
}

function siteOf(req: RouteRequest): { org: OrgRec; site: SiteRec } {
  const org = orgOf(req);
  const site = org.sites.get(req.params.site);
  if (!site) throw notFound(`no site ${req.params.site} in organization ${org.id}`);
  return { org, site };
}

/** The sites of `GET ORG/sites`, by its filters (title, published, type — repeatable —, space). */
function filtered(req: RouteRequest, org: OrgRec): SiteRec[] {
  const title = req.query.get('title');
  const published = queryBoolean(req.query, 'published');
  const types = req.query.getAll('type').flatMap((t) => t.split(','));
  for (const t of types) if (!(SITE_TYPES as readonly string[]).includes(t)) throw badRequest(`type: ${t} is not a site type`);
  const space = req.query.get('space');
  return [...org.sites.values()].filter(
    (s) =>
      (title === null || title === '' || s.title === title) &&
      (published === undefined || s.settings.published === published) &&
      (types.length === 0 || types.includes(s.settings.type)) &&
      (space === null || space === '' || [...s.siteSpaces.values()].some((ss) => ss.space === space)),
  );
}

/** The spaces a site is created with, at its root (a site without sections). */
function addRootSpaces(req: RouteRequest, org: OrgRec, site: SiteRec, spaces: readonly string[]): void {
  for (const id of spaces) {
    const space = req.world.spaces.get(id);
    if (!space || space.org !== org.id) throw badRequest(`spaces: no space ${id} in organization ${org.id}`);
  }
  for (const id of spaces) {
    const space = req.world.spaces.get(id)!;
    const taken = (p: string) => site.rootSiteSpaces.some((sid) => site.siteSpaces.get(sid)?.path === p);
    const ssid = req.world.newId('sitesp');
    site.siteSpaces.set(ssid, { id: ssid, space: id, path: uniqueSlug(slugify(space.title, 'space'), taken), draft: false, hidden: false, createdAt: nowIso(req) });
    site.rootSiteSpaces.push(ssid);
  }
}

function setDefaultSiteSpace(site: SiteRec, id: string): void {
  const ss = site.siteSpaces.get(id);
  if (!ss) throw badRequest(`defaultSiteSpace: no site space ${id} in site ${site.id}`);
  if (ss.section) {
    site.sections.get(ss.section)!.defaultSiteSpace = id;
    return;
  }
  // At the root, the default site space is the first.
  site.rootSiteSpaces.splice(site.rootSiteSpaces.indexOf(id), 1);
  site.rootSiteSpaces.unshift(id);
}

export function siteObjectRoutes(router: Router): void {
  const ORG = '/v1/orgs/:org/sites';
  const SITE = `${ORG}/:site`;

  router.add('GET', ORG, (req) => {
    const org = orgOf(req);
    return listReply(req.query, filtered(req, org), (s) => siteView(viewCtx(req), s));
  });

  router.add('POST', ORG, (req) => {
    const org = orgOf(req);
    const body = validate(CreateSite, bodyObject(req));
    const id = req.world.newId('site');
    const site = emptySite(id, org.id, body.title ?? 'Untitled site', siteSettings({ type: body.type, visibility: body.visibility }, nowIso(req)));
    addRootSpaces(req, org, site, [...new Set(body.spaces ?? [])]);
    org.sites.set(id, site);
    return created(siteView(viewCtx(req), site), location(req, sitePath(org, site)));
  });

  router.add('GET', SITE, (req) => ok(siteView(viewCtx(req), siteOf(req).site)));

  router.add('PATCH', SITE, (req) => {
    const { site } = siteOf(req);
    const body = validate(PatchSite, bodyObject(req));
    if (body.defaultSiteSection !== undefined && !site.sections.has(body.defaultSiteSection)) {
      throw badRequest(`defaultSiteSection: no section ${body.defaultSiteSection} in site ${site.id}`);
    }
    if (body.defaultSiteSpace !== undefined) setDefaultSiteSpace(site, body.defaultSiteSpace);
    if (body.styleguide) {
      const space = req.world.spaces.get(body.styleguide);
      if (!space || space.org !== site.org) throw badRequest(`styleguide: no space ${body.styleguide} in organization ${site.org}`);
    }
    const s = site.settings;
    if (body.title !== undefined) site.title = body.title;
    if (body.visibility !== undefined) s.visibility = body.visibility;
    if (body.basename !== undefined) s.basename = body.basename;
    if (body.adaptiveContent !== undefined) s.adaptiveContent = body.adaptiveContent.enabled;
    if (body.defaultLevel !== undefined) s.defaultLevel = body.defaultLevel;
    if (body.proxy !== undefined) s.proxy = body.proxy ?? undefined;
    if (body.styleguide !== undefined) s.styleguide = body.styleguide ?? undefined;
    if (body.defaultSiteSection !== undefined) site.defaultSection = body.defaultSiteSection;
    return ok(siteView(viewCtx(req), site));
  });

  router.add('DELETE', SITE, (req) => {
    const org = orgOf(req);
    const site = org.sites.get(req.params.site);
    if (!site) return deleted(false);
    org.sites.delete(site.id);
    if (org.defaultContent?.site === site.id) org.defaultContent = null;
    return deleted(true);
  });

  for (const [action, published] of [['publish', true], ['unpublish', false]] as const) {
    router.add('POST', `${SITE}/${action}`, (req) => {
      const { site } = siteOf(req);
      // The live description's other answer of publishSite: the organization must pay first.
      if (published && site.publishNeedsPurchase) return ok({ type: 'checkout', sessionId: req.world.newId('cs') });
      site.settings.published = published;
      return ok(siteView(viewCtx(req), site));
    });
  }
}
