/**
 * The organization of the invite-link tests (test/kinds/invite-links.test.ts, in process, and
 * test/apply/cli-invite-links.test.ts, the built CLI): two spaces, a collection, and two links
 * seeded, to the organization and to a space.
 */
export const SEEDED_LINK_IDS = ['invite_seededOrgLink0001', 'invite_seededOldSpace002'] as const;

export const INVITE_LINKS_STATE = {
  tokens: [{ token: 'dev-token', access: 'write', user: 'u_alice' }],
  users: [{ id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' }],
  organizations: [
    {
      id: 'org_acme',
      title: 'Acme',
      inviteLinks: true,
      members: [{ user: 'u_alice', role: 'admin' }],
      collections: [{ title: 'Archive' }],
      spaces: [
        { id: 'space_guides', title: 'Guides' },
        { id: 'space_old', title: 'Old' },
      ],
      linkInvites: [
        { id: SEEDED_LINK_IDS[0], role: 'read' },
        { id: SEEDED_LINK_IDS[1], space: 'space_old', level: 'comment' },
      ],
    },
  ],
};
