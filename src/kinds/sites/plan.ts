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
import { ref } from '../../model/address.js';
import type { JsonObject, Kind, PlanProblem, RequestSpec } from '../../model/step.js';
import { collisionMessage, compact, diffFields, keyCollisions, matchResources } from '../common/match.js';
import { deleteAddresses } from '../common/skeleton.js';
import type { PlanContext } from '../kind.js';
import { groupAddress, sectionAddress, siteAddress } from './addresses.js';
import { appendToGroup, appendTop, cloneLayout, createGroup, deleteGroup, deleteSection, groupKey, idOfKey, isGroupKey, layoutOf, leaveGroup, sectionKey, type ItemKey, type Layout } from './layout.js';
import { pathCycle, pathNeed } from './paths.js';
import { sitePath, type RemoteSection, type RemoteSite, type SitesRemote } from './remote.js';
import { siteKey, type SectionT, type SiteT } from './schema.js';
import { planShareLinks } from './share-links.js';
import { planCustomization } from './customization.js';
import { planPublishingAuth } from './publishing-auth.js';
import { planRedirects } from './redirects.js';
import { planSiteSpaces } from './site-spaces.js';
import {
  differing,
  emptySitePlans,
  enc,
  GROUP_FIELDS,
  handle,
  normalGroup,
  normalSection,
  pick,
  SECTION_FIELDS,
  SITE_KINDS,
  siteContext,
  type GroupEntry,
  type SectionEntry,
  type SitePlans,
} from './steps.js';
import { planStructure } from './structure.js';

export { SITE_KINDS, type SiteKind, type SitePlans } from './steps.js';
export { groupAddress, sectionAddress, shareLinkAddress, siteAddress, siteSpaceAddress, siteSpacesOrderAddress, structureAddress } from './addresses.js';
export { pathCycle, pathNeed } from './paths.js';

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

export interface SiteInput {
  org: string;
  site: SiteT;
  remote: RemoteSite;
  prunes(kind: Kind): boolean;
}

/** Every step of one existing site. */
export function planSite(input: SiteInput): SitePlans {
  const { org, site, remote, prunes } = input;
  const base = sitePath(org, site.id);
  const ctx = siteContext(org, site, remote, base, prunes);
  const { out, push, problem } = ctx;

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
      problem('sections', sectionAddress(siteKey(site), d.path), collisionMessage('sections', d.path, 'sections'));
    }
  }
  const sections: SectionEntry[] = sm.pairs.map(({ desired: cfg, remote: r }) => {
    const address = sectionAddress(siteKey(site), cfg.path);
    const h = handle(org, address, r?.id);
    return { cfg, remote: r, address, key: sectionKey(h.id), ...h };
  });
  const sectionDeletes = site.sections !== undefined && prunes('sections') ? sm.unmatched : [];
  if (sectionDeletes.length === 0) {
    const addressFor = deleteAddresses((k) => sectionAddress(siteKey(site), k));
    out.sections.unmanaged.push(...sm.unmatched.map((r) => addressFor(r.path, r.id)));
  }
  const deletedSectionIds = new Set(sectionDeletes.map((r) => r.id));
  const sectionDeleteAddress = new Map<string, string>();
  {
    const addressFor = deleteAddresses((k) => sectionAddress(siteKey(site), k));
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
      problem('sectionGroups', groupAddress(siteKey(site), d.title), collisionMessage('section groups', d.title, 'sectionGroups'));
    }
  }
  const groupDeletes = site.sectionGroups !== undefined && prunes('sectionGroups') ? gm.unmatched : [];
  if (groupDeletes.length === 0) {
    const addressFor = deleteAddresses((k) => groupAddress(siteKey(site), k));
    out.sectionGroups.unmanaged.push(...gm.unmatched.map((r) => addressFor(r.title, r.id)));
  }

  const sectionByPath = new Map(sections.map((e) => [e.cfg.path, e]));
  const entryByRemoteId = new Map(sections.filter((e) => e.remote).map((e) => [(e.remote as RemoteSection).id, e]));
  const remoteByPath = new Map(remote.sections.map((r) => [r.path, r]));
  /** A readable name of a section key: its config path, else its remote path. */
  const labelOf = new Map<ItemKey, string>();
  for (const r of remote.sections) labelOf.set(sectionKey(r.id), r.path);
  for (const e of sections) labelOf.set(e.key, e.cfg.path);

  const desiredGroupOf = new Map<ItemKey, GroupEntry>();
  const groups: GroupEntry[] = gm.pairs.map(({ desired: cfg, remote: r }) => {
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

  // ---- site spaces ----------------------------------------------------------------------------------
  planSiteSpaces(ctx, sections);

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
      // it lands last in a group, or just after the group it leaves, and the structure sort puts it
      // where the config says.
      for (const k of toAdd) {
        requests.push({ method: 'PATCH', path: `${base}/sections/${idOfKey(k)}`, body: { siteSectionGroupId: g.remote.id } });
        appendToGroup(layout, g.key, k);
      }
      for (const k of membersBefore.filter((m) => toRemove.has(m))) {
        requests.push({ method: 'PATCH', path: `${base}/sections/${idOfKey(k)}`, body: { siteSectionGroupId: null } });
        leaveGroup(layout, g.key, k);
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
    const addressFor = deleteAddresses((k) => groupAddress(siteKey(site), k));
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
  planStructure(ctx, {
    layout,
    rank,
    labelOf,
    groupByKey,
    touched: [
      ...sections.map((e) => e.address),
      ...sectionDeleteAddress.values(),
      ...groups.map((g) => g.address),
      ...out.sectionGroups.steps.filter((s) => s.action === 'delete').map((s) => s.address),
    ],
  });

  // ---- share links -----------------------------------------------------------------------------------
  planShareLinks(ctx);

  // ---- redirects, customization, publishing auth -------------------------------------------------------
  planRedirects(ctx);
  planCustomization(ctx);
  planPublishingAuth(ctx);

  return out;
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
        address: siteAddress(siteKey(site)),
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
      a.unmanaged.push(...b.unmanaged);
      a.remoteCount += b.remoteCount;
      a.problems.push(...b.problems);
      Object.assign(a.fingerprints, b.fingerprints);
    }
  }
  return out;
}
