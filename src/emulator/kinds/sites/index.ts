/**
 * Sites: listed, created, updated, published and deleted (site-routes.ts), each with its structure
 * (sections, section groups, site spaces) and share links. records.ts holds the records,
 * structure.ts the order and its changes, views.ts the API's objects, seed.ts the state file,
 * routes.ts the endpoints inside a site.
 */
import { z } from 'zod';
import { SeedError, defineKind } from '../../kind.js';
import { siteAiRoutes } from './ai.js';
import { customizationRoutes } from './customization.js';
import { publishingAuthRoutes } from './publishing-auth.js';
import { redirectRoutes } from './redirects.js';
import { siteRoutes } from './routes.js';
import { siteObjectRoutes } from './site-routes.js';
import { SiteSeed, seedSite } from './seed.js';

export const sitesKind = defineKind({
  name: 'sites',
  auditObjects: {
    sites: 'site',
    sections: 'site-section',
    'section-groups': 'site-section-group',
    'site-spaces': 'site-space',
    'share-links': 'share-link',
    redirects: 'site-redirect',
    'external-links': 'site-external-link',
    'mcp-servers': 'site-mcp-server',
  },
  orgSeed: {
    sites: z.array(SiteSeed).default([]),
  },
  seedOrg(ctx, org, seed, place) {
    org.sites = new Map();
    seed.sites.forEach((s, i) => seedSite(ctx, org, s, `${place}.sites[${i}]`));
    // The organization's default content names one of its sites.
    if (org.defaultContent && !org.sites.has(org.defaultContent.site)) {
      throw new SeedError(`${place}.defaultContent.site`, `no site ${org.defaultContent.site} in ${org.id}`);
    }
  },
  routes(router) {
    siteObjectRoutes(router);
    siteRoutes(router);
    redirectRoutes(router);
    customizationRoutes(router);
    publishingAuthRoutes(router);
    siteAiRoutes(router);
  },
  // The private key of a site's publishing auth; the header values of its MCP servers.
  secretFields: [
    { field: 'privateKey', holds: 'value' },
    { field: 'headers', holds: 'map' },
  ],
});
