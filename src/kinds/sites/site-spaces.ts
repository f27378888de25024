/** The site spaces of each section: what it should hold, the steps, and the order of its site spaces. */
import { ref } from '../../model/address.js';
import type { JsonObject, RequestSpec } from '../../model/step.js';
import { compact, diffFields, matchResources, sameJson } from '../common/match.js';
import { deleteAddresses } from '../common/skeleton.js';
import { siteSpaceAddress, siteSpacesOrderAddress } from './addresses.js';
import { sortMoves } from './order.js';
import { pathCycle, pathNeed } from './paths.js';
import type { RemoteSiteSpace } from './remote.js';
import { siteKey, type SiteSpaceT } from './schema.js';
import { differing, enc, normalSiteSpace, pick, SITE_SPACE_FIELDS, sortRequest, type SectionEntry, type SiteContext } from './steps.js';

export function planSiteSpaces(ctx: SiteContext, sections: readonly SectionEntry[]): void {
  const { org, site, base, prunes, out, push } = ctx;
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
    (k) => siteSpaceAddress(siteKey(site), entry.cfg.path, k),
    desired.map((x) => siteSpaceAddress(siteKey(site), entry.cfg.path, x.space)),
  );
  const deletes = wholeTruth
    ? m.unmatched.map((r) => ({ remote: r, address: addressFor(r.space, r.id) }))
    : [];
  if (!wholeTruth) out.siteSpaces.unmanaged.push(...m.unmatched.map((r) => addressFor(r.space, r.id)));
  return { entry, desired, wholeTruth, pairs: m.pairs, deletes };
});

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
      holders.set(r.path, { step: `${siteSpaceAddress(siteKey(site), e.cfg.path, d.space)}:update`, takes: d.path });
    }
  }
  for (const d of sp.deletes) if (d.remote.path) holders.set(d.remote.path, { step: `${d.address}:delete` });
  const remoteIdAtPath = new Map<string, string>();
  for (const { remote: r } of sp.pairs) if (r?.path) remoteIdAtPath.set(r.path, r.id);
  for (const { desired: d, remote: r } of sp.pairs) {
    const address = siteSpaceAddress(siteKey(site), e.cfg.path, d.space);
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
  const address = siteSpacesOrderAddress(siteKey(site), e.cfg.path);
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
}
