/**
 * Sites (`sites:` in the config): the sites themselves, and their sections, site spaces (in sections,
 * or at the root of a site without sections), section groups (nested), external links, share links
 * and structure order. The six kinds share one read (the organization's list of sites, then two reads
 * per site the config names and that exists) and one pure site planner, run once per plan; each kind
 * keeps the steps, counts, problems and fingerprints of its own. The structure sort step belongs to
 * `sections`, a holder's site-space sort step to `siteSpaces`.
 */
import { ACCESS_REFERENCES } from '../shared/access.js';
import type { KindSpec, KindUnit } from '../kind.js';
import { CUSTOMIZATION_FLOW_MAPS } from './customization-read.js';
import { importSites } from './import.js';
import { planSites, type SiteKind } from './plan.js';
import { readSites, type SitesRemote } from './remote.js';
import { resolveSites } from './resolve.js';
import { deprecationWarnings } from './deprecated.js';
import { readSiteInfos } from '../shared/sites.js';
import { Site } from './schema.js';
import { SITE_DELETE_REASON } from './site.js';

function siteKind(kind: SiteKind, one: string, many: string, count: KindSpec['count']): KindSpec<SitesRemote> {
  return {
    kind,
    label: { one, many },
    prunable: true,
    count,
    read: readSites,
    plan: (ctx, remote) => ctx.shared('sites', () => planSites(ctx, remote))[kind],
  };
}

const each = <T>(org: { sites?: T[] }, n: (site: T) => number): number => (org.sites ?? []).reduce((sum, s) => sum + n(s), 0);

export const sitesModule: KindSpec<SitesRemote> = {
  ...siteKind('sites', 'site', 'sites', (org) => org.sites?.length ?? 0),
  deleteNeedsForce: SITE_DELETE_REASON,
};
export const sectionsModule = siteKind('sections', 'section', 'sections', (org) => each(org, (s) => s.sections?.length ?? 0));
export const siteSpacesModule = siteKind('siteSpaces', 'site space', 'site spaces', (org) =>
  // The section's own space is one of its site spaces, listed or not.
  each(org, (site) =>
    (site.sections ?? []).reduce(
      (n, section) => n + (section.siteSpaces ?? []).length + ((section.siteSpaces ?? []).some((s) => s.space === section.space) ? 0 : 1),
      (site.siteSpaces ?? []).length,
    ),
  ),
);
export const sectionGroupsModule = siteKind('sectionGroups', 'section group', 'section groups', (org) => each(org, (s) => s.sectionGroups?.length ?? 0));
export const shareLinksModule = siteKind('shareLinks', 'share link', 'share links', (org) => each(org, (s) => s.shareLinks?.length ?? 0));
export const externalLinksModule = siteKind('externalLinks', 'external link', 'external links', (org) => each(org, (s) => s.externalLinks?.length ?? 0));
export const redirectsModule = siteKind('redirects', 'redirect', 'redirects', (org) => each(org, (s) => s.redirects?.length ?? 0));
export const customizationModule = { ...siteKind('customization', 'customization', 'customizations', (org) => each(org, (s) => (s.customization ? 1 : 0))), prunable: false };
export const publishingAuthModule = { ...siteKind('publishingAuth', 'publishing auth', 'publishing auths', (org) => each(org, (s) => (s.publishingAuth ? 1 : 0))), prunable: false };

export const agentSettingsModule = { ...siteKind('agentSettings', 'agent settings', 'agent settings', (org) => each(org, (s) => (s.agentSettings ? 1 : 0))), prunable: false };
export const mcpServersModule = siteKind('mcpServers', 'MCP server', 'MCP servers', (org) => each(org, (s) => s.mcpServers?.length ?? 0));
export const adaptiveSchemaModule = { ...siteKind('adaptiveSchema', 'adaptive schema', 'adaptive schemas', (org) => each(org, (s) => (s.adaptiveSchema ? 1 : 0))), prunable: false };

export const sitesUnit: KindUnit = {
  configKey: 'sites',
  audit: {
    targets: {
      site: { by: 'id' },
      // Objects inside a site name no site: every site of the config is read.
      'site-section': { by: 'unit' },
      'site-space': { by: 'unit' },
      'site-section-group': { by: 'unit' },
      'share-link': { by: 'unit' },
      'site-redirect': { by: 'unit' },
      'site-external-link': { by: 'unit' },
      'site-mcp-server': { by: 'unit' },
    },
    paths: {
      sites: 'site',
      sections: 'site-section',
      'section-groups': 'site-section-group',
      'site-spaces': 'site-space',
      'share-links': 'share-link',
      redirects: 'site-redirect',
      'external-links': 'site-external-link',
      'mcp-servers': 'site-mcp-server',
    },
  },
  list: true,
  schema: Site,
  kinds: [sitesModule, sectionsModule, siteSpacesModule, sectionGroupsModule, shareLinksModule, externalLinksModule, redirectsModule, customizationModule, publishingAuthModule, agentSettingsModule, mcpServersModule, adaptiveSchemaModule],
  parts: {
    sections: { kinds: ['sections', 'siteSpaces'], moves: ['default'] },
    siteSpaces: { kinds: ['siteSpaces'], moves: ['default'] },
    sectionGroups: { kinds: ['sectionGroups'], moves: ['sections', 'parent', 'order'] },
    externalLinks: { kinds: ['externalLinks'], moves: ['group'] },
    shareLinks: { kinds: ['shareLinks'], moves: [] },
  },
  addressNames: { top: ['sites'], inner: ['sections', 'siteSpaces', 'sectionGroups', 'shareLinks', 'externalLinks', 'structure', 'redirects', 'customization', 'publishingAuth', 'agentSettings', 'mcpServers', 'adaptiveSchema'] },
  flowMaps: [
    'sites.*.sections.*.siteSpaces.*',
    'sites.*.siteSpaces.*',
    'sites.*.shareLinks.*',
    'sites.*.order.*',
    'sites.*.sectionGroups.*.order.*',
    'sites.*.redirects.*',
    ...CUSTOMIZATION_FLOW_MAPS.map((p) => `sites.*.customization.${p}`),
  ],
  references: [
    { field: 'sections[].space', target: 'spaces' },
    { field: 'sections[].siteSpaces[].space', target: 'spaces' },
    { field: 'siteSpaces[].space', target: 'spaces' },
    { field: 'sectionGroups[].sections', target: 'sections' },
    ...ACCESS_REFERENCES,
  ],
  existing: readSiteInfos,
  resolve: resolveSites,
  warnings: deprecationWarnings,
  importer: importSites,
};

export { planSite, planSites, SITE_KINDS, type SiteKind, type SitePlans } from './plan.js';
export { readSites, structureSite, type SitesRemote, type RemoteSite } from './remote.js';
export { sortMoves, applyMoves, longestIncreasing, type Move } from './order.js';
