/** Spaces (`spaces:` in the config): spaces' settings, the collection each is placed in, spaces to create. */
import { key } from '../../model/address.js';
import { child, type Item } from '../../source/origin.js';
import { collectionTree, configCollectionPaths } from '../shared/collections.js';
import { readCollections, type RemoteCollection } from '../shared/collections.js';
import { sortBy, str, strOrNull, type Draft } from '../common/import.js';
import type { Importer, KindUnit } from '../kind.js';
import { ACCESS_REFERENCES, resolveAccess } from '../shared/access.js';
import { readSpaceList, type RemoteSpace } from '../shared/space-list.js';
import { SpaceMergeRules, emailsOf, importMergeRules, namesReviewers, resolveReviewers } from '../shared/merge-rules.js';
import { readMembers, type RemoteMember } from '../shared/members.js';
import { Space, type SpaceT } from './schema.js';
import { spaceKey } from '../shared/spaces.js';
import { spacesModule } from './spaces.js';

interface SpacesState {
  spaces: RemoteSpace[];
  collections: RemoteCollection[];
  /** The members, when a space's review rules name users (written by email): the members' own list, read once. */
  members?: RemoteMember[];
}

const importSpaces: Importer<SpacesState> = {
  async read(ctx) {
    const [spaces, collections] = await Promise.all([readSpaceList(ctx), readCollections(ctx)]);
    const live = spaces.filter((s) => !s.deletedAt);
    const members = live.some((s) => namesReviewers(s.mergeRules)) ? await readMembers(ctx) : undefined;
    return { spaces: live, collections, ...(members ? { members } : {}) };
  },
  write(state, sink) {
    // The collections' own import warns about what it leaves out; here only the paths count.
    const { pathOf } = collectionTree(state.collections, () => undefined);
    const emailOf = emailsOf(state.members);
    const collectionIds = new Set(state.collections.map((c) => c.id));
    const spaces = sortBy(state.spaces, (s) => s.id).map((s): Draft => {
      let collection: string | null | undefined = null;
      if (s.parent) {
        collection = pathOf.get(s.parent);
        if (collection === undefined) {
          sink.warn(
            collectionIds.has(s.parent)
              ? `spaces${key(s.id)}: its collection ${s.parent} is not written (see above), so the space's collection is left unmanaged`
              : `spaces${key(s.id)}: its collection ${s.parent} is not in the organization's list, so the space's collection is left unmanaged`,
          );
        }
      }
      return {
        id: s.id,
        title: str(s.title),
        // A space shows one of them; the config takes one.
        emoji: str(s.icon) ? undefined : str(s.emoji) || undefined,
        icon: str(s.icon) || undefined,
        editMode: str(s.editMode),
        defaultLevel: strOrNull(s.defaultLevel),
        language: str(s.language),
        mergeRules: importMergeRules(s.mergeRules, SpaceMergeRules, `spaces${key(s.id)}`, (m) => sink.warn(m), emailOf),
        collection,
      };
    });
    sink.count(spacesModule.label, spaces.length);
    return spaces;
  },
};

export const spacesUnit: KindUnit = {
  configKey: 'spaces',
  audit: {
    targets: { space: { by: 'id' } },
    paths: { spaces: 'space' },
  },
  list: true,
  schema: Space,
  kinds: [spacesModule],
  addressNames: { top: ['spaces'] },
  references: [{ field: 'collection', target: 'collections' }, ...ACCESS_REFERENCES],
  existing: readSpaceList,
  resolve(entries, ctx) {
    const collectionPaths = configCollectionPaths(ctx);
    for (const { value, origin } of entries as readonly Item<SpaceT>[]) {
      const address = `spaces${key(spaceKey(value))}`;
      if (!ctx.claim(`space:${spaceKey(value)}`, address, origin)) continue;
      resolveAccess(value.access, address, child(origin, 'access'), ctx);
      resolveReviewers(value.mergeRules, address, child(origin, 'mergeRules'), ctx);
      const target = value.collection;
      if (target === undefined || target === null) continue;
      ctx.reference({
        kind: 'collections',
        key: target,
        from: address,
        field: 'collection',
        origin: child(origin, 'collection'),
        partOf: `space:${spaceKey(value)}`,
        ...(collectionPaths === undefined ? {} : { settled: 'the config lists its collections' }),
      });
    }
  },
  importer: importSpaces,
};
