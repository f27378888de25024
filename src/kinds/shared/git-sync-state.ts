/**
 * `gitSync` as the API's Space and Site objects carry it (GitSyncState): present when the space or
 * site is synchronised with a repository. The spaces and sites reads keep it, so that a plan knows
 * what Git Sync owns without a request of its own.
 */
import { z } from 'zod';

/** What docplane relies on in a Space's or Site's `gitSync`. */
export const GitSyncStateAnswer = z.looseObject({
  installationId: z.string(),
  repoName: z.string().nullish(),
  parentInstallationId: z.string().nullish(),
});

export interface RemoteGitSyncState {
  installationId: string;
  /** The repository (`acme/docs`), when the API says it. */
  repoName?: string;
  /** The site installation a space installation belongs to. */
  parentInstallationId?: string;
}

/** The `gitSync` of a Space or Site object; undefined when it is not synchronised (or says nothing usable). */
export function parseGitSyncState(raw: unknown): RemoteGitSyncState | undefined {
  const parsed = GitSyncStateAnswer.safeParse(raw);
  if (!parsed.success) return undefined;
  const { installationId, repoName, parentInstallationId } = parsed.data;
  return { installationId, ...(repoName ? { repoName } : {}), ...(parentInstallationId ? { parentInstallationId } : {}) };
}

/** `repository acme/docs`, or the installation when the API does not name the repository. */
export function repositoryOf(state: RemoteGitSyncState): string {
  return state.repoName ? `repository ${state.repoName}` : `the repository of Git Sync installation ${state.installationId}`;
}
