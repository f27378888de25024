/**
 * A `glossary` entry: one term of the organization's translation glossary, in each language it has
 * (GlossaryTranslations: language code → term), and its id once it exists.
 */
import { z } from 'zod';
import { Id, LANGUAGES } from '../../common/fields.js';

export type LanguageT = (typeof LANGUAGES)[number];

/** A term as the API limits it: 1 to 255 characters, on one line. */
const Term = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^\n\r]*$/, { error: 'must be on one line' });

const terms = Object.fromEntries(LANGUAGES.map((l) => [l, Term.optional().describe(`The term in ${l}`)])) as Record<LanguageT, z.ZodOptional<typeof Term>>;

const Translations = z
  .strictObject(terms)
  .superRefine((value, ctx) => {
    if (!LANGUAGES.some((l) => value[l] !== undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'an entry needs its term in at least one language ({ en: API, fr: API })' });
    }
  })
  .describe('The term in each language (language code → term)');

export const GlossaryEntry = z.strictObject({
  id: Id.optional().describe("The entry's id (import writes it): the entry is matched by it, whatever its terms"),
  translations: Translations,
});

export type GlossaryEntryT = { id?: string; translations: Partial<Record<LanguageT, string>> };

declare module '../../../model/desired.js' {
  interface DesiredLists {
    glossary?: GlossaryEntryT[];
  }
}
