/** Import of sites: the sites asked for with `--site`, written in the platform's structure order. */
import { key } from '../../model/address.js';
import { sortBy, unique, type Draft } from '../common/import.js';
import type { Importer } from '../kind.js';
import { siteExtrasDraft } from './import-extras.js';
import { READ_EVERYTHING, readSiteList, type RemoteSection, type RemoteSite, type SitesRemote } from './remote.js';
import { siteKey } from './schema.js';

export const importSites: Importer<SitesRemote> = {
  read: (ctx) => readSiteList(ctx, ctx.sites, () => READ_EVERYTHING),
  notFound: (state) => state.sites.filter((s) => s.site === null).map((s) => s.id),
  write(state, sink) {
    const found = state.sites.flatMap((s) => (s.site ? [s.site] : []));
    const sites = sortBy(found, (s) => s.id).map((site) => convertSite(site, (m) => sink.warn(m)));
    sink.count({ one: 'site', many: 'sites' }, sites.length);
    sink.count({ one: 'section', many: 'sections' }, sites.reduce((n, s) => n + s.sections, 0));
    return sites.length > 0 ? sites.map((s) => s.draft) : undefined;
  },
};

function convertSite(site: RemoteSite, warn: (m: string) => void): { draft: Draft; sections: number } {
  const at = `sites${key(siteKey(site))}`;
  const pathOf = new Map<string, string>();
  const sections: Draft[] = [];
  const seenPaths = new Set<string>();
  for (const s of site.sections) {
    const address = `${at}.sections${key(s.path)}`;
    if (seenPaths.has(s.path)) {
      warn(`${address}: two sections have this path; only the first is written`);
      continue;
    }
    if (s.siteSpaces.length === 0) {
      warn(`${address}: section ${s.id} holds no site space, and the config gives every section a space; it is not written (it stays unmanaged)`);
      continue;
    }
    seenPaths.add(s.path);
    pathOf.set(s.id, s.path);
    sections.push(convertSection(s, address, warn));
  }
  const groups = unique(
    site.groups,
    (g) => g.title,
    (g, kept) => warn(`${at}.sectionGroups${key(g.title)}: groups ${kept.id} and ${g.id} have the same title; only ${kept.id} is written`),
  ).map(
    (g): Draft => ({
      id: g.id,
      title: g.title,
      icon: g.icon,
      sections: g.sections.map((id) => pathOf.get(id)).filter((p): p is string => p !== undefined),
    }),
  );
  const links = unique(
    sortBy(
      site.shareLinks.filter((l) => {
        if (l.name === null || l.name === '') warn(`${at}.shareLinks: share link ${l.id} has no name, and the config names share links; it is not written`);
        return l.name !== null && l.name !== '';
      }),
      (l) => l.name as string,
      (l) => l.id,
    ),
    (l) => l.name as string,
    (l, kept) => warn(`${at}.shareLinks${key(l.name as string)}: share links ${kept.id} and ${l.id} have the same name; only ${kept.id} is written`),
  ).map((l): Draft => ({ id: l.id, name: l.name, active: l.active }));
  return { draft: { id: site.id, sections, sectionGroups: groups, shareLinks: links, ...siteExtrasDraft(site, at, warn) }, sections: sections.length };
}

function convertSection(s: RemoteSection, address: string, warn: (m: string) => void): Draft {
  const siteSpaces = unique(
    s.siteSpaces,
    (ss) => ss.space,
    (ss) => warn(`${address}.siteSpaces${key(ss.space)}: the section shows this space twice; only the first site space is written (${ss.id} is not)`),
  ).map((ss): Draft => ({ id: ss.id, space: ss.space, path: ss.path ?? undefined, condition: ss.condition }));
  return {
    id: s.id,
    path: s.path,
    title: s.title,
    // The space a section is created with is its first site space.
    space: s.siteSpaces[0].space,
    description: s.description,
    icon: s.icon,
    condition: s.condition,
    siteSpaces,
  };
}

