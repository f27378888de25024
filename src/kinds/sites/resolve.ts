/** The loader's checks of `sites`: addresses and duplicates of sections, site spaces, groups and share links; group members. */
import { didYouMean } from '../../core/text.js';
import { key } from '../../model/address.js';
import { child, locationOf, where, type Item, type Origin } from '../../source/origin.js';
import type { ResolveContext } from '../kind.js';
import { resolveSiteExtras } from './redirects.js';
import { siteKey, type SectionGroupT, type SectionT, type ShareLinkT, type SiteT } from './schema.js';

export function resolveSites(entries: readonly Item<unknown>[], ctx: ResolveContext): void {
  for (const { value, origin } of entries as readonly Item<SiteT>[]) resolveSite(value, origin, ctx);
}

function resolveSite(site: SiteT, origin: Origin, ctx: ResolveContext): void {
  const { problems } = ctx;
  const siteAddress = `sites${key(siteKey(site))}`;
  if (!ctx.claim(`site:${siteKey(site)}`, siteAddress, origin)) return;
  if (site.sections || site.sectionGroups) ctx.locate(`${siteAddress}.structure`, origin);

  const sections: SectionT[] = site.sections ?? [];
  const paths = new Set(sections.map((s) => s.path));
  const sectionIds = ctx.identities(`${siteAddress}.sections`, 'path');
  sections.forEach((section, i) => {
    const at = child(origin, 'sections', i);
    const address = `${siteAddress}.sections${key(section.path)}`;
    if (!ctx.claim(`section:${siteKey(site)}:${section.path}`, address, at, `section "${section.path}" of site ${siteKey(site)}`)) return;
    sectionIds.add(section.path, section, at, paths);
    const listed = new Set((section.siteSpaces ?? []).map((s) => s.space));
    if (!listed.has(section.space)) ctx.locate(`${address}.siteSpaces${key(section.space)}`, child(at, 'space'));
    if (section.siteSpaces) {
      ctx.locate(`${address}.siteSpaces`, child(at, 'siteSpaces'), 'key');
      section.siteSpaces.forEach((ss, j) => {
        const ssAt = child(at, 'siteSpaces', j);
        ctx.claim(`siteSpace:${siteKey(site)}:${section.path}:${ss.space}`, `${address}.siteSpaces${key(ss.space)}`, ssAt, `space ${ss.space} in section "${section.path}"`);
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
      if (!ctx.check) return;
      if (site.sections === undefined) {
        ctx.defer({ kind: 'sections', key: path, site: siteKey(site), from: address, field: 'sections', location: locationOf(sAt) });
      } else if (!paths.has(path)) {
        problems.at(sAt, `names no section of site ${siteKey(site)} (sections are named by their path)${didYouMean(path, [...paths])}`);
      }
    });
  });

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
