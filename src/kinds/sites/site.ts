/**
 * The site itself (kind `sites`): created (`POST ORG/sites`) when a config site without id matches
 * no listed site, updated (`PATCH SITE`) with the fields that differ, published or unpublished, and
 * deleted only when `sites` is pruned — a delete apply refuses without `--force` (the kind's
 * `deleteNeedsForce`, src/kinds/sites/index.ts). Everything else of a created site (sections, share
 * links, …) names it by the ref to its create step and waits for it.
 */
import type { JsonObject, RequestSpec } from '../../model/step.js';
import { analyse, mergeKindPlan } from '../common/analyse.js';
import { compact } from '../common/match.js';
import { orgPath } from '../common/paths.js';
import type { DraftStep, PlanContext } from '../kind.js';
import { siteAddress } from './addresses.js';
import type { RemoteSite, SitesRemote } from './remote.js';
import { siteKey, type SiteT } from './schema.js';
import { SITE_KEYS, type RemoteSiteInfo } from '../shared/sites.js';
import { differing, emptySitePlans, handle, SITE_KINDS, type SectionEntry, type SiteContext, type SitePlans } from './steps.js';
import { step } from '../common/step.js';
import { lookAlikeNote } from '../common/text.js';
import { ownedSiteProblems, SITE_STRUCTURE_KINDS } from '../shared/git-sync-owned.js';

/** Why a site's delete needs `--force`, whatever the safety thresholds. */
export const SITE_DELETE_REASON = 'a site carries published content: deleting it takes the published site down';

/** The site fields a config manages, in the config's terms; `published`, `type` and `defaultSection` are apart. */
const FIELDS = ['title', 'visibility', 'basename', 'adaptiveContent', 'defaultLevel', 'proxy', 'styleguide'] as const;

export function currentFields(info: RemoteSiteInfo): JsonObject {
  return {
    title: info.title,
    visibility: info.visibility,
    basename: info.basename,
    adaptiveContent: info.adaptiveContent,
    defaultLevel: info.defaultLevel,
    proxy: info.proxy,
    styleguide: info.styleguide };
}

function desiredFields(site: SiteT): JsonObject {
  const out: JsonObject = {};
  for (const f of FIELDS) if (site[f] !== undefined) out[f] = site[f];
  return out;
}

/** The PATCH body of some fields: the API's names and shapes. */
function patchBody(fields: JsonObject, defaultSection?: string): JsonObject {
  const body: JsonObject = {};
  for (const [f, v] of Object.entries(fields)) {
    if (f === 'adaptiveContent') body.adaptiveContent = { enabled: v };
    else if (f !== 'defaultSection') body[f] = v;
  }
  if (defaultSection !== undefined) body.defaultSiteSection = defaultSection;
  return body;
}

/** What a fingerprint and a delete show of a listed site. */
export function normalSite(info: RemoteSiteInfo): JsonObject {
  return { id: info.id, type: info.type, published: info.published, ...currentFields(info) };
}

/** The remote site of a site that does not exist yet: nothing in it. */
export function emptyRemoteSite(id: string): RemoteSite {
  return { id, sections: [], groups: [], links: [], shareLinks: [], top: [], rootSiteSpaces: [] };
}

/** The site's path in requests: its id, or the ref to its create step. */
export function siteBase(org: string, site: SiteT, info: RemoteSiteInfo | undefined): string {
  return `${orgPath(org)}/sites/${handle(org, siteAddress(siteKey(site)), info?.id).pathId}`;
}

/**
 * The default section: a section of the config (maybe created in this plan: its ref) or of the site;
 * undefined with a problem when neither has the path.
 */
function defaultSectionOf(ctx: SiteContext, sections: readonly SectionEntry[]): { id: string; current: string | null; needs: string[] } | undefined {
  const path = ctx.site.defaultSection;
  if (path === undefined) return undefined;
  const remoteDefault = ctx.remote.sections.find((s) => s.default === true);
  const current = remoteDefault?.path ?? null;
  const entry = sections.find((e) => e.cfg.path === path);
  if (entry) return { id: entry.id, current, needs: entry.remote ? [] : [`${entry.address}:create`] };
  const remote = ctx.remote.sections.find((s) => s.path === path);
  if (remote) return { id: remote.id, current, needs: [] };
  ctx.problem('sites', siteAddress(siteKey(ctx.site)), `defaultSection "${path}" names no section of the config or of the site`);
  return undefined;
}

type DefaultSection = ReturnType<typeof defaultSectionOf>;

/**
 * The steps of the site itself, once the rest of the site is planned (a created site's publish waits
 * for its structure): create or update, publish or unpublish.
 */
export function planSiteItself(ctx: SiteContext, info: RemoteSiteInfo | undefined, sections: readonly SectionEntry[]): void {
  const section = defaultSectionOf(ctx, sections);
  const wanted = section !== undefined && section.current !== ctx.site.defaultSection ? section : undefined;
  if (info) planUpdate(ctx, info, wanted);
  else planCreate(ctx, wanted);
  planPublish(ctx, info);
}

/** `POST ORG/sites` (type, title, visibility), then a PATCH of the fields the create does not take; the default section once it exists. */
function planCreate(ctx: SiteContext, section: DefaultSection): void {
  const { org, site, push, out, base } = ctx;
  const address = siteAddress(siteKey(site));
  const createBody = compact({ type: site.type, title: site.title, visibility: site.visibility }) as JsonObject;
  const rest: JsonObject = desiredFields(site);
  delete rest.title;
  delete rest.visibility;
  const sites = `${orgPath(org)}/sites`;
  const requests: RequestSpec[] = [{ method: 'POST', path: sites, body: createBody, capture: true, lookup: { path: sites, match: { title: site.title ?? '' } } }];
  if (Object.keys(rest).length > 0) requests.push({ method: 'PATCH', path: base, body: patchBody(rest) });
  const after = compact({ ...createBody, ...rest }) as JsonObject;
  push(step({ address, kind: 'sites', action: 'create', before: null, after, requests }), null);
  // Everything in the site needs the site.
  for (const kind of SITE_KINDS) if (kind !== 'sites') for (const step of out[kind].steps) step.needs.push(`${address}:create`);
  if (!section) return;
  const before = { defaultSection: null };
  const wanted = { defaultSection: site.defaultSection ?? null };
  push(
    step({
      address,
      kind: 'sites',
      action: 'update',
      before,
      after: wanted,
      requests: [{ method: 'PATCH', path: base, body: { defaultSiteSection: section.id } }],
      needs: [`${address}:create`, ...section.needs] }),
    null,
  );
}

/** `PATCH SITE` with the fields that differ; a different type is a problem (the API cannot change it). */
function planUpdate(ctx: SiteContext, info: RemoteSiteInfo, section: DefaultSection): void {
  const { site, push, base } = ctx;
  const address = siteAddress(siteKey(site));
  if (site.type !== undefined && info.type !== null && site.type !== info.type) {
    ctx.problem('sites', address, `site ${info.id} is of type ${info.type}, the config says ${site.type}: the API cannot change a site's type (change it in the app, or remove type)`);
  }
  const { before, after } = differing(currentFields(info), desiredFields(site));
  if (section) {
    before.defaultSection = section.current;
    after.defaultSection = site.defaultSection ?? null;
  }
  if (Object.keys(after).length === 0) return;
  push(
    step({
      address,
      kind: 'sites',
      action: 'update',
      before,
      after,
      requests: [{ method: 'PATCH', path: base, body: patchBody(after, section?.id) }],
      needs: section?.needs ?? [],
      remoteId: info.id }),
    normalSite(info),
  );
}

/** `POST SITE/publish` or `/unpublish`: after the update and, on a created site, after its whole structure. */
function planPublish(ctx: SiteContext, info: RemoteSiteInfo | undefined): void {
  const { site, push, out, base } = ctx;
  const published = info?.published ?? false;
  if (site.published === undefined || site.published === published) return;
  const address = siteAddress(siteKey(site));
  const structure = info ? [] : SITE_KINDS.filter((k) => k !== 'sites').flatMap((k) => out[k].steps.map((s) => `${s.address}:${s.action}`));
  push(
    step({
      address,
      kind: 'sites',
      action: 'publish',
      before: { published },
      after: { published: site.published },
      requests: [{ method: 'POST', path: `${base}/${site.published ? 'publish' : 'unpublish'}` }],
      needs: [`${address}:create`, `${address}:update`, ...structure],
      ...(info ? { remoteId: info.id } : {}) }),
    info ? normalSite(info) : null,
  );
}

/** The remote site a config site's section plan runs on: its structure, or nothing for a site to create. */
export interface SitePlanInput {
  site: SiteT;
  info?: RemoteSiteInfo;
  remote: RemoteSite;
  base: string;
}

/**
 * Every site of an organization's config, each planned by `planOne` (src/kinds/sites/plan.ts),
 * through the analyser: matched against the listed sites (by id only where given: a missing id is a
 * problem), one site named twice refused, twins `KEY#ID`, unmatched sites unmanaged or, when
 * pruned, deleted. A site's other kinds' plans join the organization's as each site is planned.
 */
export function planSiteList(ctx: PlanContext, remote: SitesRemote, planOne: (input: SitePlanInput) => SitePlans): SitePlans {
  const out = emptySitePlans();
  const desired = ctx.desired.sites;
  if (desired === undefined) return out;
  const configKeys = new Set(desired.map(siteKey));
  const planSite = (site: SiteT, info: RemoteSiteInfo | undefined): DraftStep[] => {
    const structure = info ? remote.sites.find((s) => s.id === info.id)?.site : emptyRemoteSite('');
    if (structure === null || structure === undefined) return [];
    const one = planOne({ site, info, remote: structure, base: siteBase(ctx.org, site, info) });
    if (!info) noteLookAlikeSite(one, site, remote.list);
    if (info?.gitSync) refuseGitSyncOwned(ctx, one, site, info);
    const own = one.sites;
    // The site's own steps are the analyser's (their fingerprints are of the listed site); the rest joins now.
    one.sites = { ...own, steps: [], fingerprints: {}, observed: {} };
    merge(out, one);
    return own.steps;
  };
  const { plan } = analyse<SiteT, RemoteSiteInfo>(ctx.org, desired, remote.list, {
    ...SITE_KEYS,
    kind: 'sites',
    what: 'sites',
    prune: ctx.prunes('sites'),
    // A site no entry matches is named by its id, as the config (and import) names a listed site; an
    // id that is a config site's title key never takes that site's address.
    unmatchedKey: (r) => (configKeys.has(r.id) ? `${r.title}#${r.id}` : r.id),
    fingerprint: normalSite,
    // In the create's terms: what a saved plan's create of this site, found done, is held against.
    observe: (r) => ({ type: r.type, ...currentFields(r) }),
    create: (site) =>
      site.id === undefined
        ? planSite(site, undefined)
        : { problems: [{ org: ctx.org, address: siteAddress(siteKey(site)), message: `site ${site.id} does not exist in organization ${ctx.org} (check the id, or leave it out to create the site by title)` }] },
    update: (site, info) => planSite(site, info),
    remove: (r) => ({
      before: { title: r.title, published: r.published, visibility: r.visibility },
      requests: [{ method: 'DELETE', path: `${orgPath(ctx.org)}/sites/${encodeURIComponent(r.id)}` }],
      notes: [`apply refuses this delete without --force: ${SITE_DELETE_REASON}`],
    }),
  });
  mergeKindPlan(out.sites, plan);
  return out;
}

/**
 * A site synchronised with a repository: what its `gitbook-docs.yaml` owns is refused (a problem
 * each), and no step writes it (src/kinds/git-sync/owned.ts).
 */
function refuseGitSyncOwned(ctx: PlanContext, one: SitePlans, site: SiteT, info: RemoteSiteInfo): void {
  if (!info.gitSync) return;
  const address = siteAddress(siteKey(site));
  const titled = one.sites.steps.filter((s) => s.address === address && s.after !== null && typeof s.after === 'object' && ('title' in s.after || 'defaultSection' in s.after));
  const structureSteps = SITE_STRUCTURE_KINDS.reduce((n, k) => n + one[k].steps.length, titled.length);
  const problems = ownedSiteProblems({ org: ctx.org, address, entry: site, title: info.title, gitSync: info.gitSync, locations: ctx.desired.locations, structureSteps });
  if (problems.length === 0) return;
  one.sites.problems.push(...problems);
  for (const k of SITE_STRUCTURE_KINDS) {
    one[k].steps = [];
    delete one[k].pictures;
  }
  one.sites.steps = one.sites.steps.filter((s) => !titled.includes(s));
}

/** A site this plan creates whose title looks like an existing site's only to the eye: a warning on its create. */
function noteLookAlikeSite(plans: SitePlans, site: SiteT, list: readonly RemoteSiteInfo[]): void {
  const address = siteAddress(siteKey(site));
  const create = plans.sites.steps.find((s) => s.address === address && s.action === 'create');
  const notes = lookAlikeNote('site', site.title ?? '', list.map((r) => r.title));
  if (create && notes.length > 0) create.notes = [...(create.notes ?? []), ...notes];
}

/** One site's plans added to the organization's: everything a kind plan holds (what it observed too), and the pictures. */
function merge(into: SitePlans, one: SitePlans): void {
  for (const kind of SITE_KINDS) {
    mergeKindPlan(into[kind], one[kind]);
    const pictures = one[kind].pictures;
    if (pictures) (into[kind].pictures ??= []).push(...pictures);
  }
}

