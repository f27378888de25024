/** The addresses of a site and of the things in it. */
import { key } from '../../model/address.js';
import { siteAddress } from '../shared/sites.js';

export { siteAddress };
export const sectionAddress = (site: string, path: string): string => `${siteAddress(site)}.sections${key(path)}`;
export const siteSpaceAddress = (site: string, path: string, space: string): string => `${sectionAddress(site, path)}.siteSpaces${key(space)}`;
export const siteSpacesOrderAddress = (site: string, path: string): string => `${sectionAddress(site, path)}.siteSpaces`;
export const groupAddress = (site: string, title: string): string => `${siteAddress(site)}.sectionGroups${key(title)}`;
export const shareLinkAddress = (site: string, name: string): string => `${siteAddress(site)}.shareLinks${key(name)}`;
export const externalLinkAddress = (site: string, title: string): string => `${siteAddress(site)}.externalLinks${key(title)}`;
/** A site space at the root of a site without sections. */
export const rootSiteSpaceAddress = (site: string, space: string): string => `${siteAddress(site)}.siteSpaces${key(space)}`;
export const rootSiteSpacesOrderAddress = (site: string): string => `${siteAddress(site)}.siteSpaces`;
export const structureAddress = (site: string): string => `${siteAddress(site)}.structure`;

