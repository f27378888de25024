/**
 * Invite links (`inviteLinks:` in the config): the organization's links to itself, to a space or to
 * a collection, one per target, by target. Their ids are secrets: never written, never shown.
 */
import { child, type Item } from '../../source/origin.js';
import { collectionTree, configCollectionPaths } from '../shared/collections.js';
import { readCollections, type RemoteCollection } from '../shared/collections.js';
import { compare, type Draft } from '../common/import.js';
import type { Importer, KindUnit } from '../kind.js';
import { referSpace } from '../shared/spaces.js';
import { inviteLinkAddress, inviteLinksModule, readInviteLinks, targetOf, type RemoteInviteLink } from './invite-links.js';
import { InviteLink, type InviteLinkT } from './schema.js';

export type { InviteLinkT } from './schema.js';

interface InviteLinksState {
  links: RemoteInviteLink[];
  collections: RemoteCollection[];
}

const importInviteLinks: Importer<InviteLinksState> = {
  async read(ctx) {
    const links = await readInviteLinks(ctx);
    // A collection's link is written with the collection's path (a shared read: the collections' import reads them too).
    const collections = links.some((l) => l.collection) ? await readCollections(ctx) : [];
    return { links, collections };
  },
  write(state, sink) {
    const { pathOf } = collectionTree(state.collections, () => undefined);
    const byTarget = new Map<string, { entry: Draft; count: number }>();
    for (const l of state.links) {
      let entry: Draft;
      if (l.space) entry = { space: l.space.id, level: l.level ?? null };
      else if (l.collection) {
        const path = pathOf.get(l.collection.id);
        if (path === undefined) {
          sink.warn(`inviteLinks: a link to collection ${l.collection.id} is not written: that collection is not in the organization's list`);
          continue;
        }
        entry = { collection: path, level: l.level ?? null };
      } else entry = { role: l.role ?? null };
      const target = targetOf(entry as InviteLinkT);
      const seen = byTarget.get(target);
      if (seen) seen.count++;
      else byTarget.set(target, { entry, count: 1 });
    }
    const targets = [...byTarget.keys()].sort(compare);
    for (const target of targets) {
      const n = byTarget.get(target)!.count;
      // Which one is written does not matter to the config: the plan manages the one that gives what it says.
      if (n > 1) sink.warn(`${inviteLinkAddress(target)}: the organization has ${n} invite links to this target; one is written, the plan shows the others as unmanaged (their ids are secrets, not shown)`);
    }
    const entries = targets.map((t) => byTarget.get(t)!.entry);
    sink.count(inviteLinksModule.label, entries.length);
    return entries;
  },
};

export const inviteLinksUnit: KindUnit = {
  configKey: 'inviteLinks',
  audit: {
    targets: { invite: { by: 'unit' } },
    paths: { 'link-invites': 'invite' },
  },
  list: true,
  schema: InviteLink,
  kinds: [inviteLinksModule],
  addressNames: { top: ['inviteLinks'] },
  flowMaps: ['inviteLinks.*'],
  references: [
    { field: 'space', target: 'spaces' },
    { field: 'collection', target: 'collections' },
  ],
  resolve(entries, ctx) {
    const collectionPaths = configCollectionPaths(ctx);
    for (const { value, origin } of entries as readonly Item<InviteLinkT>[]) {
      const target = targetOf(value);
      const address = inviteLinkAddress(target);
      if (!ctx.claim(`inviteLink:${target}`, address, origin, `the invite link to ${target === 'organization' ? 'the organization' : target.replace(':', ' ')}`)) continue;
      if (value.space !== undefined) referSpace(ctx, value.space, address, 'space', child(origin, 'space'));
      if (value.collection !== undefined) {
        ctx.reference({
          kind: 'collections',
          key: value.collection,
          from: address,
          field: 'collection',
          origin: child(origin, 'collection'),
          ...(collectionPaths === undefined ? {} : { settled: 'the config lists its collections' }),
        });
      }
    }
  },
  importer: importInviteLinks,
};
