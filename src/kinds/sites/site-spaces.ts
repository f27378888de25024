/**
 * The site spaces of each section, and those at the root of a site without sections: what each
 * holder should hold, the steps, and the order of its site spaces.
 */
import { ref } from '../../model/address.js';
import type { JsonObject, RequestSpec } from '../../model/step.js';
import { analyse, matchPairs, mergeKindPlan, type Matched, type ResourceSpec } from '../common/analyse.js';
import { compact, sameJson } from '../common/match.js';
import type { DraftStep } from '../kind.js';
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
  /** The analyser's match, within the holder. */
  matched: Matched<SiteSpaceT, RemoteSiteSpace>;
  deletes: Array<{ remote: RemoteSiteSpace; address: string }>;
  /** The key in the address of a remote site space no entry matched: its space, `SPACE#ID` where an entry's address has it. */
  unmatchedKey: Map<RemoteSiteSpace, string>;
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

/** How the analyser matches a holder's site spaces: by id, then by space (the key within the holder). */
const holderKeys = (h: Holder): Pick<ResourceSpec<SiteSpaceT, RemoteSiteSpace>, 'address' | 'desiredKey' | 'remoteKey' | 'remoteId' | 'desiredId'> => ({
  address: h.addressOf,
  desiredKey: (x) => x.space,
  remoteKey: (r) => r.space,
  remoteId: (r) => r.id,
  desiredId: (x) => x.id,
});

function matchHolder(h: Holder): SpacesPlan {
  const matched = matchPairs(h.desired, h.remote, holderKeys(h));
  // A space an entry names, matched (by id) elsewhere: the unmatched one there takes `SPACE#ID`.
  const taken = new Set(h.desired.map((x) => x.space));
  const unmatchedKey = new Map(matched.unmatched.map((r) => [r, taken.has(r.space) ? `${r.space}#${r.id}` : r.space]));
  const deletes = h.wholeTruth ? matched.unmatched.map((r) => ({ remote: r, address: h.addressOf(unmatchedKey.get(r) as string) })) : [];
  return { ...h, matched, deletes, unmatchedKey };
}

export function planSiteSpaces(ctx: SiteContext, sections: readonly SectionEntry[]): void {
  const root = rootHolder(ctx);
  const holders = [...sections.map((e) => sectionHolder(ctx, e)), ...(root ? [root] : [])];
  for (const sp of holders.map(matchHolder)) planHolder(ctx, sp);
}

/** What a holder's steps share while they are planned: the keys its sort names, the chain of its adds, the paths held. */
interface HolderRun {
  sp: SpacesPlan;
  /** Space id → site-space id or ref, for the sort. */
  keyOfSpace: Map<string, string>;
  createdKeys: string[];
  stepAddresses: string[];
  /** The last add: adds in a holder are chained, each appended, so the order they leave is known. */
  previousCreate?: string;
  holders: Map<string, { step: string; takes?: string }>;
  remoteIdAtPath: Map<string, string>;
  /** The section's create, for a section this plan creates. */
  sectionNeeds: string[];
  /** The ref of the site space a created section's create makes. */
  ownKey?: string;
}

/** The site-space steps of one holder, and the order of its site spaces. */
function planHolder(ctx: SiteContext, sp: SpacesPlan): void {
  const { org, base } = ctx;
  const e = sp.entry;
  const run: HolderRun = {
    sp,
    keyOfSpace: new Map(),
    createdKeys: [],
    stepAddresses: [],
    holders: new Map(),
    remoteIdAtPath: new Map(),
    sectionNeeds: e && !e.remote ? [`${e.address}:create`] : [],
    ...(e && !e.remote ? { ownKey: ref(org, e.address, 'siteSpaces.0.id') } : {}),
  };
  for (const { desired: d, remote: r } of sp.matched.pairs) {
    if (r?.path && d.path !== undefined && d.path !== r.path) run.holders.set(r.path, { step: `${sp.addressOf(d.space)}:update`, takes: d.path });
    if (r?.path) run.remoteIdAtPath.set(r.path, r.id);
  }
  for (const d of sp.deletes) if (d.remote.path) run.holders.set(d.remote.path, { step: `${d.address}:delete` });
  const kp = analyse(org, sp.desired, sp.remote, {
    ...holderKeys(sp),
    kind: 'siteSpaces',
    what: 'site spaces',
    prune: sp.wholeTruth,
    unmatchedKey: (r) => sp.unmatchedKey.get(r) as string,
    fingerprint: normalSiteSpace,
    observe: (r) => ({ space: r.space, ...pick(r, [...SITE_SPACE_FIELDS, ...SITE_SPACE_EXTRA_FIELDS]) }),
    create: (d) => siteSpaceCreate(ctx, run, d),
    update: (d, r) => siteSpaceUpdate(ctx, run, d, r),
    remove: (r) => ({ before: { ...pick(r, ['condition', 'path']), space: r.space }, requests: [{ method: 'DELETE', path: `${base}/site-spaces/${enc(r.id)}` }] }),
  }, sp.matched).plan;
  // The site counts its remote site spaces once, up front.
  kp.remoteCount = 0;
  mergeKindPlan(ctx.out.siteSpaces, kp);
  for (const d of sp.deletes) run.stepAddresses.push(d.address);
  planOrder(ctx, sp, run.keyOfSpace, run.createdKeys, run.stepAddresses, run.ownKey);
}

const wantedOf = (d: SiteSpaceT): JsonObject => compact({ path: d.path, condition: d.condition, hidden: d.hidden }) as JsonObject;

/** A matched site space's update; a new path waits for its holder, or parks it first in a swap. */
function siteSpaceUpdate(ctx: SiteContext, run: HolderRun, d: SiteSpaceT, r: RemoteSiteSpace): DraftStep[] {
  const { base } = ctx;
  const address = run.sp.addressOf(d.space);
  let pathNeeds = d.path !== undefined && d.path !== r.path ? pathNeed(address, d.path, run.holders) : [];
  // A swap (or rotation) of paths: no order of single renames works. The first step of the cycle
  // (by address) parks the holder of its path on a temporary path, then takes the path; the
  // others wait for their holders as usual, and the holder ends on its own path last.
  const requests: RequestSpec[] = [];
  const cycle = d.path !== undefined && d.path !== r.path ? pathCycle(address, d.path, run.holders) : undefined;
  if (cycle && cycle.length > 0 && d.path !== undefined) {
    if (cycle.every((step) => `${address}:update` < step)) {
      const holderId = run.remoteIdAtPath.get(d.path) as string;
      requests.push({ method: 'PATCH', path: `${base}/site-spaces/${enc(holderId)}`, body: { path: `docplane-swap-${holderId}`.slice(0, 100) } });
    } else pathNeeds = [cycle[0]];
  }
  run.keyOfSpace.set(d.space, r.id);
  const { before, after } = differing(pick(r, [...SITE_SPACE_FIELDS, ...SITE_SPACE_EXTRA_FIELDS]), compact({ ...wantedOf(d), draft: d.draft }) as JsonObject);
  if (Object.keys(after).length === 0) return [];
  run.stepAddresses.push(address);
  requests.push({ method: 'PATCH', path: `${base}/site-spaces/${enc(r.id)}`, body: after });
  return [step({ address, kind: 'siteSpaces', action: 'update', before, after, requests, needs: pathNeeds, remoteId: r.id })];
}

/** A site space's add (POST, then the PATCH of its settings); the own space of a created section is made by the section's create. */
function siteSpaceCreate(ctx: SiteContext, run: HolderRun, d: SiteSpaceT): DraftStep[] {
  const { org, base } = ctx;
  const e = run.sp.entry;
  const address = run.sp.addressOf(d.space);
  const wanted = wantedOf(d);
  if (run.ownKey !== undefined && e && d.space === e.cfg.space) {
    run.keyOfSpace.set(d.space, run.ownKey); // made, and set up, by the section's create
    if (d.draft === undefined) return [];
    // The section's create makes its own site space live; a draft one is switched after.
    run.stepAddresses.push(address);
    return [
      step({
        address,
        kind: 'siteSpaces',
        action: 'update',
        before: { draft: false },
        after: { draft: d.draft },
        requests: [{ method: 'PATCH', path: `${base}/site-spaces/${run.ownKey}`, body: { draft: d.draft } }],
        needs: run.sectionNeeds }),
    ];
  }
  const pathNeeds = d.path !== undefined ? pathNeed(address, d.path, run.holders) : [];
  const own = ref(org, address);
  run.keyOfSpace.set(d.space, own);
  run.createdKeys.push(own);
  run.stepAddresses.push(address);
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
  const chained = run.previousCreate ? [`${run.previousCreate}:create`] : [];
  run.previousCreate = address;
  return [
    step({
      address,
      kind: 'siteSpaces',
      action: 'create',
      before: null,
      after: compact({ space: d.space, ...wanted, draft: d.draft }),
      requests,
      needs: [...run.sectionNeeds, ...chained, ...pathNeeds, ...space.needs],
      ...(space.needs.length > 0 ? { notes: [`space: (created by this plan) ${d.space}`] } : {}) }),
  ];
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
