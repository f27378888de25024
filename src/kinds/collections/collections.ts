/**
 * Collections (`collections["Product/API"]`, the path of titles): nested; created with POST
 * ORG/collections `{title, parent}` (then PATCH for description and defaultLevel, in the same step),
 * updated with PATCH, placed with POST .../move, deleted when pruned (children first; a parent's
 * delete waits for its children to be moved out or deleted, and for the spaces to be placed).
 */
import type { CollectionT } from './schema.js';
import type { JsonObject, JsonValue, RequestSpec } from '../../model/step.js';
import { analyse, ownPairs, type ResourceSpec } from '../common/analyse.js';
import { sameJson } from '../common/match.js';
import { emptyKindPlan, type DraftStep, type KindPlan, type KindSpec } from '../kind.js';
import { enc, orgPath } from '../common/paths.js';
import { readSpaceList, type RemoteSpace } from '../shared/space-list.js';
import { key, ref } from '../../model/address.js';
import { step } from '../common/step.js';
import { lookAlikeNotes } from '../common/text.js';
import { collectionAddress, collectionIdOrRef, readCollections, remotePaths, resolveCollections, targetParent, type CollectionEntry, type RemoteCollection, type ResolvedCollections } from '../shared/collections.js';


function normalized(c: RemoteCollection): JsonObject {
  return { id: c.id, title: c.title, description: c.description ?? null, defaultLevel: c.defaultLevel ?? null, parent: c.parent ?? null };
}

/** How many collections a config's tree holds. */
export function countCollections(list: readonly CollectionT[] | undefined): number {
  return (list ?? []).reduce((n, c) => n + 1 + countCollections(c.collections), 0);
}

/** The body of a collection PATCH: the description is a string, so "no description" is sent as "". */
function settingsBody(fields: JsonObject): JsonObject {
  return 'description' in fields && fields.description === null ? { ...fields, description: '' } : fields;
}

export interface RemoteCollections {
  collections: RemoteCollection[];
  /** The organization's spaces, when the config manages spaces (those in a pruned collection move out first). */
  spaces?: RemoteSpace[];
}

export const collectionsModule: KindSpec<RemoteCollections | undefined> = {
  kind: 'collections',
  label: { one: 'collection', many: 'collections' },
  prunable: true,
  count: (org) => countCollections(org.collections),

  async read(ctx) {
    if (ctx.desired.collections === undefined) return undefined;
    const [collections, spaces] = await Promise.all([readCollections(ctx), ctx.desired.spaces === undefined ? undefined : readSpaceList(ctx)]);
    return { collections, spaces };
  },

  plan(ctx, read): KindPlan {
    if (ctx.desired.collections === undefined || read === undefined) return emptyKindPlan();
    const remote = read.collections;
    const resolved = resolveCollections(ctx.desired.collections, remote);
    const prune = ctx.prunes('collections');
    const pathOf = (id: string | null | undefined) => (id ? (resolved.remotePath.get(id) ?? id) : null);
    // Where each remote collection would be after the plan, were its delete left out (protect).
    const pathAfter = remotePaths(remote, new Map(resolved.entries.flatMap((e) => (e.remote ? [[e.remote.id, e.path] as const] : []))));
    // Only the config's spaces that are in a collection now need to be placed before it goes: a
    // space moving into a collection that takes a deleted one's path must not wait for that delete.
    const managedSpaces = new Set((ctx.desired.spaces ?? []).map((s) => s.id));
    const spacesIn = new Map<string, string[]>();
    for (const s of read.spaces ?? []) {
      if (s.parent && managedSpaces.has(s.id)) spacesIn.set(s.parent, [...(spacesIn.get(s.parent) ?? []), `spaces${key(s.id)}`]);
    }
    const spec: ResourceSpec<CollectionEntry, RemoteCollection> = {
      kind: 'collections',
      what: 'collections',
      address: collectionAddress,
      desiredKey: (e) => e.path,
      remoteKey: (r) => resolved.remotePath.get(r.id) as string,
      remoteId: (r) => r.id,
      // A config collection that takes a pruned one's path under another parent is never its twin
      // (the parent's own rename waits for this delete): the delete gets an address of its own, so a
      // space moving from it into the new one does not wait for a delete that waits for it.
      unmatchedKey: (r) => {
        const path = resolved.remotePath.get(r.id) as string;
        const taker = resolved.byPath.get(path);
        return prune && taker !== undefined && targetParent(taker, resolved) !== (r.parent ?? null) ? `${path}#${r.id}` : path;
      },
      prune,
      fingerprint: normalized,
      observe: (r) => ({ title: r.title, parent: pathOf(r.parent), description: r.description || null, defaultLevel: r.defaultLevel ?? null }),
      create: (e, address) => planCreate(ctx.org, e, address, resolved, remote),
      update: (e, r, address) => planUpdate(ctx.org, e, r, address, resolved),
      remove: (c) => ({
        before: { title: c.title, parent: pathOf(c.parent) as JsonValue, ...(c.description ? { description: c.description } : {}) },
        requests: [{ method: 'DELETE', path: `/v1/collections/${enc(c.id)}` }],
        // The spaces in it are placed first (deleting a collection deletes what is still inside).
        needs: spacesIn.get(c.id) ?? [],
        ...(pathAfter.get(c.id) !== resolved.remotePath.get(c.id) ? { keptAs: collectionAddress(pathAfter.get(c.id) as string) } : {}),
      }),
    };
    // The tree is matched parents first, each child among its parent's match's children (shared with
    // the units that place things in a collection); the analyser plans from that match.
    const matched = ownPairs(resolved.entries, remote, spec, (e) => (e.remote ? { remote: e.remote, by: e.matchedBy ?? 'key' } : undefined));
    const { plan, pairs } = analyse(ctx.org, resolved.entries, remote, spec, matched);
    // A pruned collection's children go first, moved out or deleted: each at its own step's address.
    const at = new Map<string, string>();
    for (const p of pairs) if (p.remote) at.set(p.remote.id, p.address);
    for (const s of plan.steps) if (s.action === 'delete' && s.remoteId) at.set(s.remoteId, `${s.address}:delete`);
    for (const s of plan.steps) {
      if (s.action !== 'delete') continue;
      s.needs = [...remote.filter((child) => child.parent === s.remoteId).map((child) => at.get(child.id) as string), ...s.needs];
    }
    return plan;
  },
};

/** A collection nothing matches: its create (POST, then a PATCH for what the create does not take). */
function planCreate(org: string, e: CollectionEntry, address: string, resolved: ResolvedCollections, remote: readonly RemoteCollection[]): DraftStep[] {
  const parent = parentOf(org, e, resolved);
  const settings = settingsOf(e);
  const base = orgPath(org);
  const requests: RequestSpec[] = [
    {
      method: 'POST',
      path: `${base}/collections`,
      body: { title: e.node.title, ...(parent ? { parent: parent.id } : {}) },
      capture: true,
      // A top-level collection has no `parent` in the list; apply's lookup reads absent as null.
      lookup: { path: `${base}/collections`, match: { title: e.node.title, parent: parent ? parent.id : null } },
    },
  ];
  if (Object.keys(settings).length > 0) requests.push({ method: 'PATCH', path: `/v1/collections/${ref(org, address)}`, body: settingsBody(settings) });
  // Look-alikes count among the collections that share the new one's parent (the top level for none).
  const siblings = remote.filter((c) => (c.parent ?? null) === (parent ? parent.id : null)).map((c) => c.title);
  const after: JsonObject = { title: e.node.title, parent: e.parentPath ?? null, ...settings };
  return [step({ address, kind: 'collections', action: 'create', before: null, after, requests, needs: needsOf(parent), ...lookAlikeNotes('collection', e.node.title, siblings) })];
}

/** A matched collection's update (title, description, default level) and move, where they differ. */
function planUpdate(org: string, e: CollectionEntry, r: RemoteCollection, address: string, resolved: ResolvedCollections): DraftStep[] {
  const steps: DraftStep[] = [];
  const parent = parentOf(org, e, resolved);
  const wanted: JsonObject = { title: e.node.title, ...settingsOf(e) };
  const current: JsonObject = { title: r.title };
  // An empty description is no description: the API clears it with "" and may answer either.
  if ('description' in wanted) current.description = r.description || null;
  if ('defaultLevel' in wanted) current.defaultLevel = r.defaultLevel ?? null;
  const before: JsonObject = {};
  const after: JsonObject = {};
  for (const k of Object.keys(wanted)) {
    if (!sameJson(current[k], wanted[k])) {
      before[k] = current[k];
      after[k] = wanted[k];
    }
  }
  if (Object.keys(after).length > 0) {
    steps.push(step({ address, kind: 'collections', action: 'update', before, after, requests: [{ method: 'PATCH', path: `/v1/collections/${enc(r.id)}`, body: settingsBody(after) }], remoteId: r.id }));
  }
  const wantParent = parent ? parent.id : null;
  if ((r.parent ?? null) !== wantParent) {
    steps.push(step({
      address,
      kind: 'collections',
      action: 'move',
      before: { parent: r.parent ? (resolved.remotePath.get(r.parent) ?? r.parent) : null },
      after: { parent: e.parentPath ?? null },
      requests: [{ method: 'POST', path: `/v1/collections/${enc(r.id)}/move`, body: { parent: wantParent } }],
      needs: needsOf(parent),
      remoteId: r.id,
    }));
  }
  return steps;
}

/** The parent an entry is to have, by id or by a ref to its create (undefined at the top level). */
function parentOf(org: string, e: CollectionEntry, resolved: ResolvedCollections): { id: string; address: string } | undefined {
  return e.parentPath === undefined ? undefined : collectionIdOrRef(org, e.parentPath, resolved);
}

/**
 * Only the parent's create: requests name the parent by id, so its rename or move need not come
 * first, and the delete of a pruned collection that held the parent's path never blocks it.
 */
function needsOf(parent: { address: string } | undefined): string[] {
  return parent ? [`${parent.address}:create`] : [];
}

function settingsOf(e: CollectionEntry): JsonObject {
  const settings: JsonObject = {};
  if (e.node.description !== undefined) settings.description = e.node.description;
  if (e.node.defaultLevel !== undefined) settings.defaultLevel = e.node.defaultLevel;
  return settings;
}
