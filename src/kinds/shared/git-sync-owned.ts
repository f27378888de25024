/**
 * What Git Sync owns of a site, and the refusal to edit it. A site synchronised with a repository
 * takes its title and its whole structure from the repository's `gitbook-docs.yaml` (GitSyncSiteConfig:
 * `site.title`, and `site.structure`: sections, section groups, external links, the site spaces in them
 * or at the root, each one's path, title, icon, condition, draft and default flags, and their order).
 * Each sync rewrites them, so a config that sets them would fight the repository: the plan refuses
 * it, naming the field, the repository and the file, at the field's place in the config. The site's
 * other settings (visibility, share links, redirects, customization, publishing auth, access, …) are
 * not in that file and stay managed.
 */
import type { PlanProblem } from '../../model/step.js';
import type { SourceLocation } from '../../model/desired.js';
import { repositoryOf, type RemoteGitSyncState } from './git-sync-state.js';

/** The file of a site's repository that owns its structure. */
export const SITE_FILE = 'gitbook-docs.yaml';

/** The site fields the file owns: refused whenever the config gives them. */
export const SITE_OWNED_FIELDS = ['sections', 'sectionGroups', 'externalLinks', 'siteSpaces', 'order', 'defaultSection'] as const;

/** The kinds that write a site's structure: a step of one on a synchronised site is refused too. */
export const SITE_STRUCTURE_KINDS = ['sections', 'siteSpaces', 'sectionGroups', 'externalLinks'] as const;

export interface OwnedSiteInput {
  org: string;
  /** `sites["KEY"]`. */
  address: string;
  /** The config's site entry. */
  entry: Readonly<Record<string, unknown>>;
  /** The site's title as the API has it. */
  title: string;
  gitSync: RemoteGitSyncState;
  /** The config's positions, by address (`sites["KEY"].sections` is the `sections:` key). */
  locations: Readonly<Record<string, SourceLocation>>;
  /** How many steps of the structure kinds (and title updates) the site's plan holds. */
  structureSteps: number;
}

const owned = (state: RemoteGitSyncState): string => `owned by Git Sync (${repositoryOf(state)}, ${SITE_FILE})`;

/** The problems of a config that edits what Git Sync owns of a synchronised site; none when it leaves all of it alone. */
export function ownedSiteProblems(input: OwnedSiteInput): PlanProblem[] {
  const { org, address, entry, gitSync, locations } = input;
  const problems: PlanProblem[] = [];
  const at = (field: string) => locations[`${address}.${field}`] ?? locations[address];
  const problem = (field: string, message: string): void => {
    const location = at(field);
    problems.push({ org, address, field, message, ...(location ? { location } : {}) });
  };
  for (const field of SITE_OWNED_FIELDS) {
    if (entry[field] !== undefined) problem(field, `${owned(gitSync)}; edit it there, or remove it from the config`);
  }
  // A title equal to the site's names the site; a different one would rename it.
  if (typeof entry.title === 'string' && entry.title !== input.title) {
    problem('title', `${owned(gitSync)}: the site's title is ${JSON.stringify(input.title)}; change it there, or give that title here`);
  }
  if (problems.length === 0 && input.structureSteps > 0) {
    // What the config says elsewhere (prune, a rename) would still write the structure: refused as well.
    const location = locations[address];
    problems.push({
      org,
      address,
      message: `the plan would change the site's structure, which is ${owned(gitSync)}; leave the structure kinds out of prune for this site`,
      ...(location ? { location } : {}),
    });
  }
  return problems;
}
