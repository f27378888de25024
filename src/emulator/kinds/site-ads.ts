/**
 * A site's ads (`POST /orgs/{org}/sites/{site}/ads`, updateSiteAdsById): `{status: in-review |
 * disabled, topic}`, answered 204; the site's `ads` (a SiteAds) shows them. A site never submitted is
 * `pending`. The ad network's own moves (live, rejected) are the state file's to seed.
 */
import { z } from 'zod';
import { bodyObject, noContent, notFound, validate } from '../http.js';
import { SeedError, defineKind } from '../kind.js';
import { orgOf } from '../routing.js';
import { Id } from '../schemas.js';

declare module './sites/records.js' {
  interface SiteRec {
    ads?: { status: string; topic?: string; zoneId?: string };
  }
}

const Topic = z.enum(['webdev', 'crypto']);

const AdsSeed = z.strictObject({
  site: Id,
  status: z.enum(['pending', 'in-review', 'live', 'rejected', 'disabled']),
  topic: Topic.optional(),
});

const UpdateAds = z.strictObject({ status: z.enum(['in-review', 'disabled']).optional(), topic: Topic.optional() });

export const siteAdsKind = defineKind({
  name: 'siteAds',
  orgSeed: {
    siteAds: z.array(AdsSeed).default([]),
  },
  seedOrg(_ctx, org, seed, place) {
    seed.siteAds.forEach((a, i) => {
      const site = org.sites.get(a.site);
      if (!site) throw new SeedError(`${place}.siteAds[${i}].site`, `no site ${a.site} in ${org.id}`);
      site.ads = { status: a.status, ...(a.topic ? { topic: a.topic } : {}), ...(a.status === 'live' || a.status === 'disabled' ? { zoneId: `zone_${a.site}` } : {}) };
    });
  },
  routes(router) {
    router.add('POST', '/v1/orgs/:org/sites/:site/ads', (req) => {
      const org = orgOf(req);
      const site = org.sites.get(req.params.site);
      if (!site) throw notFound(`no site ${req.params.site} in organization ${org.id}`);
      const body = validate(UpdateAds, bodyObject(req));
      const was = site.ads ?? { status: 'pending' };
      const topic = body.topic ?? was.topic;
      site.ads = { status: body.status ?? was.status, ...(topic ? { topic } : {}), ...(body.status === 'disabled' || was.zoneId ? { zoneId: was.zoneId ?? `zone_${site.id}` } : {}) };
      return noContent();
    });
  },
});

/** The `ads` of a site view (SiteAds): `pending` until submitted. */
export function adsView(ads: { status: string; topic?: string; zoneId?: string } | undefined): Record<string, unknown> {
  if (!ads || ads.status === 'pending') return { status: 'pending', submittable: true };
  if (ads.status === 'rejected') return { status: 'rejected' };
  if (ads.status === 'in-review') return { status: 'in-review', topic: ads.topic ?? 'webdev' };
  return { status: ads.status, topic: ads.topic ?? 'webdev', zoneId: ads.zoneId ?? '' };
}
