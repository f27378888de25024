/**
 * Sites in the state file. Sites are seeded only (the API cannot create them), each with its
 * sections, section groups, site spaces and share links as if made earlier through the API.
 */
import { z } from 'zod';
import { SeedError } from '../../kind.js';
import type { SeedContext } from '../../kind.js';
import type { OrgRec } from '../../model.js';
import { Id, Timestamp } from '../../schemas.js';
import type { GroupRec, SectionRec, SiteRec, SiteSpaceRec } from './records.js';
import { slugify, uniqueSlug } from './records.js';
import { CustomizationSeed, seedCustomization } from './customization.js';
import { PublishingAuthSeed, seedPublishingAuth } from './publishing-auth.js';
import { RedirectSeed, seedRedirects } from './redirects.js';

const SiteSpaceSeed = z.strictObject({
  id: Id.optional(),
  space: Id,
  path: z.string().min(1).max(100).optional(),
  condition: z.string().max(1024).optional(),
  draft: z.boolean().optional(),
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
  siteSpaces: z.array(SiteSpaceSeed).default([]),
});

const SectionGroupSeed = z.strictObject({
  id: Id.optional(),
  title: z.string().min(1).max(100),
  icon: z.string().max(50).optional(),
  draft: z.boolean().optional(),
  /** Section paths (or ids), in order. */
  sections: z.array(z.string().min(1)).default([]),
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
  sections: z.array(SectionSeed).default([]),
  sectionGroups: z.array(SectionGroupSeed).default([]),
  shareLinks: z.array(ShareLinkSeed).default([]),
  /** Site spaces at the root of a site that has no sections. */
  siteSpaces: z.array(SiteSpaceSeed).default([]),
  // Redirects, customization (fields over the defaults) and publishing auth.
  redirects: z.array(RedirectSeed).default([]),
  customization: CustomizationSeed.optional(),
  publishingAuth: PublishingAuthSeed.optional(),
});
export type SiteSeedT = z.output<typeof SiteSeed>;

export function seedSite(ctx: SeedContext, org: OrgRec, seed: SiteSeedT, place: string): void {
  const { world, stamp } = ctx;
  const id = seed.id ?? world.newId('site');
  for (const o of world.orgs.values()) {
    if (o.sites.has(id)) throw new SeedError(`${place}.id`, `site ${id} is listed twice`);
  }
  const site: SiteRec = {
    id,
    org: org.id,
    title: seed.title,
    top: [],
    rootSiteSpaces: [],
    sections: new Map(),
    groups: new Map(),
    siteSpaces: new Map(),
    shareLinks: new Map(),
  };
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

  seed.sectionGroups.forEach((g, i) => {
    const where = `${place}.sectionGroups[${i}]`;
    const gid = g.id ?? world.newId('grp');
    const group: GroupRec = { id: gid, title: g.title, icon: g.icon, draft: g.draft ?? false, sections: [], createdAt: stamp() };
    site.groups.set(gid, group);
    site.top.push({ type: 'group', id: gid });
    g.sections.forEach((ref, j) => {
      const section = site.sections.get(ref) ?? [...site.sections.values()].find((x) => x.path === ref);
      if (!section) throw new SeedError(`${where}.sections[${j}]`, `no section with path or id ${ref} in ${id}`);
      if (section.group) throw new SeedError(`${where}.sections[${j}]`, `section ${ref} is already in a group`);
      // The group stands where its first section stood.
      const at = site.top.findIndex((t) => t.type === 'section' && t.id === section.id);
      site.top.splice(at, 1);
      if (group.sections.length === 0) {
        site.top.splice(site.top.findIndex((t) => t.type === 'group' && t.id === gid), 1);
        site.top.splice(at, 0, { type: 'group', id: gid });
      }
      group.sections.push(section.id);
      section.group = gid;
    });
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
}
