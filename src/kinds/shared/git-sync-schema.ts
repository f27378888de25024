/**
 * A `gitSync` block on a space or a site: the configuration of its Git Sync installation that
 * `updateGitSyncInstallationById` takes (GitSyncInstallationSetupCommon and the provider's branch),
 * with the live description's names and limits. Absent: the installation is not managed; an absent
 * field of the block is not managed either.
 */
import { z } from 'zod';

export const GIT_SYNC_PRIORITIES = ['git', 'gitbook'] as const;
export const GIT_SYNC_AGENT_INSTRUCTIONS = ['agents', 'claude'] as const;

export const GitSync = z.strictObject({
  branch: z
    .string()
    .regex(/^refs\/heads\/.+$/, 'must be a branch ref, such as refs/heads/main')
    .optional()
    .describe('The branch synchronised (providerConfiguration.branch), as a ref: refs/heads/main'),
  projectDirectory: z.string().optional().describe('The directory of the repository synchronised (a monorepo subdirectory); "" for the root'),
  commitMessageTemplate: z.string().optional().describe('The template of the commit messages GitBook writes'),
  priority: z.enum(GIT_SYNC_PRIORITIES).optional().describe('The source of truth: git (the repository) or gitbook'),
  previewExternalBranches: z
    .boolean()
    .optional()
    .describe('Whether branches other than the synchronised one get previews (not for a space synchronised through its site)'),
  agentInstructions: z
    .array(z.enum(GIT_SYNC_AGENT_INSTRUCTIONS))
    .optional()
    .describe('Agent instruction files exported at the repository root (not for a space synchronised through its site)'),
  // Connecting an object that is not synchronised yet: only GitLab can be connected through the API.
  provider: z.enum(['github', 'gitlab']).optional().describe('The Git provider: gitlab connects through the API (with projectId and accessToken); github needs the app'),
  projectId: z.number().int().positive().optional().describe('GitLab: the project to connect (providerConfiguration.projectId)'),
  accessToken: z.string().min(1).optional().describe('GitLab: an access token for the project (a secret: masked, never compared; usually ${env:…})'),
  customInstanceURL: z.url().nullable().optional().describe('GitLab: a self-hosted instance\'s URL; null: gitlab.com'),
});

export type GitSyncT = z.infer<typeof GitSync>;

/** The block's fields, in the order plans and imports show them. */
export const GIT_SYNC_FIELDS = ['branch', 'projectDirectory', 'commitMessageTemplate', 'priority', 'previewExternalBranches', 'agentInstructions'] as const;

/** The fields that connect an object (sent when it is connected, not compared afterwards). */
export const CONNECT_FIELDS = ['provider', 'projectId', 'accessToken', 'customInstanceURL'] as const;

/** Fields a space installation inherits from its site's installation (the API refuses them there). */
export const INHERITED_FIELDS = ['previewExternalBranches', 'agentInstructions'] as const;
