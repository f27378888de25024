/**
 * A reference to a space from another kind (a site section, a site space, …):
 * a space's id, or the natural key of a space of the config without id (`Collection/Title`, or the
 * title of a space at the top level), which the plan creates or matches.
 */
import { key, ref } from '../../model/address.js';
import type { OrgConfig } from '../../model/desired.js';
import type { Origin } from '../../source/origin.js';
import { readCollections, resolveCollections, type ResolvedCollections } from './collections.js';
import type { Reader, ResolveContext } from '../kind.js';
import { matchPairs, type Pair } from '../common/analyse.js';
import { readSpaceList, type RemoteSpace } from './space-list.js';

/** One `spaces:` entry of the config. */
export type SpaceT = NonNullable<OrgConfig['spaces']>[number];

/** Whether a name can only be a natural key (ids hold neither a slash nor whitespace). */
export function isNaturalKey(space: string): boolean {
  return /[/\s]/.test(space);
}

/**
 * A name with a slash or whitespace can only be a natural key, which names a space of this config:
 * one the config lacks is an error (with the config's closest name). A name like an id names a
 * space of the config or of the organization (the API's space ids are how a config names the spaces
 * it does not list): the plan checks one the config does not list against the organization's spaces.
 */
export function referSpace(ctx: ResolveContext, space: string, from: string, field: string, origin: Origin): void {
  if (!isNaturalKey(space)) ctx.reference({ kind: 'spaces', key: space, from, field, origin, byId: true });
  else ctx.reference({ kind: 'spaces', key: space, from, field, origin, settled: 'a Collection/Title names a space the config lists without id' });
}

/**
 * The natural keys of the config's spaces without id that `names` holds, each with the remote id of
 * the space it matches, or null when the plan creates it. Empty (and nothing read) when no name is
 * such a key: names that are ids go to requests as they are.
 */
export type SpaceIds = Record<string, string | null>;

export async function readSpaceIds(ctx: Reader, desired: OrgConfig, names: Iterable<string>): Promise<SpaceIds> {
  const keys = new Set((desired.spaces ?? []).filter((s) => s.id === undefined).map(spaceKey));
  const wanted = [...new Set(names)].filter((n) => keys.has(n));
  if (wanted.length === 0) return {};
  const placed = placesInCollections(desired.spaces ?? []);
  const [spaces, collections] = await Promise.all([readSpaceList(ctx), placed ? readCollections(ctx) : Promise.resolve([])]);
  const pairs = matchSpaces(desired.spaces ?? [], spaces, spaces.length, resolveCollections(desired.collections, collections));
  const out: SpaceIds = {};
  for (const p of pairs) {
    const k = spaceKey(p.desired);
    if (p.desired.id === undefined && wanted.includes(k)) out[k] = p.remote?.id ?? null;
  }
  return out;
}

/** How requests name a space the config names, and how the config names a remote space. */
export interface SpaceNames {
  /** The id to send (a ref to the space's create for one this plan creates) and the step to wait for. */
  request(name: string): { id: string; needs: string[] };
  /** The config's name of a remote space id (its natural key where the config names it so). */
  config(id: string): string;
}

export function spaceNames(org: string, ids: SpaceIds | undefined): SpaceNames {
  const byRemote = new Map<string, string>();
  for (const [k, id] of Object.entries(ids ?? {})) if (id !== null) byRemote.set(id, k);
  return {
    request(name) {
      const id = ids?.[name];
      if (id === undefined) return { id: name, needs: [] };
      if (id === null) return { id: ref(org, spaceAddress(name)), needs: [spaceAddress(name)] };
      return { id, needs: [] };
    },
    config: (id) => byRemote.get(id) ?? id,
  };
}

/** The natural key of a space without id: its collection path and its title (`Product/API/Reference`). */
export function spaceNaturalKey(s: { collection?: string | null; title?: string }): string {
  return s.collection ? `${s.collection}/${s.title ?? ''}` : (s.title ?? '');
}

/** The config key of a space: its id, else its natural key. */
export function spaceKey(s: SpaceT): string {
  return s.id ?? spaceNaturalKey(s);
}

export function spaceAddress(id: string): string {
  return `spaces${key(id)}`;
}

/** A config space and the remote space it names (by id, else by title within its collection). */
export type SpacePair = Pair<SpaceT, RemoteSpace>;

/** Whether a config's spaces need the collections list (a space placed in a collection by path). */
export function placesInCollections(desired: readonly SpaceT[]): boolean {
  return desired.some((s) => typeof s.collection === 'string');
}

/** Whether a remote space stands where a config space without id says: any collection when unmanaged. */
function placement(collection: string | null | undefined, resolved: ResolvedCollections): (s: RemoteSpace) => boolean {
  if (collection === undefined) return () => true;
  if (collection === null) return (s) => !s.parent;
  const entry = resolved.byPath.get(collection);
  // A collection this plan creates holds no space yet.
  const id = entry ? entry.remote?.id : [...resolved.remotePath].find(([, p]) => p === collection)?.[0];
  return (s) => id !== undefined && s.parent === id;
}

/**
 * How a space is told apart: its id, else its title within its collection (any collection when the
 * config leaves placement unmanaged), among the listed spaces that are not deleted.
 */
export function spaceKeys(spaces: readonly RemoteSpace[], listed: number, resolved: ResolvedCollections) {
  const live = new Set(spaces.slice(0, listed).filter((s) => !s.deletedAt));
  return {
    address: spaceAddress,
    addressKey: spaceKey,
    desiredKey: (d: SpaceT) => d.title ?? '',
    remoteKey: (r: RemoteSpace) => r.title ?? '',
    remoteId: (r: RemoteSpace) => r.id,
    desiredId: (d: SpaceT) => d.id,
    idOnly: true,
    keyMatches: (d: SpaceT, r: RemoteSpace) => live.has(r) && placement(d.collection, resolved)(r),
  };
}

/** Config spaces matched to remote ones: by id where given, else by title within its collection. */
export function matchSpaces(desired: readonly SpaceT[], spaces: readonly RemoteSpace[], listed: number, resolved: ResolvedCollections): SpacePair[] {
  return matchPairs(desired, spaces, spaceKeys(spaces, listed, resolved)).pairs;
}
