/** A site's records → the API's objects (with the extras the live service has: `draft`, a group's `sections` and `children`). */
import { compact, publishedUrl } from '../../views.js';
import type { Obj, ViewContext } from '../../views.js';
import { spaceView } from '../spaces.js';
import type { GroupRec, SectionRec, ShareLinkRec, SiteRec, SiteSpaceRec } from './records.js';
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
    hasAdvancedCustomizationFeature: false,
    urls: { published: publishedUrl(site.org, `/${site.id}/${section ? `${section.path}/` : ''}${ss.path}`) },
  });
}

export function sectionView(ctx: ViewContext, site: SiteRec, s: SectionRec): Obj {
  return compact({
    object: 'site-section',
    id: s.id,
    title: s.title,
    description: s.description,
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
    icon: g.icon,
    draft: g.draft,
    // Both are section objects in the live description (SiteSectionGroup): `sections` (deprecated)
    // and `children` (sections, nested groups and external links; the emulator has only sections).
    sections: g.sections.map((id) => sectionView(ctx, site, site.sections.get(id)!)),
    children: g.sections.map((id) => sectionView(ctx, site, site.sections.get(id)!)),
  });
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
 * `GET SITE/structure` (SiteStructure): a site organised in sections (or groups) answers its top
 * level in order, each group with its sections; a site without either answers its site spaces.
 */
export function structureView(ctx: ViewContext, site: SiteRec): Obj {
  if (site.sections.size === 0 && site.groups.size === 0) {
    return { type: 'siteSpaces', structure: siteSpacesInOrder(site).map((ss) => siteSpaceView(ctx, site, ss)) };
  }
  return {
    type: 'sections',
    structure: site.top.map((item) =>
      item.type === 'section' ? sectionView(ctx, site, site.sections.get(item.id)!) : groupView(ctx, site, site.groups.get(item.id)!),
    ),
  };
}
