/**
 * The plan of one site: sections, their site spaces, section groups, share links, and the order of
 * the site's structure. One pure function computes all of it, because the structure order depends on
 * every create, delete and group change of the site; each site kind's module takes its part.
 *
 * How the order is kept exact: creates append at the end of the top level, so they are chained in
 * the desired order (each create waits for the previous one) and apply leaves a known order; group
 * membership changes anchor only on sections that no other step moves, and section and group deletes
 * do not depend on timing. The plan simulates all of it on a Layout and the sort step holds the
 * fewest moves from that simulated order to the desired one.
 *
 * Sections, groups and links are matched by the analyser first (matchPairs: the order needs to know
 * what matched and what a prune deletes), then planned through it from that match: its named-twice,
 * twins, collisions, unmanaged or deletes, fingerprints and observed creates; their creates and
 * updates draft the steps on the simulated structure.
 */
import { pictureChanges, sitePicture } from './picture.js';
import { ref } from '../../model/address.js';
import type { JsonObject, Kind, RequestSpec } from '../../model/step.js';
import { analyse, matchPairs, mergeKindPlan, type Matched, type ResourceSpec } from '../common/analyse.js';
import { compact } from '../common/match.js';
import type { DraftStep, PlanContext } from '../kind.js';
import { externalLinkAddress, groupAddress, sectionAddress, siteAddress, siteSpaceAddress, structureAddress } from './addresses.js';
import {
  appendToGroup,
  appendTop,
  cloneLayout,
  createGroup,
  createInGroup,
  deleteGroup,
  deleteSection,
  groupHolding,
  groupKey,
  idOfKey,
  isGroupKey,
  isLinkKey,
  layoutOf,
  leaveGroup,
  linkKey,
  sectionKey,
  type ItemKey,
  type Layout } from './layout.js';
import { TreeChain } from './moves.js';
import { lookAlikeNote, lookAlikeNotes } from '../common/text.js';
import { pathCycle, pathNeed } from './paths.js';
import { type RemoteExternalLink, type RemoteGroup, type RemoteSection, type RemoteSite, type RemoteSiteSpace, type SitesRemote } from './remote.js';
import { spaceNames, type SpaceNames } from '../shared/spaces.js';
import { siteKey, type ExternalLinkT, type OrderItemT, type SectionGroupT, type SectionT, type SiteT } from './schema.js';
import { planShareLinks } from './share-links.js';
import { planSiteItself, planSiteList } from './site.js';
import type { RemoteSiteInfo } from '../shared/sites.js';
import { planAdaptiveSchema, planAgentSettings, planMcpServers } from './ai.js';
import { planCustomization } from './customization.js';
import { customFonts, type FontChoice } from '../shared/fonts.js';
import { planPublishingAuth } from './publishing-auth.js';
import { planRedirects } from './redirects.js';
import { planSiteSpaces } from './site-spaces.js';
import {
  differing,
  enc,
  GROUP_EXTRA_FIELDS,
  GROUP_FIELDS,
  handle,
  LINK_FIELDS,
  localizedBody,
  localizedValue,
  normalExternalLink,
  normalGroup,
  normalSection,
  pick,
  SECTION_EXTRA_FIELDS,
  SECTION_FIELDS,
  siteContext,
  type SiteContext,
  type GroupEntry,
  type LinkEntry,
  type SectionEntry,
  type SitePlans } from './steps.js';
import { planStructure } from './structure.js';
import { step } from '../common/step.js';

export { SITE_KINDS, type SiteKind, type SitePlans } from './steps.js';
export { externalLinkAddress, groupAddress, sectionAddress, shareLinkAddress, siteAddress, siteSpaceAddress, siteSpacesOrderAddress, structureAddress } from './addresses.js';
export { pathCycle, pathNeed } from './paths.js';

/**
 * A section is created in two requests: POST (the API makes a path from the title) then PATCH (the
 * configured path). An apply cut between the two leaves a section that no key matches; without this
 * it would be created a second time. An unmatched remote section with the desired title and first
 * space, whose path no desired section claims, is taken as that half-made section (the PATCH is then
 * planned as an ordinary update). This is the same match the create's own lookup makes.
 */
function adoptHalfCreatedSections(match: Matched<SectionT, RemoteSection>, desiredPaths: ReadonlySet<string>): void {
  for (const pair of match.pairs) {
    if (pair.remote) continue;
    const i = match.unmatched.findIndex(
      (r) => r.title === pair.desired.title && r.siteSpaces[0]?.space === pair.desired.space && !desiredPaths.has(r.path),
    );
    if (i < 0) continue;
    pair.remote = match.unmatched[i];
    // Taken as a rename: its path is the one the PATCH sets.
    pair.matchedBy = 'renamedFrom';
    match.unmatched.splice(i, 1);
  }
}

export interface SiteInput {
  org: string;
  site: SiteT;
  remote: RemoteSite;
  prunes(kind: Kind): boolean;
  /** The site's API path (its id, or the ref to its create step). */
  base: string;
  /** The site as the organization's list has it; absent for a site this plan creates. */
  info?: RemoteSiteInfo;
  /** How requests name the spaces the config names (identity when absent). */
  spaces?: SpaceNames;
  /** The custom fonts a customization may name by family. */
  fonts?: (family: string) => FontChoice | undefined;
}

/** The site's sections, groups and links matched to the remote ones, and the lookups the phases share. */
interface SiteItems {
  sections: SectionEntry[];
  /** The analyser's match of each kind, which plans its steps later from it. */
  sectionMatch: Matched<SectionT, RemoteSection>;
  sectionDeletes: RemoteSection[];
  deletedSectionIds: Set<string>;
  groups: GroupEntry[];
  groupMatch: Matched<SectionGroupT, RemoteGroup>;
  groupDeletes: RemoteGroup[];
  /** The group the config puts each listed section in. */
  desiredGroupOf: Map<ItemKey, GroupEntry>;
  groupByTitle: Map<string, GroupEntry>;
  sectionByPath: Map<string, SectionEntry>;
  entryByRemoteId: Map<string, SectionEntry>;
  /** A readable name of an item key: its config path or title, else its remote one. */
  labelOf: Map<ItemKey, string>;
  links: LinkEntry[];
  linkMatch: Matched<ExternalLinkT, RemoteExternalLink>;
  linkDeletes: RemoteExternalLink[];
}

/** The desired order of the structure and the chain of creates that keeps it. */
interface SiteOrder {
  rank: Map<ItemKey, number>;
  createChain: Array<SectionEntry | GroupEntry | LinkEntry>;
  /** Per create's address: the create before it in the chain. */
  chainNeeds: Map<string, string[]>;
  groupByKey: Map<ItemKey, GroupEntry>;
  sectionByKey: Map<ItemKey, SectionEntry>;
  /** Where the config puts a group or link: a group key, null for the top level; unmanaged: where it is. */
  desiredParentKey(e: GroupEntry | LinkEntry): ItemKey | null;
}

/** The structure as the plan's steps leave it, step by step, and the moves between levels on it. */
interface SimulatedStructure {
  layout: Layout;
  chain: TreeChain;
  titleOf(k: ItemKey | null | undefined): string | null;
  /** A move of a group or link between levels: the PATCH field, where it lands, and what the step then waits for. */
  levelMove(e: GroupEntry | LinkEntry): { id: string | null; to: ItemKey | null; needs: string[] } | undefined;
  applyMove(item: ItemKey, to: ItemKey | null): void;
}

/**
 * Every step of one site (an existing one, or one this plan creates), in phases: match the sections,
 * groups and links; work out the desired order; plan site spaces, sections, groups and links on the
 * simulated structure; then the structure order, share links, redirects, customization, publishing
 * auth and the site itself. Problems are reported in this order.
 */
export function planSite(input: SiteInput): SitePlans {
  const { site, remote } = input;
  const ctx = siteContext(input.org, site, remote, input.base, input.prunes, input.spaces, input.fonts);
  const { out } = ctx;

  out.sections.remoteCount = remote.sections.length;
  out.siteSpaces.remoteCount = remote.sections.reduce((n, s) => n + s.siteSpaces.length, remote.rootSiteSpaces.length);
  out.sectionGroups.remoteCount = remote.groups.length;
  out.shareLinks.remoteCount = remote.shareLinks.length;
  out.externalLinks.remoteCount = remote.links.length;

  const items = matchItems(ctx);
  const order = desiredOrder(ctx, items);
  const { sections, groups } = items;
  planSiteSpaces(ctx, sections);
  planSections(ctx, items, order);
  const sim = simulateStructure(ctx, items, order);
  planGroups(ctx, items, order, sim);
  planLinks(ctx, items, order, sim);
  const { layout } = sim;
  const { rank, groupByKey } = order;
  const { labelOf } = items;

  // ---- the structure order ---------------------------------------------------------------------------
  planStructure(ctx, {
    layout,
    rank,
    labelOf,
    groupByKey,
    touched: [
      ...sections.map((e) => e.address),
      ...out.sections.steps.filter((s) => s.action === 'delete').map((s) => s.address),
      ...groups.map((g) => g.address),
      ...out.sectionGroups.steps.filter((s) => s.action === 'delete').map((s) => s.address),
      ...out.externalLinks.steps.map((s) => s.address),
    ] });

  const picture = sitePicture({ site: siteKey(site), title: input.info?.title ?? site.title ?? siteKey(site), created: input.info === undefined, remote, layout, rank, sections, ...(site.siteSpaces ? { rootSpaces: site.siteSpaces.map((s) => s.space) } : {}), groups, links: items.links, out });
  if (pictureChanges(picture)) out.sections.pictures = [picture];

  // ---- share links -----------------------------------------------------------------------------------
  planShareLinks(ctx);

  // ---- redirects, customization, publishing auth -------------------------------------------------------
  planRedirects(ctx);
  planCustomization(ctx);
  planPublishingAuth(ctx, input.info?.visibility ?? undefined);

  // ---- AI and adaptive content ------------------------------------------------------------------------
  planAgentSettings(ctx, input.info === undefined);
  planMcpServers(ctx, input.info === undefined);
  planAdaptiveSchema(ctx, input.info === undefined);

  // ---- the site itself (last: a created site's publish waits for all of the above) ------------------
  planSiteItself(ctx, input.info, sections);

  return out;
}

/** Sections, then section groups, then external links, each matched to the remote ones. */
function matchItems(ctx: SiteContext): SiteItems {
  const { sections, sectionMatch, sectionDeletes, deletedSectionIds } = matchSections(ctx);
  const g = matchGroups(ctx, sections, deletedSectionIds);
  const l = matchLinks(ctx, g.parentEntry, g.labelOf);
  return {
    sections,
    sectionMatch,
    sectionDeletes,
    deletedSectionIds,
    groups: g.groups,
    groupMatch: g.groupMatch,
    groupDeletes: g.groupDeletes,
    desiredGroupOf: g.desiredGroupOf,
    groupByTitle: g.groupByTitle,
    sectionByPath: g.sectionByPath,
    entryByRemoteId: g.entryByRemoteId,
    labelOf: g.labelOf,
    ...l,
  };
}

/**
 * How the analyser matches a structure kind within its site: by id, then `renamedFrom`, then its key
 * (a section's path, a group's or link's title).
 */
function structureKeys<D extends { id?: string; renamedFrom?: string }, R extends { id: string }>(
  address: (natural: string) => string,
  desiredKey: (d: D) => string,
  remoteKey: (r: R) => string,
): Pick<ResourceSpec<D, R>, 'address' | 'desiredKey' | 'remoteKey' | 'remoteId' | 'desiredId' | 'renamedFrom'> {
  return { address, desiredKey, remoteKey, remoteId: (r) => r.id, desiredId: (d) => d.id, renamedFrom: (d) => d.renamedFrom };
}

/** The pairs that become entries: an entry that names an object another already names is left to the analyser's problem. */
function entryPairs<D, R>(m: Matched<D, R>): Matched<D, R>['pairs'] {
  const twice = new Set(m.twice.map((t) => t.entry));
  return m.pairs.filter((p) => !twice.has(p));
}

const sectionKeys = (site: SiteT) => structureKeys<SectionT, RemoteSection>((k) => sectionAddress(siteKey(site), k), (s) => s.path, (r) => r.path);
const groupKeys = (site: SiteT) => structureKeys<SectionGroupT, RemoteGroup>((k) => groupAddress(siteKey(site), k), (g) => g.title, (r) => r.title);
const linkKeys = (site: SiteT) => structureKeys<ExternalLinkT, RemoteExternalLink>((k) => externalLinkAddress(siteKey(site), k), (l) => l.title, (r) => r.title);

/** Sections: matched, and the deletes the structure is simulated with. */
function matchSections(ctx: SiteContext): Pick<SiteItems, 'sections' | 'sectionMatch' | 'sectionDeletes' | 'deletedSectionIds'> {
  const { org, site, remote, prunes } = ctx;
  const sectionMatch = matchPairs(site.sections ?? [], remote.sections, sectionKeys(site));
  adoptHalfCreatedSections(sectionMatch, new Set((site.sections ?? []).map((s) => s.path)));
  const sections: SectionEntry[] = entryPairs(sectionMatch).map(({ desired: cfg, remote: r }) => {
    const address = sectionAddress(siteKey(site), cfg.path);
    const h = handle(org, address, r?.id);
    return { cfg, remote: r, address, key: sectionKey(h.id), ...h };
  });
  const sectionDeletes = site.sections !== undefined && prunes('sections') ? sectionMatch.unmatched : [];
  return { sections, sectionMatch, sectionDeletes, deletedSectionIds: new Set(sectionDeletes.map((r) => r.id)) };
}

type ParentEntry = (title: string | null, kind: 'sectionGroups' | 'externalLinks', address: string, what: string) => GroupEntry | null | undefined;

/** Section groups: match, collisions, deletes, their listed sections, their parents. */
function matchGroups(
  ctx: SiteContext,
  sections: SectionEntry[],
  deletedSectionIds: ReadonlySet<string>,
): Pick<SiteItems, 'groups' | 'groupMatch' | 'groupDeletes' | 'desiredGroupOf' | 'groupByTitle' | 'sectionByPath' | 'entryByRemoteId' | 'labelOf'> & { parentEntry: ParentEntry } {
  const { org, site, remote, prunes, problem } = ctx;
  const groupMatch = matchPairs(site.sectionGroups ?? [], remote.groups, groupKeys(site));
  const groupDeletes = site.sectionGroups !== undefined && prunes('sectionGroups') ? groupMatch.unmatched : [];

  const sectionByPath = new Map(sections.map((e) => [e.cfg.path, e]));
  const entryByRemoteId = new Map(sections.filter((e) => e.remote).map((e) => [(e.remote as RemoteSection).id, e]));
  const remoteByPath = new Map(remote.sections.map((r) => [r.path, r]));
  /** A readable name of a section key: its config path, else its remote path. */
  const labelOf = new Map<ItemKey, string>();
  for (const r of remote.sections) labelOf.set(sectionKey(r.id), r.path);
  for (const e of sections) labelOf.set(e.key, e.cfg.path);

  const desiredGroupOf = new Map<ItemKey, GroupEntry>();
  const groups: GroupEntry[] = entryPairs(groupMatch).map(({ desired: cfg, remote: r }) => {
    const address = groupAddress(siteKey(site), cfg.title);
    const h = handle(org, address, r?.id);
    const entry: GroupEntry = { cfg, remote: r, address, key: groupKey(h.id), ...h };
    if (cfg.sections !== undefined) {
      entry.members = [];
      for (const path of cfg.sections) {
        const e = sectionByPath.get(path) ?? (remoteByPath.has(path) ? entryByRemoteId.get((remoteByPath.get(path) as RemoteSection).id) : undefined);
        const r2 = remoteByPath.get(path);
        let k: ItemKey | undefined;
        if (e) k = e.key;
        else if (r2 && deletedSectionIds.has(r2.id)) {
          problem('sectionGroups', address, `section group "${cfg.title}" lists section "${path}", which this plan deletes (sections are pruned and the config does not define it)`, { field: 'sections', key: path });
        } else if (r2) k = sectionKey(r2.id);
        else problem('sectionGroups', address, `section group "${cfg.title}" lists section "${path}", which is neither in the config nor on site ${siteKey(site)}`, { field: 'sections', key: path });
        if (k === undefined) continue;
        const other = desiredGroupOf.get(k);
        if (other && other !== entry) {
          problem('sectionGroups', address, `section "${path}" is listed by section groups "${other.cfg.title}" and "${cfg.title}"; a section is in one group at most`);
          continue;
        }
        if (!entry.members.includes(k)) entry.members.push(k);
        desiredGroupOf.set(k, entry);
      }
    }
    return entry;
  });
  const groupByTitle = new Map(groups.map((g) => [g.cfg.title, g]));
  /** A `parent` (of a group) or `group` (of a link): null for the top level, undefined (with a problem) when no group of the config has that title. */
  const parentEntry = (title: string | null, kind: 'sectionGroups' | 'externalLinks', address: string, what: string): GroupEntry | null | undefined => {
    if (title === null) return null;
    const g = groupByTitle.get(title);
    if (!g) problem(kind, address, `${what} names section group "${title}", which the config does not define`);
    return g;
  };
  for (const g of groups) {
    if (g.cfg.parent === undefined) continue;
    const p = parentEntry(g.cfg.parent, 'sectionGroups', g.address, `the parent of section group "${g.cfg.title}"`);
    if (p !== undefined) g.parent = p;
  }
  for (const g of groups) {
    // A cycle of parents: no structure can hold it (the loader reports it at its place too).
    const seen = new Set<GroupEntry>([g]);
    for (let p = g.parent; p; p = p.parent) {
      if (seen.has(p)) {
        problem('sectionGroups', g.address, `section group "${g.cfg.title}" is its own ancestor (a cycle of parents)`);
        g.parent = undefined;
        break;
      }
      seen.add(p);
    }
  }
  return { groups, groupMatch, groupDeletes, desiredGroupOf, groupByTitle, sectionByPath, entryByRemoteId, labelOf, parentEntry };
}

/** External links: match, collisions, deletes, their groups. */
function matchLinks(ctx: SiteContext, parentEntry: ParentEntry, labelOf: Map<ItemKey, string>): Pick<SiteItems, 'links' | 'linkMatch' | 'linkDeletes'> {
  const { org, site, remote, prunes, problem } = ctx;
  const linkMatch = matchPairs(site.externalLinks ?? [], remote.links, linkKeys(site));
  const links: LinkEntry[] = entryPairs(linkMatch).map(({ desired: cfg, remote: r }) => {
    const address = externalLinkAddress(siteKey(site), cfg.title);
    const h = handle(org, address, r?.id);
    const entry: LinkEntry = { cfg, remote: r, address, key: linkKey(h.id), ...h };
    if (cfg.group !== undefined) {
      const p = parentEntry(cfg.group, 'externalLinks', address, `external link "${cfg.title}"`);
      if (p !== undefined) entry.parent = p;
    }
    return entry;
  });
  const linkDeletes: RemoteExternalLink[] = site.externalLinks !== undefined && prunes('externalLinks') ? linkMatch.unmatched : [];
  if ((links.length > 0 || (site.sectionGroups ?? []).length > 0) && remote.rootSiteSpaces.length > 0 && remote.top.length === 0) {
    problem('externalLinks', siteAddress(siteKey(site)), `site ${site.id} shows its site spaces at its root (it has no sections): section groups and external links need sections`);
  }
  for (const l of links) labelOf.set(l.key, l.cfg.title);
  for (const r of remote.links) if (!labelOf.has(linkKey(r.id))) labelOf.set(linkKey(r.id), r.title);
  return { links, linkMatch, linkDeletes };
}

/**
 * The desired order of the structure, and the creates that append, chained in that order.
 */
function desiredOrder(ctx: SiteContext, items: SiteItems): SiteOrder {
  const { site, remote, problem } = ctx;
  const { sections, groups, links, groupDeletes, desiredGroupOf, groupByTitle, sectionByPath, entryByRemoteId } = items;
  // The default rule (docs/config.md, "Order of a site's structure"). At the top level: sections in
  // config order, a group at the place of its first section (groups without sections after them, in
  // config order), then external links in config order. In a group: its sections (in its `sections`
  // order), then its nested groups, then its links, in config order. An `order` list (on the site or
  // on a group) puts the items it names first, in its order.
  /**
   * The sections of a group: its list, else the sections the config defines that stay in it (its
   * remote members, and those of its deleted subgroups), in their current order.
   */
  const placing = (g: GroupEntry): ItemKey[] =>
    g.members ??
    remote.sections.flatMap((r) => {
      const e = entryByRemoteId.get(r.id);
      return e && containerOfSection(e) === g.key ? [e.key] : [];
    });
  const groupByKey = new Map(groups.map((g) => [g.key, g]));
  const deletedGroupIds = new Set(groupDeletes.map((r) => r.id));
  /** A remote group's place once the plan's deletes are done: a deleted group's children go where it stood. */
  const liveGroup = (id: string | null): ItemKey | null => {
    for (let g = id; g !== null; g = remote.groups.find((r) => r.id === g)?.parent ?? null) if (!deletedGroupIds.has(g)) return groupKey(g);
    return null;
  };
  /** Where the config puts a group or link: a group key, null for the top level; unmanaged: where it is. */
  const desiredParentKey = (e: GroupEntry | LinkEntry): ItemKey | null => {
    if (e.parent !== undefined) return e.parent?.key ?? null;
    return e.remote ? liveGroup(e.remote.parent) : null;
  };
  const containerOfSection = (e: SectionEntry): ItemKey | null => {
    const g = desiredGroupOf.get(e.key);
    if (g) return g.key;
    const held = e.remote ? remote.groups.find((r) => r.sections.includes((e.remote as RemoteSection).id)) : undefined;
    const live = held ? liveGroup(held.id) : null;
    // A group that lists its sections lets the others go to the top level.
    if (live === null || groupByKey.get(live)?.members) return null;
    return live;
  };
  const topGroupOf = (g: GroupEntry): GroupEntry => {
    const seen = new Set<GroupEntry>();
    let t = g;
    for (let p = groupByKey.get(desiredParentKey(t) ?? ''); p && !seen.has(p); p = groupByKey.get(desiredParentKey(t) ?? '')) {
      seen.add(t);
      t = p;
    }
    return t;
  };
  const defaultChildren = (container: ItemKey | null): ItemKey[] => {
    const out: ItemKey[] = [];
    const g = container === null ? undefined : groupByKey.get(container);
    if (container === null) {
      for (const e of sections) {
        const c = containerOfSection(e);
        const holder = c === null ? undefined : groupByKey.get(c);
        if (c === null) out.push(e.key);
        else if (holder) {
          const t = topGroupOf(holder);
          if (desiredParentKey(t) === null && !out.includes(t.key)) out.push(t.key);
        }
      }
    } else if (g) out.push(...placing(g).filter((k) => !desiredGroupOf.has(k) || desiredGroupOf.get(k) === g));
    else out.push(...sections.filter((e) => containerOfSection(e) === container).map((e) => e.key));
    for (const c of groups) if (desiredParentKey(c) === container && !out.includes(c.key)) out.push(c.key);
    for (const l of links) if (desiredParentKey(l) === container) out.push(l.key);
    return out;
  };
  const linkByTitle = new Map(links.map((l) => [l.cfg.title, l]));
  const orderKey = (item: OrderItemT): ItemKey | undefined =>
    'section' in item ? sectionByPath.get(item.section)?.key : 'group' in item ? groupByTitle.get(item.group)?.key : linkByTitle.get(item.link)?.key;
  const childrenOf = (container: ItemKey | null): ItemKey[] => {
    const defaults = defaultChildren(container);
    const owner = container === null ? undefined : groupByKey.get(container);
    const order = container === null ? site.order : owner?.cfg.order;
    if (!order) return defaults;
    const named: ItemKey[] = [];
    for (const item of order) {
      const k = orderKey(item);
      if (k !== undefined && defaults.includes(k) && !named.includes(k)) named.push(k);
      else {
        const where = owner ? `section group "${owner.cfg.title}"` : `the top level of site ${site.id}`;
        problem(owner ? 'sectionGroups' : 'sections', owner?.address ?? structureAddress(siteKey(site)), `order names ${JSON.stringify(item)}, which the config does not put at ${where}`);
      }
    }
    return [...named, ...defaults.filter((k) => !named.includes(k))];
  };
  const desiredSequence: ItemKey[] = [];
  const emitted = new Set<ItemKey | null>();
  const emit = (container: ItemKey | null) => {
    if (emitted.has(container)) return;
    emitted.add(container);
    for (const k of childrenOf(container)) {
      desiredSequence.push(k);
      if (isGroupKey(k)) emit(k);
    }
  };
  emit(null);
  // Items in groups the config does not manage (they keep their place; their managed children are sorted).
  for (const r of remote.groups) if (!deletedGroupIds.has(r.id)) emit(groupKey(r.id));
  const rank = new Map<ItemKey, number>();
  desiredSequence.forEach((k, i) => {
    if (!rank.has(k)) rank.set(k, i);
  });

  // Creates that append (to the top level, or to their group), chained in desired order (see the header comment).
  const sectionByKey = new Map(sections.map((e) => [e.key, e]));
  const linkByKey = new Map(links.map((l) => [l.key, l]));
  const createChain: Array<SectionEntry | GroupEntry | LinkEntry> = [];
  {
    const chained = new Set<ItemKey>();
    const add = (k: ItemKey) => {
      const e = sectionByKey.get(k) ?? groupByKey.get(k) ?? linkByKey.get(k);
      if (!e || e.remote || chained.has(k)) return;
      chained.add(k);
      createChain.push(e);
    };
    for (const k of desiredSequence) {
      const g = groupByKey.get(k);
      if (g) for (const m of g.members ?? []) add(m);
      add(k);
    }
  }
  const chainNeeds = new Map<string, string[]>();
  createChain.forEach((e, i) => chainNeeds.set(e.address, i > 0 ? [`${createChain[i - 1].address}:create`] : []));
  return { rank, createChain, chainNeeds, groupByKey, sectionByKey, desiredParentKey };
}

/** Section creates, updates (paths, a swap of paths, the default site space) and deletes. */
function planSections(ctx: SiteContext, items: SiteItems, order: SiteOrder): void {
  const { site, base } = ctx;
  const { sections, sectionMatch } = items;
  const holders = new Map<string, { step: string; takes?: string }>();
  const idAtPath = new Map<string, string>();
  for (const e of sections) if (e.remote) idAtPath.set(e.remote.path, e.remote.id);
  for (const e of sections) {
    if (e.remote && e.remote.path !== e.cfg.path) holders.set(e.remote.path, { step: `${e.address}:update`, takes: e.cfg.path });
  }
  const entryOf = new Map(sections.map((e) => [e.cfg, e]));
  const entry = (d: SectionT) => entryOf.get(d) as SectionEntry;
  planStructureKind(ctx, 'sections', 'sections', site.sections, ctx.remote.sections, sectionMatch, {
    ...sectionKeys(site),
    fingerprint: normalSection,
    observe: (r) => pick(r, SECTION_FIELDS),
    create: (d) => sectionCreate(ctx, entry(d), [...(order.chainNeeds.get(entry(d).address) ?? []), ...pathNeed(entry(d).address, d.path, holders)]),
    update: (d) => sectionUpdate(ctx, entry(d), holders, idAtPath),
    remove: (r) => ({ before: pick(r, SECTION_FIELDS), requests: [{ method: 'DELETE', path: `${base}/sections/${enc(r.id)}` }] }),
  });
}

/** The fields a section's create and update both compare beyond the shown ones. */
function sectionExtras(c: SectionT): JsonObject {
  return compact({ draft: c.draft, localizedTitle: localizedValue(c.localizedTitle), localizedDescription: localizedValue(c.localizedDescription) }) as JsonObject;
}

/** A section's create (POST, then the PATCH of its path and the rest), and its default site space after. */
function sectionCreate(ctx: SiteContext, e: SectionEntry, needs: string[]): DraftStep[] {
  const { org, site, base } = ctx;
  const c = e.cfg;
  const extras = sectionExtras(c);
  const defaultSpace = defaultSiteSpaceOf(org, siteKey(site), e);
  const own = c.siteSpaces?.find((x) => x.space === c.space);
  const ownSettings = own ? compact({ path: own.path, condition: own.condition, hidden: own.hidden }) : {};
  const later = compact({ path: c.path, description: c.description, condition: c.condition, localizedTitle: extras.localizedTitle ?? undefined, localizedDescription: extras.localizedDescription ?? undefined });
  const space = ctx.spaceId(c.space);
  const requests: RequestSpec[] = [
    {
      method: 'POST',
      path: `${base}/sections`,
      body: compact({ spaceId: space.id, title: c.title, icon: c.icon, draft: c.draft }),
      capture: true,
      lookup: { path: `${base}/sections`, match: { title: c.title, 'siteSpaces.0.space.id': space.id } } },
    // The create names the section after its title; the path is what identifies it from now on.
    { method: 'PATCH', path: `${base}/sections/${e.pathId}`, body: later as JsonObject },
  ];
  if (Object.keys(ownSettings).length > 0) {
    requests.push({ method: 'PATCH', path: `${base}/site-spaces/${ref(org, e.address, 'siteSpaces.0.id')}`, body: ownSettings });
  }
  const after = compact({
    path: c.path,
    title: c.title,
    space: c.space,
    icon: c.icon,
    description: c.description,
    condition: c.condition,
    ...extras,
    siteSpace: Object.keys(ownSettings).length > 0 ? ownSettings : undefined }) as JsonObject;
  const out = [
    step({
      address: e.address,
      kind: 'sections',
      action: 'create',
      before: null,
      after,
      requests,
      needs: [...needs, ...space.needs],
      ...notesOf([
        ...(space.needs.length > 0 ? [`space: (created by this plan) ${c.space}`] : []),
        ...lookAlikeNote('section', c.title, ctx.remote.sections.map((r) => r.title)),
      ]) }),
  ];
  // The default site space: a created section shows its first one until told otherwise.
  if (defaultSpace) {
    out.push(
      step({
        address: e.address,
        kind: 'sections',
        action: 'update',
        before: { defaultSiteSpace: null },
        after: { defaultSiteSpace: c.defaultSiteSpace as string },
        requests: [{ method: 'PATCH', path: `${base}/sections/${e.pathId}`, body: { defaultSiteSpace: defaultSpace.id } }],
        needs: [`${e.address}:create`, ...defaultSpace.needs] }),
    );
  }
  return out;
}

/** A matched section's update: its fields, its path (after the holder of that path moves, or parked first in a swap), its default site space. */
function sectionUpdate(ctx: SiteContext, e: SectionEntry, holders: Map<string, { step: string; takes?: string }>, idAtPath: ReadonlyMap<string, string>): DraftStep[] {
  const { org, site, base } = ctx;
  const c = e.cfg;
  const r = e.remote as RemoteSection;
  let pathNeeds = r.path !== c.path ? pathNeed(e.address, c.path, holders) : [];
  // A swap (or rotation) of section paths: as for site spaces, the first step of the cycle parks
  // the holder of its path on a temporary path first; the others wait for their holders.
  const updateRequests: RequestSpec[] = [];
  const cycle = r.path !== c.path ? pathCycle(e.address, c.path, holders) : undefined;
  if (cycle && cycle.length > 0) {
    if (cycle.every((step) => `${e.address}:update` < step)) {
      const holderId = idAtPath.get(c.path) as string;
      updateRequests.push({ method: 'PATCH', path: `${base}/sections/${enc(holderId)}`, body: { path: `docplane-swap-${holderId}`.slice(0, 100) } });
    } else pathNeeds = [cycle[0]];
  }
  const desired = compact({ title: c.title, path: c.path, description: c.description, icon: c.icon, condition: c.condition, ...sectionExtras(c) }) as JsonObject;
  const { before, after } = differing(pick(r, [...SECTION_FIELDS, ...SECTION_EXTRA_FIELDS]), desired);
  const body: JsonObject = localizedBody(after, ['localizedTitle', 'localizedDescription']);
  const needs = [...pathNeeds];
  const defaultSpace = defaultSiteSpaceOf(org, siteKey(site), e);
  const remoteDefault = r.siteSpaces.find((x) => x.default)?.space ?? r.siteSpaces[0]?.space ?? null;
  if (defaultSpace && c.defaultSiteSpace !== remoteDefault) {
    before.defaultSiteSpace = remoteDefault;
    after.defaultSiteSpace = c.defaultSiteSpace as string;
    body.defaultSiteSpace = defaultSpace.id;
    needs.push(...defaultSpace.needs);
  }
  if (Object.keys(after).length === 0) return [];
  return [
    step({
      address: e.address,
      kind: 'sections',
      action: 'update',
      before,
      after,
      requests: [...updateRequests, { method: 'PATCH', path: `${base}/sections/${e.pathId}`, body }],
      needs,
      remoteId: r.id }),
  ];
}

/**
 * One structure kind of a site through the analyser, from the match the structure was ordered by:
 * twins, named twice, collisions, unmanaged or deletes, fingerprints; the kind's entries give the steps.
 */
function planStructureKind<D, R>(
  ctx: SiteContext,
  kind: 'sections' | 'sectionGroups' | 'externalLinks',
  what: string,
  listed: readonly D[] | undefined,
  remote: readonly R[],
  matched: Matched<D, R>,
  spec: Omit<ResourceSpec<D, R>, 'kind' | 'what' | 'prune'>,
): void {
  const kp = analyse(ctx.org, listed ?? [], remote, { ...spec, kind, what, prune: listed !== undefined && ctx.prunes(kind) }, matched).plan;
  // The site counts its remote items once, up front.
  kp.remoteCount = 0;
  mergeKindPlan(ctx.out[kind], kp);
}

/** The simulated structure: deletes, chained creates, then moves between levels as the group and link steps make them. */
function simulateStructure(ctx: SiteContext, items: SiteItems, order: SiteOrder): SimulatedStructure {
  const { remote } = ctx;
  const { sectionDeletes, linkDeletes, groupDeletes } = items;
  const { createChain, desiredParentKey, groupByKey } = order;
  const layout: Layout = cloneLayout(layoutOf(remote));
  for (const r of sectionDeletes) deleteSection(layout, sectionKey(r.id));
  for (const r of linkDeletes) deleteSection(layout, linkKey(r.id));
  for (const r of groupDeletes) deleteGroup(layout, groupKey(r.id));
  const chain = new TreeChain(layout);
  for (const e of createChain) {
    const parent = isGroupKey(e.key) || isLinkKey(e.key) ? desiredParentKey(e as GroupEntry | LinkEntry) : null;
    if (isGroupKey(e.key)) createGroup(layout, e.key, (e as GroupEntry).members ?? [], parent ?? undefined);
    else if (parent !== null) createInGroup(layout, parent, e.key);
    else appendTop(layout, e.key);
    // An append to a group: later moves into the same tree wait for it (already chained among creates).
    if (parent !== null) chain.touch(`${e.address}:create`, chain.trees([parent]));
  }
  const titleOf = (k: ItemKey | null | undefined): string | null =>
    k === null || k === undefined ? null : (groupByKey.get(k)?.cfg.title ?? remote.groups.find((r) => groupKey(r.id) === k)?.title ?? idOfKey(k));
  /** A move of a group or link between levels: the PATCH field, where it lands, and what the step then waits for. */
  const levelMove = (e: GroupEntry | LinkEntry): { id: string | null; to: ItemKey | null; needs: string[] } | undefined => {
    if (e.parent === undefined || !e.remote) return undefined;
    const to = e.parent?.key ?? null;
    const from = groupHolding(layout, e.key) ?? null;
    if (to === from) return undefined;
    return { id: e.parent ? e.parent.id : null, to, needs: e.parent && !e.parent.remote ? [`${e.parent.address}:create`] : [] };
  };
  const applyMove = (item: ItemKey, to: ItemKey | null) => {
    const from = groupHolding(layout, item);
    if (to !== null) appendToGroup(layout, to, item);
    else if (from !== undefined) leaveGroup(layout, from, item);
  };
  return { layout, chain, titleOf, levelMove, applyMove };
}

/** Section group creates, updates (fields, parent, members) and deletes. */
function planGroups(ctx: SiteContext, items: SiteItems, order: SiteOrder, sim: SimulatedStructure): void {
  const { site, base } = ctx;
  const { groups, groupMatch, labelOf } = items;
  const { sectionByKey } = order;
  const pathsOf = (keys: readonly ItemKey[]) => keys.map((k) => labelOf.get(k) ?? idOfKey(k));
  /** The creates of the sections a group lists, which its step waits for. */
  const memberNeeds = (g: GroupEntry) => (g.members ?? []).filter((k) => sectionByKey.get(k) && !sectionByKey.get(k)?.remote).map((k) => `${sectionByKey.get(k)?.address}:create`);
  const entryOf = new Map(groups.map((g) => [g.cfg, g]));
  const entry = (d: SectionGroupT) => entryOf.get(d) as GroupEntry;
  planStructureKind(ctx, 'sectionGroups', 'section groups', site.sectionGroups, ctx.remote.groups, groupMatch, {
    ...groupKeys(site),
    fingerprint: normalGroup,
    observe: (r) => pick(r, GROUP_FIELDS),
    create: (d) => groupCreate(ctx, entry(d), pathsOf, [...memberNeeds(entry(d)), ...(order.chainNeeds.get(entry(d).address) ?? [])]),
    update: (d) => groupUpdate(ctx, entry(d), items, sim, pathsOf, memberNeeds(entry(d))),
    remove: (r) => ({ before: { title: r.title, icon: r.icon, sections: pathsOf(r.sections.map(sectionKey)) }, requests: [{ method: 'DELETE', path: `${base}/section-groups/${enc(r.id)}` }] }),
  });
}

const groupExtras = (c: SectionGroupT): JsonObject => compact({ draft: c.draft, localizedTitle: localizedValue(c.localizedTitle) }) as JsonObject;

/** A group's create, with its sections and in its parent (the API adds no section to a group later). */
function groupCreate(ctx: SiteContext, g: GroupEntry, pathsOf: (keys: readonly ItemKey[]) => string[], needs: string[]): DraftStep[] {
  const { base } = ctx;
  const c = g.cfg;
  const extras = groupExtras(c);
  const parent = g.parent ?? null;
  const after = compact({ title: c.title, icon: c.icon, parent: c.parent ?? undefined, ...extras, sections: g.members ? pathsOf(g.members) : undefined }) as JsonObject;
  const requests: RequestSpec[] = [
    {
      method: 'POST',
      path: `${base}/section-groups`,
      // Created with its sections: the live service has no endpoint to add a section to a group.
      body: compact({ title: c.title, icon: c.icon, sections: g.members?.map(idOfKey), parent: parent?.id, draft: c.draft }),
      capture: true,
      lookup: { path: `${base}/section-groups`, match: { title: c.title } } },
  ];
  // The create takes no localized title.
  if (extras.localizedTitle) requests.push({ method: 'PATCH', path: `${base}/section-groups/${g.pathId}`, body: { localizedTitle: extras.localizedTitle } });
  return [
    step({
      address: g.address,
      kind: 'sectionGroups',
      action: 'create',
      before: null,
      after,
      requests,
      needs: [...needs, ...(parent && !parent.remote ? [`${parent.address}:create`] : [])],
      ...lookAlikeNotes('section group', c.title, ctx.remote.groups.map((r) => r.title)) }),
  ];
}

/** A matched group's update: its fields, a move to another parent, and the sections that join or leave it (moved on the simulated structure). */
function groupUpdate(ctx: SiteContext, g: GroupEntry, items: SiteItems, sim: SimulatedStructure, pathsOf: (keys: readonly ItemKey[]) => string[], memberNeeds: string[]): DraftStep[] {
  const { base } = ctx;
  const { layout, chain, titleOf, levelMove, applyMove } = sim;
  const c = g.cfg;
  const r = g.remote as RemoteGroup;
  const fields = differing(pick(r, [...GROUP_FIELDS, ...GROUP_EXTRA_FIELDS]), compact({ title: c.title, icon: c.icon, ...groupExtras(c) }) as JsonObject);
  const body: JsonObject = localizedBody(fields.after, ['localizedTitle']);
  const before: JsonObject = { ...fields.before };
  const after: JsonObject = { ...fields.after };
  const needs = [...memberNeeds];
  const treesBefore = chain.trees([g.key]);
  const move = levelMove(g);
  if (move) {
    body.parentSectionGroupId = move.id;
    before.parent = titleOf(groupHolding(layout, g.key));
    after.parent = c.parent ?? null;
    needs.push(...move.needs);
    treesBefore.push(...chain.trees([move.to ?? undefined]));
    applyMove(g.key, move.to);
  }
  const requests: RequestSpec[] = [];
  if (Object.keys(body).length > 0) {
    requests.push({ method: 'PATCH', path: `${base}/section-groups/${g.pathId}`, body });
  }
  let membersMoved = false;
  if (g.members) {
    const membersBefore = (layout.groups.get(g.key) ?? []).filter((k) => !isGroupKey(k) && !isLinkKey(k));
    const wanted = g.members;
    const toAdd = wanted.filter((k) => !membersBefore.includes(k));
    // Sections that leave for the top level; those going to another group are moved by that group's step.
    const toRemove = new Set(membersBefore.filter((k) => !items.desiredGroupOf.has(k)));
    // A section moves into or out of a group by its own update (sorting changes sibling order only);
    // it lands last in a group, or just after the top-level group it leaves, and the structure sort
    // puts it where the config says.
    for (const k of toAdd) {
      requests.push({ method: 'PATCH', path: `${base}/sections/${idOfKey(k)}`, body: { siteSectionGroupId: r.id } });
      appendToGroup(layout, g.key, k);
    }
    for (const k of membersBefore.filter((m) => toRemove.has(m))) {
      requests.push({ method: 'PATCH', path: `${base}/sections/${idOfKey(k)}`, body: { siteSectionGroupId: null } });
      leaveGroup(layout, g.key, k);
    }
    if (toAdd.length > 0 || toRemove.size > 0) {
      membersMoved = true;
      before.sections = pathsOf(membersBefore);
      after.sections = pathsOf(wanted);
    }
  }
  if (requests.length === 0) return [];
  if (move || membersMoved) needs.push(...chain.touch(`${g.address}:update`, [...new Set([...treesBefore, ...chain.trees([g.key])])]));
  return [
    step({
      address: g.address,
      kind: 'sectionGroups',
      action: 'update',
      before,
      after,
      requests,
      needs: [...new Set(needs)],
      remoteId: r.id }),
  ];
}

/** External link creates, updates (fields, group) and deletes. */
function planLinks(ctx: SiteContext, items: SiteItems, order: SiteOrder, sim: SimulatedStructure): void {
  const { site, base } = ctx;
  const { links, linkMatch } = items;
  const entryOf = new Map(links.map((l) => [l.cfg, l]));
  const entry = (d: ExternalLinkT) => entryOf.get(d) as LinkEntry;
  planStructureKind(ctx, 'externalLinks', 'external links', site.externalLinks, ctx.remote.links, linkMatch, {
    ...linkKeys(site),
    fingerprint: normalExternalLink,
    observe: (r) => pick(r, LINK_FIELDS),
    create: (d) => linkCreate(ctx, entry(d), order.chainNeeds.get(entry(d).address) ?? []),
    update: (d) => linkUpdate(ctx, entry(d), sim),
    remove: (r) => ({ before: pick(r, LINK_FIELDS), requests: [{ method: 'DELETE', path: `${base}/external-links/${enc(r.id)}` }] }),
  });
}

/** The fields of a link as the config gives them. */
function linkFields(c: ExternalLinkT): JsonObject {
  return compact({
    title: c.title,
    url: c.url,
    description: c.description,
    icon: c.icon,
    condition: c.condition,
    draft: c.draft,
    localizedTitle: localizedValue(c.localizedTitle),
    localizedDescription: localizedValue(c.localizedDescription) }) as JsonObject;
}

/** A link's create, in its group. */
function linkCreate(ctx: SiteContext, l: LinkEntry, needs: string[]): DraftStep[] {
  const { base } = ctx;
  const c = l.cfg;
  const wanted = linkFields(c);
  const parent = l.parent ?? null;
  return [
    step({
      address: l.address,
      kind: 'externalLinks',
      action: 'create',
      before: null,
      after: compact({ ...wanted, group: c.group ?? undefined }) as JsonObject,
      // No list of external links: a lost create is looked up in the structure, by title.
      requests: [
        {
          method: 'POST',
          path: `${base}/external-links`,
          body: compact({ ...wanted, parent: parent?.id }) as JsonObject,
          capture: true,
          lookup: { path: `${base}/structure`, match: { object: 'site-external-link', title: c.title }, reads: 'tree' } },
      ],
      needs: [...needs, ...(parent && !parent.remote ? [`${parent.address}:create`] : [])],
      ...lookAlikeNotes('external link', c.title, ctx.remote.links.map((r) => r.title)) }),
  ];
}

/** A matched link's update: its fields, and a move to another group on the simulated structure. */
function linkUpdate(ctx: SiteContext, l: LinkEntry, sim: SimulatedStructure): DraftStep[] {
  const { layout, chain, titleOf, levelMove, applyMove } = sim;
  const c = l.cfg;
  const r = l.remote as RemoteExternalLink;
  const { before, after } = differing(pick(r, LINK_FIELDS), linkFields(c));
  const body: JsonObject = localizedBody(after, ['localizedTitle', 'localizedDescription']);
  const needs: string[] = [];
  const move = levelMove(l);
  if (move) {
    const trees = chain.trees([l.key, move.to ?? undefined]);
    body.parent = move.id;
    before.group = titleOf(groupHolding(layout, l.key));
    after.group = c.group ?? null;
    applyMove(l.key, move.to);
    needs.push(...move.needs, ...chain.touch(`${l.address}:update`, [...new Set([...trees, ...chain.trees([l.key])])]));
  }
  if (Object.keys(body).length === 0) return [];
  return [
    step({
      address: l.address,
      kind: 'externalLinks',
      action: 'update',
      before,
      after,
      requests: [{ method: 'PATCH', path: `${ctx.base}/external-links/${l.pathId}`, body }],
      needs: [...new Set(needs)],
      remoteId: r.id }),
  ];
}

/**
 * The site space a section's `defaultSiteSpace` names, as a request names it (its id, or the ref to
 * the step creating it) with the step that must run first; undefined when the config does not say.
 */
function defaultSiteSpaceOf(org: string, site: string, e: SectionEntry): { id: string; needs: string[] } | undefined {
  const space = e.cfg.defaultSiteSpace;
  if (space === undefined) return undefined;
  const existing = e.remote?.siteSpaces.find((x) => x.space === space);
  if (existing) return { id: existing.id, needs: [] };
  if (!e.remote && space === e.cfg.space) return { id: ref(org, e.address, 'siteSpaces.0.id'), needs: [] };
  const address = siteSpaceAddress(site, e.cfg.path, space);
  return { id: ref(org, address), needs: [`${address}:create`] };
}

/** Every site of an organization's config: created, updated, deleted, and what is in each. */
export function planSites(ctx: PlanContext, remote: SitesRemote): SitePlans {
  // Spaces the config names by natural key: the remote's ids are read in the config's names, and
  // requests send the ids (or the ref to the space's create).
  const spaces = spaceNames(ctx.org, remote.spaceIds);
  const inConfigTerms = remote.spaceIds === undefined ? (r: RemoteSite) => r : (r: RemoteSite) => renameSpaces(r, spaces);
  const fonts = remote.fonts === undefined ? undefined : customFonts(ctx.org, ctx.desired.fonts, remote.fonts);
  return planSiteList(ctx, remote, (one) => planSite({ org: ctx.org, prunes: (k) => ctx.prunes(k), ...one, remote: inConfigTerms(one.remote), spaces, fonts }));
}

/** A remote site whose site spaces name their space as the config does. */
function renameSpaces(r: RemoteSite, spaces: SpaceNames): RemoteSite {
  const rename = (x: RemoteSiteSpace): RemoteSiteSpace => ({ ...x, space: spaces.config(x.space) });
  return { ...r, sections: r.sections.map((s) => ({ ...s, siteSpaces: s.siteSpaces.map(rename) })), rootSiteSpaces: r.rootSiteSpaces.map(rename) };
}

function notesOf(notes: string[]): { notes?: string[] } {
  return notes.length > 0 ? { notes } : {};
}
