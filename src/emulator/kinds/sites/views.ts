/** A site's records → the API's objects (with the extras the live service has: `draft`, a group's `sections` and `children`). */
import { compact, publishedUrl } from '../../views.js';
import type { Obj, ViewContext } from '../../views.js';
import { spaceView } from '../spaces.js';
import type { GroupRec, LinkRec, SectionRec, ShareLinkRec, SiteRec, SiteSpaceRec, TopItem } from './records.js';
import { defaultSectionId, defaultSiteSpaceId, siteSpacesInOrder } from './structure.js';

export function siteSpaceView(ctx: ViewContext, site: SiteRec, ss: SiteSpaceRec): Obj {
  const space = ctx.world.spaces.get(ss.space)!;
  const section = ss.section ? site.sections.get(ss.section) : undefined;
  return compact({
    object: 'site-space',
    id: ss.id,
    path: ss.path,
    section: ss.section,
    space: spaceView(ctx, space),
    title: space.title,
    default: defaultSiteSpaceId(site, section) === ss.id,
    condition: ss.condition,
    draft: ss.draft,
    hidden: ss.hidden,
    hasAdvancedCustomizationFeature: false,
    urls: { published: publishedUrl(site.org, `/${site.id}/${section ? `${section.path}/` : ''}${ss.path}`) },
  });
}

export function sectionView(ctx: ViewContext, site: SiteRec, s: SectionRec): Obj {
  return compact({
    object: 'site-section',
    id: s.id,
    title: s.title,
    localizedTitle: s.localizedTitle,
    description: s.description,
    localizedDescription: s.localizedDescription,
    default: defaultSectionId(site) === s.id,
    path: s.path,
    condition: s.condition,
    sectionGroup: s.group,
    icon: s.icon,
    draft: s.draft,
    siteSpaces: s.siteSpaces.map((id) => siteSpaceView(ctx, site, site.siteSpaces.get(id)!)),
    urls: { published: publishedUrl(site.org, `/${site.id}/${s.path}`) },
  });
}

export function groupView(ctx: ViewContext, site: SiteRec, g: GroupRec): Obj {
  return compact({
    object: 'site-section-group',
    id: g.id,
    title: g.title,
    localizedTitle: g.localizedTitle,
    icon: g.icon,
    draft: g.draft,
    sectionGroup: g.parent,
    // Both are in the live description (SiteSectionGroup): `sections` (deprecated: the sections among
    // its children) and `children` (sections, nested groups and external links, in order).
    sections: g.children.filter((c) => c.type === 'section').map((c) => sectionView(ctx, site, site.sections.get(c.id)!)),
    children: g.children.map((c) => itemView(ctx, site, c)),
  });
}

export function linkView(_ctx: ViewContext, _site: SiteRec, l: LinkRec): Obj {
  return compact({
    object: 'site-external-link',
    id: l.id,
    title: l.title,
    localizedTitle: l.localizedTitle,
    description: l.description,
    localizedDescription: l.localizedDescription,
    icon: l.icon,
    url: l.url,
    sectionGroup: l.parent,
    draft: l.draft,
    condition: l.condition,
  });
}

/** An item of the top level or of a group's children. */
export function itemView(ctx: ViewContext, site: SiteRec, item: TopItem): Obj {
  if (item.type === 'section') return sectionView(ctx, site, site.sections.get(item.id)!);
  if (item.type === 'group') return groupView(ctx, site, site.groups.get(item.id)!);
  return linkView(ctx, site, site.links.get(item.id)!);
}

export function shareLinkView(_ctx: ViewContext, site: SiteRec, l: ShareLinkRec): Obj {
  return {
    object: 'share-link',
    id: l.id,
    createdAt: l.createdAt,
    name: l.name,
    active: l.active,
    urls: { published: publishedUrl(site.org, `/${site.id}?share=${l.id}`) },
  };
}

/**
 * `GET SITE/structure` (SiteStructure): a site organised in sections (or groups, or links) answers
 * its top level in order, each group with its children; a site without any answers its site spaces.
 */
export function structureView(ctx: ViewContext, site: SiteRec): Obj {
  if (site.top.length === 0) {
    return { type: 'siteSpaces', structure: siteSpacesInOrder(site).map((ss) => siteSpaceView(ctx, site, ss)) };
  }
  return { type: 'sections', structure: site.top.map((item) => itemView(ctx, site, item)) };
}
