/**
 * Rows of collections, invite links and a space's Git Sync: the first two plan through the shared
 * analyser (collections with their tree's own parent-first match, invite links by target).
 */
import { IMPORT, NO_CREATE, ORG_PATH, SINGLETON, type Row } from './common.js';

const collectionSeed = (...titles: Array<[string, string]>) => ({ collections: titles.map(([id, title]) => ({ id, title })) });

export const collectionsRow: Row = {
  twins: { seed: collectionSeed(['c1', 'Guides'], ['c2', 'Guides']), yaml: 'collections: [{ title: Guides }]\n', twin: 'collections["Guides#c2"]' },
  // By id and by path: one path, refused by the loader at both entries.
  twice: { yaml: 'collections:\n  - { id: c1, title: Guides }\n  - { title: Guides, description: Twice }\n', at: 'config', lines: [4, 5] },
  rename: { seed: collectionSeed(['c1', 'Old']), yaml: 'collections: [{ title: New, renamedFrom: Old }]\n', address: 'collections["New"]' },
  prune: {
    seed: { collections: [{ id: 'c1', title: 'Keep', collections: [{ id: 'c3', title: 'Child' }] }, { id: 'c2', title: 'Gone' }] },
    yaml: 'prune: [collections]\ncollections: [{ title: Keep, collections: [{ title: Child }] }]\n',
    deletes: ['collections["Gone"]'],
  },
  import: IMPORT,
  resume: {
    seed: collectionSeed(['c1', 'Old'], ['c2', 'Partners']),
    yaml: 'collections:\n  - { title: Product, description: Docs, collections: [{ title: API, defaultLevel: read }] }\n  - { title: New, renamedFrom: Old }\n  - { title: Partners, collections: [{ title: Onboarding }] }\n',
  },
  preempt:
    'a collection\'s create sets only its title and parent (createCollection takes no more), which are what matches it: one someone else made is the same object, and the create\'s later PATCH (description, default level) is what is left of the step',
};

export const inviteLinksRow: Row = {
  // The seed's ids are secrets: the twin is named by its id's hash, which the row cannot know.
  twins: { seed: { linkInvites: [{ role: 'read' }, { role: 'read' }] }, yaml: 'inviteLinks: [{ role: read }]\n', twin: 'inviteLinks["organization#' },
  twice: { yaml: 'inviteLinks:\n  - { role: read }\n  - { role: edit }\n', at: 'config', lines: [4, 5] },
  rename: 'an invite link is named by its target, which the API cannot change: another target is another link',
  prune: {
    seed: { spaces: [{ id: 'space_a', title: 'Guides' }], linkInvites: [{ role: 'read' }, { space: 'space_a', level: 'read' }] },
    yaml: 'prune: [inviteLinks]\ninviteLinks: [{ role: read }]\n',
    deletes: ['inviteLinks["space:space_a"]'],
  },
  import: IMPORT,
  // Creates only: the generated test saves its plan without the run's secrets, so a saved update
  // would hold a link's id where the re-derived one holds its placeholder (the CLI's saved updates:
  // test/apply/cli-invite-links.test.ts).
  resume: {
    seed: { spaces: [{ id: 'space_a', title: 'Guides' }], collections: [{ id: 'c1', title: 'Partners' }] },
    yaml: 'inviteLinks: [{ role: admin }, { space: space_a, level: edit }, { collection: Partners, level: read }]\n',
  },
  preempt: {
    seed: { spaces: [{ id: 'space_a', title: 'Guides' }] },
    yaml: 'inviteLinks: [{ space: space_a, level: edit }]\n',
    other: async (client) => {
      await client.request('POST', `${ORG_PATH}/link-invites`, { body: { level: 'read', space: 'space_a' } });
    },
    address: 'inviteLinks["space:space_a"]',
    field: 'level',
  },
};

export const spaceGitSyncRow: Row = {
  twins: 'one Git Sync per space',
  twice: SINGLETON,
  rename: SINGLETON,
  prune: SINGLETON,
  import: IMPORT,
  resume: {
    seed: {
      spaces: [{ id: 'space_a', title: 'Guides' }, { id: 'space_b', title: 'API' }],
      gitSync: [{ space: 'space_a', repository: 'acme/guides' }, { space: 'space_b', repository: 'acme/api' }],
    },
    yaml: 'spaces:\n  - { id: space_a, gitSync: { projectDirectory: docs/guides } }\n  - { id: space_b, gitSync: { commitMessageTemplate: "docs: {{ title }}" } }\n',
  },
  preempt: NO_CREATE,
};
