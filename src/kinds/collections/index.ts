/** Collections (`collections:` in the config): nested collections, each by its path of titles. */
import { key } from '../../model/address.js';
import { child, type Item, type Origin } from '../../source/origin.js';
import { sortBy, unique, type Draft } from '../common/import.js';
import type { Importer, KindUnit, ResolveContext } from '../kind.js';
import { ACCESS_REFERENCES, resolveAccess } from '../shared/access.js';
import { collectionsModule, readCollections, type RemoteCollection } from './collections.js';
import { Collection, type CollectionT } from './schema.js';

interface FlatCollection {
  path: string;
  value: CollectionT;
  origin: Origin;
}

function flattenCollections(items: readonly Item<CollectionT>[]): FlatCollection[] {
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

const importCollections: Importer<RemoteCollection[]> = {
  read: readCollections,
  write(collections, sink) {
    const { tree, pathOf } = collectionTree(collections, (m) => sink.warn(m));
    sink.count(collectionsModule.label, pathOf.size);
    return tree;
  },
};

export const collectionsUnit: KindUnit = {
  configKey: 'collections',
  list: true,
  schema: Collection,
  kinds: [collectionsModule],
  addressNames: { top: ['collections'] },
  references: ACCESS_REFERENCES,
  resolve(entries, ctx) {
    const collections = flattenCollections(entries as readonly Item<CollectionT>[]);
    const paths = new Set(collections.map((c) => c.path));
    const ids = ctx.identities('collections', 'path');
    for (const c of collections) {
      if (!ctx.claim(`collection:${c.path}`, `collections${key(c.path)}`, c.origin)) continue;
      ids.add(c.path, c.value, c.origin, paths);
      resolveAccess(c.value.access, `collections${key(c.path)}`, child(c.origin, 'access'), ctx);
    }
  },
  importer: importCollections,
};
