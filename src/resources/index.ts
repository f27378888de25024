/**
 * The registry of resource kinds: one module per kind, all of the same shape. Adding a kind touches
 * its module and this list, nothing else. The order here is only the order of reads; the plan's
 * order comes from src/plan/build.ts.
 */
import { agentInstructionsModule } from './agent-instructions.js';
import { collectionsModule } from './collections.js';
import { integrationsModule } from './integrations.js';
import { membersModule } from './members.js';
import { organizationModule } from './organization.js';
import { samlModule } from './saml.js';
import { siteModules } from './sites/index.js';
import { spacesModule } from './spaces.js';
import { teamMembersModule } from './team-members.js';
import { teamsModule } from './teams.js';
import { translationsModule } from './translations.js';
import type { ResourceModule } from './types.js';

export const RESOURCE_MODULES: readonly ResourceModule[] = [
  organizationModule,
  agentInstructionsModule,
  membersModule,
  teamsModule,
  teamMembersModule,
  collectionsModule,
  spacesModule,
  ...siteModules,
  samlModule,
  integrationsModule,
  translationsModule,
] as ResourceModule[];
