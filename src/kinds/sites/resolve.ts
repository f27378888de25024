/**
 * The loader's checks of `sites`: addresses and duplicates of sections, site spaces, groups, external
 * links and share links; group members, group parents (known, no cycles), link groups, a section's
 * default site space, and root site spaces only on a site without sections.
 */
import { didYouMean } from '../../core/text.js';
import { key } from '../../model/address.js';
import { child, where, type Item, type Origin } from '../../source/origin.js';
import type { ResolveContext } from '../kind.js';
import { resolveAccess } from '../shared/access.js';
import { referSpace } from '../shared/spaces.js';
import { resolveSiteExtras } from './redirects.js';
import { siteKey, type ExternalLinkT, type SectionGroupT, type SectionT, type ShareLinkT, type SiteT } from './schema.js';

export function resolveSites(entries: readonly Item<unknown>[], ctx: ResolveContext): void {
  const sites = entries as readonly Item<SiteT>[];
  // A site's renamedFrom is an old title: it must not be a title this config defines.
  const siteIds = ctx.identities('sites', 'title');
  const titles = new Set(sites.flatMap(({ value }) => (value.title === undefined ? [] : [value.title])));
  for (const { value, origin } of sites) {
    resolveSite(value, origin, ctx);
    siteIds.add(siteKey(value), value, origin, titles);
  }
}

function resolveSite(site: SiteT, origin: Origin, ctx: ResolveContext): void {
  const { problems } = ctx;
  const siteAddress = `sites${key(siteKey(site))}`;
  if (!ctx.claim(`site:${siteKey(site)}`, siteAddress, origin)) return;
  if (site.sections || site.sectionGroups || site.externalLinks) ctx.locate(`${siteAddress}.structure`, origin);
  resolveAccess(site.access, siteAddress, child(origin, 'access'), ctx);
  resolveRootSiteSpaces(site, siteAddress, origin, ctx);

  const sections: SectionT[] = site.sections ?? [];
  const paths = new Set(sections.map((s) => s.path));
  const sectionIds = ctx.identities(`${siteAddress}.sections`, 'path');
  sections.forEach((section, i) => {
    const at = child(origin, 'sections', i);
    const address = `${siteAddress}.sections${key(section.path)}`;
    if (!ctx.claim(`section:${siteKey(site)}:${section.path}`, address, at, `section "${section.path}" of site ${siteKey(site)}`)) return;
    sectionIds.add(section.path, section, at, paths);
    referSpace(ctx, section.space, address, 'space', child(at, 'space'));
    const listed = new Set((section.siteSpaces ?? []).map((s) => s.space));
    if (!listed.has(section.space)) ctx.locate(`${address}.siteSpaces${key(section.space)}`, child(at, 'space'));
    if (section.defaultSiteSpace !== undefined && section.defaultSiteSpace !== section.space && !listed.has(section.defaultSiteSpace)) {
      problems.at(child(at, 'defaultSiteSpace'), `names space ${section.defaultSiteSpace}, which is not one of the section's site spaces (its space or its siteSpaces)`);
    }
    if (section.siteSpaces) {
      ctx.locate(`${address}.siteSpaces`, child(at, 'siteSpaces'), 'key');
      section.siteSpaces.forEach((ss, j) => {
        const ssAt = child(at, 'siteSpaces', j);
        if (!ctx.claim(`siteSpace:${siteKey(site)}:${section.path}:${ss.space}`, `${address}.siteSpaces${key(ss.space)}`, ssAt, `space ${ss.space} in section "${section.path}"`)) return;
        if (ss.space !== section.space) referSpace(ctx, ss.space, `${address}.siteSpaces${key(ss.space)}`, 'space', child(ssAt, 'space'));
      });
    }
  });

  const groups: SectionGroupT[] = site.sectionGroups ?? [];
  const titles = new Set(groups.map((g) => g.title));
  const groupIds = ctx.identities(`${siteAddress}.sectionGroups`, 'title');
  const grouped = new Map<string, Origin>();
  groups.forEach((group, i) => {
    const at = child(origin, 'sectionGroups', i);
    const address = `${siteAddress}.sectionGroups${key(group.title)}`;
    if (!ctx.claim(`sectionGroup:${siteKey(site)}:${group.title}`, address, at, `section group "${group.title}" of site ${siteKey(site)}`)) return;
    groupIds.add(group.title, group, at, titles);
    (group.sections ?? []).forEach((path, j) => {
      const sAt = child(at, 'sections', j);
      const earlier = grouped.get(path);
      if (earlier) {
        problems.at(sAt, `section "${path}" is already in a section group (at ${where(earlier)}); a section belongs to one group at most`);
        return;
      }
      grouped.set(path, sAt);
      ctx.reference({
        kind: 'sections',
        key: path,
        site: siteKey(site),
        from: address,
        field: 'sections',
        origin: sAt,
        ...(site.sections === undefined ? {} : { settled: 'the site lists its sections' }),
      });
    });
  });
  resolveParents(site, groups, titles, origin, ctx);
  resolveExternalLinks(site, siteAddress, titles, origin, ctx);

  const links: ShareLinkT[] = site.shareLinks ?? [];
  const names = new Set(links.map((l) => l.name));
  const linkIds = ctx.identities(`${siteAddress}.shareLinks`, 'name');
  links.forEach((link, i) => {
    const at = child(origin, 'shareLinks', i);
    const address = `${siteAddress}.shareLinks${key(link.name)}`;
    if (ctx.claim(`shareLink:${siteKey(site)}:${link.name}`, address, at, `share link "${link.name}" of site ${siteKey(site)}`)) linkIds.add(link.name, link, at, names);
  });
  resolveSiteExtras(site, origin, ctx);
}

/** Site spaces at the root: only on a site without sections (nor groups or links, which need sections). */
function resolveRootSiteSpaces(site: SiteT, siteAddress: string, origin: Origin, ctx: ResolveContext): void {
  if (site.siteSpaces === undefined) return;
  const at = child(origin, 'siteSpaces');
  const structured = (['sections', 'sectionGroups', 'externalLinks'] as const).filter((k) => (site[k] ?? []).length > 0);
  if (structured.length > 0) {
    ctx.problems.at(at, `site spaces at the root are for a site without sections; this site also gives ${structured.join(' and ')} (put the site spaces under a section)`);
  }
  ctx.locate(`${siteAddress}.siteSpaces`, at, 'key');
  site.siteSpaces.forEach((ss, j) => {
    if (ctx.claim(`rootSiteSpace:${siteKey(site)}:${ss.space}`, `${siteAddress}.siteSpaces${key(ss.space)}`, child(at, j), `space ${ss.space} at the root of site ${siteKey(site)}`)) {
      referSpace(ctx, ss.space, `${siteAddress}.siteSpaces${key(ss.space)}`, 'space', child(at, j, 'space'));
    }
  });
}

/** A group's `parent` names a group of the same site, and no group is its own ancestor. */
function resolveParents(site: SiteT, groups: readonly SectionGroupT[], titles: ReadonlySet<string>, origin: Origin, ctx: ResolveContext): void {
  const parentOf = new Map<string, string>();
  groups.forEach((group, i) => {
    if (group.parent === undefined || group.parent === null) return;
    const at = child(child(origin, 'sectionGroups', i), 'parent');
    if (!titles.has(group.parent)) {
      ctx.problems.at(at, `names no section group of site ${siteKey(site)} (groups are named by their title)${didYouMean(group.parent, [...titles])}`);
      return;
    }
    parentOf.set(group.title, group.parent);
  });
  groups.forEach((group, i) => {
    const seen = new Set<string>([group.title]);
    for (let p = parentOf.get(group.title); p !== undefined; p = parentOf.get(p)) {
      if (seen.has(p)) {
        ctx.problems.at(child(child(origin, 'sectionGroups', i), 'parent'), `section group "${group.title}" would be inside itself (a cycle of parents: ${[...seen, p].join(' → ')})`);
        return;
      }
      seen.add(p);
    }
  });
}

function resolveExternalLinks(site: SiteT, siteAddress: string, titles: ReadonlySet<string>, origin: Origin, ctx: ResolveContext): void {
  const links: ExternalLinkT[] = site.externalLinks ?? [];
  const linkTitles = new Set(links.map((l) => l.title));
  const ids = ctx.identities(`${siteAddress}.externalLinks`, 'title');
  links.forEach((link, i) => {
    const at = child(origin, 'externalLinks', i);
    const address = `${siteAddress}.externalLinks${key(link.title)}`;
    if (!ctx.claim(`externalLink:${siteKey(site)}:${link.title}`, address, at, `external link "${link.title}" of site ${siteKey(site)}`)) return;
    ids.add(link.title, link, at, linkTitles);
    if (link.group !== undefined && link.group !== null && !titles.has(link.group)) {
      ctx.problems.at(child(at, 'group'), `names no section group of site ${siteKey(site)} (groups are named by their title)${didYouMean(link.group, [...titles])}`);
    }
  });
}
