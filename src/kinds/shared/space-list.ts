/** The organization's list of spaces, read once per plan or import (spaces and collections use it). */
import { orgPath } from '../common/paths.js';
import type { Reader } from '../kind.js';
import { SpaceAnswer } from './space-answers.js';

export interface RemoteSpace {
  id: string;
  title?: string;
  emoji?: string;
  /** URL of its icon, when it has one instead of an emoji. */
  icon?: string;
  editMode?: string;
  defaultLevel?: string | null;
  language?: string;
  parent?: string | null;
  organization?: string;
  deletedAt?: string | null;
  /** Its review rules (MergeRulesSpaceConfiguration). */
  mergeRules?: unknown;
  /** Its Git Sync state (GitSyncState), when it is synchronised with a repository. */
  gitSync?: unknown;
}

/** Every space of the organization that is not deleted (the list leaves deleted spaces out). */
export function readSpaceList(ctx: Reader): Promise<RemoteSpace[]> {
  return ctx.shared('spaces', () => ctx.client.listAll<RemoteSpace>(`${orgPath(ctx.org)}/spaces`, {}, { schema: SpaceAnswer }));
}
