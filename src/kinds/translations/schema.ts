/** A `translations` entry: a translation of a space into a language. */
import { z } from 'zod';
import { Id, Instructions, Language } from '../common/fields.js';

export const Translation = z
  .strictObject({
    id: Id.optional(),
    source: z.strictObject({ space: Id.describe('The space translated'), language: Language.describe('Its language') }),
    language: Language.describe('The target language'),
    instructions: Instructions.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.language.toLowerCase() === value.source.language.toLowerCase()) {
      ctx.addIssue({ code: 'custom', path: ['language'], message: `is the source's own language (${value.source.language}); a translation needs another language` });
    }
  });


export type TranslationT = z.infer<typeof Translation>;

declare module '../../model/desired.js' {
  interface DesiredLists {
    translations?: TranslationT[];
  }
}
