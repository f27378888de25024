/** A `spaces` entry: a space's settings, placement and access; created when it has no id and matches no remote space. */
import { z } from 'zod';
import { Access } from '../shared/access-schema.js';
import { Emoji, Id, Language, Level } from '../common/fields.js';
import { SpaceMergeRules } from '../shared/merge-rules.js';
import { GitSync } from '../shared/git-sync-schema.js';

export const Space = z
  .strictObject({
    id: Id.optional().describe('An existing space; without it the space is matched by title within its collection, and created when none matches'),
    title: z.string().min(1).max(50).optional(),
    emoji: Emoji.optional(),
    icon: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional().describe('URL of the space\'s icon (instead of an emoji), or null for none'),
    editMode: z.enum(['live', 'locked']).optional(),
    defaultLevel: Level.nullable().optional(),
    language: Language.optional(),
    mergeRules: SpaceMergeRules.optional(),
    collection: z.string().min(1).nullable().optional().describe('Path of collection titles (A/B), or null for the top level'),
    access: Access.optional(),
    gitSync: GitSync.optional().describe("Its Git Sync installation's configuration (a space synchronised with a repository in the app); absent: unmanaged"),
  })
  .superRefine((value, ctx) => {
    if (value.id === undefined && value.title === undefined) {
      ctx.addIssue({ code: 'custom', path: ['title'], message: 'a space without id needs a title (its natural key, with its collection)' });
    }
    // updateSpaceById takes an emoji or an icon, not both: a space shows one of them.
    if (typeof value.emoji === 'string' && typeof value.icon === 'string') {
      ctx.addIssue({ code: 'custom', path: ['icon'], message: 'a space shows an emoji or an icon, not both: remove one of them' });
    }
  });


export type SpaceT = z.infer<typeof Space>;


declare module '../../model/desired.js' {
  interface DesiredLists {
    spaces?: SpaceT[];
  }
}
