/** An `integrations` entry: an integration this organization publishes, by name. */
import { z } from 'zod';

/** The scopes an integration may ask for. */
const SCOPES = [
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'page:feedback:read',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'conversations:ingest',
  'openapi:read',
  'openapi:write',
] as const;

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
  runtime: z.enum(['v1', 'v2']).optional(),
  visibility: z.enum(['public', 'private', 'unlisted']).optional(),
  target: z.enum(['all', 'site', 'space', 'organization']).optional(),
  scopes: z.array(z.enum(SCOPES)).min(1),
  categories: z.array(z.enum(['analytics', 'collaboration', 'content', 'marketing', 'visitor-auth', 'other'])).optional(),
  externalLinks: z.array(z.strictObject({ url: z.url({ protocol: /^https?$/ }), label: z.string().min(1) })).max(5).optional(),
  contentSecurityPolicy: z
    .union([z.string(), z.record(z.string(), z.string())])
    .optional()
    .describe('A policy string, or directives by name (`script-src: …`)'),
  secrets: z.record(z.string(), z.string()).optional().describe('Secret values (masked in every output); usually ${env:…}'),
  icon: z.string().min(1).optional().describe('Base64 content of the icon (the API does not return it: not compared)'),
  previewImages: z.array(z.string().min(1)).max(3).optional().describe('Base64 content of up to 3 preview images (the API answers URLs: not compared)'),
  blocks: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        title: z.string().min(2).max(40),
        description: z.string().max(150).optional(),
        icon: z.string().optional(),
        urlUnfurl: z.array(z.string()).optional(),
        markdown: z.looseObject({}).optional(),
      }),
    )
    .optional()
    .describe('The blocks the integration provides (IntegrationBlock)'),
  contentSources: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        title: z.string().min(2).max(40),
        description: z.string().max(150).optional(),
        icon: z.string().optional(),
        configuration: z.looseObject({}),
      }),
    )
    .optional()
    .describe('The content sources the integration provides (IntegrationContentSource)'),
  configurations: z
    .strictObject({ account: z.looseObject({}).optional(), space: z.looseObject({}).optional(), site: z.looseObject({}).optional() })
    .optional()
    .describe('The configuration forms of an installation: account, space, site (IntegrationConfigurations)'),
});


export type IntegrationT = z.infer<typeof Integration>;

declare module '../../model/desired.js' {
  interface DesiredLists {
    integrations?: IntegrationT[];
  }
}
