// The table of docs/live-surface.md: every write operation (POST, PUT, PATCH, DELETE) of the live API
// description, "sent by docplane" or "not, because …". What is sent is checked against docplane's
// source (src/ without the emulator and the tests): each sent operation names the file and a piece of
// the request that sends it, and the script fails when the source no longer holds it. Run:
// node scripts/live-surface.mjs > /tmp/table.md
import { readFileSync } from 'node:fs';

const spec = JSON.parse(readFileSync('node_modules/@gitbook/api/spec/openapi.json', 'utf8'));

/** operationId → [file, a piece of the request that sends it]. */
const SENT = {
  updateSpaceById: ['src/kinds/spaces/spaces.ts', "method: 'PATCH', path: `/v1/spaces/"],
  deleteSpaceById: ['src/kinds/spaces/spaces.ts', "method: 'DELETE', path: `/v1/spaces/"],
  restoreSpace: ['src/kinds/spaces/spaces.ts', '/restore`'],
  moveSpace: ['src/kinds/spaces/spaces.ts', '/move`, body: { parent'],
  createSpace: ['src/kinds/spaces/spaces.ts', "method: 'POST', path: `${orgPath(org)}/spaces`"],
  inviteToSpace: ['src/kinds/access/plan.ts', "method: 'POST'"],
  updateTeamPermissionInSpace: ['src/kinds/access/plan.ts', "method: 'PATCH', path: `${base}/${w.who}/"],
  removeTeamFromSpace: ['src/kinds/access/plan.ts', "method: 'DELETE', path: `${base}/${h.who}/"],
  updateUserPermissionInSpace: ['src/kinds/access/plan.ts', "method: 'PATCH', path: `${base}/${w.who}/"],
  removeUserFromSpace: ['src/kinds/access/plan.ts', "method: 'DELETE', path: `${base}/${h.who}/"],
  updateCollectionById: ['src/kinds/collections/collections.ts', "method: 'PATCH'"],
  deleteCollectionById: ['src/kinds/collections/collections.ts', "method: 'DELETE', path: `/v1/collections/"],
  moveCollection: ['src/kinds/collections/collections.ts', '/move`'],
  createCollection: ['src/kinds/collections/collections.ts', '/collections`'],
  inviteToCollection: ['src/kinds/access/plan.ts', "method: 'POST'"],
  updateTeamPermissionInCollection: ['src/kinds/access/plan.ts', "method: 'PATCH', path: `${base}/${w.who}/"],
  removeTeamFromCollection: ['src/kinds/access/plan.ts', "method: 'DELETE', path: `${base}/${h.who}/"],
  updateUserPermissionInCollection: ['src/kinds/access/plan.ts', "method: 'PATCH', path: `${base}/${w.who}/"],
  removeUserFromCollection: ['src/kinds/access/plan.ts', "method: 'DELETE', path: `${base}/${h.who}/"],
  publishIntegration: ['src/kinds/integrations/integrations.ts', "method: 'POST', path: `/v1/integrations/"],
  unpublishIntegration: ['src/kinds/integrations/integrations.ts', "method: 'DELETE', path: `/v1/integrations/"],
  installIntegration: ['src/kinds/installations/installations.ts', "{ method: 'POST', path: base, body: { organization: ctx.org }"],
  updateIntegrationInstallation: ['src/kinds/installations/installations.ts', "method: 'PATCH', path: `${installationsPath(d.integration)}/${enc(r.installation.id)}`"],
  uninstallIntegration: ['src/kinds/installations/installations.ts', "method: 'DELETE', path: `${installationsPath(r.integration)}"],
  installIntegrationOnSpace: ['src/kinds/installations/installations.ts', "target === 'spaces' ? { space: id }"],
  updateIntegrationSpaceInstallation: ['src/kinds/installations/installations.ts', "body: { configuration: w.configuration"],
  uninstallIntegrationFromSpace: ['src/kinds/installations/installations.ts', "[{ method: 'DELETE', path: `${base}/${enc(id)}` }]"],
  installIntegrationOnSite: ['src/kinds/installations/installations.ts', '{ siteId: id }'],
  updateIntegrationSiteInstallation: ['src/kinds/installations/installations.ts', "body: { configuration: w.configuration"],
  uninstallIntegrationFromSite: ['src/kinds/installations/installations.ts', "[{ method: 'DELETE', path: `${base}/${enc(id)}` }]"],
  updateOrganizationById: ['src/kinds/organization/organization.ts', "method: 'PATCH'"],
  updateMemberInOrganizationById: ['src/kinds/members/members.ts', "method: 'PATCH', path: `${orgPath(ctx.org)}/members/"],
  removeMemberFromOrganizationById: ['src/kinds/members/members.ts', "method: 'DELETE', path: `${orgPath(ctx.org)}/members/"],
  setUserAsSSOMemberForOrganization: ['src/kinds/members/members.ts', '/sso`'],
  inviteUsersToOrganization: ['src/kinds/members/members.ts', '/invites`'],
  createOrganizationTeam: ['src/kinds/teams/teams.ts', "method: 'PUT'"],
  updateTeamInOrganizationById: ['src/kinds/teams/teams.ts', "method: 'PATCH', path: `${orgPath(ctx.org)}/teams/"],
  removeTeamFromOrganizationById: ['src/kinds/teams/teams.ts', "method: 'DELETE', path: `${orgPath(ctx.org)}/teams/"],
  updateMembersInOrganizationTeam: ['src/kinds/teams/team-members.ts', '/members`'],
  createOrganizationInvite: ['src/kinds/invite-links/invite-links.ts', "method: 'POST', path: base"],
  updateOrganizationInviteById: ['src/kinds/invite-links/invite-links.ts', "method: 'PATCH'"],
  deleteOrganizationInviteById: ['src/kinds/invite-links/invite-links.ts', "method: 'DELETE'"],
  createOrganizationSAMLProvider: ['src/kinds/saml/saml.ts', "method: 'POST'"],
  updateOrganizationSAMLProvider: ['src/kinds/saml/saml.ts', "method: 'PATCH'"],
  deleteOrganizationSAMLProvider: ['src/kinds/saml/saml.ts', "method: 'DELETE'"],
  createOrUpdateOpenAPISpecBySlug: ['src/kinds/openapi-specs/openapi-specs.ts', "method: 'PUT'"],
  updateOpenAPISpecBySlug: ['src/kinds/openapi-specs/openapi-specs.ts', "method: 'PATCH'"],
  deleteOpenAPISpecBySlug: ['src/kinds/openapi-specs/openapi-specs.ts', "method: 'DELETE'"],
  updateOrganizationAgentInstructions: ['src/kinds/organization/agent-instructions.ts', "method: 'PUT'"],
  createTranslation: ['src/kinds/translations/translations.ts', "method: 'POST', path: base"],
  updateTranslation: ['src/kinds/translations/translations.ts', "method: 'PUT'"],
  deleteTranslation: ['src/kinds/translations/translations.ts', "method: 'DELETE'"],
  updateGlossaryEntries: ['src/kinds/translations/glossary/glossary.ts', "method: 'PUT'"],
  createCustomFont: ['src/kinds/fonts/fonts.ts', "method: 'PUT', path: base"],
  updateCustomFont: ['src/kinds/fonts/fonts.ts', "method: 'POST'"],
  deleteCustomFont: ['src/kinds/fonts/fonts.ts', "method: 'DELETE'"],
  createSite: ['src/kinds/sites/site.ts', "method: 'POST', path: sites"],
  updateSiteById: ['src/kinds/sites/site.ts', "method: 'PATCH', path: base"],
  deleteSiteById: ['src/kinds/sites/site.ts', "method: 'DELETE'"],
  publishSite: ['src/kinds/sites/site.ts', "'publish' : 'unpublish'"],
  unpublishSite: ['src/kinds/sites/site.ts', "'publish' : 'unpublish'"],
  updateSiteAdaptiveSchema: ['src/kinds/sites/ai.ts', '/adaptive-schema`'],
  updateSiteAgentSettingsById: ['src/kinds/sites/ai.ts', '/agent-settings`'],
  createSiteMcpServer: ['src/kinds/sites/ai.ts', "method: 'POST', path: `${base}/mcp-servers`"],
  updateSiteMcpServerById: ['src/kinds/sites/ai.ts', "method: 'PATCH', path: `${base}/mcp-servers/"],
  deleteSiteMcpServerById: ['src/kinds/sites/ai.ts', "method: 'DELETE', path: `${base}/mcp-servers/"],
  createSiteShareLink: ['src/kinds/sites/share-links.ts', "method: 'POST'"],
  updateSiteShareLinkById: ['src/kinds/sites/share-links.ts', "method: 'PATCH'"],
  deleteSiteShareLinkById: ['src/kinds/sites/share-links.ts', "method: 'DELETE'"],
  sortSiteStructure: ['src/kinds/sites/steps.ts', '/structure/sort`'],
  updateSitePublishingAuthById: ['src/kinds/sites/publishing-auth.ts', '/publishing/auth`'],
  regenerateSitePublishingAuthById: ['src/kinds/sites/hosting/auth-key.ts', '/publishing/auth/regenerate`'],
  updateSiteCustomizationById: ['src/kinds/sites/customization.ts', "method: 'PUT'"],
  addSpaceToSite: ['src/kinds/sites/site-spaces.ts', '/site-spaces`'],
  updateSiteSpaceById: ['src/kinds/sites/site-spaces.ts', "method: 'PATCH'"],
  deleteSiteSpaceById: ['src/kinds/sites/site-spaces.ts', "method: 'DELETE'"],
  addSectionGroupToSite: ['src/kinds/sites/plan.ts', "path: `${base}/section-groups`"],
  updateSiteSectionGroupById: ['src/kinds/sites/plan.ts', "method: 'PATCH', path: `${base}/section-groups/"],
  deleteSiteSectionGroupById: ['src/kinds/sites/plan.ts', "method: 'DELETE', path: `${base}/section-groups/"],
  addSectionToSite: ['src/kinds/sites/plan.ts', "path: `${base}/sections`"],
  updateSiteSectionById: ['src/kinds/sites/plan.ts', "method: 'PATCH', path: `${base}/sections/"],
  deleteSiteSectionById: ['src/kinds/sites/plan.ts', "method: 'DELETE', path: `${base}/sections/"],
  addExternalLinkToSite: ['src/kinds/sites/plan.ts', '/external-links`'],
  updateSiteExternalLinkById: ['src/kinds/sites/plan.ts', '/external-links/'],
  deleteSiteExternalLinkById: ['src/kinds/sites/plan.ts', '/external-links/'],
  inviteToSite: ['src/kinds/access/plan.ts', "method: 'POST'"],
  updateUserPermissionInSite: ['src/kinds/access/plan.ts', "method: 'PATCH', path: `${base}/${w.who}/"],
  removeUserFromSite: ['src/kinds/access/plan.ts', "method: 'DELETE', path: `${base}/${h.who}/"],
  updateTeamPermissionInSite: ['src/kinds/access/plan.ts', "method: 'PATCH', path: `${base}/${w.who}/"],
  removeTeamFromSite: ['src/kinds/access/plan.ts', "method: 'DELETE', path: `${base}/${h.who}/"],
  createSiteRedirect: ['src/kinds/sites/redirects.ts', "method: 'POST'"],
  updateSiteRedirectById: ['src/kinds/sites/redirects.ts', "method: 'PATCH'"],
  deleteSiteRedirectById: ['src/kinds/sites/redirects.ts', "method: 'DELETE'"],
  createSiteChannel: ['src/kinds/sites/agent/channels.ts', "method: 'POST', path: `${base}/channels`"],
  updateSiteChannelById: ['src/kinds/sites/agent/channels.ts', "method: 'PATCH', path: `${base}/channels/"],
  deleteSiteChannelById: ['src/kinds/sites/agent/channels.ts', "method: 'DELETE', path: `${base}/channels/"],
  createSiteContextConnection: ['src/kinds/sites/agent/connections.ts', "method: 'POST', path: base"],
  updateSiteContextConnectionById: ['src/kinds/sites/agent/connections.ts', "method: 'PATCH', path: `${base}/${encodeURIComponent(r.id)}`"],
  deleteSiteContextConnectionById: ['src/kinds/sites/agent/connections.ts', "method: 'DELETE', path: `${base}/${encodeURIComponent(r.id)}`"],
  updateSiteTopicById: ['src/kinds/sites/agent/topics.ts', "method: 'PATCH'"],
  removeCustomHostname: ['src/kinds/sites/hosting/custom-hostname.ts', '/v1/custom-hostnames/'],
  updateGitSyncInstallationById: ['src/kinds/git-sync/git-sync.ts', "method: 'PATCH', path: gitSyncPath"],
  updateSiteAdsById: ['src/kinds/site-ads/site-ads.ts', '/ads`'],
  installGitSyncProviderOnTarget: ['src/kinds/git-sync/git-sync.ts', "method: 'POST', path: '/v1/git/installations'"],
  uninstallGitSyncInstallation: ['src/kinds/git-sync/git-sync.ts', "method: 'DELETE', path: gitSyncPath"],
  overrideSiteSpaceCustomizationById: ['src/kinds/sites/variants/variants.ts', "method: 'PATCH', path, body: v.want"],
  deleteSiteSpaceCustomizationById: ['src/kinds/sites/variants/variants.ts', "method: 'DELETE', path }"],
};

const CHANGE_REQUESTS = 'a change request is content work (the editing workflow), not organization configuration';
const COMMENTS = 'comments are discussion on content, not configuration';
const READ = 'a read sent as POST: nothing is changed';
/** operationId → why docplane does not send it. */
const NOT = {
  createUserNotificationsToken: "the calling user's own notification token, not organization configuration",
  updateUserById: "a user's own profile, not organization configuration",
  duplicateSpace: 'a one-off copy of content',
  importGitRepository: 'a one-off content sync run (the Git Sync configuration is managed: `gitSync`)',
  exportToGitRepository: 'a one-off content sync run (the Git Sync configuration is managed: `gitSync`)',
  applyTemplateToSpace: 'writes content',
  getComputedDocument: READ,
  getComputedRevision: READ,
  createChangeRequest: CHANGE_REQUESTS,
  updateChangeRequestById: CHANGE_REQUESTS,
  mergeChangeRequest: CHANGE_REQUESTS,
  updateChangeRequest: CHANGE_REQUESTS,
  submitChangeRequestReview: CHANGE_REQUESTS,
  requestReviewersForChangeRequest: CHANGE_REQUESTS,
  removeRequestedReviewerFromChangeRequest: CHANGE_REQUESTS,
  updateChangeRequestConversation: CHANGE_REQUESTS,
  deleteChangeRequestConversation: CHANGE_REQUESTS,
  postCommentInChangeRequest: COMMENTS,
  deleteCommentInChangeRequest: COMMENTS,
  updateCommentInChangeRequest: COMMENTS,
  postCommentReplyInChangeRequest: COMMENTS,
  updateCommentReplyInChangeRequest: COMMENTS,
  deleteCommentReplyInChangeRequest: COMMENTS,
  updateChangeRequestContent: CHANGE_REQUESTS,
  postCommentInSpace: COMMENTS,
  deleteCommentInSpace: COMMENTS,
  updateCommentInSpace: COMMENTS,
  postCommentReplyInSpace: COMMENTS,
  updateCommentReplyInSpace: COMMENTS,
  deleteCommentReplyInSpace: COMMENTS,
  transferCollection: 'moves a collection to another organization: a one-off action across organizations, which one organization\'s config does not describe',
  setIntegrationDevelopmentMode: "an integration developer's local development mode",
  disableIntegrationDevelopmentMode: "an integration developer's local development mode",
  renderIntegrationUIWithPost: READ,
  queueIntegrationTask: "the integration's own runtime work",
  createIntegrationInstallationToken: "a short-lived token for the integration's own calls",
  createOrganization: 'a config manages existing organizations (the design: the API cannot be asked to create the one a config names)',
  updateOrganizationMemberLastSeenAt: "a member's activity ping",
  addMemberToOrganizationTeamById: "a team's members are sent in one batch per team (`updateMembersInOrganizationTeam`), the least requests",
  deleteMemberFromOrganizationTeamById: "a team's members are sent in one batch per team (`updateMembersInOrganizationTeam`), the least requests",
  joinOrganizationWithInvite: "a user's own action (joining with a link)",
  joinOrganization: "a user's own action",
  askInOrganization: READ,
  createOpenAPISpec: 'specs are written by slug with `createOrUpdateOpenAPISpecBySlug` (PUT), which a lost answer cannot make twice',
  provisionOrganizationAgentConversation: "a member's conversation with the agent, not configuration",
  updateOrganizationAgentConversation: "a member's conversation with the agent, not configuration",
  deleteOrganizationAgentConversation: "a member's conversation with the agent, not configuration",
  runTranslation: 'a one-off run of a translation (its configuration is managed: `translations`)',
  generateStorageUploadURL: 'an upload step: a custom font names the storage key of a file uploaded beforehand',
  startImportRun: 'a one-off content import',
  cancelImportRun: 'a one-off content import',
  searchSiteContent: READ,
  prewarmSiteSearch: 'warms a cache: nothing to configure',
  submitSiteAgentFeedback: "a visitor's feedback",
  submitAgentFeedbackToSite: "a visitor's feedback",
  streamAskInSite: READ,
  upsertSiteContextRecords: "records a connector feeds in: the agent's data, not its configuration (the connections are managed: `contextConnections`)",
  updateSiteFindingById: "the state of a finding the agent made: workflow, not configuration",
  triggerChangeRequestsForSiteFinding: 'a one-off action on a finding',
  syncSiteContextConnection: 'a one-off synchronisation of a connection (managed: `contextConnections`)',
  testSiteContextConnection: "a one-off check of a connection's stored credentials",
  deleteSiteTopicFindings: "clears a topic's findings: workflow data (the topic's usage settings are managed: `topics`)",
  duplicateSiteSpace: 'a one-off copy of content',
  moveSiteSectionGroup: 'deprecated: the order is set with `sortSiteStructure`',
  moveSiteSection: 'deprecated: the order is set with `sortSiteStructure`',
  moveSiteSpace: 'deprecated: the order is set with `sortSiteStructure`',
  streamAIResponseInSite: READ,
  applyTemplateToSite: 'writes content',
  createSiteStyleguideById: "generates a style guide space (a one-off; the site's style guide is managed: `styleguide`)",
  createSiteStyleguideRun: 'a one-off style guide run',
  trackEventsInSiteById: "visitors' analytics events",
  aggregateSiteEvents: READ,
  bulkUpsertSiteRedirects: 'redirects are sent one request per redirect that differs (`createSiteRedirect`, `updateSiteRedirectById`), each failure at its own address; the bulk upsert would take fewer requests when many differ (not changed here)',
  dnsRevalidateCustomHostname: "a one-off retry of a hostname's DNS check",
  adsUpdateSite: "the ads network's own endpoint for a site, not the organization's configuration",
  resolvePublishedContentByUrl: READ,
};

const sources = new Map();
const text = (file) => {
  if (!sources.has(file)) sources.set(file, readFileSync(file, 'utf8'));
  return sources.get(file);
};
const rows = [];
const problems = [];
for (const [path, ops] of Object.entries(spec.paths)) {
  for (const [method, op] of Object.entries(ops)) {
    if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
    const id = op.operationId;
    const sent = SENT[id];
    if (sent) {
      if (!text(sent[0]).includes(sent[1])) problems.push(`${id}: ${sent[0]} no longer holds ${sent[1]}`);
      rows.push({ method: method.toUpperCase(), path, id, status: `sent by docplane (${sent[0].replace(/^src\//, '')})`, sent: true });
    } else if (NOT[id]) rows.push({ method: method.toUpperCase(), path, id, status: `not, because ${NOT[id]}`, sent: false });
    else problems.push(`${id}: neither sent nor explained`);
  }
}
for (const id of [...Object.keys(SENT), ...Object.keys(NOT)]) if (!rows.some((r) => r.id === id)) problems.push(`${id}: not an operation of the description`);
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
const sentCount = rows.filter((r) => r.sent).length;
console.log(`${rows.length} write operations; sent by docplane: ${sentCount}; not: ${rows.length - sentCount}.\n`);
console.log('| operation | method and path | docplane |');
console.log('|---|---|---|');
for (const r of rows) console.log(`| \`${r.id}\` | ${r.method} \`${r.path}\` | ${r.status} |`);
