/**
 * Collections (`collections["Product/API"]`, the path of titles): nested; created with POST
 * ORG/collections `{title, parent}` (then PATCH for description and defaultLevel, in the same step),
 * updated with PATCH, placed with POST .../move, deleted when pruned (children first; a parent's
 * delete waits for its children to be moved out or deleted, and for the spaces to be placed).
 */
import type { CollectionT } from './schema.js';
import { fingerprintEntries } from '../../model/fingerprint.js';
import type { JsonObject, JsonValue, RequestSpec } from '../../model/step.js';
import { collisionMessage, sameJson } from '../common/match.js';
import { emptyKindPlan, type DraftStep, type KindPlan, type KindSpec } from '../kind.js';
import { unmatchedAddresses } from '../common/skeleton.js';
import { enc, orgPath } from '../common/paths.js';
import { readSpaceList, type RemoteSpace } from '../shared/space-list.js';
import { key, ref } from '../../model/address.js';
import { step } from '../common/step.js';
import { lookAlikeNotes } from '../common/text.js';
import { collectionAddress, collectionIdOrRef, readCollections, remotePaths, resolveCollections, targetParent, type RemoteCollection } from '../shared/collections.js';


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
    const kp = emptyKindPlan();
    if (ctx.desired.collections === undefined || read === undefined) return kp;
    const remote = read.collections;
    kp.remoteCount = remote.length;
    const resolved = resolveCollections(ctx.desired.collections, remote);
    const base = orgPath(ctx.org);
    const prints: Array<[string, unknown]> = [];
    const steps: DraftStep[] = [];
    const pathOfRemote = (id: string | null | undefined) => (id ? (resolved.remotePath.get(id) ?? id) : null);
    if (!ctx.prunes('collections')) {
      // A rename onto the path a kept (unmanaged) collection holds would leave two with one path.
      const heldPaths = new Set(resolved.unmatched.map((c) => resolved.remotePath.get(c.id)));
      for (const e of resolved.entries) {
        if (e.remote && e.matchedBy !== 'key' && heldPaths.has(e.path) && resolved.remotePath.get(e.remote.id) !== e.path) {
          kp.problems.push({ org: ctx.org, address: collectionAddress(e.path), message: collisionMessage('collections', e.path, 'collections') });
        }
      }
    }

    for (const e of resolved.entries) {
      const address = collectionAddress(e.path);
      const parent = e.parentPath === undefined ? undefined : collectionIdOrRef(ctx.org, e.parentPath, resolved);
      // Only the parent's create: requests name the parent by id, so its rename or move need not come
      // first, and the delete of a pruned collection that held the parent's path never blocks it.
      const needs = parent ? [`${parent.address}:create`] : [];
      const settings: JsonObject = {};
      if (e.node.description !== undefined) settings.description = e.node.description;
      if (e.node.defaultLevel !== undefined) settings.defaultLevel = e.node.defaultLevel;

      if (!e.remote) {
        const after: JsonObject = { title: e.node.title, parent: e.parentPath ?? null, ...settings };
        const requests: RequestSpec[] = [
          {
            method: 'POST',
            path: `${base}/collections`,
            body: { title: e.node.title, ...(parent ? { parent: parent.id } : {}) },
            capture: true,
            // A top-level collection has no `parent` in the list; apply's lookup reads absent as null.
            lookup: { path: `${base}/collections`, match: { title: e.node.title, parent: parent ? parent.id : null } } },
        ];
        if (Object.keys(settings).length > 0) {
          requests.push({ method: 'PATCH', path: `/v1/collections/${ref(ctx.org, address)}`, body: settingsBody(settings) });
        }
        // Look-alikes count among the collections that share the new one's parent (the top level for none).
        const siblings = remote.filter((c) => (c.parent ?? null) === (parent ? parent.id : null)).map((c) => c.title);
        steps.push(step({ address, kind: 'collections', action: 'create', before: null, after, requests, needs, ...lookAlikeNotes('collection', e.node.title, siblings) }));
        prints.push([address, null]);
        continue;
      }

      const r = e.remote;
      const wanted: JsonObject = { title: e.node.title, ...settings };
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
      let touched = false;
      if (Object.keys(after).length > 0) {
        steps.push(step({
          address,
          kind: 'collections',
          action: 'update',
          before,
          after,
          requests: [{ method: 'PATCH', path: `/v1/collections/${enc(r.id)}`, body: settingsBody(after) }],
          remoteId: r.id }));
        touched = true;
      }
      const wantParent = parent ? parent.id : null;
      if ((r.parent ?? null) !== wantParent) {
        const moveBefore = { parent: pathOfRemote(r.parent) };
        const moveAfter = { parent: e.parentPath ?? null };
        steps.push(step({
          address,
          kind: 'collections',
          action: 'move',
          before: moveBefore,
          after: moveAfter,
          requests: [{ method: 'POST', path: `/v1/collections/${enc(r.id)}/move`, body: { parent: wantParent } }],
          needs,
          remoteId: r.id }));
        touched = true;
      }
      if (touched) prints.push([address, normalized(r)]);
    }

    if (ctx.prunes('collections')) {
      // Where each remote collection's steps live: its config address when matched, else its delete.
      const addressOf = new Map<string, string>();
      for (const e of resolved.entries) if (e.remote) addressOf.set(e.remote.id, collectionAddress(e.path));
      const addressFor = unmatchedAddresses(kp, { kind: 'collections', address: collectionAddress, managed: managedPaths(resolved.entries, resolved.remotePath), prune: true });
      const deleteAddress = new Map<string, string>();
      for (const c of resolved.unmatched) {
        const path = resolved.remotePath.get(c.id) as string;
        // A config collection that takes this path under another parent is never its sibling (the
        // parent's own rename waits for this delete): the delete gets an address of its own, so a
        // space moving from this collection into that one does not wait for a delete that waits for it.
        const taker = resolved.byPath.get(path);
        const elsewhere = taker !== undefined && targetParent(taker, resolved) !== (c.parent ?? null);
        deleteAddress.set(c.id, elsewhere ? collectionAddress(`${path}#${c.id}`) : addressFor(path, c.id));
      }
      // Where each remote collection would be after the plan, were its delete left out (protect).
      const pathAfter = remotePaths(remote, new Map(resolved.entries.flatMap((e) => (e.remote ? [[e.remote.id, e.path] as const] : []))));
      // Only the config's spaces that are in a collection now need to be placed before it goes: a
      // space moving into a collection that takes a deleted one's path must not wait for that delete.
      const managedSpaces = new Set((ctx.desired.spaces ?? []).map((s) => s.id));
      const spacesIn = new Map<string, string[]>();
      for (const s of read.spaces ?? []) {
        if (!s.parent || !managedSpaces.has(s.id)) continue;
        spacesIn.set(s.parent, [...(spacesIn.get(s.parent) ?? []), `spaces${key(s.id)}`]);
      }
      for (const c of resolved.unmatched) {
        const address = deleteAddress.get(c.id) as string;
        // Deleting a collection deletes what is still inside: children go first (moved out or
        // deleted), and the spaces in it are placed first.
        const childNeeds = remote
          .filter((child) => child.parent === c.id)
          .map((child) => (deleteAddress.has(child.id) ? `${deleteAddress.get(child.id)}:delete` : (addressOf.get(child.id) as string)));
        const before: JsonObject = { title: c.title, parent: pathOfRemote(c.parent) as JsonValue };
        const keptAt = pathAfter.get(c.id) as string;
        if (c.description) before.description = c.description;
        steps.push(step({
          address,
          kind: 'collections',
          action: 'delete',
          before,
          after: null,
          changes: [],
          requests: [{ method: 'DELETE', path: `/v1/collections/${enc(c.id)}` }],
          needs: [...childNeeds, ...(spacesIn.get(c.id) ?? [])],
          remoteId: c.id,
          ...(keptAt !== resolved.remotePath.get(c.id) ? { keptAs: collectionAddress(keptAt) } : {}) }));
        prints.push([address, normalized(c)]);
      }
    } else {
      const addressFor = unmatchedAddresses(kp, { kind: 'collections', address: collectionAddress, managed: managedPaths(resolved.entries, resolved.remotePath), prune: false });
      kp.unmanaged = resolved.unmatched.map((c) => addressFor(resolved.remotePath.get(c.id) as string, c.id));
    }
    kp.steps = steps;
    kp.fingerprints = fingerprintEntries(prints);
    return kp;
  },
};

/** Path → id of the remote collection the config manages that is at that path now. */
function managedPaths(entries: ReadonlyArray<{ path: string; remote?: { id: string } }>, remotePath: ReadonlyMap<string, string>): Map<string, string> {
  return new Map(entries.flatMap((e) => (e.remote && remotePath.get(e.remote.id) === e.path ? [[e.path, e.remote.id] as const] : [])));
}
