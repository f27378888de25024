/**
 * The organization's invite links (`inviteLinks["organization"]`, `inviteLinks["space:space_docs"]`,
 * `inviteLinks["collection:Product/API"]`): one link per target, the target being its identity.
 * Listed with GET ORG/link-invites (listOrganizationInviteLinks), created with POST
 * (createOrganizationInvite: `{role}`, `{level, space}` or `{level, collection}`), changed with PATCH
 * ORG/link-invites/ID (updateOrganizationInviteById: `{role}` or `{level}`; the target cannot
 * change), deleted when pruned (deleteOrganizationInviteById).
 *
 * A link's id is its secret: anyone who holds it joins the organization (joinOrganizationWithInvite).
 * Every id read is concealed by the client (ApiClient.conceal) under a name that does not hold it, so
 * it is masked in every rendering, log line and error, and stands as a `{{secret:…}}` placeholder in
 * a saved plan, which apply fills in by reading the list again. Addresses never hold an id: a second
 * link to one target is told apart by a short hash of its id (`inviteLinks["organization#3fa2c1d0"]`).
 */
import { key } from '../../model/address.js';
import { fingerprint } from '../../core/json.js';
import type { JsonObject, JsonValue, RequestSpec } from '../../model/step.js';
import { analyse, type Outcome } from '../common/analyse.js';
import { collectionAddress, collectionIdOrRef, readCollections, resolveCollections, type RemoteCollection, type ResolvedCollections } from '../shared/collections.js';
import { enc, orgPath } from '../common/paths.js';
import { step } from '../common/step.js';
import { emptyKindPlan, type KindPlan, type KindSpec, type PlanContext, type Reader } from '../kind.js';
import { readSpaceIds, spaceNames, type SpaceIds } from '../shared/spaces.js';
import { spaceAddress } from '../shared/spaces.js';
import { InviteLinkAnswer } from './answers.js';
import type { InviteLinkT } from './schema.js';

export interface RemoteInviteLink {
  id: string;
  role?: string | null;
  level?: string | null;
  space?: { id: string };
  collection?: { id: string };
}

export interface RemoteInviteLinks {
  links: RemoteInviteLink[];
  /** The config's spaces without id that links name by natural key, with their remote ids. */
  spaceIds?: SpaceIds;
  /** The organization's collections, when a link names one (their paths name the links). */
  collections?: RemoteCollection[];
}

/** The target of a config entry, as its address keys it: `organization`, `space:NAME`, `collection:PATH`. */
export function targetOf(d: InviteLinkT): string {
  if (d.space !== undefined) return `space:${d.space}`;
  if (d.collection !== undefined) return `collection:${d.collection}`;
  return 'organization';
}

export function inviteLinkAddress(target: string): string {
  return `inviteLinks${key(target)}`;
}

/** A short hash of a link's id: tells two links to one target apart without showing the id. */
export function linkHandle(id: string): string {
  return fingerprint(id).slice(0, 8);
}

/** The target of a remote link in the API's ids (`space:ID`), for the name its id is concealed under. */
function remoteTarget(l: RemoteInviteLink): string {
  if (l.space) return `space:${l.space.id}`;
  if (l.collection) return `collection:${l.collection.id}`;
  return 'organization';
}

/**
 * The organization's invite links: one list. Each id is concealed as it arrives, before anything can
 * show it, under a name that holds the target and the hash, never the id.
 */
export function readInviteLinks(ctx: Reader): Promise<RemoteInviteLink[]> {
  return ctx.shared('inviteLinks', async () => {
    const links = await ctx.client.listAll<RemoteInviteLink>(`${orgPath(ctx.org)}/link-invites`, {}, { schema: InviteLinkAnswer });
    for (const l of links) ctx.client.conceal?.({ name: `invite-link:${ctx.org}/${remoteTarget(l)}#${linkHandle(l.id)}`, value: l.id });
    return links;
  });
}

/** The field a link sets: `role` for the organization's, `level` for a space's or a collection's. */
const fieldOf = (target: string): 'role' | 'level' => (target === 'organization' ? 'role' : 'level');

function valueOf(l: RemoteInviteLink): string | null {
  return (l.space || l.collection ? l.level : l.role) ?? null;
}

function wanted(d: InviteLinkT): string | null {
  return (d.space !== undefined || d.collection !== undefined ? d.level : d.role) ?? null;
}

/** What a plan shows of a link: its target in the config's names and what it gives; never its id. */
function shown(target: string, value: string | null): JsonObject {
  const field = fieldOf(target);
  if (target === 'organization') return { [field]: value };
  const at = target.indexOf(':');
  return { [target.slice(0, at)]: target.slice(at + 1), [field]: value };
}

function normalized(l: RemoteInviteLink): JsonObject {
  return { id: l.id, target: remoteTarget(l), role: l.role ?? null, level: l.level ?? null };
}

export const inviteLinksModule: KindSpec<RemoteInviteLinks | undefined> = {
  kind: 'inviteLinks',
  label: { one: 'invite link', many: 'invite links' },
  prunable: true,
  addresses: (org) => (org.inviteLinks ?? []).map((d) => inviteLinkAddress(targetOf(d))),
  count: (org) => org.inviteLinks?.length ?? 0,

  async read(ctx) {
    const desired = ctx.desired.inviteLinks;
    if (desired === undefined) return undefined;
    const namesCollection = desired.some((d) => d.collection !== undefined);
    const [links, spaceIds, named] = await Promise.all([
      readInviteLinks(ctx),
      readSpaceIds(ctx, ctx.desired, desired.flatMap((d) => (d.space === undefined ? [] : [d.space]))),
      namesCollection ? readCollections(ctx) : Promise.resolve(undefined),
    ]);
    // A link to a collection is named by the collection's path: the collections are read when the
    // organization has one, even if the config names none.
    const collections = named ?? (links.some((l) => l.collection) ? await readCollections(ctx) : undefined);
    return { links, ...(Object.keys(spaceIds).length > 0 ? { spaceIds } : {}), ...(collections ? { collections } : {}) };
  },

  plan(ctx, remote): KindPlan {
    const desired = ctx.desired.inviteLinks;
    if (desired === undefined || remote === undefined) return emptyKindPlan();
    const org = ctx.org;
    const base = `${orgPath(org)}/link-invites`;
    const prune = ctx.prunes('inviteLinks');
    const spaces = spaceNames(org, remote.spaceIds);
    const resolved = remote.collections ? resolveCollections(ctx.desired.collections, remote.collections) : undefined;
    /** A remote collection's path as the config names it (where an entry matched it), else as it is now. */
    const collectionName = (id: string): string => resolved?.entries.find((e) => e.remote?.id === id)?.path ?? resolved?.remotePath.get(id) ?? id;
    /** A remote link's target in the config's names. */
    const targetName = (l: RemoteInviteLink): string =>
      l.space ? `space:${spaces.config(l.space.id)}` : l.collection ? `collection:${collectionName(l.collection.id)}` : 'organization';
    const want = new Map(desired.map((d) => [targetOf(d), wanted(d)]));
    // The links in the order of their hashes (the same whatever order the API lists them in), those
    // that give what the config wants first: the link the config manages is one that already gives
    // what it wants, else the first of its target.
    const gives = (l: RemoteInviteLink) => (want.get(targetName(l)) === valueOf(l) ? 0 : 1);
    const links = [...remote.links].sort((a, b) => gives(a) - gives(b) || (linkHandle(a.id) < linkHandle(b.id) ? -1 : 1));
    return analyse(org, desired, links, {
      kind: 'inviteLinks',
      what: 'inviteLinks',
      address: inviteLinkAddress,
      desiredKey: targetOf,
      remoteKey: targetName,
      // Addresses never hold an id: a link is told apart by its hash (`organization#3fa2c1d0`).
      remoteId: (l) => linkHandle(l.id),
      prune,
      fingerprint: normalized,
      observe: (l) => shown(targetName(l), valueOf(l)),
      twinNote: (managed, twin) =>
        prune
          ? `${managed} has a second invite link, ${twin}: deleted by this plan since inviteLinks are pruned`
          : `${managed} has a second invite link, ${twin} (unmanaged): prune inviteLinks to delete it, or delete it in the app`,
      create: (d, address) => planCreate(ctx, d, address, spaces, resolved),
      update(d, l, address) {
        const target = targetOf(d);
        if (valueOf(l) === wanted(d)) return [];
        const body = { [fieldOf(target)]: wanted(d) };
        return [step({ address, kind: 'inviteLinks', action: 'update', before: shown(target, valueOf(l)), after: shown(target, wanted(d)), requests: [{ method: 'PATCH', path: `${base}/${enc(l.id)}`, body }] })];
      },
      remove: (l) => ({ before: shown(targetName(l), valueOf(l)), requests: [{ method: 'DELETE', path: `${base}/${enc(l.id)}` }] }),
    }).plan;
  },
};

/** A new link: its target's id for the request (or the create of a space or collection this plan makes). */
function planCreate(ctx: PlanContext, d: InviteLinkT, address: string, spaces: ReturnType<typeof spaceNames>, resolved: ResolvedCollections | undefined): Outcome {
  const org = ctx.org;
  const base = `${orgPath(org)}/link-invites`;
  const level = wanted(d);
  let body: JsonObject;
  let match: Record<string, JsonValue>;
  let needs: string[] = [];
  if (d.space !== undefined) {
    const space = spaces.request(d.space);
    body = { level, space: space.id };
    match = { 'space.id': space.id, level };
    // A space the config lists by id goes first (restored, for instance).
    needs = (ctx.desired.spaces ?? []).some((s) => s.id === d.space) ? [spaceAddress(d.space)] : space.needs;
  } else if (d.collection !== undefined) {
    const collection = resolved ? collectionIdOrRef(org, d.collection, resolved) : undefined;
    if (collection === undefined) {
      return { problems: [{ org, address, message: `collection "${d.collection}" exists neither in the config nor in organization ${org}`, reference: { field: 'collection', key: d.collection } }] };
    }
    body = { level, collection: collection.id };
    match = { 'collection.id': collection.id, level };
    needs = resolved?.byPath.get(d.collection)?.remote ? [] : [`${collectionAddress(d.collection)}:create`];
  } else {
    body = { role: level };
    match = { role: level, space: null, collection: null };
  }
  // After an unclear answer, the list says whether the link was made; its id is never shown.
  const requests: RequestSpec[] = [{ method: 'POST', path: base, body, lookup: { path: base, match, secrets: ['id'] } }];
  return [step({ address, kind: 'inviteLinks', action: 'create', before: null, after: shown(targetOf(d), level), requests, needs })];
}
