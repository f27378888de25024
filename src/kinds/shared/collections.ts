/**
 * The organization's collections as every unit that places something in one reads them
 * (collections, spaces, access, Git Sync, invite links): one list read per plan, the config's
 * collections resolved to them by path, and the tree import writes.
 */
import { key, ref } from '../../model/address.js';
import type { OrgConfig } from '../../model/desired.js';
import { child, type Item, type Origin } from '../../source/origin.js';
import type { Reader, ResolveContext } from '../kind.js';
import { sortBy, unique, type Draft } from '../common/import.js';
import { orgPath } from '../common/paths.js';
import { CollectionAnswer } from './collection-answers.js';

/** One `collections:` entry of the config (collections nest). */
type CollectionT = NonNullable<OrgConfig['collections']>[number];

export interface RemoteCollection {
  id: string;
  title: string;
  description?: string | null;
  parent?: string | null;
  defaultLevel?: string | null;
}

export interface CollectionEntry {
  /** Path of titles, `Product/API`. */
  path: string;
  parentPath?: string;
  node: CollectionT;
  remote?: RemoteCollection;
  matchedBy?: 'id' | 'renamedFrom' | 'key';
}

export interface ResolvedCollections {
  /** The config's collections, parents before children, each with its remote twin if any. */
  entries: CollectionEntry[];
  byPath: Map<string, CollectionEntry>;
  /** Remote id → its current path. */
  remotePath: Map<string, string>;
  /** Remote collections no config collection matched. */
  unmatched: RemoteCollection[];
}

export function collectionAddress(path: string): string {
  return `collections${key(path)}`;
}

/** Every collection of the organization (nested), read once per plan (collections and spaces use it). */
export function readCollections(ctx: Reader): Promise<RemoteCollection[]> {
  return ctx.shared('collections', () => ctx.client.listAll<RemoteCollection>(`${orgPath(ctx.org)}/collections`, { nested: true }, { schema: CollectionAnswer }));
}

/** Remote id → path; `fixed` paths stand as given (where matched collections will be), and their children follow. */
export function remotePaths(remote: readonly RemoteCollection[], fixed: ReadonlyMap<string, string> = new Map()): Map<string, string> {
  const byId = new Map(remote.map((c) => [c.id, c]));
  const paths = new Map<string, string>(fixed);
  const pathOf = (c: RemoteCollection, seen: Set<string>): string => {
    const known = paths.get(c.id);
    if (known !== undefined) return known;
    const parent = c.parent ? byId.get(c.parent) : undefined;
    // A parent cycle cannot happen on the API; guard anyway rather than loop.
    const p = parent && !seen.has(parent.id) ? `${pathOf(parent, new Set([...seen, c.id]))}/${c.title}` : c.title;
    paths.set(c.id, p);
    return p;
  };
  for (const c of remote) pathOf(c, new Set());
  return paths;
}

/**
 * Matches the config's collection tree to the remote one: by id anywhere first; then, parents before
 * children, by `renamedFrom` (a path, or a title among the siblings under the matched parent), then
 * by title under the matched parent, so the children of a renamed collection keep their identity.
 * As for the flat kinds, a `renamedFrom` wins over a title: among siblings, every `renamedFrom` is
 * matched before any title, and a collection that a `renamedFrom` path (`Alpha/One`) names anywhere
 * in the tree is not matched by title elsewhere. Two entries never share one remote collection
 * silently: the rename is kept, and a rename onto a path that stays held is a plan problem.
 */
export function resolveCollections(desired: readonly CollectionT[] | undefined, remote: readonly RemoteCollection[]): ResolvedCollections {
  const entries: CollectionEntry[] = [];
  const groups: CollectionEntry[][] = [];
  const walk = (nodes: readonly CollectionT[], parentPath?: string) => {
    const group: CollectionEntry[] = [];
    for (const node of nodes) {
      const path = parentPath === undefined ? node.title : `${parentPath}/${node.title}`;
      const entry: CollectionEntry = { path, parentPath, node };
      entries.push(entry);
      group.push(entry);
      walk(node.collections ?? [], path);
    }
    if (group.length > 0) groups.push(group);
  };
  walk(desired ?? []);
  const byPath = new Map(entries.map((e) => [e.path, e]));
  const paths = remotePaths(remote);
  const byId = new Map(remote.map((c) => [c.id, c]));
  const byRemotePath = new Map<string, RemoteCollection>();
  for (const c of remote) if (!byRemotePath.has(paths.get(c.id) as string)) byRemotePath.set(paths.get(c.id) as string, c);
  const children = new Map<string, RemoteCollection[]>();
  for (const c of remote) children.set(c.parent ?? '', [...(children.get(c.parent ?? '') ?? []), c]);
  const taken = new Set<RemoteCollection>();
  const take = (e: CollectionEntry, r: RemoteCollection | undefined, how: CollectionEntry['matchedBy']) => {
    if (!r || taken.has(r) || e.remote) return;
    taken.add(r);
    e.remote = r;
    e.matchedBy = how;
  };
  for (const e of entries) if (e.node.id) take(e, byId.get(e.node.id), 'id');
  // Named by a renamedFrom path (`Alpha/One`): left to that rename, wherever the entry is in the tree.
  const named = new Set<RemoteCollection>();
  for (const e of entries) {
    const old = e.node.renamedFrom;
    const r = !e.remote && old?.includes('/') ? byRemotePath.get(old) : undefined;
    if (r && !taken.has(r)) named.add(r);
  }
  // Groups come out of the walk children first; parents must be matched first.
  for (const group of groups.reverse()) {
    const first = group[0] as CollectionEntry;
    const parent = first.parentPath === undefined ? undefined : byPath.get(first.parentPath);
    // Siblings: under the parent's remote twin, or the top level; none when the parent is new.
    const siblings = first.parentPath === undefined ? (children.get('') ?? []) : parent?.remote ? (children.get(parent.remote.id) ?? []) : [];
    for (const e of group) {
      const old = e.node.renamedFrom;
      if (e.remote || old === undefined) continue;
      const sibling = old.includes('/') ? undefined : siblings.find((c) => c.title === old && !taken.has(c));
      take(e, sibling ?? byRemotePath.get(old), 'renamedFrom');
    }
    for (const e of group) {
      if (!e.remote) take(e, siblings.find((c) => c.title === e.node.title && !taken.has(c) && !named.has(c)), 'key');
    }
  }
  return { entries, byPath, remotePath: paths, unmatched: remote.filter((c) => !taken.has(c)) };
}

/** The remote id of the parent an entry is to have (null at the top level; undefined when it is new). */
export function targetParent(e: CollectionEntry, resolved: ResolvedCollections): string | null | undefined {
  return e.parentPath === undefined ? null : resolved.byPath.get(e.parentPath)?.remote?.id;
}

/**
 * The id of the collection at a path for a request (a remote id, or a ref to its create in this
 * plan), and the address its steps live at; undefined when no collection has that path.
 */
export function collectionIdOrRef(org: string, path: string, resolved: ResolvedCollections): { id: string; address: string } | undefined {
  const entry = resolved.byPath.get(path);
  if (entry) return { id: entry.remote ? entry.remote.id : ref(org, collectionAddress(path)), address: collectionAddress(path) };
  for (const [id, p] of resolved.remotePath) if (p === path) return { id, address: collectionAddress(path) };
  return undefined;
}

export interface FlatCollection {
  path: string;
  value: CollectionT;
  origin: Origin;
}

export function flattenCollections(items: readonly Item<CollectionT>[]): FlatCollection[] {
  const out: FlatCollection[] = [];
  const walk = (value: CollectionT, origin: Origin, parent: string | undefined, depth: number) => {
    const path = parent === undefined ? value.title : `${parent}/${value.title}`;
    out.push({ path, value, origin });
    // Depth is bounded by the YAML itself; the guard only protects against pathological input.
    if (depth > 256) return;
    (value.collections ?? []).forEach((c, i) => walk(c, child(origin, 'collections', i), path, depth + 1));
  };
  for (const item of items) walk(item.value, item.origin, undefined, 0);
  return out;
}

/** The paths of the config's collections (undefined when the config has no `collections`), for the units that place things in one. */
export function configCollectionPaths(ctx: ResolveContext): Set<string> | undefined {
  const entries = ctx.entries('collections') as readonly Item<CollectionT>[] | undefined;
  return entries === undefined ? undefined : new Set(flattenCollections(entries).map((c) => c.path));
}

/** The nested collections (siblings by title, then id) and the path of every collection written. */
export function collectionTree(remote: readonly RemoteCollection[], warn: (m: string) => void): { tree: Draft[]; pathOf: Map<string, string> } {
  const ids = new Set(remote.map((c) => c.id));
  const children = new Map<string, RemoteCollection[]>();
  for (const c of remote) {
    // A parent missing from the list cannot be written: the collection goes to the top level.
    const parent = c.parent && ids.has(c.parent) ? c.parent : '';
    children.set(parent, [...(children.get(parent) ?? []), c]);
  }
  const pathOf = new Map<string, string>();
  const walk = (parentId: string, parentPath: string | undefined, seen: ReadonlySet<string>): Draft[] => {
    const siblings = sortBy(children.get(parentId) ?? [], (c) => c.title, (c) => c.id);
    const kept = unique(siblings, (c) => c.title, (c, first) => {
      const p = parentPath === undefined ? c.title : `${parentPath}/${c.title}`;
      warn(`collections${key(p)}: collections ${first.id} and ${c.id} have the same path; only ${first.id} is written, with its children`);
    });
    const nodes: Draft[] = [];
    for (const c of kept) {
      const path = parentPath === undefined ? c.title : `${parentPath}/${c.title}`;
      if (c.title.includes('/')) {
        warn(`collections${key(path)}: collection ${c.id} has a "/" in its title, which the config's collection paths cannot hold; it is not written, nor its children`);
        continue;
      }
      if (seen.has(c.id)) continue; // a parent cycle: impossible on the API, guarded anyway
      pathOf.set(c.id, path);
      const sub = walk(c.id, path, new Set([...seen, c.id]));
      nodes.push({
        id: c.id,
        title: c.title,
        description: c.description || null,
        defaultLevel: c.defaultLevel ?? null,
        ...(sub.length > 0 ? { collections: sub } : {}),
      });
    }
    return nodes;
  };
  return { tree: walk('', undefined, new Set()), pathOf };
}
