/** What docplane relies on in the API's answers about spaces (checked by the client as they arrive). */
import { z } from 'zod';

/** A space (`GET ORG/spaces`, `GET /spaces/ID`). */
export const SpaceAnswer = z.looseObject({
  id: z.string(),
  title: z.string().nullish(),
  emoji: z.string().nullish(),
  icon: z.string().nullish(),
  editMode: z.string().nullish(),
  defaultLevel: z.string().nullish(),
  language: z.string().nullish(),
  parent: z.string().nullish(),
  deletedAt: z.string().nullish(),
  mergeRules: z.looseObject({ type: z.string() }).nullish(),
});
