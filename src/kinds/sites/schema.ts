/** A `sites` entry: a site's own fields, its sections, site spaces, section groups and share links. */
import { z } from 'zod';
import { Access } from '../access/schema.js';
import { Id, RenamedFrom, renamedFromNotOwn } from '../common/fields.js';
import { siteFields, siteIdentity } from './site-schema.js';

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

export const Site = z
  .strictObject({
    ...siteFields,
    sections: z.array(Section).optional(),
    sectionGroups: z.array(SectionGroup).optional(),
    shareLinks: z.array(ShareLink).optional(),
    access: Access.optional(),
  })
  .superRefine(siteIdentity);


export type SiteT = z.infer<typeof Site>;
export type SectionT = z.infer<typeof Section>;
export type SiteSpaceT = z.infer<typeof SiteSpace>;
export type SectionGroupT = z.infer<typeof SectionGroup>;
export type ShareLinkT = z.infer<typeof ShareLink>;

declare module '../../model/desired.js' {
  interface DesiredLists {
    sites?: SiteT[];
  }
}

/** The config key of a site: the name in its addresses (`sites["KEY"]`): its id, else its title. */
export function siteKey(site: { id?: string; title?: string }): string {
  return site.id ?? site.title ?? '';
}
