/**
 * Spaces (`spaces["space_api"]`, or `spaces["Product/API/Reference"]` for a space without id):
 * settings by PATCH SPACE, placement by POST SPACE/move (`parent` = the collection at the config's
 * path, or null), a deleted space the config names is restored first. A space without id is matched
 * by title within its collection and created (POST ORG/spaces, createSpace) when nothing matches.
 * Spaces the config does not name are deleted only when `prune` names spaces (restorable for 7 days).
 */
import { ApiError } from '../../core/errors.js';
import { fingerprint } from '../../core/json.js';
import type { JsonObject, JsonValue } from '../../model/step.js';
import { collectionIdOrRef, readCollections, resolveCollections, type RemoteCollection, type ResolvedCollections } from '../shared/collections.js';
import { sameJson } from '../common/match.js';
import { emailsOf, namesReviewers, normalizeMergeRules, reviewersShown, reviewersToIds } from '../shared/merge-rules.js';
import { indexMembers, memberRefs, readMembers, type RemoteMember } from '../shared/members.js';
import { emptyKindPlan, type KindPlan, type KindSpec } from '../kind.js';
import { lookAlikeNote } from '../common/text.js';
import { enc, orgPath } from '../common/paths.js';
import type { SpaceT } from './schema.js';
import { readSpaceList, type RemoteSpace } from '../shared/space-list.js';
import { matchSpaces, placesInCollections, spaceAddress } from '../shared/spaces.js';
import { ref } from '../../model/address.js';
import { step } from '../common/step.js';
import { SpaceAnswer } from '../shared/space-answers.js';

export interface RemoteSpaces {
  /** The organization's spaces (the list), plus the deleted ones the config names. */
  spaces: RemoteSpace[];
  /** How many spaces the list holds (the deleted ones read one by one are not counted). */
  listed: number;
  /** Space ids of the config that the API does not know. */
  missing: string[];
  /** Present only when a space of the config is placed in a collection. */
  collections?: RemoteCollection[];
  /** Present only when a space's review rules name users (resolved to user ids through it). */
  members?: RemoteMember[];
}

const SETTINGS = ['title', 'emoji', 'icon', 'editMode', 'defaultLevel', 'language', 'mergeRules'] as const;


function withNotes(notes: string[]): { notes?: string[] } {
  return notes.length > 0 ? { notes } : {};
}

function normalized(s: RemoteSpace): JsonObject {
  return {
    id: s.id,
    title: s.title ?? null,
    emoji: s.emoji ?? null,
    icon: s.icon ?? null,
    editMode: s.editMode ?? null,
    defaultLevel: s.defaultLevel ?? null,
    language: s.language ?? null,
    parent: s.parent ?? null,
    deletedAt: s.deletedAt ?? null,
    mergeRules: normalizeMergeRules(s.mergeRules) };
}

/** A setting as compared: review rules in any order. */
function comparable(field: string, value: unknown): JsonValue {
  return field === 'mergeRules' ? normalizeMergeRules(value) : ((value ?? null) as JsonValue);
}

export const spacesModule: KindSpec<RemoteSpaces | undefined> = {
  kind: 'spaces',
  label: { one: 'space', many: 'spaces' },
  prunable: true,
  count: (org) => org.spaces?.length ?? 0,

  async read(ctx) {
    const desired = ctx.desired.spaces;
    if (desired === undefined) return undefined;
    const placed = placesInCollections(desired);
    const [listed, collections, members] = await Promise.all([
      readSpaceList(ctx),
      placed ? readCollections(ctx) : Promise.resolve(undefined),
      desired.some((s) => namesReviewers(s.mergeRules)) ? readMembers(ctx) : Promise.resolve(undefined),
    ]);
    const known = new Set(listed.map((s) => s.id));
    const missing: string[] = [];
    const extra: RemoteSpace[] = [];
    // The list leaves deleted spaces out: only a space the config names and the list lacks costs a GET.
    await Promise.all(
      desired
        .flatMap((s) => (s.id === undefined || known.has(s.id) ? [] : [s.id]))
        .map(async (id) => {
          try {
            extra.push((await ctx.client.request<RemoteSpace>('GET', `/v1/spaces/${enc(id)}`, { schema: SpaceAnswer })).body);
          } catch (err) {
            if (err instanceof ApiError && err.status === 404) missing.push(id);
            else throw err;
          }
        }),
    );
    extra.sort((a, b) => (a.id < b.id ? -1 : 1));
    return { spaces: [...listed, ...extra], listed: listed.length, missing: missing.sort(), collections, ...(members ? { members } : {}) };
  },

  plan(ctx, remote): KindPlan {
    const kp = emptyKindPlan();
    const desired = ctx.desired.spaces;
    if (desired === undefined || remote === undefined) return kp;
    kp.remoteCount = remote.listed;
    const resolved = resolveCollections(ctx.desired.collections, remote.collections ?? []);
    const pairs = matchSpaces(desired, remote.spaces, remote.listed, resolved);
    const memberOf = memberRefs(ctx.org, ctx.desired.members, indexMembers(remote.members ?? []));
    const emailOf = emailsOf(remote.members);
    const named = new Set(pairs.flatMap((p) => (p.remote ? [p.remote.id] : [])));
    const others = remote.spaces.slice(0, remote.listed).filter((s) => !named.has(s.id));
    if (ctx.prunes('spaces')) {
      for (const s of others) {
        const address = spaceAddress(s.id);
        kp.steps.push(step({
          address,
          kind: 'spaces',
          action: 'delete',
          before: { title: s.title ?? null, collection: s.parent ? (resolved.remotePath.get(s.parent) ?? s.parent) : null },
          after: null,
          changes: [],
          requests: [{ method: 'DELETE', path: `/v1/spaces/${enc(s.id)}` }],
          remoteId: s.id,
          notes: ['a deleted space can be restored for 7 days (name its id in the config, or restore it in the app)'] }));
        kp.fingerprints[address] = fingerprint(normalized(s));
      }
    } else {
      kp.unmanaged = others.map((s) => spaceAddress(s.id));
    }

    for (const { desired: d, address, remote: r } of pairs) {
      // Reviewers by email or id, as the user ids the API takes.
      const rules = namesReviewers(d.mergeRules) ? reviewersToIds(d.mergeRules, memberOf, ctx.org, address) : undefined;
      if (rules && rules.problems.length > 0) {
        kp.problems.push(...rules.problems);
        continue;
      }
      if (!r && d.id === undefined) {
        planCreate(ctx.org, d, address, resolved, kp, remote.spaces, rules);
        continue;
      }
      if (!r) {
        kp.problems.push({ org: ctx.org, address, message: `space ${d.id} does not exist (check the id, or leave it out to create a space by title)` });
        continue;
      }
      const sid = r.id;
      if (r.organization && r.organization !== ctx.org) {
        kp.problems.push({ org: ctx.org, address, message: `space ${sid} belongs to organization ${r.organization}, not ${ctx.org}` });
        continue;
      }
      let touched = false;
      const needsRestore = r.deletedAt !== undefined && r.deletedAt !== null;
      if (needsRestore) {
        kp.steps.push(step({
          address,
          kind: 'spaces',
          action: 'restore',
          before: { deletedAt: r.deletedAt as string },
          after: { deletedAt: null },
          changes: [{ path: 'deletedAt', kind: 'change', before: r.deletedAt as string, after: null }],
          requests: [{ method: 'POST', path: `/v1/spaces/${enc(sid)}/restore` }],
          remoteId: sid,
          notes: ['the space was deleted; the config names it, so it is restored (possible within 7 days of its deletion)'] }));
        touched = true;
      }
      // Whatever else happens to the space waits for its restore.
      const afterRestore = needsRestore ? [`${address}:restore`] : [];

      const before: JsonObject = {};
      const after: JsonObject = {};
      const body: JsonObject = {};
      for (const f of SETTINGS) {
        const want = (f === 'mergeRules' && rules ? rules.body : d[f]) as JsonValue | undefined;
        if (want === undefined) continue;
        const have = (r[f] ?? null) as JsonValue;
        if (!sameJson(comparable(f, have), comparable(f, want))) {
          // Review rules shown with their reviewers by email.
          before[f] = f === 'mergeRules' && rules ? reviewersShown(have, emailOf) : have;
          after[f] = f === 'mergeRules' && rules ? rules.shown : want;
          body[f] = want;
        }
      }
      if (Object.keys(after).length > 0) {
        kp.steps.push(step({
          address,
          kind: 'spaces',
          action: 'update',
          before,
          after,
          requests: [{ method: 'PATCH', path: `/v1/spaces/${enc(sid)}`, body }],
          needs: [...afterRestore, ...(body.mergeRules !== undefined ? (rules?.needs ?? []) : [])],
          remoteId: sid }));
        touched = true;
      }

      if (d.collection !== undefined) {
        const target = d.collection === null ? null : collectionIdOrRef(ctx.org, d.collection, resolved);
        if (target === undefined) {
          kp.problems.push({
            org: ctx.org,
            address,
            message: `collection "${d.collection}" of space ${sid} exists neither in the config nor in organization ${ctx.org}` });
        } else if (target && ctx.desired.collections !== undefined && ctx.prunes('collections') && !resolved.byPath.has(d.collection as string)) {
          kp.problems.push({
            org: ctx.org,
            address,
            message: `collection "${d.collection}" of space ${sid} is not in the config, and collections are pruned: the plan deletes it` });
        } else if ((r.parent ?? null) !== (target ? target.id : null)) {
          const now = r.parent ? (resolved.remotePath.get(r.parent) ?? r.parent) : null;
          // Another collection has that path now (one the plan deletes): named as its delete is, PATH#ID.
          const moveBefore = { collection: now !== null && now === d.collection ? `${now}#${r.parent}` : now };
          const moveAfter = { collection: d.collection };
          kp.steps.push(step({
            address,
            kind: 'spaces',
            action: 'move',
            before: moveBefore,
            after: moveAfter,
            requests: [{ method: 'POST', path: `/v1/spaces/${enc(sid)}/move`, body: { parent: target ? target.id : null } }],
            // Only the target collection's create: a move goes by id, so an existing collection's
            // rename or move need not come first, and the delete of a pruned collection that held
            // its path before waits for this move (not the other way round).
            needs: [...afterRestore, ...(target ? [`${target.address}:create`] : [])],
            remoteId: sid }));
          touched = true;
        }
      }
      if (touched) kp.fingerprints[address] = fingerprint(normalized(r));
    }
    return kp;
  } };

/** The create of a space without id that matches no remote space (createSpace), and its defaultLevel after. */
function planCreate(
  org: string,
  d: SpaceT,
  address: string,
  resolved: ResolvedCollections,
  kp: KindPlan,
  existing: readonly RemoteSpace[],
  rules: { body: JsonValue; shown: JsonValue; needs: string[] } | undefined,
): void {
  const target = typeof d.collection === 'string' ? collectionIdOrRef(org, d.collection, resolved) : undefined;
  if (typeof d.collection === 'string' && target === undefined) {
    kp.problems.push({ org, address, message: `collection "${d.collection}" of space "${d.title}" exists neither in the config nor in organization ${org}`, reference: { field: 'collection', key: d.collection } });
    return;
  }
  const body: JsonObject = { title: d.title ?? '' };
  if (d.emoji !== undefined) body.emoji = d.emoji;
  if (target) body.parent = target.id;
  if (d.language !== undefined) body.language = d.language;
  if (d.editMode !== undefined) body.editMode = d.editMode;
  const after: JsonObject = { title: d.title ?? '' };
  for (const f of ['emoji', 'icon', 'editMode', 'language', 'defaultLevel', 'mergeRules'] as const) if (d[f] !== undefined) after[f] = d[f] as JsonValue;
  if (rules) after.mergeRules = rules.shown;
  if (d.collection !== undefined) after.collection = d.collection;
  kp.steps.push(step({
    address,
    kind: 'spaces',
    action: 'create',
    before: null,
    after,
    requests: [{ method: 'POST', path: `${orgPath(org)}/spaces`, body, capture: true, lookup: { path: `${orgPath(org)}/spaces`, match: { title: d.title ?? '' } } }],
    needs: target ? [`${target.address}:create`] : [],
    ...withNotes(lookAlikeNote('space', d.title ?? '', existing.flatMap((s) => (s.title === undefined || s.deletedAt ? [] : [s.title])))),
  }));
  kp.fingerprints[address] = fingerprint(null);
  // createSpace takes neither defaultLevel nor mergeRules: they are set once the space exists, in one PATCH.
  const later: JsonObject = {};
  if (d.defaultLevel !== undefined) later.defaultLevel = d.defaultLevel;
  // createSpace takes no icon either.
  if (typeof d.icon === 'string') later.icon = d.icon;
  // A new space inherits the organization's rules: `inherit` needs no PATCH.
  if (d.mergeRules !== undefined && d.mergeRules.type !== 'inherit') later.mergeRules = d.mergeRules as JsonValue;
  if (Object.keys(later).length > 0) {
    kp.steps.push(step({
      address,
      kind: 'spaces',
      action: 'update',
      before: Object.fromEntries(Object.keys(later).map((f) => [f, f === 'mergeRules' ? { type: 'inherit' } : null])),
      after: rules && later.mergeRules !== undefined ? { ...later, mergeRules: rules.shown } : later,
      requests: [{ method: 'PATCH', path: `/v1/spaces/${ref(org, address)}`, body: rules && later.mergeRules !== undefined ? { ...later, mergeRules: rules.body } : later }],
      needs: [`${address}:create`, ...(rules && later.mergeRules !== undefined ? rules.needs : [])] }));
  }
}
