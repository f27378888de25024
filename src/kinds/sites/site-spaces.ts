/**
 * The site spaces of each section, and those at the root of a site without sections: what each
 * holder should hold, the steps, and the order of its site spaces.
 */
import { ref } from '../../model/address.js';
import type { JsonObject, RequestSpec } from '../../model/step.js';
import { compact, matchResources, sameJson } from '../common/match.js';
import { deleteAddresses } from '../common/skeleton.js';
import { rootSiteSpaceAddress, rootSiteSpacesOrderAddress, siteAddress, siteSpaceAddress, siteSpacesOrderAddress } from './addresses.js';
import { sortMoves } from './order.js';
import { pathCycle, pathNeed } from './paths.js';
import type { RemoteSiteSpace } from './remote.js';
import { siteKey, type SiteSpaceT } from './schema.js';
import { differing, enc, normalSiteSpace, pick, SITE_SPACE_EXTRA_FIELDS, SITE_SPACE_FIELDS, sortRequest, type SectionEntry, type SiteContext } from './steps.js';
import { step } from '../common/step.js';

/** A list of site spaces: a section's, or the site's root list. */
interface Holder {
  /** The address of one of its site spaces, by space id. */
  addressOf(space: string): string;
  /** The address of its order step. */
  orderAddress: string;
  /** The section (undefined at the root). */
  entry?: SectionEntry;
  remote: RemoteSiteSpace[];
  desired: SiteSpaceT[];
  /** Deletes what the list leaves out; otherwise the rest is unmanaged and keeps its place. */
  wholeTruth: boolean;
}

interface SpacesPlan extends Holder {
  pairs: Array<{ desired: SiteSpaceT; remote?: RemoteSiteSpace }>;
  deletes: Array<{ remote: RemoteSiteSpace; address: string }>;
}

function sectionHolder(ctx: SiteContext, entry: SectionEntry): Holder {
  const { site, prunes } = ctx;
  const listed = entry.cfg.siteSpaces;
  // The section's own space is part of it, first unless the list places it elsewhere.
  const desired = listed === undefined ? [{ space: entry.cfg.space }] : listed.some((x) => x.space === entry.cfg.space) ? listed : [{ space: entry.cfg.space }, ...listed];
  return {
    addressOf: (space) => siteSpaceAddress(siteKey(site), entry.cfg.path, space),
    orderAddress: siteSpacesOrderAddress(siteKey(site), entry.cfg.path),
    entry,
    remote: entry.remote?.siteSpaces ?? [],
    desired,
    // With `prune: [siteSpaces]` a section without a list holds its own space only.
    wholeTruth: listed !== undefined || prunes('siteSpaces') };
}

/** The root list of a site without sections: site spaces the list leaves out are deleted only with `prune: [siteSpaces]`. */
function rootHolder(ctx: SiteContext): Holder | undefined {
  const { site, remote, prunes } = ctx;
  if (site.siteSpaces === undefined) return undefined;
  if (remote.top.length > 0) {
    ctx.problem('siteSpaces', siteAddress(siteKey(site)), `site ${site.id} is organised in sections: its site spaces belong under its sections, not at its root`);
    return undefined;
  }
  return {
    addressOf: (space) => rootSiteSpaceAddress(siteKey(site), space),
    orderAddress: rootSiteSpacesOrderAddress(siteKey(site)),
    remote: remote.rootSiteSpaces,
    desired: site.siteSpaces,
    wholeTruth: prunes('siteSpaces') };
}

function matchHolder(ctx: SiteContext, h: Holder): SpacesPlan {
  const m = matchResources(h.desired, h.remote, {
    desiredKey: (x) => x.space,
    remoteKey: (r) => r.space,
    remoteId: (r) => r.id,
    desiredId: (x) => x.id });
  const addressFor = deleteAddresses(h.addressOf, h.desired.map((x) => h.addressOf(x.space)));
  const deletes = h.wholeTruth ? m.unmatched.map((r) => ({ remote: r, address: addressFor(r.space, r.id) })) : [];
  if (!h.wholeTruth) ctx.out.siteSpaces.unmanaged.push(...m.unmatched.map((r) => addressFor(r.space, r.id)));
  return { ...h, pairs: m.pairs, deletes };
}

export function planSiteSpaces(ctx: SiteContext, sections: readonly SectionEntry[]): void {
  const root = rootHolder(ctx);
  const holders = [...sections.map((e) => sectionHolder(ctx, e)), ...(root ? [root] : [])];
  for (const sp of holders.map((h) => matchHolder(ctx, h))) planHolder(ctx, sp);
}

/** The site-space steps of one holder, and the order of its site spaces. */
function planHolder(ctx: SiteContext, sp: SpacesPlan): void {
  const { org, base, push } = ctx;
  const e = sp.entry;
  const sectionNeeds = e && !e.remote ? [`${e.address}:create`] : [];
  const ownKey = e && !e.remote ? ref(org, e.address, 'siteSpaces.0.id') : undefined;
  const keyOfSpace = new Map<string, string>(); // space id → site-space id or ref, for the sort
  const createdKeys: string[] = [];
  const stepAddresses: string[] = [];
  let previousCreate: string | undefined;
  const holders = new Map<string, { step: string; takes?: string }>();
  for (const { desired: d, remote: r } of sp.pairs) {
    if (r?.path && d.path !== undefined && d.path !== r.path) holders.set(r.path, { step: `${sp.addressOf(d.space)}:update`, takes: d.path });
  }
  for (const d of sp.deletes) if (d.remote.path) holders.set(d.remote.path, { step: `${d.address}:delete` });
  const remoteIdAtPath = new Map<string, string>();
  for (const { remote: r } of sp.pairs) if (r?.path) remoteIdAtPath.set(r.path, r.id);
  for (const { desired: d, remote: r } of sp.pairs) {
    const address = sp.addressOf(d.space);
    const wanted = compact({ path: d.path, condition: d.condition, hidden: d.hidden }) as JsonObject;
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
      const { before, after } = differing(pick(r, [...SITE_SPACE_FIELDS, ...SITE_SPACE_EXTRA_FIELDS]), compact({ ...wanted, draft: d.draft }) as JsonObject);
      if (Object.keys(after).length === 0) continue;
      stepAddresses.push(address);
      updateRequests.push({ method: 'PATCH', path: `${base}/site-spaces/${enc(r.id)}`, body: after });
      push(
        step({
          address,
          kind: 'siteSpaces',
          action: 'update',
          before,
          after,
          requests: updateRequests,
          needs: pathNeeds,
          remoteId: r.id }),
        normalSiteSpace(r),
      );
      continue;
    }
    if (ownKey !== undefined && e && d.space === e.cfg.space) {
      keyOfSpace.set(d.space, ownKey); // made, and set up, by the section's create
      if (d.draft !== undefined) {
        // The section's create makes its own site space live; a draft one is switched after.
        stepAddresses.push(address);
        push(
          step({
            address,
            kind: 'siteSpaces',
            action: 'update',
            before: { draft: false },
            after: { draft: d.draft },
            requests: [{ method: 'PATCH', path: `${base}/site-spaces/${ownKey}`, body: { draft: d.draft } }],
            needs: sectionNeeds }),
          null,
        );
      }
      continue;
    }
    const own = ref(org, address);
    keyOfSpace.set(d.space, own);
    createdKeys.push(own);
    stepAddresses.push(address);
    const space = ctx.spaceId(d.space);
    const requests: RequestSpec[] = [
      {
        method: 'POST',
        path: `${base}/site-spaces`,
        // Without a section, the API adds the space at the root of a site without sections.
        body: compact({ spaceId: space.id, sectionId: e?.id, draft: d.draft }),
        capture: true,
        lookup: { path: `${base}/site-spaces`, match: { 'space.id': space.id, section: e ? e.id : null } } },
    ];
    if (Object.keys(wanted).length > 0) requests.push({ method: 'PATCH', path: `${base}/site-spaces/${own}`, body: wanted });
    const after = compact({ space: d.space, ...wanted, draft: d.draft });
    push(
      step({
        address,
        kind: 'siteSpaces',
        action: 'create',
        before: null,
        after,
        requests,
        // Adds in a holder are chained: each is appended, so the order they leave is known.
        needs: [...sectionNeeds, ...(previousCreate ? [`${previousCreate}:create`] : []), ...pathNeeds, ...space.needs],
        ...(space.needs.length > 0 ? { notes: [`space: (created by this plan) ${d.space}`] } : {}) }),
      null,
    );
    previousCreate = address;
  }
  for (const d of sp.deletes) {
    stepAddresses.push(d.address);
    const before = pick(d.remote, SITE_SPACE_FIELDS);
    push(
      step({
        address: d.address,
        kind: 'siteSpaces',
        action: 'delete',
        before: { space: d.remote.space, ...before },
        after: null,
        requests: [{ method: 'DELETE', path: `${base}/site-spaces/${enc(d.remote.id)}` }],
        remoteId: d.remote.id }),
      normalSiteSpace(d.remote),
    );
  }
  planOrder(ctx, sp, keyOfSpace, createdKeys, stepAddresses, ownKey);
}

/**
 * The sort of a holder's site spaces: the managed ones, from the order the steps leave (kept ones in
 * place, created ones appended in order) to the listed order. Unmanaged ones keep their place.
 */
function planOrder(ctx: SiteContext, sp: SpacesPlan, keyOfSpace: ReadonlyMap<string, string>, createdKeys: readonly string[], stepAddresses: readonly string[], ownKey: string | undefined): void {
  const { base, push } = ctx;
  const e = sp.entry;
  if (!sp.wholeTruth && e) return;
  const deleted = new Set(sp.deletes.map((d) => d.remote.id));
  const managed = new Set(keyOfSpace.values());
  const existing = e && !e.remote ? [ownKey as string] : sp.remote.map((r) => r.id).filter((id) => !deleted.has(id) && managed.has(id));
  const current = [...existing, ...createdKeys];
  const desired = sp.desired.map((d) => keyOfSpace.get(d.space) as string);
  if (sameJson(current, desired)) return;
  const spaceOf = new Map([...keyOfSpace].map(([space, k]) => [k, space]));
  const before = { order: current.map((k) => spaceOf.get(k) ?? k) };
  const after = { order: desired.map((k) => spaceOf.get(k) ?? k) };
  push(
    step({
      address: sp.orderAddress,
      kind: 'siteSpaces',
      action: 'sort',
      before,
      after,
      requests: sortMoves(current, desired).map((m) =>
        m.after !== undefined ? sortRequest(base, m.item, 'after', m.after, true) : sortRequest(base, m.item, 'before', m.before as string, true),
      ),
      needs: [...(e ? [e.address] : []), ...stepAddresses],
      ...(e?.remote ? { remoteId: e.remote.id } : {}) }),
    e ? (e.remote ? { section: e.remote.id, siteSpaces: e.remote.siteSpaces.map((r) => r.id) } : null) : { siteSpaces: sp.remote.map((r) => r.id) },
  );
}
