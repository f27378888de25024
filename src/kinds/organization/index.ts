/**
 * The organization (`organization:` in the config): its settings and its agent instructions. The
 * organization itself is never created nor deleted: the config names an existing one by id.
 */
import { bool, compare, instructions, str, strOrNull, type Draft } from '../common/import.js';
import type { Importer, KindUnit } from '../kind.js';
import { MergeRules, emailsOf, importMergeRules, namesReviewers, resolveReviewers } from '../shared/merge-rules.js';
import { readMembers, type RemoteMember } from '../shared/members.js';
import { AGENT_INSTRUCTIONS_ADDRESS, agentInstructionsModule, readAgentInstructions, type RemoteAgentInstructions } from './agent-instructions.js';
import { organizationModule, organizationSettings, readOrganization, type RemoteOrganization } from './organization.js';
import { Organization } from './schema.js';

export { readOrganization } from './organization.js';

interface OrganizationState {
  org: string;
  organization: RemoteOrganization;
  agentInstructions: RemoteAgentInstructions;
  /** The members, when the review rules name users (import writes them by email): the members' own list, read once. */
  members?: RemoteMember[];
}

const importOrganization: Importer<OrganizationState> = {
  first: true,
  async read(ctx) {
    // The organization alone first: a wrong id (or one the token cannot reach) is one clear error.
    const organization = await readOrganization(ctx);
    const [agentInstructions, members] = await Promise.all([readAgentInstructions(ctx), namesReviewers(organization.mergeRules) ? readMembers(ctx) : undefined]);
    return { org: ctx.org, organization, agentInstructions, ...(members ? { members } : {}) };
  },
  write(state, sink) {
    const o = state.organization;
    const settings = organizationSettings(o);
    const domains = Array.isArray(o.emailDomains) ? [...new Set(o.emailDomains.map(String))].sort((a, b) => compare(a.toLowerCase(), b.toLowerCase()) || compare(a, b)) : undefined;
    const organization: Draft = {
      id: state.org,
      title: str(o.title),
      emailDomains: domains,
      hostname: str(o.hostname),
      defaultRole: strOrNull(o.defaultRole),
      sso: bool(o.sso),
      ai: bool(o.ai),
      inviteLinks: bool(o.inviteLinks),
      mergeRules: importMergeRules(o.mergeRules, MergeRules, 'organization', (m) => sink.warn(m), emailsOf(state.members)),
      // Written when set: absent leaves them unmanaged, which plans no change either way.
      logo: str(settings.logo),
      defaultContent: settings.defaultContent ? { ...(settings.defaultContent as { site: string }) } : undefined,
      agentInstructions: instructions(state.agentInstructions.instructions) ?? null,
    };
    return organization;
  },
};

export const organizationUnit: KindUnit = {
  configKey: 'organization',
  audit: {
    targets: { organization: { by: 'unit' }, 'agent-instructions': { by: 'unit' } },
    paths: { orgs: 'organization' },
  },
  list: false,
  schema: Organization,
  kinds: [organizationModule, agentInstructionsModule],
  addressNames: { top: ['organization'], inner: ['agentInstructions'] },
  resolve(_entries, ctx) {
    ctx.locate('organization', ctx.organizationOrigin);
    const agent = ctx.fieldOrigin('agentInstructions');
    if (agent) ctx.locate(AGENT_INSTRUCTIONS_ADDRESS, agent);
    const rules = ctx.fieldOrigin('mergeRules');
    if (rules) resolveReviewers(ctx.organization?.mergeRules, 'organization', rules, ctx);
  },
  importer: importOrganization,
};

