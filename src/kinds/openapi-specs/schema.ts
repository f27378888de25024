/**
 * An `openapiSpecs` entry: an OpenAPI specification of the organization, by slug, from a URL or from
 * a text (usually a file of the config folder, `${file:…}`), with its visibility.
 */
import { z } from 'zod';

/** OpenAPISpecSlug of the live description. */
export const SLUG = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;

export const OpenAPISpec = z.strictObject({
  slug: z
    .string()
    .min(1)
    .max(100)
    .regex(SLUG, { error: 'must be letters and digits, in groups joined by single "-" (the API\'s slug pattern, such as "billing-api")' })
    .describe('The slug the spec is known by (one spec per slug)'),
  source: z
    .union(
      [
        z.strictObject({ url: z.url({ protocol: /^https?$/ }).max(2048).describe('Where the API fetches the spec from') }),
        z.strictObject({ text: z.string().min(1).describe('The spec itself, usually ${file:specs/NAME.yaml} (a file of the config folder)') }),
      ],
      { error: 'must be { url: https://… } or { text: … } (for a file of the config folder: { text: "${file:specs/api.yaml}" })' },
    )
    .describe('A URL the API fetches, or the text of the spec'),
  visibility: z.enum(['private', 'public']).optional().describe('private: not publicly available; public: anyone with the link'),
});

export type OpenAPISpecT = z.infer<typeof OpenAPISpec>;

declare module '../../model/desired.js' {
  interface DesiredLists {
    openapiSpecs?: OpenAPISpecT[];
  }
}
