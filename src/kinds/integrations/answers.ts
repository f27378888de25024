/** What docplane relies on in the API's answers about integrations (checked by the client as they arrive). */
import { z } from 'zod';

/** An integration (`GET /integrations?owner=ORG`): its name and version. */
export const IntegrationAnswer = z.looseObject({ name: z.string(), version: z.number().nullish() });
