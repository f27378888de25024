/** A `spaces` entry: an existing space's settings and placement. */
import { z } from 'zod';
import { Emoji, Id, Language, Level } from '../common/fields.js';

export const Space = z.strictObject({
  id: Id.describe('An existing space (the API has no create)'),
  title: z.string().min(1).max(50).optional(),
  emoji: Emoji.optional(),
  editMode: z.enum(['live', 'locked']).optional(),
  defaultLevel: Level.nullable().optional(),
  language: Language.optional(),
  collection: z.string().min(1).nullable().optional().describe('Path of collection titles (A/B), or null for the top level'),
});


export type SpaceT = z.infer<typeof Space>;

declare module '../../model/desired.js' {
  interface DesiredLists {
    spaces?: SpaceT[];
  }
}
