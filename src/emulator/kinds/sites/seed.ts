/**
 * Sites in the state file. Sites are seeded only (the API cannot create them), each with its
 * sections, section groups (nested with `parent`), external links, site spaces (in sections or at
 * the root) and share links as if made earlier through the API.
 */
import { z } from 'zod';
import { SeedError } from '../../kind.js';
import type { SeedContext } from '../../kind.js';
import type { OrgRec } from '../../model.js';
import { Id, Language, Timestamp } from '../../schemas.js';
import type { GroupRec, SectionRec, SiteRec, SiteSpaceRec } from './records.js';
import { appendLink } from './structure.js';

const Localized = z.partialRecord(Language, z.string().max(256));
import { emptySite, slugify, uniqueSlug } from './records.js';
import { SiteAiSeed, seedSiteAi } from './ai.js';
import { CustomizationSeed, seedCustomization } from './customization.js';
import { PublishingAuthSeed, seedPublishingAuth } from './publishing-auth.js';
import { RedirectSeed, seedRedirects } from './redirects.js';
import { SiteSettingsSeed, siteSettings } from './site-routes.js';

const SiteSpaceSeed = z.strictObject({
  id: Id.optional(),
  space: Id,
  path: z.string().min(1).max(100).optional(),
  condition: z.string().max(1024).optional(),
  draft: z.boolean().optional(),
  hidden: z.boolean().optional(),
  default: z.boolean().optional(),
});

const SectionSeed = z.strictObject({
  id: Id.optional(),
  title: z.string().min(2).max(128),
  path: z.string().min(1).max(100).optional(),
  description: z.string().max(256).optional(),
  condition: z.string().max(1024).optional(),
  icon: z.string().max(50).optional(),
  draft: z.boolean().optional(),
  default: z.boolean().optional(),
  localizedTitle: Localized.optional(),
  localizedDescription: Localized.optional(),
  siteSpaces: z.array(SiteSpaceSeed).default([]),
});

const SectionGroupSeed = z.strictObject({
  id: Id.optional(),
  title: z.string().min(1).max(100),
  icon: z.string().max(50).optional(),
  draft: z.boolean().optional(),
  localizedTitle: Localized.optional(),
  /** The title (or id) of an earlier group holding it. */
  parent: z.string().min(1).optional(),
  /** Section paths (or ids), in order. */
  sections: z.array(z.string().min(1)).default([]),
});

const ExternalLinkSeed = z.strictObject({
  id: Id.optional(),
  title: z.string().min(2).max(128),
  url: z.string().min(1).max(2048),
  description: z.string().max(256).optional(),
  icon: z.string().max(50).optional(),
  condition: z.string().max(1024).optional(),
  draft: z.boolean().optional(),
  localizedTitle: Localized.optional(),
  localizedDescription: Localized.optional(),
  /** The title (or id) of the group holding it, appended to its children. */
  group: z.string().min(1).optional(),
});

const ShareLinkSeed = z.strictObject({
  id: Id.optional(),
  name: z.string().min(1).max(50),
  active: z.boolean().optional(),
  createdAt: Timestamp.optional(),
});

export const SiteSeed = z.strictObject({
  id: Id.optional(),
  title: z.string().min(1),
  ...SiteSettingsSeed,
  sections: z.array(SectionSeed).default([]),
  sectionGroups: z.array(SectionGroupSeed).default([]),
  shareLinks: z.array(ShareLinkSeed).default([]),
  /** Appended to the top level (or their group) after the sections and groups. */
  externalLinks: z.array(ExternalLinkSeed).default([]),
  /** Site spaces at the root of a site that has no sections. */
  siteSpaces: z.array(SiteSpaceSeed).default([]),
  // Redirects, customization (fields over the defaults) and publishing auth.
  redirects: z.array(RedirectSeed).default([]),
  customization: CustomizationSeed.optional(),
  publishingAuth: PublishingAuthSeed.optional(),
  // Agent settings, MCP servers and the adaptive schema's claims.
  ...SiteAiSeed,
  /** publishSite answers with a checkout session instead of publishing (the plan lacks the site's type). */
  publishNeedsPurchase: z.boolean().optional(),
});
export type SiteSeedT = z.output<typeof SiteSeed>;

export function seedSite(ctx: SeedContext, org: OrgRec, seed: SiteSeedT, place: string): void {
  const { world, stamp } = ctx;
  const id = seed.id ?? world.newId('site');
  for (const o of world.orgs.values()) {
    if (o.sites.has(id)) throw new SeedError(`${place}.id`, `site ${id} is listed twice`);
  }
  const site = emptySite(id, org.id, seed.title, siteSettings(seed, stamp()));
  if (seed.publishNeedsPurchase) site.publishNeedsPurchase = true;
  org.sites.set(id, site);

  const addSiteSpace = (ss: SiteSeedT['siteSpaces'][number], section: SectionRec | undefined, where: string): SiteSpaceRec => {
    const space = world.spaces.get(ss.space);
    if (!space || space.org !== org.id) throw new SeedError(`${where}.space`, `no space ${ss.space} in ${org.id}`);
    const container = section ? section.siteSpaces : site.rootSiteSpaces;
    const taken = (p: string) => container.some((sid) => site.siteSpaces.get(sid)?.path === p);
    const ssid = ss.id ?? world.newId('sitesp');
    const rec: SiteSpaceRec = {
      id: ssid,
      section: section?.id,
      space: space.id,
      path: ss.path ?? uniqueSlug(slugify(space.title, 'space'), taken),
      condition: ss.condition,
      draft: ss.draft ?? false,
      hidden: ss.hidden ?? false,
      createdAt: stamp(),
    };
    site.siteSpaces.set(ssid, rec);
    container.push(ssid);
    return rec;
  };

  if (seed.siteSpaces.length > 0 && seed.sections.length > 0) {
    throw new SeedError(`${place}.siteSpaces`, 'root site spaces are only for a site without sections; list them under a section');
  }
  seed.siteSpaces.forEach((ss, i) => addSiteSpace(ss, undefined, `${place}.siteSpaces[${i}]`));

  seed.sections.forEach((s, i) => {
    const where = `${place}.sections[${i}]`;
    const sid = s.id ?? world.newId('sec');
    const path = s.path ?? uniqueSlug(slugify(s.title), (p) => [...site.sections.values()].some((x) => x.path === p));
    if ([...site.sections.values()].some((x) => x.path === path)) throw new SeedError(`${where}.path`, `path ${path} is used twice`);
    const section: SectionRec = {
      id: sid,
      title: s.title,
      path,
      description: s.description,
      condition: s.condition,
      icon: s.icon,
      draft: s.draft ?? false,
      localizedTitle: s.localizedTitle as Record<string, string> | undefined,
      localizedDescription: s.localizedDescription as Record<string, string> | undefined,
      siteSpaces: [],
      createdAt: stamp(),
    };
    site.sections.set(sid, section);
    site.top.push({ type: 'section', id: sid });
    if (s.default) site.defaultSection = sid;
    s.siteSpaces.forEach((ss, j) => {
      const rec = addSiteSpace(ss, section, `${where}.siteSpaces[${j}]`);
      if (ss.default) section.defaultSiteSpace = rec.id;
    });
  });

  const groupByRef = (ref: string) => site.groups.get(ref) ?? [...site.groups.values()].find((g) => g.title === ref);
  seed.sectionGroups.forEach((g, i) => {
    const where = `${place}.sectionGroups[${i}]`;
    const gid = g.id ?? world.newId('grp');
    const group: GroupRec = {
      id: gid,
      title: g.title,
      icon: g.icon,
      draft: g.draft ?? false,
      localizedTitle: g.localizedTitle as Record<string, string> | undefined,
      children: [],
      createdAt: stamp(),
    };
    const parent = g.parent === undefined ? undefined : groupByRef(g.parent);
    if (g.parent !== undefined && !parent) throw new SeedError(`${where}.parent`, `no earlier section group ${g.parent} in ${id}`);
    site.groups.set(gid, group);
    // A nested group goes last in its parent; a top-level one stands where its first section stood.
    const list = parent ? parent.children : site.top;
    list.push({ type: 'group', id: gid });
    group.parent = parent?.id;
    g.sections.forEach((ref, j) => {
      const section = site.sections.get(ref) ?? [...site.sections.values()].find((x) => x.path === ref);
      if (!section) throw new SeedError(`${where}.sections[${j}]`, `no section with path or id ${ref} in ${id}`);
      if (section.group) throw new SeedError(`${where}.sections[${j}]`, `section ${ref} is already in a group`);
      const at = site.top.findIndex((t) => t.type === 'section' && t.id === section.id);
      site.top.splice(at, 1);
      if (group.children.length === 0 && !parent) {
        site.top.splice(site.top.findIndex((t) => t.type === 'group' && t.id === gid), 1);
        site.top.splice(at, 0, { type: 'group', id: gid });
      }
      group.children.push({ type: 'section', id: section.id });
      section.group = gid;
    });
  });

  seed.externalLinks.forEach((l, i) => {
    const parent = l.group === undefined ? undefined : groupByRef(l.group);
    if (l.group !== undefined && !parent) throw new SeedError(`${place}.externalLinks[${i}].group`, `no section group ${l.group} in ${id}`);
    const { group: _group, localizedTitle, localizedDescription, ...fields } = l;
    appendLink(
      site,
      {
        ...fields,
        id: l.id ?? world.newId('extlink'),
        draft: l.draft ?? false,
        localizedTitle: localizedTitle as Record<string, string> | undefined,
        localizedDescription: localizedDescription as Record<string, string> | undefined,
        createdAt: stamp(),
      },
      parent,
    );
  });

  seed.shareLinks.forEach((l) => {
    const lid = l.id ?? world.newId('link');
    site.shareLinks.set(lid, { id: lid, name: l.name, active: l.active ?? true, createdAt: l.createdAt ?? stamp() });
  });

  seedSiteExtras(ctx, site, seed, place);
}

function seedSiteExtras(ctx: SeedContext, site: SiteRec, seed: SiteSeedT, place: string): void {
  try {
    seedRedirects(site, seed.redirects, (p) => ctx.world.newId(p), ctx.stamp);
  } catch (err) {
    throw new SeedError(`${place}.redirects`, err instanceof Error ? err.message : String(err));
  }
  if (seed.customization) seedCustomization(site, seed.customization, ctx.stamp);
  if (seed.publishingAuth) seedPublishingAuth(site, seed.publishingAuth);
  seedSiteAi(ctx, site, seed);
}
