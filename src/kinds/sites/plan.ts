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
 */
import type { SectionGroupT, SectionT, ShareLinkT, SiteSpaceT, SiteT } from './schema.js';
import { fingerprint } from '../../core/json.js';
import type { FieldChange, JsonObject, JsonValue, Kind, PlanProblem, RequestSpec } from '../../model/step.js';
import { collisionMessage, compact, diffFields, keyCollisions, matchResources, sameJson } from '../common/match.js';
import type { DraftStep, KindPlan, PlanContext } from '../kind.js';
import { key, ref } from '../../model/address.js';
import {
  appendToGroup,
  appendTop,
  cloneLayout,
  createGroup,
  deleteGroup,
  deleteSection,
  groupKey,
  idOfKey,
  isGroupKey,
  type ItemKey,
  type Layout,
  layoutOf,
  sectionKey,
} from './layout.js';
import { sortMoves } from './order.js';
import { deleteAddresses } from '../common/skeleton.js';
import { type RemoteGroup, type RemoteSection, type RemoteShareLink, type RemoteSite, type RemoteSiteSpace, type SitesRemote, sitePath } from './remote.js';

/**
 * A section is created in two requests: POST (the API makes a path from the title) then PATCH (the
 * configured path). An apply cut between the two leaves a section that no key matches; without this
 * it would be created a second time. An unmatched remote section with the desired title and first
 * space, whose path no desired section claims, is taken as that half-made section (the PATCH is then
 * planned as an ordinary update). This is the same match the create's own lookup makes.
 */
function adoptHalfCreatedSections(
  match: { pairs: Array<{ desired: SectionT; remote?: RemoteSection }>; unmatched: RemoteSection[] },
  desiredPaths: ReadonlySet<string>,
): void {
  for (const pair of match.pairs) {
    if (pair.remote) continue;
    const i = match.unmatched.findIndex(
      (r) => r.title === pair.desired.title && r.siteSpaces[0]?.space === pair.desired.space && !desiredPaths.has(r.path),
    );
    if (i < 0) continue;
    pair.remote = match.unmatched[i];
    match.unmatched.splice(i, 1);
  }
}

export const SITE_KINDS = ['sections', 'siteSpaces', 'sectionGroups', 'shareLinks'] as const;
export type SiteKind = (typeof SITE_KINDS)[number];
export type SitePlans = Record<SiteKind, KindPlan>;

export function emptySitePlans(): SitePlans {
  const one = (): KindPlan => ({ steps: [], unmanaged: 0, remoteCount: 0, problems: [], fingerprints: {} });
  return { sections: one(), siteSpaces: one(), sectionGroups: one(), shareLinks: one() };
}

/** The address of a site and of the things in it (COMMON "Addresses"). */
export const siteAddress = (site: string): string => `sites${key(site)}`;
export const sectionAddress = (site: string, path: string): string => `${siteAddress(site)}.sections${key(path)}`;
export const siteSpaceAddress = (site: string, path: string, space: string): string => `${sectionAddress(site, path)}.siteSpaces${key(space)}`;
export const siteSpacesOrderAddress = (site: string, path: string): string => `${sectionAddress(site, path)}.siteSpaces`;
export const groupAddress = (site: string, title: string): string => `${siteAddress(site)}.sectionGroups${key(title)}`;
export const shareLinkAddress = (site: string, name: string): string => `${siteAddress(site)}.shareLinks${key(name)}`;
export const structureAddress = (site: string): string => `${siteAddress(site)}.structure`;

const enc = encodeURIComponent;

/** How a request names a resource: its id, or the ref to the step creating it (apply encodes refs in paths). */
interface Handle {
  /** For bodies: the id or the ref token. */
  id: string;
  /** For paths. */
  pathId: string;
}

function handle(org: string, address: string, remoteId: string | undefined): Handle {
  if (remoteId !== undefined) return { id: remoteId, pathId: enc(remoteId) };
  const r = ref(org, address);
  return { id: r, pathId: r };
}

interface SectionEntry extends Handle {
  cfg: SectionT;
  remote?: RemoteSection;
  address: string;
  key: ItemKey;
}

interface GroupEntry extends Handle {
  cfg: SectionGroupT;
  remote?: RemoteGroup;
  address: string;
  key: ItemKey;
  /** The sections the config lists (resolved), when it lists them. */
  members?: ItemKey[];
}

/** The fields of a remote object that the config can manage, absent ones as null. */
function pick(remote: object, fields: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const f of fields) out[f] = ((remote as Record<string, unknown>)[f] ?? null) as JsonValue;
  return out;
}

/** The desired fields that differ from the remote ones: `before` and `after` of an update. */
function differing(current: JsonObject, desired: JsonObject): { before: JsonObject; after: JsonObject } {
  const before: JsonObject = {};
  const after: JsonObject = {};
  for (const [f, v] of Object.entries(desired)) {
    if (!sameJson(current[f] ?? null, v)) {
      before[f] = current[f] ?? null;
      after[f] = v;
    }
  }
  return { before, after };
}

const SECTION_FIELDS = ['title', 'path', 'description', 'icon', 'condition'] as const;
const SITE_SPACE_FIELDS = ['path', 'condition'] as const;
const GROUP_FIELDS = ['title', 'icon'] as const;

const normalSection = (r: RemoteSection): JsonObject => ({ id: r.id, ...pick(r, SECTION_FIELDS) });
const normalSiteSpace = (r: RemoteSiteSpace): JsonObject => ({ id: r.id, space: r.space, ...pick(r, SITE_SPACE_FIELDS) });
const normalGroup = (r: RemoteGroup): JsonObject => ({ id: r.id, title: r.title, icon: r.icon, sections: r.sections });
const normalLink = (r: RemoteShareLink): JsonObject => ({ id: r.id, name: r.name, active: r.active });


function sortRequest(base: string, item: ItemKey | string, where: 'before' | 'after', target: ItemKey | string, siteSpace = false): RequestSpec {
  const ref = (k: string) =>
    siteSpace ? { type: 'site-space', id: k } : { type: isGroupKey(k) ? 'site-section-group' : 'site-section', id: idOfKey(k) };
  return { method: 'PATCH', path: `${base}/structure/sort`, body: { item: ref(item), position: { [where]: ref(target) } } };
}

/**
 * Paths are unique within a site (sections) and within a section (site spaces): a step that gives a
 * path must wait for the step that frees it (the holder's rename or delete). `holders` maps a path to
 * the step address (with its action) of whoever frees it; `renames` maps each renaming step to the
 * path it takes, to leave out a need that would close a cycle (a swap of paths, which no order of
 * single renames can do; apply then reports the API's refusal).
 */
export function pathNeed(
  self: string,
  path: string,
  holders: ReadonlyMap<string, { step: string; takes?: string }>,
): string[] {
  const first = holders.get(path);
  if (!first || first.step.startsWith(`${self}:`)) return [];
  // Follow the chain of renames from the holder: reaching this step again would be a cycle.
  const seen = new Set<string>();
  for (let h: { step: string; takes?: string } | undefined = first; h?.takes !== undefined; h = holders.get(h.takes)) {
    if (h.step.startsWith(`${self}:`) || seen.has(h.step)) return [];
    seen.add(h.step);
  }
  return [first.step];
}

/**
 * The steps of a cycle of path renames through `self` (A takes B's path, B takes A's: a swap), in
 * chain order without `self`; undefined when taking `path` closes no cycle.
 */
export function pathCycle(self: string, path: string, holders: ReadonlyMap<string, { step: string; takes?: string }>): string[] | undefined {
  const chain: string[] = [];
  for (let h = holders.get(path); h !== undefined; h = h.takes === undefined ? undefined : holders.get(h.takes)) {
    if (h.step.startsWith(`${self}:`)) return chain;
    if (chain.includes(h.step) || h.takes === undefined) return undefined;
    chain.push(h.step);
  }
  return undefined;
}

export interface SiteInput {
  org: string;
  site: SiteT;
  remote: RemoteSite;
  prunes(kind: Kind): boolean;
}

/** Every step of one existing site. */
export function planSite(input: SiteInput): SitePlans {
  const { org, site, remote, prunes } = input;
  const out = emptySitePlans();
  const base = sitePath(org, site.id);
  const problem = (kind: SiteKind, address: string, message: string) => out[kind].problems.push({ org, address, message });
  const push = (step: DraftStep, remoteObject: JsonObject | null) => {
    const kp = out[step.kind as SiteKind];
    kp.steps.push(step);
    if (!(step.address in kp.fingerprints)) kp.fingerprints[step.address] = fingerprint(remoteObject);
  };

  out.sections.remoteCount = remote.sections.length;
  out.siteSpaces.remoteCount = remote.sections.reduce((n, s) => n + s.siteSpaces.length, 0);
  out.sectionGroups.remoteCount = remote.groups.length;
  out.shareLinks.remoteCount = remote.shareLinks.length;

  // ---- sections: match, deletes --------------------------------------------------------------
  const sm = matchResources(site.sections ?? [], remote.sections, {
    desiredKey: (s) => s.path,
    remoteKey: (r) => r.path,
    remoteId: (r) => r.id,
    desiredId: (s) => s.id,
    renamedFrom: (s) => s.renamedFrom,
  });
  adoptHalfCreatedSections(sm, new Set((site.sections ?? []).map((s) => s.path)));
  if (!prunes('sections')) {
    for (const { desired: d } of keyCollisions(sm, { desiredKey: (x) => x.path, remoteKey: (x) => x.path })) {
      problem('sections', sectionAddress(site.id, d.path), collisionMessage('sections', d.path, 'sections'));
    }
  }
  const sections: SectionEntry[] = sm.pairs.map(({ desired: cfg, remote: r }) => {
    const address = sectionAddress(site.id, cfg.path);
    const h = handle(org, address, r?.id);
    return { cfg, remote: r, address, key: sectionKey(h.id), ...h };
  });
  const sectionDeletes = site.sections !== undefined && prunes('sections') ? sm.unmatched : [];
  out.sections.unmanaged = sm.unmatched.length - sectionDeletes.length;
  const deletedSectionIds = new Set(sectionDeletes.map((r) => r.id));
  const sectionDeleteAddress = new Map<string, string>();
  {
    const addressFor = deleteAddresses((k) => sectionAddress(site.id, k));
    for (const r of sectionDeletes) sectionDeleteAddress.set(r.id, addressFor(r.path, r.id));
  }

  // ---- section groups: match, members ------------------------------------------------------------
  const gm = matchResources(site.sectionGroups ?? [], remote.groups, {
    desiredKey: (g) => g.title,
    remoteKey: (r) => r.title,
    remoteId: (r) => r.id,
    desiredId: (g) => g.id,
    renamedFrom: (g) => g.renamedFrom,
  });
  if (!prunes('sectionGroups')) {
    for (const { desired: d } of keyCollisions(gm, { desiredKey: (x) => x.title, remoteKey: (x) => x.title })) {
      problem('sectionGroups', groupAddress(site.id, d.title), collisionMessage('section groups', d.title, 'sectionGroups'));
    }
  }
  const groupDeletes = site.sectionGroups !== undefined && prunes('sectionGroups') ? gm.unmatched : [];
  out.sectionGroups.unmanaged = gm.unmatched.length - groupDeletes.length;

  const sectionByPath = new Map(sections.map((e) => [e.cfg.path, e]));
  const entryByRemoteId = new Map(sections.filter((e) => e.remote).map((e) => [(e.remote as RemoteSection).id, e]));
  const remoteByPath = new Map(remote.sections.map((r) => [r.path, r]));
  /** A readable name of a section key: its config path, else its remote path. */
  const labelOf = new Map<ItemKey, string>();
  for (const r of remote.sections) labelOf.set(sectionKey(r.id), r.path);
  for (const e of sections) labelOf.set(e.key, e.cfg.path);

  const desiredGroupOf = new Map<ItemKey, GroupEntry>();
  const groups: GroupEntry[] = gm.pairs.map(({ desired: cfg, remote: r }) => {
    const address = groupAddress(site.id, cfg.title);
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
          problem('sectionGroups', address, `section group "${cfg.title}" lists section "${path}", which this plan deletes (sections are pruned and the config does not define it)`);
        } else if (r2) k = sectionKey(r2.id);
        else problem('sectionGroups', address, `section group "${cfg.title}" lists section "${path}", which is neither in the config nor on site ${site.id}`);
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

  // ---- the desired order: sections at their place, a group at its first section ------------------
  const managedSectionKeys = new Set(sections.map((e) => e.key));
  /** The sections that place a group: its list, else its remote members that the config defines. */
  const placing = (g: GroupEntry): ItemKey[] =>
    g.members ?? (g.remote ? g.remote.sections.map(sectionKey).filter((k) => managedSectionKeys.has(k) && !desiredGroupOf.has(k)) : []);
  const groupPlacedBy = new Map<ItemKey, GroupEntry>();
  for (const g of groups) for (const k of placing(g)) if (!groupPlacedBy.has(k)) groupPlacedBy.set(k, g);
  const desiredSequence: ItemKey[] = [];
  const placedGroups = new Set<GroupEntry>();
  const placeGroup = (g: GroupEntry) => {
    placedGroups.add(g);
    desiredSequence.push(g.key, ...placing(g));
  };
  for (const e of sections) {
    const g = groupPlacedBy.get(e.key);
    if (!g) desiredSequence.push(e.key);
    else if (!placedGroups.has(g)) placeGroup(g);
  }
  for (const g of groups) if (!placedGroups.has(g)) placeGroup(g);
  const rank = new Map<ItemKey, number>();
  desiredSequence.forEach((k, i) => {
    if (!rank.has(k)) rank.set(k, i);
  });

  // Creates that append to the top level, chained in desired order (see the header comment).
  const sectionByKey = new Map(sections.map((e) => [e.key, e]));
  const groupByKey = new Map(groups.map((g) => [g.key, g]));
  const createChain: Array<SectionEntry | GroupEntry> = [];
  {
    const chained = new Set<ItemKey>();
    const add = (k: ItemKey) => {
      const e = sectionByKey.get(k) ?? groupByKey.get(k);
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

  // ---- site spaces: what each section should hold ------------------------------------------------
  interface SpacesPlan {
    entry: SectionEntry;
    desired: SiteSpaceT[];
    wholeTruth: boolean;
    pairs: Array<{ desired: SiteSpaceT; remote?: RemoteSiteSpace }>;
    deletes: Array<{ remote: RemoteSiteSpace; address: string }>;
  }
  const spacesPlans: SpacesPlan[] = sections.map((entry) => {
    const listed = entry.cfg.siteSpaces;
    // The section's own space is part of it, first unless the list places it elsewhere.
    const desired = listed === undefined ? [{ space: entry.cfg.space }] : listed.some((x) => x.space === entry.cfg.space) ? listed : [{ space: entry.cfg.space }, ...listed];
    // With `prune: [siteSpaces]` a section without a list holds its own space only.
    const wholeTruth = listed !== undefined || prunes('siteSpaces');
    const m = matchResources(desired, entry.remote?.siteSpaces ?? [], {
      desiredKey: (x) => x.space,
      remoteKey: (r) => r.space,
      remoteId: (r) => r.id,
      desiredId: (x) => x.id,
    });
    const addressFor = deleteAddresses(
      (k) => siteSpaceAddress(site.id, entry.cfg.path, k),
      desired.map((x) => siteSpaceAddress(site.id, entry.cfg.path, x.space)),
    );
    const deletes = wholeTruth
      ? m.unmatched.map((r) => ({ remote: r, address: addressFor(r.space, r.id) }))
      : [];
    if (!wholeTruth) out.siteSpaces.unmanaged += m.unmatched.length;
    return { entry, desired, wholeTruth, pairs: m.pairs, deletes };
  });

  // ---- section steps ---------------------------------------------------------------------------------
  const sectionPathHolders = new Map<string, { step: string; takes?: string }>();
  const sectionIdAtPath = new Map<string, string>();
  for (const e of sections) if (e.remote) sectionIdAtPath.set(e.remote.path, e.remote.id);
  for (const e of sections) {
    if (e.remote && e.remote.path !== e.cfg.path) sectionPathHolders.set(e.remote.path, { step: `${e.address}:update`, takes: e.cfg.path });
  }
  for (const e of sections) {
    const c = e.cfg;
    let pathNeeds = !e.remote || e.remote.path !== c.path ? pathNeed(e.address, c.path, sectionPathHolders) : [];
    // A swap (or rotation) of section paths: as for site spaces, the first step of the cycle parks
    // the holder of its path on a temporary path first; the others wait for their holders.
    const updateRequests: RequestSpec[] = [];
    const cycle = e.remote && e.remote.path !== c.path ? pathCycle(e.address, c.path, sectionPathHolders) : undefined;
    if (cycle && cycle.length > 0) {
      if (cycle.every((step) => `${e.address}:update` < step)) {
        const holderId = sectionIdAtPath.get(c.path) as string;
        updateRequests.push({ method: 'PATCH', path: `${base}/sections/${enc(holderId)}`, body: { path: `docplane-swap-${holderId}`.slice(0, 100) } });
      } else pathNeeds = [cycle[0]];
    }
    if (!e.remote) {
      const own = c.siteSpaces?.find((x) => x.space === c.space);
      const ownSettings = own ? compact({ path: own.path, condition: own.condition }) : {};
      const requests: RequestSpec[] = [
        {
          method: 'POST',
          path: `${base}/sections`,
          body: compact({ spaceId: c.space, title: c.title, icon: c.icon }),
          capture: true,
          lookup: { path: `${base}/sections`, match: { title: c.title, 'siteSpaces.0.space.id': c.space } },
        },
        // The create names the section after its title; the path is what identifies it from now on.
        { method: 'PATCH', path: `${base}/sections/${e.pathId}`, body: compact({ path: c.path, description: c.description, condition: c.condition }) },
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
        siteSpace: Object.keys(ownSettings).length > 0 ? ownSettings : undefined,
      }) as JsonObject;
      push(
        {
          address: e.address,
          kind: 'sections',
          action: 'create',
          before: null,
          after,
          changes: diffFields({}, after),
          requests,
          needs: [...(chainNeeds.get(e.address) ?? []), ...pathNeeds],
        },
        null,
      );
      continue;
    }
    const desired = compact({ title: c.title, path: c.path, description: c.description, icon: c.icon, condition: c.condition }) as JsonObject;
    const { before, after } = differing(pick(e.remote, SECTION_FIELDS), desired);
    if (Object.keys(after).length === 0) continue;
    push(
      {
        address: e.address,
        kind: 'sections',
        action: 'update',
        before,
        after,
        changes: diffFields(before, after),
        requests: [...updateRequests, { method: 'PATCH', path: `${base}/sections/${e.pathId}`, body: after }],
        needs: pathNeeds,
        remoteId: e.remote.id,
      },
      normalSection(e.remote),
    );
  }
  for (const r of sectionDeletes) {
    const before = pick(r, SECTION_FIELDS);
    push(
      {
        address: sectionDeleteAddress.get(r.id) as string,
        kind: 'sections',
        action: 'delete',
        before,
        after: null,
        changes: diffFields(before, {}),
        requests: [{ method: 'DELETE', path: `${base}/sections/${enc(r.id)}` }],
        needs: [],
        remoteId: r.id,
      },
      normalSection(r),
    );
  }

  // ---- site-space steps and the order of each section's site spaces ------------------------------
  for (const sp of spacesPlans) {
    const e = sp.entry;
    const sectionNeeds = e.remote ? [] : [`${e.address}:create`];
    const ownKey = e.remote ? undefined : ref(org, e.address, 'siteSpaces.0.id');
    const keyOfSpace = new Map<string, string>(); // space id → site-space id or ref, for the sort
    const createdKeys: string[] = [];
    const stepAddresses: string[] = [];
    let previousCreate: string | undefined;
    const holders = new Map<string, { step: string; takes?: string }>();
    for (const { desired: d, remote: r } of sp.pairs) {
      if (r?.path && d.path !== undefined && d.path !== r.path) {
        holders.set(r.path, { step: `${siteSpaceAddress(site.id, e.cfg.path, d.space)}:update`, takes: d.path });
      }
    }
    for (const d of sp.deletes) if (d.remote.path) holders.set(d.remote.path, { step: `${d.address}:delete` });
    const remoteIdAtPath = new Map<string, string>();
    for (const { remote: r } of sp.pairs) if (r?.path) remoteIdAtPath.set(r.path, r.id);
    for (const { desired: d, remote: r } of sp.pairs) {
      const address = siteSpaceAddress(site.id, e.cfg.path, d.space);
      const wanted = compact({ path: d.path, condition: d.condition }) as JsonObject;
      let pathNeeds = d.path !== undefined && d.path !== r?.path ? pathNeed(address, d.path, holders) : [];
      // A swap (or rotation) of paths: no order of single renames works. The first step of the cycle
      // (by address) parks the holder of its path on a temporary path, then takes the path; the
      // others wait for their holders as usual, and the holder ends on its own path last.
      const updateRequests: RequestSpec[] = [];
      const cycle = r && d.path !== undefined && d.path !== r.path ? pathCycle(address, d.path, holders) : undefined;
      if (cycle && cycle.length > 0 && d.path !== undefined) {
        if (cycle.every((step) => `${address}:update` < step)) {
          const holderId = remoteIdAtPath.get(d.path) as string;
          updateRequests.push({ method: 'PATCH', path: `${base}/site-spaces/${enc(holderId)}`, body: { path: `docplane-swap-${holderId}`.slice(0, 100) } });
        } else pathNeeds = [cycle[0]];
      }
      if (r) {
        keyOfSpace.set(d.space, r.id);
        const { before, after } = differing(pick(r, SITE_SPACE_FIELDS), wanted);
        if (Object.keys(after).length === 0) continue;
        stepAddresses.push(address);
        updateRequests.push({ method: 'PATCH', path: `${base}/site-spaces/${enc(r.id)}`, body: after });
        push(
          {
            address,
            kind: 'siteSpaces',
            action: 'update',
            before,
            after,
            changes: diffFields(before, after),
            requests: updateRequests,
            needs: pathNeeds,
            remoteId: r.id,
          },
          normalSiteSpace(r),
        );
        continue;
      }
      if (ownKey !== undefined && d.space === e.cfg.space) {
        keyOfSpace.set(d.space, ownKey); // made, and set up, by the section's create
        continue;
      }
      const own = ref(org, address);
      keyOfSpace.set(d.space, own);
      createdKeys.push(own);
      stepAddresses.push(address);
      const requests: RequestSpec[] = [
        {
          method: 'POST',
          path: `${base}/site-spaces`,
          body: { spaceId: d.space, sectionId: e.id },
          capture: true,
          lookup: { path: `${base}/site-spaces`, match: { 'space.id': d.space, section: e.id } },
        },
      ];
      if (Object.keys(wanted).length > 0) requests.push({ method: 'PATCH', path: `${base}/site-spaces/${own}`, body: wanted });
      const after = { space: d.space, ...wanted };
      push(
        {
          address,
          kind: 'siteSpaces',
          action: 'create',
          before: null,
          after,
          changes: diffFields({}, after),
          requests,
          // Adds in a section are chained: each is appended, so the order they leave is known.
          needs: [...sectionNeeds, ...(previousCreate ? [`${previousCreate}:create`] : []), ...pathNeeds],
        },
        null,
      );
      previousCreate = address;
    }
    for (const d of sp.deletes) {
      stepAddresses.push(d.address);
      const before = pick(d.remote, SITE_SPACE_FIELDS);
      push(
        {
          address: d.address,
          kind: 'siteSpaces',
          action: 'delete',
          before: { space: d.remote.space, ...before },
          after: null,
          changes: diffFields({ space: d.remote.space, ...before }, {}),
          requests: [{ method: 'DELETE', path: `${base}/site-spaces/${enc(d.remote.id)}` }],
          needs: [],
          remoteId: d.remote.id,
        },
        normalSiteSpace(d.remote),
      );
    }

    if (!sp.wholeTruth) continue;
    const deleted = new Set(sp.deletes.map((d) => d.remote.id));
    const current = [...(e.remote ? e.remote.siteSpaces.map((r) => r.id).filter((id) => !deleted.has(id)) : [ownKey as string]), ...createdKeys];
    const desired = sp.desired.map((d) => keyOfSpace.get(d.space) as string);
    if (sameJson(current, desired)) continue;
    const spaceOf = new Map([...keyOfSpace].map(([space, k]) => [k, space]));
    const address = siteSpacesOrderAddress(site.id, e.cfg.path);
    const before = { order: current.map((k) => spaceOf.get(k) ?? k) };
    const after = { order: desired.map((k) => spaceOf.get(k) ?? k) };
    push(
      {
        address,
        kind: 'siteSpaces',
        action: 'sort',
        before,
        after,
        changes: diffFields(before, after),
        requests: sortMoves(current, desired).map((m) =>
          m.after !== undefined ? sortRequest(base, m.item, 'after', m.after, true) : sortRequest(base, m.item, 'before', m.before as string, true),
        ),
        needs: [e.address, ...stepAddresses],
        ...(e.remote ? { remoteId: e.remote.id } : {}),
      },
      e.remote ? { section: e.remote.id, siteSpaces: e.remote.siteSpaces.map((r) => r.id) } : null,
    );
  }

  // ---- the simulated structure: deletes, chained creates, then group membership ------------------
  const layout: Layout = cloneLayout(layoutOf(remote));
  for (const r of sectionDeletes) deleteSection(layout, sectionKey(r.id));
  for (const r of groupDeletes) deleteGroup(layout, groupKey(r.id));
  for (const e of createChain) {
    if (isGroupKey(e.key)) createGroup(layout, e.key, (e as GroupEntry).members ?? []);
    else appendTop(layout, e.key);
  }

  // ---- group steps ---------------------------------------------------------------------------------
  const pathsOf = (keys: readonly ItemKey[]) => keys.map((k) => labelOf.get(k) ?? idOfKey(k));
  for (const g of groups) {
    const c = g.cfg;
    const memberNeeds = (g.members ?? []).filter((k) => sectionByKey.get(k) && !sectionByKey.get(k)?.remote).map((k) => `${sectionByKey.get(k)?.address}:create`);
    if (!g.remote) {
      const after = compact({ title: c.title, icon: c.icon, sections: g.members ? pathsOf(g.members) : undefined }) as JsonObject;
      push(
        {
          address: g.address,
          kind: 'sectionGroups',
          action: 'create',
          before: null,
          after,
          changes: diffFields({}, after),
          requests: [
            {
              method: 'POST',
              path: `${base}/section-groups`,
              // Created with its sections: the live service has no endpoint to add a section to a group.
              body: compact({ title: c.title, icon: c.icon, sections: g.members?.map(idOfKey) }),
              capture: true,
              lookup: { path: `${base}/section-groups`, match: { title: c.title } },
            },
          ],
          needs: [...memberNeeds, ...(chainNeeds.get(g.address) ?? [])],
        },
        null,
      );
      continue;
    }
    const fields = differing(pick(g.remote, GROUP_FIELDS), compact({ title: c.title, icon: c.icon }) as JsonObject);
    const requests: RequestSpec[] = [];
    if (Object.keys(fields.after).length > 0) {
      requests.push({ method: 'PATCH', path: `${base}/section-groups/${g.pathId}`, body: fields.after });
    }
    const before: JsonObject = { ...fields.before };
    const after: JsonObject = { ...fields.after };
    if (g.members) {
      const membersBefore = [...(layout.groups.get(g.key) ?? [])];
      const wanted = g.members;
      const toAdd = wanted.filter((k) => !membersBefore.includes(k));
      // Sections that leave for the top level; those going to another group are moved by that group's step.
      const toRemove = new Set(membersBefore.filter((k) => !desiredGroupOf.has(k)));
      // A section moves into or out of a group by its own update (sorting changes sibling order only);
      // it lands last in its new place, and the structure sort puts it where the config says.
      for (const k of toAdd) {
        requests.push({ method: 'PATCH', path: `${base}/sections/${idOfKey(k)}`, body: { siteSectionGroupId: g.remote.id } });
        appendToGroup(layout, g.key, k);
      }
      for (const k of membersBefore.filter((m) => toRemove.has(m))) {
        requests.push({ method: 'PATCH', path: `${base}/sections/${idOfKey(k)}`, body: { siteSectionGroupId: null } });
        appendTop(layout, k);
      }
      if (toAdd.length > 0 || toRemove.size > 0) {
        before.sections = pathsOf(g.remote.sections.map(sectionKey));
        after.sections = pathsOf(wanted);
      }
    }
    if (requests.length === 0) continue;
    push(
      {
        address: g.address,
        kind: 'sectionGroups',
        action: 'update',
        before,
        after,
        changes: diffFields(before, after),
        requests,
        needs: memberNeeds,
        remoteId: g.remote.id,
      },
      normalGroup(g.remote),
    );
  }
  {
    const addressFor = deleteAddresses((k) => groupAddress(site.id, k));
    for (const r of groupDeletes) {
      const before = { title: r.title, icon: r.icon, sections: pathsOf(r.sections.map(sectionKey)) };
      push(
        {
          address: addressFor(r.title, r.id),
          kind: 'sectionGroups',
          action: 'delete',
          before,
          after: null,
          changes: diffFields(before, {}),
          requests: [{ method: 'DELETE', path: `${base}/section-groups/${enc(r.id)}` }],
          needs: [],
          remoteId: r.id,
        },
        normalGroup(r),
      );
    }
  }

  // ---- the structure order ---------------------------------------------------------------------------
  planStructure();

  // ---- share links -----------------------------------------------------------------------------------
  planShareLinks();

  return out;

  function planStructure(): void {
    if (rank.size === 0) return;
    const byRank = (a: ItemKey, b: ItemKey) => (rank.get(a) as number) - (rank.get(b) as number);
    const containers: Array<{ group?: ItemKey; items: ItemKey[] }> = [
      { items: layout.top },
      ...layout.top.filter(isGroupKey).map((g) => ({ group: g, items: layout.groups.get(g) ?? [] })),
    ];
    const requests: RequestSpec[] = [];
    const before: JsonObject = { order: [] };
    const after: JsonObject = { order: [] };
    const labelItem = (k: ItemKey): string => {
      const g = groupByKey.get(k);
      if (g) return `sectionGroups${key(g.cfg.title)}`;
      return `sections${key(labelOf.get(k) ?? idOfKey(k))}`;
    };
    const titleOfGroup = (k: ItemKey) => groupByKey.get(k)?.cfg.title ?? remote.groups.find((r) => groupKey(r.id) === k)?.title ?? idOfKey(k);
    for (const c of containers) {
      const current = c.items.filter((k) => rank.has(k));
      const desired = [...current].sort(byRank);
      if (!c.group) {
        before.order = current.map(labelItem);
        after.order = desired.map(labelItem);
      } else if (current.length > 0) {
        ((before.groups ??= {}) as JsonObject)[titleOfGroup(c.group)] = current.map((k) => labelOf.get(k) ?? idOfKey(k));
        ((after.groups ??= {}) as JsonObject)[titleOfGroup(c.group)] = desired.map((k) => labelOf.get(k) ?? idOfKey(k));
      }
      for (const m of sortMoves(current, desired)) {
        requests.push(m.after !== undefined ? sortRequest(base, m.item, 'after', m.after) : sortRequest(base, m.item, 'before', m.before as ItemKey));
      }
    }
    if (requests.length === 0) return;
    const touched = [
      ...sections.map((e) => e.address),
      ...sectionDeleteAddress.values(),
      ...groups.map((g) => g.address),
      ...out.sectionGroups.steps.filter((s) => s.action === 'delete').map((s) => s.address),
    ];
    const changes: FieldChange[] = diffFields(before, after);
    push(
      {
        address: structureAddress(site.id),
        kind: 'sections',
        action: 'sort',
        before,
        after,
        changes,
        requests,
        needs: [...new Set(touched)],
        notes:
          touched.length > 0 && out.sections.steps.length + out.sectionGroups.steps.length > 0
            ? ['before: the order as the earlier steps of this plan leave it (created sections and groups come last)']
            : undefined,
      },
      { top: remote.top.map((t) => `${t.type}:${t.id}`), groups: Object.fromEntries(remote.groups.map((g) => [g.id, g.sections])) },
    );
  }

  function planShareLinks(): void {
    const lm = matchResources(site.shareLinks ?? [], remote.shareLinks, {
      desiredKey: (l: ShareLinkT) => l.name,
      remoteKey: (r) => r.name ?? r.id,
      remoteId: (r) => r.id,
      desiredId: (l) => l.id,
      renamedFrom: (l) => l.renamedFrom,
    });
    if (!prunes('shareLinks')) {
      for (const { desired: l } of keyCollisions(lm, { desiredKey: (x: ShareLinkT) => x.name, remoteKey: (x) => x.name ?? x.id })) {
        out.shareLinks.problems.push({ org, address: shareLinkAddress(site.id, l.name), message: collisionMessage('share links', l.name, 'shareLinks') });
      }
    }
    for (const { desired: l, remote: r } of lm.pairs) {
      const address = shareLinkAddress(site.id, l.name);
      if (!r) {
        const requests: RequestSpec[] = [
          { method: 'POST', path: `${base}/share-links`, body: { name: l.name }, capture: true, lookup: { path: `${base}/share-links`, match: { name: l.name } } },
        ];
        // A link is created active; an inactive one is switched off right after.
        if (l.active === false) requests.push({ method: 'PATCH', path: `${base}/share-links/${ref(org, address)}`, body: { active: false } });
        const after = compact({ name: l.name, active: l.active }) as JsonObject;
        push({ address, kind: 'shareLinks', action: 'create', before: null, after, changes: diffFields({}, after), requests, needs: [] }, null);
        continue;
      }
      const { before, after } = differing({ name: r.name, active: r.active }, compact({ name: l.name, active: l.active }) as JsonObject);
      if (Object.keys(after).length === 0) continue;
      push(
        {
          address,
          kind: 'shareLinks',
          action: 'update',
          before,
          after,
          changes: diffFields(before, after),
          requests: [{ method: 'PATCH', path: `${base}/share-links/${enc(r.id)}`, body: after }],
          needs: [],
          remoteId: r.id,
        },
        normalLink(r),
      );
    }
    const deletes = site.shareLinks !== undefined && prunes('shareLinks') ? lm.unmatched : [];
    out.shareLinks.unmanaged = lm.unmatched.length - deletes.length;
    const addressFor = deleteAddresses((k) => shareLinkAddress(site.id, k));
    for (const r of deletes) {
      const before = { name: r.name, active: r.active };
      push(
        {
          address: addressFor(r.name ?? r.id, r.id),
          kind: 'shareLinks',
          action: 'delete',
          before,
          after: null,
          changes: diffFields(before, {}),
          requests: [{ method: 'DELETE', path: `${base}/share-links/${enc(r.id)}` }],
          needs: [],
          remoteId: r.id,
        },
        normalLink(r),
      );
    }
  }
}

/** Every site of an organization's config: missing sites are problems, the others planned. */
export function planSites(ctx: PlanContext, remote: SitesRemote): SitePlans {
  const out = emptySitePlans();
  const seen = new Set<string>();
  for (const site of ctx.desired.sites ?? []) {
    if (seen.has(site.id)) continue;
    seen.add(site.id);
    const found = remote.sites.find((s) => s.id === site.id);
    if (!found?.site) {
      const problem: PlanProblem = {
        org: ctx.org,
        address: siteAddress(site.id),
        message: `site ${site.id} does not exist in organization ${ctx.org} (the API cannot create sites)`,
      };
      out.sections.problems.push(problem);
      continue;
    }
    const one = planSite({ org: ctx.org, site, remote: found.site, prunes: (k) => ctx.prunes(k) });
    for (const kind of SITE_KINDS) {
      const a = out[kind];
      const b = one[kind];
      a.steps.push(...b.steps);
      a.unmanaged += b.unmanaged;
      a.remoteCount += b.remoteCount;
      a.problems.push(...b.problems);
      Object.assign(a.fingerprints, b.fingerprints);
    }
  }
  return out;
}
