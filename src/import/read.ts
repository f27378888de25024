/**
 * The remote state of one organization, read for `docplane import` through the same read() functions
 * the planner uses. Each module reads only what its desired config names, so import hands them a
 * synthetic desired config that names everything: every organization setting, every kind present
 * (an empty list reads the whole kind), the sites given; then, once the teams are known, every team
 * with a `members` list so that the team-members module reads each team's membership.
 */
import type { ApiClient } from '../api/types.js';
import type { OrgConfig } from '../config/types.js';
import { ApiError, BugError, DocplaneError } from '../core/errors.js';
import { agentInstructionsModule, type RemoteAgentInstructions } from '../resources/agent-instructions.js';
import { collectionsModule, type RemoteCollection } from '../resources/collections.js';
import { integrationsModule, type RemoteIntegration } from '../resources/integrations.js';
import { membersModule, type RemoteMember } from '../resources/members.js';
import { organizationModule, type RemoteOrganization } from '../resources/organization.js';
import { samlModule, type RemoteSaml } from '../resources/saml.js';
import { sectionsModule } from '../resources/sites/index.js';
import type { RemoteSite, SitesRemote } from '../resources/sites/remote.js';
import { spacesModule, type RemoteSpaces } from '../resources/spaces.js';
import { teamMembersModule, type RemoteTeamMember, type RemoteTeamMembers } from '../resources/team-members.js';
import { teamsModule, type RemoteTeam, type RemoteTeams } from '../resources/teams.js';
import { translationsModule, type RemoteTranslation } from '../resources/translations.js';
import { readContextFor } from '../resources/types.js';
import type { Kind } from '../plan/types.js';

/** Everything import writes about one organization, as the modules read it. */
export interface RemoteOrgState {
  org: string;
  organization: RemoteOrganization;
  agentInstructions: RemoteAgentInstructions;
  members: RemoteMember[];
  teams: RemoteTeam[];
  /** Team id → its members. */
  teamMembers: Record<string, RemoteTeamMember[]>;
  collections: RemoteCollection[];
  /** The organization's spaces that are not deleted. */
  spaces: RemoteSpaces['spaces'];
  /** The sites asked for that exist, in the order given. */
  sites: RemoteSite[];
  /** The sites asked for that the organization does not have (404). */
  missingSites: string[];
  saml: RemoteSaml['providers'];
  integrations: RemoteIntegration[];
  translations: RemoteTranslation[];
}

/**
 * The kinds import reads and writes. A test compares it with the registry (RESOURCE_MODULES), so a
 * kind added to the planner without a place in import is noticed.
 */
export const IMPORTED_KINDS: readonly Kind[] = [
  'organization',
  'agentInstructions',
  'members',
  'teams',
  'teamMembers',
  'collections',
  'spaces',
  'sections',
  'siteSpaces',
  'sectionGroups',
  'shareLinks',
  'saml',
  'integrations',
  'translations',
];

/** A desired config that makes every module read all of its kind (first pass: no team members). */
export function everythingConfig(org: string, sites: readonly string[]): OrgConfig {
  return {
    organization: {
      id: org,
      // Only presence counts for the reads: each module reads when a field it manages is set.
      title: org,
      emailDomains: [],
      defaultRole: null,
      sso: false,
      ai: false,
      inviteLinks: false,
      agentInstructions: null,
    },
    members: [],
    teams: [],
    collections: [],
    spaces: [],
    sites: sites.map((id) => ({ id })),
    saml: [],
    integrations: [],
    translations: [],
    prune: [],
    safety: { maxDeletes: 10, maxDeletePercent: 25, keepSsoMembers: true },
    protect: [],
    locations: {},
  };
}

/** Reads the sites, every kind of the organization and each team's members. */
export async function readOrgState(client: ApiClient, org: string, sites: readonly string[]): Promise<RemoteOrgState> {
  const desired = everythingConfig(org, sites);
  const ctx = readContextFor(desired, client);
  // The organization first: a wrong id (or one the token cannot reach) is one clear error.
  let organization: RemoteOrganization | undefined;
  try {
    organization = await organizationModule.read(ctx);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 403)) {
      throw new DocplaneError('ORG_NOT_FOUND', `organization ${org} was not found, or the token cannot reach it (GET ${err.path} → ${err.status})`, {
        hint: 'Check the --org id, and that the token belongs to a member of that organization.',
      });
    }
    throw err;
  }
  const [agentInstructions, members, teams, collections, spaces, sitesRemote, saml, integrations, translations] = await Promise.all([
    agentInstructionsModule.read(ctx),
    membersModule.read(ctx),
    teamsModule.read(ctx),
    collectionsModule.read(ctx),
    spacesModule.read(ctx),
    sectionsModule.read(ctx),
    samlModule.read(ctx),
    integrationsModule.read(ctx),
    translationsModule.read(ctx),
  ]);
  const teamList = required<RemoteTeams>(teams, 'teams').teams;

  // Second pass: every team with a members list, so that each team's membership is read (one list
  // per team; the teams and members lists come from the shared cache, not the network again).
  const withMembers: OrgConfig = { ...desired, teams: teamList.map((t) => ({ id: t.id, title: t.title, members: [] })) };
  const tm: RemoteTeamMembers | undefined = await teamMembersModule.read({ ...ctx, desired: withMembers });
  if (tm === undefined && teamList.length > 0) required(tm, 'team members');

  const siteList = (sitesRemote as SitesRemote).sites;
  return {
    org,
    organization: required(organization, 'organization'),
    agentInstructions: required(agentInstructions, 'agent instructions'),
    members: required(members, 'members'),
    teams: teamList,
    teamMembers: tm?.lists ?? {},
    collections: required(collections, 'collections'),
    spaces: required(spaces, 'spaces').spaces.filter((s) => !s.deletedAt),
    sites: siteList.flatMap((s) => (s.site ? [s.site] : [])),
    missingSites: siteList.filter((s) => s.site === null).map((s) => s.id),
    saml: required(saml, 'SAML providers').providers,
    integrations: required(integrations, 'integrations'),
    translations: required(translations, 'translations'),
  };
}

/** A module's read that returned nothing although the synthetic config asked for everything is a bug. */
function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new BugError(`import: the ${what} module read nothing; its read no longer follows the config import gives it`);
  return value;
}
