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
