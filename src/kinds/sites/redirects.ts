/**
 * The redirects of a site, keyed by `source`: the config's list is the whole truth when present
 * (unlisted redirects are deleted when `redirects` is pruned, else named unmanaged).
 *
 * One request per redirect (`createSiteRedirect`, `updateSiteRedirectById`,
 * `deleteSiteRedirectById`), not the bulk upsert (`PUT SITE/redirects`): that answers 200 with a
 * status per item, an item that failed included, so a failed redirect would pass as applied; and it
 * addresses redirects by source and live/draft intent, so it cannot move a redirect between live and
 * draft or stand for one step per redirect that apply can resume.
 */
import { key } from '../../model/address.js';
import type { JsonObject } from '../../model/step.js';
import { compact } from '../common/match.js';
import { analyse, mergeKindPlan } from '../common/analyse.js';
import { siteAddress } from './addresses.js';
import { destinationObject, type RemoteRedirect } from './redirects-read.js';
import { child, type Origin } from '../../source/origin.js';
import type { ResolveContext } from '../kind.js';
import { resolveSiteAi } from './ai.js';
import { locateDeprecated } from './deprecated.js';
import { siteKey, type RedirectT, type SiteT } from './schema.js';
import { differing, enc, type SiteContext } from './steps.js';
import { step } from '../common/step.js';

export const redirectAddress = (site: string, source: string): string => `${siteAddress(site)}.redirects${key(source)}`;

const FIELDS = ['destination', 'permanent', 'captureWildcard', 'draft'] as const;

export const normalRedirect = (r: RemoteRedirect): JsonObject => ({
  id: r.id,
  source: r.source,
  destination: r.destination,
  permanent: r.permanent,
  captureWildcard: r.captureWildcard,
  draft: r.draft });

/** The fields a config entry sets, as the API writes them. */
function desiredFields(r: RedirectT): JsonObject {
  return compact({ destination: destinationObject(r.destination), permanent: r.permanent, captureWildcard: r.captureWildcard, draft: r.draft }) as JsonObject;
}

export function planRedirects(ctx: SiteContext): void {
  const { org, site, remote, base, prunes, out } = ctx;
  if (site.redirects === undefined || remote.redirects === undefined) return;
  const kp = analyse<RedirectT, RemoteRedirect>(org, site.redirects, remote.redirects, {
    kind: 'redirects',
    what: 'redirects',
    address: (source) => redirectAddress(siteKey(site), source),
    desiredKey: (r) => r.source,
    remoteKey: (r) => r.source,
    remoteId: (r) => r.id,
    prune: prunes('redirects'),
    fingerprint: normalRedirect,
    observe: (r) => ({ source: r.source, ...normalRedirect(r) }),
    create(d, address) {
      const after = { source: d.source, ...desiredFields(d) };
      // The list answers live redirects unless asked for drafts: a draft is looked up among the drafts.
      return [step({ address, kind: 'redirects', action: 'create', before: null, after, requests: [{ method: 'POST', path: `${base}/redirects`, body: after, capture: true, lookup: { path: `${base}/redirects${d.draft ? '?draft=true' : ''}`, match: { source: d.source } } }] })];
    },
    update(d, r, address) {
      const current = normalRedirect(r);
      const { before, after } = differing(Object.fromEntries(FIELDS.map((f) => [f, current[f]])) as JsonObject, desiredFields(d));
      if (Object.keys(after).length === 0) return [];
      return [step({ address, kind: 'redirects', action: 'update', before, after, requests: [{ method: 'PATCH', path: `${base}/redirects/${enc(r.id)}`, body: after }], remoteId: r.id })];
    },
    remove: (r) => ({
      before: { source: r.source, destination: r.destination, permanent: r.permanent, captureWildcard: r.captureWildcard, draft: r.draft },
      requests: [{ method: 'DELETE', path: `${base}/redirects/${enc(r.id)}` }],
    }),
  }).plan;
  mergeKindPlan(out.redirects, kp);
}

/** The loader's checks: a source once per site; where the customization and publishing auth are. */
export function resolveSiteExtras(site: SiteT, origin: Origin, ctx: ResolveContext): void {
  (site.redirects ?? []).forEach((r, i) => {
    ctx.claim(`redirect:${siteKey(site)}:${r.source}`, redirectAddress(siteKey(site), r.source), child(origin, 'redirects', i), `redirect "${r.source}" of site ${siteKey(site)}`);
  });
  if (site.customization) ctx.locate(`${siteAddress(siteKey(site))}.customization`, child(origin, 'customization'));
  locateDeprecated(site, origin, ctx);
  if (site.publishingAuth) ctx.locate(`${siteAddress(siteKey(site))}.publishingAuth`, child(origin, 'publishingAuth'));
  resolveSiteAi(site, origin, ctx);
}
