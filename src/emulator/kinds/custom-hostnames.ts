/**
 * Custom hostnames of sites (`getCustomHostname`, `dnsRevalidateCustomHostname`,
 * `removeCustomHostname` on `/custom-hostnames/{hostname}`): connecting one needs its DNS records,
 * which the emulator has no part of, so they are seeded (`customHostnames:` of an organization in the
 * state file); a site carries its hostname in its Site object (`hostname`) until it is removed.
 */
import { z } from 'zod';
import { HttpError, deleted, noContent, notFound, ok, type RouteRequest } from '../http.js';
import { SeedError, defineKind } from '../kind.js';
import { canReach, viewCtx } from '../routing.js';
import { apiUrl } from '../views.js';
import type { SiteRec } from './sites/records.js';

type Status = 'live' | 'ssl_pending' | 'dns_no_cname';

declare module './sites/records.js' {
  interface SiteRec {
    /** Its custom hostname, as connected in the app. */
    customHostname?: { hostname: string; status: Status };
  }
}

const Hostname = z
  .string()
  .max(512)
  .regex(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/, 'must be a host name such as docs.acme.com');

/** The site a hostname serves, among the organizations the caller reaches. */
function holder(req: RouteRequest): SiteRec | undefined {
  for (const org of req.world.orgs.values()) {
    if (!canReach(req, org)) continue;
    for (const site of org.sites.values()) if (site.customHostname?.hostname === req.params.hostname) return site;
  }
  return undefined;
}

export const customHostnamesKind = defineKind({
  name: 'customHostnames',
  orgSeed: {
    /** Custom hostnames of the organization's sites (connected in the app). */
    customHostnames: z.array(z.strictObject({ hostname: Hostname, site: z.string().min(1), status: z.enum(['live', 'ssl_pending', 'dns_no_cname']).default('live') })).default([]),
  },
  seedOrg(_ctx, org, seed, place) {
    seed.customHostnames.forEach((h, i) => {
      const site = org.sites.get(h.site);
      if (!site) throw new SeedError(`${place}.customHostnames[${i}].site`, `no site ${h.site} in ${org.id}`);
      if (site.customHostname) throw new SeedError(`${place}.customHostnames[${i}]`, `site ${h.site} has a custom hostname already`);
      site.customHostname = { hostname: h.hostname, status: h.status };
    });
  },
  routes(router) {
    router.add('GET', '/v1/custom-hostnames/:hostname', (req) => {
      const site = holder(req);
      if (!site?.customHostname) throw notFound(`no custom hostname ${req.params.hostname}`);
      return ok({
        object: 'custom-hostname',
        hostname: site.customHostname.hostname,
        target: { type: 'site', site: site.id },
        isActive: site.customHostname.status === 'live',
        status: site.customHostname.status,
        urls: { location: apiUrl(viewCtx(req), `/custom-hostnames/${site.customHostname.hostname}`) },
      });
    });

    router.add('PATCH', '/v1/custom-hostnames/:hostname', (req) => {
      const site = holder(req);
      if (!site?.customHostname) throw notFound(`no custom hostname ${req.params.hostname}`);
      if (site.customHostname.status === 'live') throw new HttpError(409, `custom hostname ${req.params.hostname} is live: its DNS needs no revalidation`);
      return noContent();
    });

    router.add('DELETE', '/v1/custom-hostnames/:hostname', (req) => {
      const site = holder(req);
      if (!site) return deleted(false);
      delete site.customHostname;
      return deleted(true);
    });
  },
});
