/** An `integrations` entry: an integration this organization publishes, by name. */
import { z } from 'zod';

const IntegrationName = z
  .string()
  .min(1)
  .max(100)
  // The API's pattern ^[a-zA-Z0-9-_.]+$, with "-" moved last so that it also reads as a literal in
  // the unicode regular expressions of JSON Schema validators.
  .regex(/^[a-zA-Z0-9_.-]+$/, { error: 'must hold only letters, digits, "-", "_" and "."' });

export const Integration = z.strictObject({
  name: IntegrationName,
  title: z.string().min(2).max(30),
  description: z.string().max(100),
  summary: z.string().max(2048).optional(),
  script: z.string().min(1).describe('Script content, usually ${file:…}'),
  runtime: z.string().min(1).optional(),
  visibility: z.string().min(1).optional(),
  target: z.string().min(1).optional(),
  scopes: z.array(z.string().min(1)).min(1),
  categories: z.array(z.string().min(1)).optional(),
  externalLinks: z.array(z.strictObject({ url: z.url({ protocol: /^https?$/ }), label: z.string().min(1) })).optional(),
  contentSecurityPolicy: z.string().optional(),
  secrets: z.record(z.string(), z.string()).optional().describe('Secret values (masked in every output); usually ${env:…}'),
});


export type IntegrationT = z.infer<typeof Integration>;

declare module '../../model/desired.js' {
  interface DesiredLists {
    integrations?: IntegrationT[];
  }
}
