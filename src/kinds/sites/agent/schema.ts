/**
 * The site agent's entries of a `sites` entry: its channels (`channels`), where the agent answers
 * and what it may change there. Every field keeps the API's name (SiteChannelSetup, SiteChannelRole).
 */
import { z } from 'zod';

export const CHANNEL_TYPES = ['builtin:slack', 'builtin:discord', 'builtin:github', 'builtin:linear'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** The allow-list field of each channel type's `setupSettings`. */
export const ALLOW_LIST: Record<ChannelType, 'allowedChannels' | 'allowedRepositories' | 'allowedTeams'> = {
  'builtin:slack': 'allowedChannels',
  'builtin:discord': 'allowedChannels',
  'builtin:github': 'allowedRepositories',
  'builtin:linear': 'allowedTeams',
};

/** GenericChannelPattern: a channel name or pattern (`general`, `support-*`). */
const Pattern = z.string().regex(/^[a-zA-Z0-9_*-]+$/, 'must be a name or pattern of letters, digits, _, - and * (such as support-*)');
/** GitHubRepositoryPattern: `owner/repository`, either part may be a pattern. */
const RepositoryPattern = z.string().regex(/^[a-zA-Z0-9._*-]+\/[a-zA-Z0-9._*-]+$/, 'must be owner/repository (such as acme/docs or acme/*)');

const ROLE = z
  .enum(['support', 'collaborator'])
  .optional()
  .describe('support: the agent answers; collaborator: it also opens change requests. Absent: unmanaged (the service\'s default on create)');
const ID = z.string().min(1).optional().describe('The channel\'s id (import writes it); else matched by type');

const list = (item: z.ZodString, what: string) => z.array(item).describe(`Allowed ${what}; empty: all are allowed`);

export const Channel = z
  .discriminatedUnion('type', [
    z.strictObject({ id: ID, type: z.literal('builtin:slack'), role: ROLE, setupSettings: z.strictObject({ allowedChannels: list(Pattern, 'Slack channel names or patterns').optional() }).optional() }),
    z.strictObject({ id: ID, type: z.literal('builtin:discord'), role: ROLE, setupSettings: z.strictObject({ allowedChannels: list(Pattern, 'Discord channel names or patterns').optional() }).optional() }),
    z.strictObject({ id: ID, type: z.literal('builtin:github'), role: ROLE, setupSettings: z.strictObject({ allowedRepositories: list(RepositoryPattern, 'GitHub repositories (owner/name, or patterns)').optional() }).optional() }),
    z.strictObject({ id: ID, type: z.literal('builtin:linear'), role: ROLE, setupSettings: z.strictObject({ allowedTeams: list(Pattern, 'Linear team keys or patterns').optional() }).optional() }),
  ], { error: (issue) => (issue.code === 'invalid_union' ? `must be one of ${CHANNEL_TYPES.join(', ')}` : undefined) })
  .describe('A channel of the site\'s agent (Slack, Discord, GitHub, Linear), one per type; `setupSettings` absent: unmanaged (all allowed on create)');

export type ChannelT = z.infer<typeof Channel>;

export const Channels = z.array(Channel).describe('The channels where the site\'s agent acts, by type; with `prune: [channels]` the whole truth');

/**
 * The setup each context connector takes (ContextConnectorSetup): none for email, the API and an
 * integration's connector, else its fields. The secrets among them (SECRET_SETTINGS) are redacted when
 * read back.
 */
const Required = z.string().min(1);
const GitHubRepository = z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'must be owner/repository');
const TokenOnly = z.strictObject({ token: Required });
export const CONNECTOR_SETUPS: Record<string, z.ZodType | undefined> = {
  'builtin:email': undefined,
  'builtin:api': undefined,
  'builtin:website': z.strictObject({ url: z.url() }),
  'builtin:youtube': z.strictObject({ channelId: Required.describe('A channel id (UC…) or handle (@name)') }),
  'builtin:github-discussions': z.strictObject({ repository: GitHubRepository, token: Required }),
  'builtin:github-issues': z.strictObject({ repository: GitHubRepository, token: Required }),
  'builtin:intercom': TokenOnly,
  'builtin:front': TokenOnly,
  'builtin:pylon': TokenOnly,
  'builtin:hubspot': TokenOnly,
  'builtin:linear': TokenOnly,
  'builtin:zendesk': z.strictObject({ subdomain: Required, email: Required, apiToken: Required }),
  'builtin:zoho-desk': z.strictObject({ dataCenter: Required, orgId: Required, clientId: Required, clientSecret: Required, refreshToken: Required }),
  'builtin:freshdesk': z.strictObject({ domain: Required, apiKey: Required }),
  'builtin:jira': z.strictObject({
    baseUrl: z.url().max(2048),
    apiEmail: z.email().max(254),
    apiToken: Required.max(1024),
    statusMapping: z.record(z.string(), z.string().min(1).max(255)).optional().describe('Jira status per change-request status ({ merged: Done })'),
  }),
};

/** Setup fields that are credentials: never compared (the API redacts them), masked, written by import as ${env:…}. */
export const SECRET_SETTINGS: readonly string[] = ['token', 'apiToken', 'apiKey', 'clientId', 'clientSecret', 'refreshToken'];

const CONNECTOR = /^(builtin:[a-z-]+|integration:[^:]+)$/;

export const ContextConnection = z
  .strictObject({
    id: z.string().min(1).optional().describe('The connection\'s id (import writes it); else matched by label, or by connector when it has none'),
    connector: z.string().regex(CONNECTOR, 'must be builtin:NAME or integration:NAME').describe(`The source: ${Object.keys(CONNECTOR_SETUPS).join(', ')}, or integration:NAME`),
    label: z.string().min(1).max(128).optional().describe('Its label, and its key in the site; without one the connector is the key'),
    setupSettings: z.record(z.string(), z.unknown()).optional().describe('The connector\'s settings (credentials masked, from ${env:…}); absent: unmanaged'),
    usageSettings: z
      .strictObject({
        changeRequests: z.boolean().describe('Whether the agent uses it to propose change requests'),
        search: z.boolean().describe('Whether its records show in search results'),
        searchBoost: z.enum(['x0.8', 'x1.0', 'x1.2']).describe('Its records\' relative score in search'),
        sync: z.boolean().optional().describe('Whether change-request state is written back to the source'),
      })
      .optional(),
    filter: z.string().max(1024).nullable().optional().describe('Which items are ingested (a tag, a label or an expression, by connector); null: all'),
  })
  .superRefine((value, ctx) => {
    const known = value.connector in CONNECTOR_SETUPS;
    if (!known && !value.connector.startsWith('integration:')) {
      ctx.addIssue({ code: 'custom', path: ['connector'], message: `must be one of ${Object.keys(CONNECTOR_SETUPS).join(', ')}, or integration:NAME` });
      return;
    }
    const setup = CONNECTOR_SETUPS[value.connector];
    if (setup === undefined) {
      if (value.setupSettings !== undefined) ctx.addIssue({ code: 'custom', path: ['setupSettings'], message: `the ${value.connector} connector takes no setupSettings` });
      return;
    }
    if (value.setupSettings === undefined) return;
    const r = setup.safeParse(value.setupSettings);
    if (!r.success) for (const issue of r.error.issues) ctx.addIssue({ ...issue, path: ['setupSettings', ...issue.path] } as never);
  })
  .describe('A knowledge source of the site\'s agent (ContextConnection)');

export type ContextConnectionT = z.infer<typeof ContextConnection>;

export const ContextConnections = z
  .array(ContextConnection)
  .describe('The knowledge sources of the site\'s agent, by label (or connector); with `prune: [contextConnections]` the whole truth');

/** A connection's key in its site: its label, else its connector. */
export const connectionKey = (c: { label?: string | null; connector: string }): string => (c.label ? c.label : c.connector);

/**
 * A topic of a site's agent: the service makes topics as it reads the content, so the config names an
 * existing one by its label (or id) and manages its usage settings (SiteTopicUsageSettings).
 */
export const Topic = z
  .strictObject({
    id: z.string().min(1).optional().describe('The topic\'s id, to tell apart two topics with one label'),
    label: z.string().min(1).describe('The topic\'s label, as the service named it'),
    usageSettings: z
      .strictObject({ changeRequests: z.boolean().describe('Whether the agent proposes change requests from this topic') })
      .optional()
      .describe('Absent: unmanaged'),
  })
  .describe('A topic of the site\'s agent (made by the service), by label');

export type TopicT = z.infer<typeof Topic>;

export const Topics = z.array(Topic).describe('Usage settings of the site\'s topics, by label; topics the list leaves out are unmanaged (the API deletes none)');
