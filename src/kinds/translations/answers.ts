/** What docplane relies on in the API's answers about translations (checked by the client as they arrive). */
import { z } from 'zod';

/** A translation (`GET ORG/translations`): its id, language and source. */
export const TranslationAnswer = z.looseObject({
  id: z.string(),
  language: z.string(),
  source: z.looseObject({ space: z.string(), language: z.string() }),
  instructions: z.looseObject({ nodes: z.array(z.unknown()).optional() }).nullish(),
});
