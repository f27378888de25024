/**
 * Import of sites: every site of the organization (`GET ORG/sites`), or those asked for with
 * `--site`; each with its own fields and its structure, written in the platform's structure order.
 */
import { key } from '../../model/address.js';
import { sortBy, unique, type Draft } from '../common/import.js';
import type { Importer } from '../kind.js';
import { planSite } from './plan.js';
import type { ClaimT } from './ai-read.js';
import { unknownClaims } from './conditions.js';
import { siteExtrasDraft } from './import-extras.js';
import { READ_EVERYTHING, readSiteList, sitePath, type Localized, type RemoteGroup, type RemoteSection, type RemoteSite, type RemoteSiteSpace, type SitesRemote, type TopItem } from './remote.js';
import { siteKey, type OrderItemT, type SiteT } from './schema.js';
import { readSiteInfos, type RemoteSiteInfo } from '../shared/sites.js';
import { SITE_FILE, SITE_OWNED_FIELDS } from '../shared/git-sync-owned.js';
import { repositoryOf } from '../shared/git-sync-state.js';

/** What import read: the listed sites, the structures of those imported, and the `--site` ids not found. */
export interface SitesImport extends SitesRemote {
  missing: string[];
}

export const importSites: Importer<SitesImport> = {
  async read(ctx) {
    // Shared with the Git Sync import, which reads which sites are synchronised from the same list.
    const list = await readSiteInfos(ctx);
    const listed = new Set(list.map((s) => s.id));
    const ids = ctx.sites.length > 0 ? ctx.sites.filter((id) => listed.has(id)) : list.map((s) => s.id);
    return { list, ...(await readSiteList(ctx, ids, () => READ_EVERYTHING)), missing: ctx.sites.filter((id) => !listed.has(id)) };
  },
  notFound: (state) => [...state.missing, ...state.sites.filter((s) => s.site === null).map((s) => s.id)],
  write(state, sink) {
    const info = new Map(state.list.map((s) => [s.id, s]));
    const found = state.sites.flatMap((s) => (s.site ? [s.site] : []));
    const sites = sortBy(found, (s) => s.id).map((site) => convertSite(site, info.get(site.id), (m) => sink.warn(m)));
    sink.count({ one: 'site', many: 'sites' }, sites.length);
    sink.count({ one: 'section', many: 'sections' }, sites.reduce((n, s) => n + s.sections, 0));
    return sites.length > 0 ? sites.map((s) => s.draft) : undefined;
  },
};

/** The site's own fields as config: what the API reports, so that a plan finds nothing to change. */
function siteFieldsDraft(info: RemoteSiteInfo | undefined, site: RemoteSite): Record<string, Draft | undefined> {
  if (!info) return {};
  const defaultSection = site.sections.find((s) => s.default === true)?.path;
  return {
    title: info.title,
    type: info.type ?? undefined,
    visibility: info.visibility ?? undefined,
    basename: info.basename ?? undefined,
    published: info.published,
    adaptiveContent: info.adaptiveContent,
    defaultLevel: info.defaultLevel ?? undefined,
    proxy: info.proxy ?? undefined,
    styleguide: info.styleguide ?? undefined,
    defaultSection,
  };
}

/** Only what differs from the API's default is written (absent = unmanaged, which plans no change). */
const flag = (value: boolean): true | undefined => (value ? true : undefined);
const localized = (value: Localized | null): Draft | undefined => (value ? { ...value } : undefined);

function convertSite(site: RemoteSite, info: RemoteSiteInfo | undefined, warn: (m: string) => void): { draft: Draft; sections: number } {
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
  const keptGroups = unique(
    site.groups,
    (g) => g.title,
    (g, kept) => warn(`${at}.sectionGroups${key(g.title)}: groups ${kept.id} and ${g.id} have the same title; only ${kept.id} is written`),
  );
  const titleOf = new Map(keptGroups.map((g) => [g.id, g.title]));
  const groups = keptGroups.map(
    (g): Draft => ({
      id: g.id,
      title: g.title,
      icon: g.icon,
      // A group in a group that is not written stays where it is (its parent unmanaged).
      parent: g.parent ? titleOf.get(g.parent) : undefined,
      draft: flag(g.draft),
      localizedTitle: localized(g.localizedTitle),
      sections: g.sections.map((id) => pathOf.get(id)).filter((p): p is string => p !== undefined),
    }),
  );
  const keptLinks = unique(
    site.links,
    (l) => l.title,
    (l, kept) => warn(`${at}.externalLinks${key(l.title)}: external links ${kept.id} and ${l.id} have the same title; only ${kept.id} is written`),
  );
  const externalLinks = keptLinks.map(
    (l): Draft => ({
      id: l.id,
      title: l.title,
      url: l.url,
      group: l.parent ? titleOf.get(l.parent) : undefined,
      description: l.description ?? undefined,
      icon: l.icon ?? undefined,
      condition: l.condition ?? undefined,
      draft: flag(l.draft),
      localizedTitle: localized(l.localizedTitle),
      localizedDescription: localized(l.localizedDescription),
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
  const own = siteFieldsDraft(info, site);
  // A default section the config does not write (no space) cannot be named.
  if (own.defaultSection !== undefined && !seenPaths.has(own.defaultSection as string)) own.defaultSection = undefined;
  // A site whose spaces sit at its root has no sections to write.
  const rooted = site.rootSiteSpaces.length > 0 && site.top.length === 0;
  const draft: { [k: string]: Draft | undefined } = {
    id: site.id,
    ...own,
    sections: rooted ? undefined : sections,
    sectionGroups: rooted ? undefined : groups,
    externalLinks: externalLinks.length > 0 ? externalLinks : undefined,
    siteSpaces: site.rootSiteSpaces.length > 0 ? unique(site.rootSiteSpaces, (ss) => ss.space, (ss) => warn(`${at}.siteSpaces${key(ss.space)}: the site shows this space twice at its root; only the first site space is written (${ss.id} is not)`)).map(convertSiteSpace) : undefined,
    shareLinks: links,
    ...siteExtrasDraft(site, at, warn),
  };
  if (info?.gitSync) {
    // The repository's gitbook-docs.yaml owns the structure: a config that wrote it would be refused.
    for (const field of SITE_OWNED_FIELDS) delete draft[field];
    warn(`${at}: synchronised with Git Sync (${repositoryOf(info.gitSync)}): its structure is owned by ${SITE_FILE} there and is not written`);
    keepConditionsValid(draft, at, warn);
    return { draft, sections: 0 };
  }
  keepConditionsValid(draft, at, warn);
  addOrders(site, draft, groups);
  return { draft, sections: sections.length };
}

/**
 * A written adaptive schema makes validate check every condition of the site against its claims: a
 * site whose conditions name claims its schema lacks would be written as a config that does not
 * load. Its schema is then left out (unmanaged), with a warning naming the first such condition.
 */
function keepConditionsValid(draft: { [k: string]: Draft | undefined }, at: string, warn: (m: string) => void): void {
  if (draft.adaptiveSchema === undefined) return;
  const site = JSON.parse(JSON.stringify(draft)) as SiteT;
  const conditions = [
    ...(site.sections ?? []).flatMap((s) => [s.condition, ...(s.siteSpaces ?? []).map((x) => x.condition)]),
    ...(site.siteSpaces ?? []).map((x) => x.condition),
    ...(site.externalLinks ?? []).map((l) => l.condition),
    ...(site.mcpServers ?? []).map((m) => m.condition),
  ].filter((c): c is string => typeof c === 'string' && c !== '');
  const claims = (site.adaptiveSchema?.properties ?? {}) as Record<string, ClaimT>;
  for (const condition of conditions) {
    const [problem] = unknownClaims(condition, claims);
    if (problem === undefined) continue;
    warn(`${at}.adaptiveSchema: the condition ${JSON.stringify(condition)} ${problem}; the schema is not written (it stays unmanaged), so that the config loads`);
    draft.adaptiveSchema = undefined;
    return;
  }
}

/**
 * `order` where the default rule would not give the platform's order (a link between sections, a
 * group before its sections…): the planner, asked what it would sort, says which levels need one.
 */
function addOrders(site: RemoteSite, draft: { [k: string]: Draft | undefined }, groups: Draft[]): void {
  const config = JSON.parse(JSON.stringify(draft)) as SiteT;
  const plans = planSite({ org: '_', site: config, remote: site, prunes: () => false, base: sitePath('_', site.id) });
  const sort = plans.sections.steps.find((s) => s.action === 'sort');
  if (!sort) return;
  const before = (sort.before ?? {}) as { order?: unknown; groups?: Record<string, unknown> };
  const after = (sort.after ?? {}) as { order?: unknown; groups?: Record<string, unknown> };
  const orderOf = (items: readonly TopItem[]): OrderItemT[] => items.flatMap((t) => orderItem(site, t));
  if (JSON.stringify(before.order) !== JSON.stringify(after.order)) draft.order = orderOf(site.top) as Draft;
  for (const g of groups as Array<{ [k: string]: Draft | undefined }>) {
    const title = g.title as string;
    if (JSON.stringify(before.groups?.[title]) === JSON.stringify(after.groups?.[title])) continue;
    const remote = site.groups.find((r) => r.id === g.id) as RemoteGroup;
    g.order = orderOf(remote.children) as Draft;
  }
}

function orderItem(site: RemoteSite, t: TopItem): OrderItemT[] {
  if (t.type === 'section') {
    const s = site.sections.find((x) => x.id === t.id);
    return s ? [{ section: s.path }] : [];
  }
  if (t.type === 'group') {
    const g = site.groups.find((x) => x.id === t.id);
    return g ? [{ group: g.title }] : [];
  }
  const l = site.links.find((x) => x.id === t.id);
  return l ? [{ link: l.title }] : [];
}

function convertSiteSpace(ss: RemoteSiteSpace): Draft {
  return { id: ss.id, space: ss.space, path: ss.path ?? undefined, condition: ss.condition, draft: flag(ss.draft), hidden: flag(ss.hidden) };
}

function convertSection(s: RemoteSection, address: string, warn: (m: string) => void): Draft {
  const siteSpaces = unique(
    s.siteSpaces,
    (ss) => ss.space,
    (ss) => warn(`${address}.siteSpaces${key(ss.space)}: the section shows this space twice; only the first site space is written (${ss.id} is not)`),
  ).map(convertSiteSpace);
  const chosen = s.siteSpaces.find((ss) => ss.default);
  return {
    id: s.id,
    path: s.path,
    title: s.title,
    // The space a section is created with is its first site space.
    space: s.siteSpaces[0].space,
    description: s.description,
    icon: s.icon,
    condition: s.condition,
    draft: flag(s.draft),
    // Written when another than the first is shown by default.
    defaultSiteSpace: chosen && chosen.id !== s.siteSpaces[0].id ? chosen.space : undefined,
    localizedTitle: localized(s.localizedTitle),
    localizedDescription: localized(s.localizedDescription),
    siteSpaces,
  };
}
