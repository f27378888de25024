/** What docplane relies on in the API's answers about OpenAPI specs (checked by the client as they arrive). */
import { z } from 'zod';

/** A spec of the organization's list (`GET ORG/openapi`). */
export const OpenAPISpecAnswer = z.looseObject({
  id: z.string(),
  slug: z.string(),
  sourceURL: z.string().optional(),
  visibility: z.string().optional(),
  lastVersion: z.string().optional(),
  processingState: z.string().optional(),
  lastProcessErrorCode: z.string().optional(),
});

/** The raw text of a spec's latest version (`GET ORG/openapi/SLUG/versions/latest/content/raw`). */
export const OpenAPISpecRawAnswer = z.looseObject({ text: z.string(), format: z.string().optional() });
