/**
 * Rows of the kinds that hold one object per organization, team, collection, space or site: nothing
 * to twin, name twice, rename or prune; what they prove is that a saved plan setting them resumes to
 * convergence, and that import writes them back (generated from the resume world).
 */
import { IMPORT, NO_CREATE, SINGLETON, SITE, siteSeed, type Row, type World } from './common.js';

const singleton = (resume: World | string, more: Partial<Row> = {}): Row => ({
  twins: SINGLETON,
  twice: SINGLETON,
  rename: SINGLETON,
  prune: SINGLETON,
  import: IMPORT,
  resume,
  preempt: NO_CREATE,
  ...more,
});

/** A second step beside the kind's own, so that a resume is tried between two steps. */
const TEAM = 'teams: [{ title: Dev }]\n';
const team = { teams: [{ id: 't1', title: 'Ops' }] };

export const organizationRow = singleton({ organization: 'title: Acme Two, defaultRole: edit', yaml: TEAM });
export const agentInstructionsRow = singleton({ organization: 'agentInstructions: "Answer briefly."', yaml: TEAM });
export const teamMembersRow = singleton(
  { seed: team, yaml: 'teams: [{ title: Ops, members: [bob@acme.com] }, { title: Dev, members: [carol@acme.com] }]\n' },
  { twins: 'one membership list per team', preempt: "a membership is set with its team: the team's create is held to its members (teams, preempt)" },
);
export const collectionAccessRow = singleton(
  { seed: { ...team, collections: [{ id: 'c1', title: 'Product' }] }, yaml: 'collections:\n  - { title: Product, access: { teams: { Ops: admin } } }\n  - { title: Internal, access: { users: { bob@acme.com: edit } } }\n' },
  { twins: 'one access list per collection' },
);
export const spaceAccessRow = singleton(
  { seed: { ...team, spaces: [{ id: 'space_a', title: 'Guides' }] }, yaml: 'spaces:\n  - { id: space_a, access: { teams: { Ops: edit } } }\n  - { title: Fresh, access: { users: { bob@acme.com: edit } } }\n' },
  { twins: 'one access list per space' },
);
export const siteAccessRow = singleton(
  { seed: { ...team, sites: [{ id: 'site_a', title: 'Docs' }, { id: 'site_b', title: 'Blog' }] }, yaml: 'sites:\n  - { id: site_a, access: { teams: { Ops: read } } }\n  - { id: site_b, access: { users: { bob@acme.com: admin } } }\n' },
  { twins: 'one access list per site' },
);
export const customizationRow = singleton(
  { seed: siteSeed({}), yaml: `${TEAM}${SITE('    customization: { title: Acme Docs, themes: { default: light } }\n')}` },
  { twins: 'one customization per site' },
);
export const agentSettingsRow = singleton(
  { seed: siteSeed({}), yaml: `${TEAM}${SITE('    agentSettings: { findings: { changeRequests: auto-fixable } }\n')}` },
  { twins: 'one agent settings object per site' },
);
export const adaptiveSchemaRow = singleton(
  { seed: siteSeed({}), yaml: `${TEAM}${SITE('    adaptiveSchema:\n      properties:\n        plan: { type: string, enum: [free, pro], description: The plan }\n')}` },
  { twins: 'one adaptive schema per site' },
);
export const publishingAuthRow = singleton(
  { seed: siteSeed({ visibility: 'visitor-auth' }), yaml: `${TEAM}${SITE('    publishingAuth: { backend: custom, fallbackURL: "https://login.acme.test/" }\n')}` },
  { twins: 'one publishing authentication per site' },
);
