/**
 * The fields of a site itself (`sites:` entries): its identity (`id`, else `title`) and the settings
 * the API's `updateSiteById` takes, with the live description's limits and enums. Every field but the
 * identity is optional: an absent field is unmanaged.
 */
import { z } from 'zod';
import { Id, Level, RenamedFrom } from '../common/fields.js';

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;

export const SiteTitle = z.string().min(2).max(128);
export const SiteBasename = z.string().min(1).max(100);
// SiteProxyOrigin: a host and at least one path segment (`company.com/docs`).
export const SiteProxyOrigin = z
  .string()
  .max(512)
  .regex(/^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/, 'must be a host and a path, such as company.com/docs');

/** Spread into the site entry's schema (src/kinds/sites/schema.ts). */
export const siteFields = {
  id: Id.optional().describe('An existing site; without it the site is matched by title, and created when none matches'),
  renamedFrom: RenamedFrom.optional(),
  title: SiteTitle.optional(),
  type: z.enum(SITE_TYPES).optional().describe('Given when the site is created; the API cannot change it later'),
  visibility: z.enum(SITE_VISIBILITIES).optional(),
  basename: SiteBasename.optional(),
  published: z.boolean().optional(),
  adaptiveContent: z.boolean().optional().describe('Whether adaptive content is enabled'),
  defaultLevel: Level.optional(),
  proxy: SiteProxyOrigin.nullable().optional().describe('The proxy origin (company.com/docs), or null for none'),
  defaultSection: z.string().min(1).optional().describe('Path of the section shown by default'),
  styleguide: Id.nullable().optional().describe('The style guide space the site\'s editing agent follows (by id), or null for none'),
};

/** A site is named by its id or its title; `renamedFrom` is an old title. */
export function siteIdentity(value: { id?: string; title?: string; renamedFrom?: string }, ctx: z.RefinementCtx): void {
  if (value.id === undefined && value.title === undefined) {
    ctx.addIssue({ code: 'custom', path: ['title'], message: 'a site without id needs a title (its natural key)' });
  }
  if (value.renamedFrom !== undefined && value.renamedFrom === value.title) {
    ctx.addIssue({ code: 'custom', path: ['renamedFrom'], message: "is this resource's own title; give the title it had before, or remove renamedFrom" });
  }
}
