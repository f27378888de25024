/**
 * The routes of a site: section groups, sections, external links, site spaces and share links, the
 * structure sort and the deprecated moves it replaced. Sites themselves: site-routes.ts.
 */
import { z } from 'zod';
import { badRequest, bodyObject, created, deleted, listReply, notFound, ok, queryBoolean, validate } from '../../http.js';
import type { RouteRequest, Router } from '../../http.js';
import type { OrgRec } from '../../model.js';
import { location, nowIso, orgOf, viewCtx } from '../../routing.js';
import { Language, Uri } from '../../schemas.js';
import type { SpaceRec } from '../spaces.js';
import type { GroupRec, LinkRec, SectionRec, SiteRec, SiteSpaceRec } from './records.js';
import { slugify, uniqueSlug } from './records.js';
import {
  appendGroup,
  appendLink,
  appendSection,
  appendSiteSpace,
  defaultSectionId,
  defaultSiteSpaceId,
  deleteGroup,
  deleteLink,
  deleteSection,
  deleteSiteSpace,
  groupsInOrder,
  moveToGroup,
  sectionsInOrder,
  siteSpacesInOrder,
  sortStructure,
} from './structure.js';
import type { StructureRef } from './structure.js';
import { groupView, itemView, linkView, sectionView, shareLinkView, siteSpaceView, structureView } from './views.js';

const Icon = z.string().max(50);
const GroupTitle = z.string().min(1).max(100);
const SectionTitle = z.string().min(2).max(128);
const Localized128 = z.partialRecord(Language, z.string().max(128));
const Localized256 = z.partialRecord(Language, z.string().max(256));
const Description = z.string().max(256);
const Condition = z.string().max(1024);

// The request bodies of the live description (addSectionGroupToSite, updateSiteSectionGroupById,
// addSectionToSite, updateSiteSectionById, addSpaceToSite…), with their limits.
const CreateGroup = z.strictObject({
  title: GroupTitle,
  icon: Icon.nullable().optional(),
  sections: z.array(z.string().min(1)).optional(),
  parent: z.string().min(1).optional(),
  draft: z.boolean().optional(),
});
const PatchGroup = z.strictObject({
  title: GroupTitle.optional(),
  localizedTitle: Localized128.optional(),
  icon: Icon.nullable().optional(),
  draft: z.boolean().optional(),
  /** Moves the group into a group, or to the root with null. */
  parentSectionGroupId: z.string().min(1).nullable().optional(),
});

const CreateSection = z.strictObject({
  spaceId: z.string().min(1),
  title: SectionTitle.nullable().optional(),
  icon: Icon.nullable().optional(),
  draft: z.boolean().optional(),
  siteSectionGroupId: z.string().min(1).optional(),
});
const PatchSection = z.strictObject({
  title: SectionTitle.optional(),
  localizedTitle: Localized128.optional(),
  localizedDescription: Localized256.optional(),
  path: z.string().min(1).max(100).optional(),
  defaultSiteSpace: z.string().min(1).optional(),
  condition: z.string().max(1024).nullable().optional(),
  icon: Icon.nullable().optional(),
  description: z.string().max(256).nullable().optional(),
  draft: z.boolean().optional(),
  /** Moves the section into a group, or to the root with null: the way between levels (not the sort). */
  siteSectionGroupId: z.string().min(1).nullable().optional(),
});

const CreateSiteSpace = z.strictObject({ spaceId: z.string().min(1), sectionId: z.string().min(1).optional(), draft: z.boolean().optional() });
const PatchSiteSpace = z.strictObject({
  path: z.string().min(1).max(100).optional(),
  condition: z.string().max(1024).nullable().optional(),
  spaceId: z.string().min(1).optional(),
  hidden: z.boolean().optional(),
  draft: z.boolean().optional(),
});

// addExternalLinkToSite, updateSiteExternalLinkById.
const LinkUrl = Uri(2048).refine((u) => /^https?:/i.test(u), 'must be an absolute HTTP or HTTPS URL');
const CreateLink = z.strictObject({
  title: SectionTitle,
  localizedTitle: Localized128.optional(),
  description: Description.nullable().optional(),
  localizedDescription: Localized256.nullable().optional(),
  icon: Icon.nullable().optional(),
  url: LinkUrl,
  parent: z.string().min(1).optional(),
  draft: z.boolean().optional(),
  condition: Condition.nullable().optional(),
});
const PatchLink = z.strictObject({
  title: SectionTitle.optional(),
  localizedTitle: Localized128.nullable().optional(),
  description: Description.nullable().optional(),
  localizedDescription: Localized256.nullable().optional(),
  icon: Icon.nullable().optional(),
  url: LinkUrl.optional(),
  parent: z.string().min(1).nullable().optional(),
  draft: z.boolean().optional(),
  condition: Condition.nullable().optional(),
});

const CreateShareLink = z.strictObject({ name: z.string().min(1).max(50) });
const PatchShareLink = z.strictObject({ name: z.string().min(1).max(50).optional(), active: z.boolean().optional() });

/** A position of the deprecated moves: exactly one of `before` and `after`. */
function positionSchema<T extends z.ZodType>(ref: T) {
  return z.strictObject({ position: z.strictObject({ before: ref.optional(), after: ref.optional() }) });
}
const MoveSection = positionSchema(z.strictObject({ type: z.literal('site-section'), siteSection: z.string().min(1) }));
const MoveSiteSpace = positionSchema(z.strictObject({ type: z.literal('site-space'), siteSpace: z.string().min(1) }));

const StructureRefSchema = z.strictObject({
  type: z.enum(['site-space', 'site-section', 'site-section-group', 'site-external-link']),
  id: z.string().min(1),
});
const SortBody = z.strictObject({
  item: StructureRefSchema,
  position: z.strictObject({ before: StructureRefSchema.optional(), after: StructureRefSchema.optional() }),
});

function onePlacement<T>(position: { before?: T; after?: T }): { placement: 'before' | 'after'; target: T } {
  if (position.before && position.after) throw badRequest('position: give before or after, not both');
  if (position.before) return { placement: 'before', target: position.before };
  if (position.after) return { placement: 'after', target: position.after };
  throw badRequest('position: before or after is required');
}

export function siteOf(req: RouteRequest): { org: OrgRec; site: SiteRec } {
  const org = orgOf(req);
  const site = org.sites.get(req.params.site);
  if (!site) throw notFound(`no site ${req.params.site} in organization ${org.id}`);
  return { org, site };
}

function groupOf(req: RouteRequest, site: SiteRec): GroupRec {
  const g = site.groups.get(req.params.group);
  if (!g) throw notFound(`no section group ${req.params.group} in site ${site.id}`);
  return g;
}

function sectionOf(req: RouteRequest, site: SiteRec): SectionRec {
  const s = site.sections.get(req.params.section);
  if (!s) throw notFound(`no section ${req.params.section} in site ${site.id}`);
  return s;
}

function siteSpaceOf(req: RouteRequest, site: SiteRec): SiteSpaceRec {
  const ss = site.siteSpaces.get(req.params.siteSpace);
  if (!ss) throw notFound(`no site space ${req.params.siteSpace} in site ${site.id}`);
  return ss;
}

/** A space of the site's organization that is not deleted; 400 naming `field` otherwise. */
function contentSpace(req: RouteRequest, org: OrgRec, id: string, field = 'spaceId'): SpaceRec {
  const space = req.world.spaces.get(id);
  if (!space || space.org !== org.id || space.deletedAt) throw badRequest(`${field}: no space ${id} in organization ${org.id}`);
  return space;
}

function newSiteSpace(req: RouteRequest, site: SiteRec, section: SectionRec | undefined, space: SpaceRec): SiteSpaceRec {
  const container = section ? section.siteSpaces : site.rootSiteSpaces;
  const taken = (p: string) => container.some((id) => site.siteSpaces.get(id)!.path === p);
  const ss: SiteSpaceRec = {
    id: req.world.newId('sitesp'),
    section: section?.id,
    space: space.id,
    path: uniqueSlug(slugify(space.title, 'space'), taken),
    draft: false,
    hidden: false,
    createdAt: nowIso(req),
  };
  appendSiteSpace(site, ss);
  return ss;
}

const sitePath = (org: OrgRec, site: SiteRec) => `/orgs/${org.id}/sites/${site.id}`;

/** A group an update moves an item into: the group, null for the root, undefined when the field is absent; 400 for an unknown group. */
function parentGroup(site: SiteRec, id: string | null | undefined, field: string): GroupRec | null | undefined {
  if (id === undefined || id === null) return id;
  const group = site.groups.get(id);
  if (!group) throw badRequest(`${field}: no section group ${id} in site ${site.id}`);
  return group;
}

/** A localized map as stored: empty (or null) is none. */
function localizedOf(value: Partial<Record<string, string>> | null | undefined): Record<string, string> | undefined {
  const entries = Object.entries(value ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

export function siteRoutes(router: Router): void {
  const SITE = '/v1/orgs/:org/sites/:site';

  // --- section groups -------------------------------------------------------------------------
  router.add('GET', `${SITE}/section-groups`, (req) => {
    const { site } = siteOf(req);
    return listReply(req.query, groupsInOrder(site), (g) => groupView(viewCtx(req), site, g));
  });

  router.add('POST', `${SITE}/section-groups`, (req) => {
    const { org, site } = siteOf(req);
    const body = validate(CreateGroup, bodyObject(req));
    const parent = body.parent === undefined ? undefined : site.groups.get(body.parent);
    if (body.parent !== undefined && !parent) throw badRequest(`parent: no section group ${body.parent} in site ${site.id}`);
    const ids = [...new Set(body.sections ?? [])];
    const sections = ids.map((id, i) => {
      const s = site.sections.get(id);
      if (!s) throw badRequest(`sections[${i}]: no section ${id} in site ${site.id}`);
      return s;
    });
    const group: GroupRec = {
      id: req.world.newId('grp'),
      title: body.title,
      icon: body.icon ?? undefined,
      draft: body.draft ?? false,
      children: [],
      createdAt: nowIso(req),
    };
    appendGroup(site, group, sections, parent);
    return created(groupView(viewCtx(req), site, group), location(req, `${sitePath(org, site)}/section-groups/${group.id}`));
  });

  router.add('PATCH', `${SITE}/section-groups/:group`, (req) => {
    const { site } = siteOf(req);
    const group = groupOf(req, site);
    const body = validate(PatchGroup, bodyObject(req));
    const parent = parentGroup(site, body.parentSectionGroupId, 'parentSectionGroupId');
    if (parent !== undefined) moveToGroup(site, { type: 'group', id: group.id }, parent, 'parentSectionGroupId');
    if (body.title !== undefined) group.title = body.title;
    if (body.localizedTitle !== undefined) group.localizedTitle = localizedOf(body.localizedTitle);
    if (body.icon !== undefined) group.icon = body.icon ?? undefined;
    if (body.draft !== undefined) group.draft = body.draft;
    return ok(groupView(viewCtx(req), site, group));
  }, { minimal: true });

  router.add('DELETE', `${SITE}/section-groups/:group`, (req) => {
    const { site } = siteOf(req);
    const group = site.groups.get(req.params.group);
    if (!group) return deleted(false);
    deleteGroup(site, group);
    return deleted(true);
  });

  // No `POST`/`DELETE SITE/section-groups/{id}/sections…` on the live service: the description has no
  // such path (a section moves between groups by its own PATCH, `siteSectionGroupId`), so they answer
  // 404 as any unknown path.

  // --- sections -------------------------------------------------------------------------------
  router.add('GET', `${SITE}/sections`, (req) => {
    const { site } = siteOf(req);
    return listReply(req.query, sectionsInOrder(site), (s) => sectionView(viewCtx(req), site, s));
  });

  router.add('POST', `${SITE}/sections`, (req) => {
    const { org, site } = siteOf(req);
    const body = validate(CreateSection, bodyObject(req));
    const space = contentSpace(req, org, body.spaceId);
    const title = body.title ?? (space.title.length >= 2 ? space.title.slice(0, 128) : `${space.title} section`);
    const taken = (p: string) => [...site.sections.values()].some((s) => s.path === p);
    let group: GroupRec | undefined;
    if (body.siteSectionGroupId !== undefined) {
      group = site.groups.get(body.siteSectionGroupId);
      if (!group) throw badRequest(`siteSectionGroupId: no section group ${body.siteSectionGroupId} in site ${site.id}`);
    }
    const section: SectionRec = {
      id: req.world.newId('sec'),
      title,
      path: uniqueSlug(slugify(title), taken),
      icon: body.icon ?? undefined,
      draft: body.draft ?? false,
      siteSpaces: [],
      createdAt: nowIso(req),
    };
    appendSection(site, section, group);
    newSiteSpace(req, site, section, space);
    return created(sectionView(viewCtx(req), site, section), location(req, `${sitePath(org, site)}/sections/${section.id}`));
  });

  router.add('PATCH', `${SITE}/sections/:section`, (req) => {
    const { site } = siteOf(req);
    const section = sectionOf(req, site);
    const body = validate(PatchSection, bodyObject(req));
    const group = parentGroup(site, body.siteSectionGroupId, 'siteSectionGroupId');
    if (body.path !== undefined) {
      const other = [...site.sections.values()].find((s) => s.path === body.path && s.id !== section.id);
      if (other) throw badRequest(`path: ${body.path} is already the path of section ${other.id}`);
    }
    if (body.defaultSiteSpace !== undefined && !section.siteSpaces.includes(body.defaultSiteSpace)) {
      throw badRequest(`defaultSiteSpace: no site space ${body.defaultSiteSpace} in section ${section.id}`);
    }
    if (body.title !== undefined) section.title = body.title;
    if (body.localizedTitle !== undefined) section.localizedTitle = localizedOf(body.localizedTitle);
    if (body.localizedDescription !== undefined) section.localizedDescription = localizedOf(body.localizedDescription);
    if (body.path !== undefined) section.path = body.path;
    if (body.defaultSiteSpace !== undefined) section.defaultSiteSpace = body.defaultSiteSpace;
    if (body.condition !== undefined) section.condition = body.condition ?? undefined;
    if (body.icon !== undefined) section.icon = body.icon ?? undefined;
    if (body.description !== undefined) section.description = body.description ?? undefined;
    if (body.draft !== undefined) section.draft = body.draft;
    if (group !== undefined) moveToGroup(site, { type: 'section', id: section.id }, group, 'siteSectionGroupId');
    return ok(sectionView(viewCtx(req), site, section));
  }, { minimal: true });

  router.add('DELETE', `${SITE}/sections/:section`, (req) => {
    const { site } = siteOf(req);
    const section = site.sections.get(req.params.section);
    if (!section) return deleted(false);
    deleteSection(site, section);
    return deleted(true);
  });

  // Deprecated: replaced by PATCH SITE/structure/sort.
  router.add('POST', `${SITE}/sections/:section/move`, (req) => {
    const { site } = siteOf(req);
    const section = sectionOf(req, site);
    const body = validate(MoveSection, bodyObject(req));
    const { placement, target } = onePlacement(body.position);
    sortStructure(site, { type: 'site-section', id: section.id }, placement, { type: 'site-section', id: target.siteSection });
    return ok(sectionView(viewCtx(req), site, section));
  });

  // --- site spaces ----------------------------------------------------------------------------
  router.add('GET', `${SITE}/site-spaces`, (req) => {
    const { site } = siteOf(req);
    const onlyDefault = queryBoolean(req.query, 'default');
    let list = siteSpacesInOrder(site);
    if (onlyDefault !== undefined) {
      list = list.filter((ss) => {
        const section = ss.section ? site.sections.get(ss.section) : undefined;
        return (defaultSiteSpaceId(site, section) === ss.id) === onlyDefault;
      });
    }
    return listReply(req.query, list, (ss) => siteSpaceView(viewCtx(req), site, ss));
  });

  router.add('POST', `${SITE}/site-spaces`, (req) => {
    const { org, site } = siteOf(req);
    const body = validate(CreateSiteSpace, bodyObject(req));
    const space = contentSpace(req, org, body.spaceId);
    let section: SectionRec | undefined;
    if (body.sectionId !== undefined) {
      section = site.sections.get(body.sectionId);
      if (!section) throw badRequest(`sectionId: no section ${body.sectionId} in site ${site.id}`);
    } else {
      // Absent: the default section, or the site's root when it has no sections.
      const id = defaultSectionId(site);
      section = id ? site.sections.get(id) : undefined;
    }
    const ss = newSiteSpace(req, site, section, space);
    if (body.draft !== undefined) ss.draft = body.draft;
    return created(siteSpaceView(viewCtx(req), site, ss), location(req, `${sitePath(org, site)}/site-spaces/${ss.id}`));
  }, { minimal: true });

  router.add('PATCH', `${SITE}/site-spaces/:siteSpace`, (req) => {
    const { org, site } = siteOf(req);
    const ss = siteSpaceOf(req, site);
    const body = validate(PatchSiteSpace, bodyObject(req));
    if (body.path !== undefined) {
      const container = ss.section ? site.sections.get(ss.section)!.siteSpaces : site.rootSiteSpaces;
      const other = container.find((id) => id !== ss.id && site.siteSpaces.get(id)!.path === body.path);
      if (other) throw badRequest(`path: ${body.path} is already the path of site space ${other}`);
    }
    if (body.spaceId !== undefined) ss.space = contentSpace(req, org, body.spaceId).id;
    if (body.path !== undefined) ss.path = body.path;
    if (body.condition !== undefined) ss.condition = body.condition ?? undefined;
    if (body.hidden !== undefined) ss.hidden = body.hidden;
    if (body.draft !== undefined) ss.draft = body.draft;
    return ok(siteSpaceView(viewCtx(req), site, ss));
  }, { minimal: true });

  router.add('DELETE', `${SITE}/site-spaces/:siteSpace`, (req) => {
    const { site } = siteOf(req);
    const ss = site.siteSpaces.get(req.params.siteSpace);
    if (!ss) return deleted(false);
    deleteSiteSpace(site, ss);
    return deleted(true);
  });

  // Deprecated as well: PATCH SITE/structure/sort does the same.
  router.add('POST', `${SITE}/site-spaces/:siteSpace/move`, (req) => {
    const { site } = siteOf(req);
    const ss = siteSpaceOf(req, site);
    const body = validate(MoveSiteSpace, bodyObject(req));
    const { placement, target } = onePlacement(body.position);
    sortStructure(site, { type: 'site-space', id: ss.id }, placement, { type: 'site-space', id: target.siteSpace });
    return ok(siteSpaceView(viewCtx(req), site, ss));
  });

  // --- structure ------------------------------------------------------------------------------
  router.add('PATCH', `${SITE}/structure/sort`, (req) => {
    const { site } = siteOf(req);
    const body = validate(SortBody, bodyObject(req));
    const { placement, target } = onePlacement(body.position);
    const item: StructureRef = body.item;
    sortStructure(site, item, placement, target);
    if (item.type === 'site-space') return ok(siteSpaceView(viewCtx(req), site, site.siteSpaces.get(item.id)!));
    const type = item.type === 'site-section' ? 'section' : item.type === 'site-section-group' ? 'group' : 'link';
    return ok(itemView(viewCtx(req), site, { type, id: item.id }));
  }, { minimal: true });

  router.add('GET', `${SITE}/structure`, (req) => {
    const { site } = siteOf(req);
    return ok(structureView(viewCtx(req), site));
  });

  // --- external links -------------------------------------------------------------------------
  // No list or GET of one link in the live description: links are read in the structure.
  router.add('POST', `${SITE}/external-links`, (req) => {
    const { org, site } = siteOf(req);
    const body = validate(CreateLink, bodyObject(req));
    if (site.top.length === 0 && site.rootSiteSpaces.length > 0) throw badRequest('the site has a simple structure (site spaces at its root): external links need sections');
    const parent = parentGroup(site, body.parent, 'parent') ?? undefined;
    const link: LinkRec = {
      id: req.world.newId('extlink'),
      title: body.title,
      url: body.url,
      description: body.description ?? undefined,
      icon: body.icon ?? undefined,
      condition: body.condition ?? undefined,
      draft: body.draft ?? false,
      localizedTitle: localizedOf(body.localizedTitle),
      localizedDescription: localizedOf(body.localizedDescription),
      createdAt: nowIso(req),
    };
    appendLink(site, link, parent);
    return created(linkView(viewCtx(req), site, link), location(req, `${sitePath(org, site)}/external-links/${link.id}`));
  });

  router.add('PATCH', `${SITE}/external-links/:link`, (req) => {
    const { site } = siteOf(req);
    const link = site.links.get(req.params.link);
    if (!link) throw notFound(`no external link ${req.params.link} in site ${site.id}`);
    const body = validate(PatchLink, bodyObject(req));
    const parent = parentGroup(site, body.parent, 'parent');
    if (body.title !== undefined) link.title = body.title;
    if (body.url !== undefined) link.url = body.url;
    if (body.description !== undefined) link.description = body.description ?? undefined;
    if (body.icon !== undefined) link.icon = body.icon ?? undefined;
    if (body.condition !== undefined) link.condition = body.condition ?? undefined;
    if (body.draft !== undefined) link.draft = body.draft;
    if (body.localizedTitle !== undefined) link.localizedTitle = localizedOf(body.localizedTitle);
    if (body.localizedDescription !== undefined) link.localizedDescription = localizedOf(body.localizedDescription);
    if (parent !== undefined) moveToGroup(site, { type: 'link', id: link.id }, parent, 'parent');
    return ok(linkView(viewCtx(req), site, link));
  }, { minimal: true });

  router.add('DELETE', `${SITE}/external-links/:link`, (req) => {
    const { site } = siteOf(req);
    const link = site.links.get(req.params.link);
    if (!link) return deleted(false);
    deleteLink(site, link);
    return deleted(true);
  });

  // --- share links ----------------------------------------------------------------------------
  router.add('GET', `${SITE}/share-links`, (req) => {
    const { site } = siteOf(req);
    return listReply(req.query, [...site.shareLinks.values()], (l) => shareLinkView(viewCtx(req), site, l));
  });

  router.add('POST', `${SITE}/share-links`, (req) => {
    const { org, site } = siteOf(req);
    const body = validate(CreateShareLink, bodyObject(req));
    const link = { id: req.world.newId('link'), name: body.name, active: true, createdAt: nowIso(req) };
    site.shareLinks.set(link.id, link);
    return created(shareLinkView(viewCtx(req), site, link), location(req, `${sitePath(org, site)}/share-links/${link.id}`));
  });

  router.add('PATCH', `${SITE}/share-links/:link`, (req) => {
    const { site } = siteOf(req);
    const link = site.shareLinks.get(req.params.link);
    if (!link) throw notFound(`no share link ${req.params.link} in site ${site.id}`);
    const body = validate(PatchShareLink, bodyObject(req));
    if (body.name !== undefined) link.name = body.name;
    if (body.active !== undefined) link.active = body.active;
    return ok(shareLinkView(viewCtx(req), site, link));
  });

  router.add('DELETE', `${SITE}/share-links/:link`, (req) => {
    const { site } = siteOf(req);
    return deleted(site.shareLinks.delete(req.params.link));
  });
}
