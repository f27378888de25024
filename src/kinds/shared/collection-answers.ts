/** What docplane relies on in the API's answers about collections (checked by the client as they arrive). */
import { z } from 'zod';

/** A collection (`GET ORG/collections?nested=true`). */
export const CollectionAnswer = z.looseObject({
  id: z.string(),
  title: z.string(),
  description: z.string().nullish(),
  parent: z.string().nullish(),
  defaultLevel: z.string().nullish(),
});
