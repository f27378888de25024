/**
 * Spaces (`spaces["space_api"]`): existing spaces only (the API has no create). Settings by PATCH
 * SPACE, placement by POST SPACE/move (`parent` = the collection at the config's path, or null), a
 * deleted space the config names is restored first. Spaces are never deleted by docplane.
 */
import { ApiError } from '../../core/errors.js';
import { fingerprint } from '../../core/json.js';
import type { JsonObject } from '../../model/step.js';
import { collectionIdOrRef, readCollections, resolveCollections, type RemoteCollection } from '../collections/collections.js';
import { diffFields, sameJson } from '../common/match.js';
import { emptyKindPlan, type KindPlan, type KindSpec } from '../kind.js';
import { enc } from '../common/paths.js';
import { readSpaceList, type RemoteSpace } from './read.js';

export type { RemoteSpace } from './read.js';
import { key } from '../../model/address.js';

export interface RemoteSpaces {
  /** The organization's spaces (the list), plus the deleted ones the config names. */
  spaces: RemoteSpace[];
  /** How many spaces the list holds (the deleted ones read one by one are not counted). */
  listed: number;
  /** Space ids of the config that the API does not know. */
  missing: string[];
  /** Present only when a space of the config is placed in a collection. */
  collections?: RemoteCollection[];
}

const SETTINGS = ['title', 'emoji', 'editMode', 'defaultLevel', 'language'] as const;

export function spaceAddress(id: string): string {
  return `spaces${key(id)}`;
}

function normalized(s: RemoteSpace): JsonObject {
  return {
    id: s.id,
    title: s.title ?? null,
    emoji: s.emoji ?? null,
    editMode: s.editMode ?? null,
    defaultLevel: s.defaultLevel ?? null,
    language: s.language ?? null,
    parent: s.parent ?? null,
    deletedAt: s.deletedAt ?? null,
  };
}

export const spacesModule: KindSpec<RemoteSpaces | undefined> = {
  kind: 'spaces',
  label: { one: 'space', many: 'spaces' },
  count: (org) => org.spaces?.length ?? 0,

  async read(ctx) {
    const desired = ctx.desired.spaces;
    if (desired === undefined) return undefined;
    const placed = desired.some((s) => typeof s.collection === 'string');
    const [listed, collections] = await Promise.all([
      readSpaceList(ctx),
      placed ? readCollections(ctx) : Promise.resolve(undefined),
    ]);
    const known = new Set(listed.map((s) => s.id));
    const missing: string[] = [];
    const extra: RemoteSpace[] = [];
    // The list leaves deleted spaces out: only a space the config names and the list lacks costs a GET.
    await Promise.all(
      desired
        .filter((s) => !known.has(s.id))
        .map(async (s) => {
          try {
            extra.push((await ctx.client.request<RemoteSpace>('GET', `/v1/spaces/${enc(s.id)}`)).body);
          } catch (err) {
            if (err instanceof ApiError && err.status === 404) missing.push(s.id);
            else throw err;
          }
        }),
    );
    extra.sort((a, b) => (a.id < b.id ? -1 : 1));
    return { spaces: [...listed, ...extra], listed: listed.length, missing: missing.sort(), collections };
  },

  plan(ctx, remote): KindPlan {
    const kp = emptyKindPlan();
    const desired = ctx.desired.spaces;
    if (desired === undefined || remote === undefined) return kp;
    kp.remoteCount = remote.listed;
    const byId = new Map(remote.spaces.map((s) => [s.id, s]));
    const resolved = resolveCollections(ctx.desired.collections, remote.collections ?? []);
    const named = new Set(desired.map((s) => s.id));
    kp.unmanaged = remote.spaces.slice(0, remote.listed).filter((s) => !named.has(s.id)).map((s) => spaceAddress(s.id));

    for (const d of desired) {
      const address = spaceAddress(d.id);
      const r = byId.get(d.id);
      if (!r) {
        kp.problems.push({ org: ctx.org, address, message: `space ${d.id} does not exist (the API cannot create spaces; check the id)` });
        continue;
      }
      if (r.organization && r.organization !== ctx.org) {
        kp.problems.push({ org: ctx.org, address, message: `space ${d.id} belongs to organization ${r.organization}, not ${ctx.org}` });
        continue;
      }
      let touched = false;
      const needsRestore = r.deletedAt !== undefined && r.deletedAt !== null;
      if (needsRestore) {
        kp.steps.push({
          address,
          kind: 'spaces',
          action: 'restore',
          before: { deletedAt: r.deletedAt as string },
          after: { deletedAt: null },
          changes: [{ path: 'deletedAt', kind: 'change', before: r.deletedAt as string, after: null }],
          requests: [{ method: 'POST', path: `/v1/spaces/${enc(d.id)}/restore` }],
          needs: [],
          remoteId: d.id,
          notes: ['the space was deleted; the config names it, so it is restored (possible within 7 days of its deletion)'],
        });
        touched = true;
      }
      // Whatever else happens to the space waits for its restore.
      const afterRestore = needsRestore ? [`${address}:restore`] : [];

      const before: JsonObject = {};
      const after: JsonObject = {};
      for (const f of SETTINGS) {
        const want = d[f];
        if (want === undefined) continue;
        const have = r[f] ?? null;
        if (!sameJson(have, want)) {
          before[f] = have;
          after[f] = want;
        }
      }
      if (Object.keys(after).length > 0) {
        kp.steps.push({
          address,
          kind: 'spaces',
          action: 'update',
          before,
          after,
          changes: diffFields(before, after),
          requests: [{ method: 'PATCH', path: `/v1/spaces/${enc(d.id)}`, body: after }],
          needs: afterRestore,
          remoteId: d.id,
        });
        touched = true;
      }

      if (d.collection !== undefined) {
        const target = d.collection === null ? null : collectionIdOrRef(ctx.org, d.collection, resolved);
        if (target === undefined) {
          kp.problems.push({
            org: ctx.org,
            address,
            message: `collection "${d.collection}" of space ${d.id} exists neither in the config nor in organization ${ctx.org}`,
          });
        } else if (target && ctx.desired.collections !== undefined && ctx.prunes('collections') && !resolved.byPath.has(d.collection as string)) {
          kp.problems.push({
            org: ctx.org,
            address,
            message: `collection "${d.collection}" of space ${d.id} is not in the config, and collections are pruned: the plan deletes it`,
          });
        } else if ((r.parent ?? null) !== (target ? target.id : null)) {
          const moveBefore = { collection: r.parent ? (resolved.remotePath.get(r.parent) ?? r.parent) : null };
          const moveAfter = { collection: d.collection };
          kp.steps.push({
            address,
            kind: 'spaces',
            action: 'move',
            before: moveBefore,
            after: moveAfter,
            changes: diffFields(moveBefore, moveAfter),
            requests: [{ method: 'POST', path: `/v1/spaces/${enc(d.id)}/move`, body: { parent: target ? target.id : null } }],
            // Only the target collection's create: a move goes by id, so an existing collection's
            // rename or move need not come first, and the delete of a pruned collection that held
            // its path before waits for this move (not the other way round).
            needs: [...afterRestore, ...(target ? [`${target.address}:create`] : [])],
            remoteId: d.id,
          });
          touched = true;
        }
      }
      if (touched) kp.fingerprints[address] = fingerprint(normalized(r));
    }
    return kp;
  },
};
