/** Collections (`collections:` in the config): nested collections, each by its path of titles. */
import { key } from '../../model/address.js';
import { child, type Item } from '../../source/origin.js';
import type { Importer, KindUnit } from '../kind.js';
import { ACCESS_REFERENCES, resolveAccess } from '../shared/access.js';
import { collectionsModule } from './collections.js';
import { collectionTree, flattenCollections, readCollections, type RemoteCollection } from '../shared/collections.js';
import { Collection, type CollectionT } from './schema.js';


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
  audit: {
    targets: { collection: { by: 'unit' } },
    paths: { collections: 'collection' },
  },
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
