/**
 * Spaces (`spaces["space_api"]`, or `spaces["Product/API/Reference"]` for a space without id):
 * settings by PATCH SPACE, placement by POST SPACE/move (`parent` = the collection at the config's
 * path, or null), a deleted space the config names is restored first. A space without id is matched
 * by title within its collection and created (POST ORG/spaces, createSpace) when nothing matches.
 * Spaces the config does not name are deleted only when `prune` names spaces (restorable for 7 days).
 */
import { ApiError } from '../../core/errors.js';
import type { JsonObject, JsonValue, PlanProblem } from '../../model/step.js';
import { collectionIdOrRef, readCollections, resolveCollections, type RemoteCollection, type ResolvedCollections } from '../shared/collections.js';
import { sameJson } from '../common/match.js';
import { emailsOf, namesReviewers, normalizeMergeRules, reviewersShown, reviewersToIds } from '../shared/merge-rules.js';
import { indexMembers, memberRefs, readMembers, type RemoteMember } from '../shared/members.js';
import { emptyKindPlan, type DraftStep, type KindPlan, type KindSpec, type PlanContext } from '../kind.js';
import { analyse, type Outcome } from '../common/analyse.js';
import { lookAlikeNote } from '../common/text.js';
import { enc, orgPath } from '../common/paths.js';
import type { SpaceT } from './schema.js';
import { readSpaceList, type RemoteSpace } from '../shared/space-list.js';
import { placesInCollections, spaceKeys } from '../shared/spaces.js';
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
    const desired = ctx.desired.spaces;
    if (desired === undefined || remote === undefined) return emptyKindPlan();
    const resolved = resolveCollections(ctx.desired.collections, remote.collections ?? []);
    const memberOf = memberRefs(ctx.org, ctx.desired.members, indexMembers(remote.members ?? []));
    const emailOf = emailsOf(remote.members);
    const listed = new Set(remote.spaces.slice(0, remote.listed));
    const pathOf = (parent: string | null | undefined) => (parent ? (resolved.remotePath.get(parent) ?? parent) : null);
    // Reviewers by email or id, as the user ids the API takes.
    const rulesOf = (d: SpaceT, address: string) => (namesReviewers(d.mergeRules) ? reviewersToIds(d.mergeRules, memberOf, ctx.org, address) : undefined);
    return analyse(ctx.org, desired, remote.spaces, {
      kind: 'spaces',
      what: 'spaces',
      ...spaceKeys(remote.spaces, remote.listed, resolved),
      unmatchedKey: (r) => r.id,
      twinsOf: 'key',
      owned: (r) => listed.has(r),
      prune: ctx.prunes('spaces'),
      fingerprint: normalized,
      observe: (r) => ({
        title: r.title ?? '',
        emoji: r.emoji ?? null,
        icon: r.icon ?? null,
        editMode: r.editMode ?? null,
        language: r.language ?? null,
        defaultLevel: r.defaultLevel ?? null,
        collection: pathOf(r.parent),
      }),
      create(d, address) {
        const rules = rulesOf(d, address);
        if (rules && rules.problems.length > 0) return { problems: rules.problems };
        if (d.id !== undefined) return { problems: [{ org: ctx.org, address, message: `space ${d.id} does not exist (check the id, or leave it out to create a space by title)` }] };
        return planCreate(ctx.org, d, address, resolved, remote.spaces, rules);
      },
      update(d, r, address) {
        const rules = rulesOf(d, address);
        if (rules && rules.problems.length > 0) return { problems: rules.problems };
        return planSpace(ctx, d, r, address, resolved, rules, emailOf);
      },
      remove: (s) => ({
        before: { title: s.title ?? null, collection: pathOf(s.parent) },
        requests: [{ method: 'DELETE', path: `/v1/spaces/${enc(s.id)}` }],
        notes: ['a deleted space can be restored for 7 days (name its id in the config, or restore it in the app)'],
      }),
    }).plan;
  } };

type Rules = { body: JsonValue; shown: JsonValue; needs: string[]; problems: PlanProblem[] } | undefined;

/** The steps of a config space that names a remote one: restore, settings, placement. */
function planSpace(ctx: PlanContext, d: SpaceT, r: RemoteSpace, address: string, resolved: ResolvedCollections, rules: Rules, emailOf: ReturnType<typeof emailsOf>): Outcome {
  const sid = r.id;
  if (r.organization && r.organization !== ctx.org) {
    return { problems: [{ org: ctx.org, address, message: `space ${sid} belongs to organization ${r.organization}, not ${ctx.org}` }] };
  }
  const steps: DraftStep[] = [];
  const needsRestore = r.deletedAt !== undefined && r.deletedAt !== null;
  if (needsRestore) {
    steps.push(step({
      address,
      kind: 'spaces',
      action: 'restore',
      before: { deletedAt: r.deletedAt as string },
      after: { deletedAt: null },
      changes: [{ path: 'deletedAt', kind: 'change', before: r.deletedAt as string, after: null }],
      requests: [{ method: 'POST', path: `/v1/spaces/${enc(sid)}/restore` }],
      remoteId: sid,
      notes: ['the space was deleted; the config names it, so it is restored (possible within 7 days of its deletion)'] }));
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
    steps.push(step({
      address,
      kind: 'spaces',
      action: 'update',
      before,
      after,
      requests: [{ method: 'PATCH', path: `/v1/spaces/${enc(sid)}`, body }],
      needs: [...afterRestore, ...(body.mergeRules !== undefined ? (rules?.needs ?? []) : [])],
      remoteId: sid }));
  }

  if (d.collection === undefined) return steps;
  const target = d.collection === null ? null : collectionIdOrRef(ctx.org, d.collection, resolved);
  if (target === undefined) {
    return { problems: [{ org: ctx.org, address, message: `collection "${d.collection}" of space ${sid} exists neither in the config nor in organization ${ctx.org}` }] };
  }
  if (target && ctx.desired.collections !== undefined && ctx.prunes('collections') && !resolved.byPath.has(d.collection as string)) {
    return { problems: [{ org: ctx.org, address, message: `collection "${d.collection}" of space ${sid} is not in the config, and collections are pruned: the plan deletes it` }] };
  }
  if ((r.parent ?? null) !== (target ? target.id : null)) {
    const now = r.parent ? (resolved.remotePath.get(r.parent) ?? r.parent) : null;
    // Another collection has that path now (one the plan deletes): named as its delete is, PATH#ID.
    const moveBefore = { collection: now !== null && now === d.collection ? `${now}#${r.parent}` : now };
    steps.push(step({
      address,
      kind: 'spaces',
      action: 'move',
      before: moveBefore,
      after: { collection: d.collection },
      requests: [{ method: 'POST', path: `/v1/spaces/${enc(sid)}/move`, body: { parent: target ? target.id : null } }],
      // Only the target collection's create: a move goes by id, so an existing collection's
      // rename or move need not come first, and the delete of a pruned collection that held
      // its path before waits for this move (not the other way round).
      needs: [...afterRestore, ...(target ? [`${target.address}:create`] : [])],
      remoteId: sid }));
  }
  return steps;
}

/** The create of a space without id that matches no remote space (createSpace), and its defaultLevel after. */
function planCreate(org: string, d: SpaceT, address: string, resolved: ResolvedCollections, existing: readonly RemoteSpace[], rules: Rules): Outcome {
  const target = typeof d.collection === 'string' ? collectionIdOrRef(org, d.collection, resolved) : undefined;
  if (typeof d.collection === 'string' && target === undefined) {
    return { problems: [{ org, address, message: `collection "${d.collection}" of space "${d.title}" exists neither in the config nor in organization ${org}`, reference: { field: 'collection', key: d.collection } }] };
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
  const steps: DraftStep[] = [step({
    address,
    kind: 'spaces',
    action: 'create',
    before: null,
    after,
    requests: [{ method: 'POST', path: `${orgPath(org)}/spaces`, body, capture: true, lookup: { path: `${orgPath(org)}/spaces`, match: { title: d.title ?? '' } } }],
    needs: target ? [`${target.address}:create`] : [],
    ...withNotes(lookAlikeNote('space', d.title ?? '', existing.flatMap((s) => (s.title === undefined || s.deletedAt ? [] : [s.title])))),
  })];
  // createSpace takes neither defaultLevel nor mergeRules: they are set once the space exists, in one PATCH.
  const later: JsonObject = {};
  if (d.defaultLevel !== undefined) later.defaultLevel = d.defaultLevel;
  // createSpace takes no icon either.
  if (typeof d.icon === 'string') later.icon = d.icon;
  // A new space inherits the organization's rules: `inherit` needs no PATCH.
  if (d.mergeRules !== undefined && d.mergeRules.type !== 'inherit') later.mergeRules = d.mergeRules as JsonValue;
  if (Object.keys(later).length > 0) {
    steps.push(step({
      address,
      kind: 'spaces',
      action: 'update',
      before: Object.fromEntries(Object.keys(later).map((f) => [f, f === 'mergeRules' ? { type: 'inherit' } : null])),
      after: rules && later.mergeRules !== undefined ? { ...later, mergeRules: rules.shown } : later,
      requests: [{ method: 'PATCH', path: `/v1/spaces/${ref(org, address)}`, body: rules && later.mergeRules !== undefined ? { ...later, mergeRules: rules.body } : later }],
      needs: [`${address}:create`, ...(rules && later.mergeRules !== undefined ? rules.needs : [])] }));
  }
  return steps;
}
