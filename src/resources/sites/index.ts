/**
 * Site kinds: sections, site spaces, section groups, share links and the structure order. The four
 * modules share one read (three lists per site the config names) and one pure site planner; each
 * keeps the steps, counts, problems and fingerprints of its kind. The structure sort step belongs to
 * `sections`, a section's site-space sort step to `siteSpaces`.
 */
import type { ResourceModule } from '../types.js';
import { planSites, type SiteKind } from './plan.js';
import { readSites, type SitesRemote } from './remote.js';

function siteModule(kind: SiteKind): ResourceModule<SitesRemote> {
  return {
    kind,
    read: readSites,
    plan: (ctx, remote) => planSites(ctx, remote)[kind],
  };
}

export const sectionsModule = siteModule('sections');
export const siteSpacesModule = siteModule('siteSpaces');
export const sectionGroupsModule = siteModule('sectionGroups');
export const shareLinksModule = siteModule('shareLinks');

export const siteModules: ResourceModule[] = [sectionsModule, siteSpacesModule, sectionGroupsModule, shareLinksModule] as ResourceModule[];

export { planSite, planSites, SITE_KINDS, type SiteKind, type SitePlans } from './plan.js';
export { readSites, assembleSite, type SitesRemote, type RemoteSite } from './remote.js';
export { sortMoves, applyMoves, longestIncreasing, type Move } from './order.js';
