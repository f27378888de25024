/**
 * A site's ads (`siteAds["site_docs"]`): set with POST ORG/sites/SITE/ads `{status, topic}`
 * (updateSiteAdsById, 204), read from the `ads` of the organization's sites list, which the sites
 * kinds read anyway. The site must exist; there is nothing to create or delete.
 */
import { key } from '../../model/address.js';
import type { JsonObject } from '../../model/step.js';
import { analyse } from '../common/analyse.js';
import { enc, orgPath } from '../common/paths.js';
import { step } from '../common/step.js';
import { emptyKindPlan, type KindPlan, type KindSpec } from '../kind.js';
import { readSiteInfos, type RemoteSiteInfo } from '../shared/sites.js';
import type { SiteAdsT } from './schema.js';

export function siteAdsAddress(site: string): string {
  return `siteAds${key(site)}`;
}

/** What a config's status stands for: `in-review` is met once submitted (in review, live or rejected). */
export function adsStatus(remote: string | undefined): 'in-review' | 'disabled' | undefined {
  if (remote === 'disabled') return 'disabled';
  return remote === 'in-review' || remote === 'live' || remote === 'rejected' ? 'in-review' : undefined;
}

/** The ads as the config writes them, or undefined for a site never submitted. */
export function adsOf(r: RemoteSiteInfo): { status: 'in-review' | 'disabled'; topic?: string } | undefined {
  const status = adsStatus(r.ads?.status);
  if (status === undefined) return undefined;
  return { status, ...(r.ads?.topic ? { topic: r.ads.topic } : {}) };
}

function shown(r: RemoteSiteInfo): JsonObject {
  return { status: adsStatus(r.ads?.status) ?? r.ads?.status ?? 'pending', topic: r.ads?.topic ?? null };
}

export const siteAdsModule: KindSpec<RemoteSiteInfo[] | undefined> = {
  kind: 'siteAds',
  label: { one: 'site ads setting', many: 'site ads settings' },
  count: (org) => org.siteAds?.length ?? 0,

  async read(ctx) {
    return ctx.desired.siteAds === undefined ? undefined : readSiteInfos(ctx);
  },

  plan(ctx, remote): KindPlan {
    const desired = ctx.desired.siteAds;
    if (desired === undefined || remote === undefined) return emptyKindPlan();
    const named = new Set(desired.map((d) => d.site));
    return analyse<SiteAdsT, RemoteSiteInfo>(ctx.org, desired, remote, {
      kind: 'siteAds',
      what: 'site ads settings',
      address: siteAdsAddress,
      desiredKey: (d) => d.site,
      remoteKey: (r) => r.id,
      remoteId: (r) => r.id,
      owned: (r) => named.has(r.id),
      prune: false,
      fingerprint: (r) => ({ id: r.id, ads: shown(r) }),
      observe: shown,
      create: (d, address) => ({ problems: [{ org: ctx.org, address, message: `site ${d.site} does not exist in organization ${ctx.org} (check the id)` }] }),
      update(d, r, address) {
        const now = shown(r);
        const after: JsonObject = { status: d.status, ...(d.topic !== undefined ? { topic: d.topic } : {}) };
        if (now.status === d.status && (d.topic === undefined || now.topic === d.topic)) return [];
        const before: JsonObject = { status: now.status, ...(d.topic !== undefined ? { topic: now.topic } : {}) };
        return [step({ address, kind: 'siteAds', action: 'update', before, after, requests: [{ method: 'POST', path: `${orgPath(ctx.org)}/sites/${enc(r.id)}/ads`, body: after }], remoteId: r.id })];
      },
      remove: () => ({ before: {}, requests: [] }),
    }).plan;
  },
};
