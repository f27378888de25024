/** A `sites` entry: an existing site's sections, site spaces, section groups and share links. */
import { z } from 'zod';
import { Access } from '../access/schema.js';
import { Id, RenamedFrom, renamedFromNotOwn } from '../common/fields.js';
import { Customization } from './customization-read.js';
import { PublishingAuth } from './publishing-auth-read.js';
import { Redirect } from './redirects-read.js';

export const SiteSpace = z.strictObject({
  id: Id.optional(),
  space: Id.describe('The space shown'),
  path: z.string().min(1).max(100).optional(),
  condition: z.string().max(1024).nullable().optional(),
});

export const Section = z
  .strictObject({
    id: Id.optional(),
    renamedFrom: RenamedFrom.optional(),
    path: z.string().min(1).max(100),
    title: z.string().min(2).max(128),
    space: Id.describe('The space the section is created with'),
    description: z.string().max(256).nullable().optional(),
    icon: z.string().max(50).nullable().optional(),
    condition: z.string().max(1024).nullable().optional(),
    siteSpaces: z.array(SiteSpace).optional().describe('Further spaces in the section, in order; the whole truth when present'),
  })
  .superRefine(renamedFromNotOwn('path'));

export const SectionGroup = z
  .strictObject({
    id: Id.optional(),
    renamedFrom: RenamedFrom.optional(),
    title: z.string().min(1).max(100),
    icon: z.string().max(50).nullable().optional(),
    sections: z.array(z.string().min(1)).optional().describe('Section paths, in order'),
  })
  .superRefine(renamedFromNotOwn('title'));

export const ShareLink = z
  .strictObject({
    id: Id.optional(),
    renamedFrom: RenamedFrom.optional(),
    name: z.string().min(1).max(50),
    active: z.boolean().optional(),
  })
  .superRefine(renamedFromNotOwn('name'));

export const Site = z.strictObject({
  id: Id.describe('An existing site (the API has no list or create of sites)'),
  sections: z.array(Section).optional(),
  sectionGroups: z.array(SectionGroup).optional(),
  shareLinks: z.array(ShareLink).optional(),
  access: Access.optional(),
  // Redirects, customization and publishing auth: each read only when present.
  redirects: z.array(Redirect).optional().describe('Redirects by source; the whole truth when present'),
  customization: Customization.optional().describe('The fields set; the others are kept as the site has them'),
  publishingAuth: PublishingAuth.optional().describe('Visitor authentication (the site\'s visibility must be visitor-auth)'),
});


export type SiteT = z.infer<typeof Site>;
export type SectionT = z.infer<typeof Section>;
export type SiteSpaceT = z.infer<typeof SiteSpace>;
export type SectionGroupT = z.infer<typeof SectionGroup>;
export type ShareLinkT = z.infer<typeof ShareLink>;
export type { RedirectT } from './redirects-read.js';
export type { CustomizationT } from './customization-read.js';
export type { PublishingAuthT } from './publishing-auth-read.js';

declare module '../../model/desired.js' {
  interface DesiredLists {
    sites?: SiteT[];
  }
}

/** The config key of a site: the name in its addresses (`sites["KEY"]`). */
export function siteKey(site: Pick<SiteT, 'id'>): string {
  return site.id;
}
