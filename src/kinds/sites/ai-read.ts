/**
 * A site's AI and adaptive content: the config entries (`agentSettings`, `mcpServers` and
 * `adaptiveSchema` on a site), the remote objects reduced to what the planner compares, and the
 * reads, each sent only for a site whose config has the block:
 * - agent settings: `getSiteAgentSettingsById` (one GET);
 * - MCP servers: `listSiteMcpServers` (every page);
 * - the adaptive schema: `getSiteAdaptiveSchema` (one GET; 404 means the site has none).
 */
import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import type { RichTextDocumentT } from '../../core/richtext.js';
import type { JsonObject } from '../../model/step.js';
import { Id, Instructions, RenamedFrom, renamedFromNotOwn } from '../common/fields.js';
import type { Reader } from '../kind.js';
import { AdaptiveSchemaAnswer, AgentSettingsAnswer, McpServerAnswer } from './answers.js';

/** `SiteAgentSettingsInput`, each part optional: a part left out is kept as the site has it. */
export const AgentSettings = z.strictObject({
  scans: z.strictObject({ topics: z.enum(['auto', 'never']).describe('When topics are scanned for findings') }).optional(),
  findings: z
    .strictObject({ changeRequests: z.enum(['always', 'auto-fixable', 'never']).describe('How change requests that fix findings are made') })
    .optional(),
  editing: z
    .strictObject({ customInstructions: Instructions.nullable().describe('Instructions for the editing agent (text, or a rich-text document); null: none') })
    .optional(),
});
export type AgentSettingsT = z.infer<typeof AgentSettings>;

/** `SiteMcpServerHeaders`: header values of 1 to 512 characters. */
export const McpHeaders = z.record(z.string().min(1), z.string().min(1).max(512));

export const McpServer = z
  .strictObject({
    id: Id.optional(),
    renamedFrom: RenamedFrom.optional(),
    name: z.string().min(1).max(100),
    url: z.url().max(2048),
    transport: z.enum(['sse', 'http']).optional().describe('The transport protocol (the API\'s default: sse)'),
    headers: McpHeaders.optional().describe('HTTP headers sent to the server, the whole truth when given (values from ${env:…} are masked)'),
    condition: z.string().max(1024).nullable().optional().describe('Adaptive condition: the server is offered to visitors it matches; null: to all'),
  })
  .superRefine(renamedFromNotOwn('name'));
export type McpServerT = z.infer<typeof McpServer>;

const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';

/** A claim of the adaptive schema (`SiteAdaptiveJSONSchemaClaimsProperties`): its `type` says which shape. */
const Described = { description: z.string() };
const Primitives = [
  z.strictObject({ type: z.literal('boolean'), ...Described }),
  z.strictObject({ type: z.literal('string'), enum: z.array(z.string()).optional().describe('The values it may take (conditions on visibility need them)'), ...Described }),
  z.strictObject({ type: z.literal('number'), ...Described }),
] as const;
const Primitive = z.discriminatedUnion('type', [...Primitives]);
type PrimitiveT = z.infer<typeof Primitive>;
export interface ClaimObjectT {
  type: 'object';
  description: string;
  properties: Record<string, ClaimT>;
  additionalProperties: false;
}
export type ClaimT = PrimitiveT | { type: 'array'; description: string; items: PrimitiveT } | ClaimObjectT;
export const Claim: z.ZodType<ClaimT> = z
  .lazy(() =>
    z.discriminatedUnion('type', [
      ...Primitives,
      z.strictObject({ type: z.literal('array'), ...Described, items: Primitive }),
      z.strictObject({ type: z.literal('object'), ...Described, properties: z.record(z.string(), Claim), additionalProperties: z.literal(false) }),
    ], { error: (i) => (i.code === 'invalid_union' ? 'a claim\'s type must be one of boolean, string, number, array, object' : undefined) }),
  )
  // The id names the recursive definition in the JSON Schema ($defs/AdaptiveClaim).
  .meta({ id: 'AdaptiveClaim' });

/** `SiteAdaptiveJSONSchema`: the claims visitors bring; `type` and `additionalProperties` may be left out (they have one value). */
export const AdaptiveSchema = z
  .strictObject({
    $schema: z.literal('http://json-schema.org/draft-07/schema#').optional(),
    type: z.literal('object').optional(),
    properties: z.record(z.string(), Claim).describe('The claims, by name (`unsigned`: the unsigned claims, an object claim)'),
    additionalProperties: z.literal(false).optional(),
  })
  .superRefine((value, ctx) => {
    const unsigned = value.properties.unsigned;
    if (unsigned !== undefined && (unsigned.type !== 'object' || unsigned.description !== UNSIGNED_DESCRIPTION)) {
      ctx.addIssue({ code: 'custom', path: ['properties', 'unsigned'], message: `the unsigned claims are an object claim whose description is "${UNSIGNED_DESCRIPTION}"` });
    }
  });
export type AdaptiveSchemaT = z.infer<typeof AdaptiveSchema>;

export interface RemoteAgentSettings {
  topics: string | null;
  changeRequests: string | null;
  customInstructions: RichTextDocumentT | null;
}

export interface RemoteMcpServer {
  id: string;
  name: string;
  url: string;
  transport: string;
  headers: Record<string, string>;
  condition: string | null;
}

export interface RemoteAdaptiveSchema {
  /** The claims, by name; null when the site has no schema. */
  properties: JsonObject | null;
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function parseAgentSettings(raw: unknown): RemoteAgentSettings {
  const o = obj(raw);
  const doc = obj(o.editing).customInstructions;
  return {
    topics: str(obj(o.scans).topics),
    changeRequests: str(obj(o.findings).changeRequests),
    customInstructions: doc && typeof doc === 'object' ? (doc as RichTextDocumentT) : null,
  };
}

export function parseMcpServer(raw: unknown): RemoteMcpServer {
  const o = obj(raw);
  const headers = Object.fromEntries(Object.entries(obj(o.headers)).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return { id: String(o.id), name: str(o.name) ?? '', url: str(o.url) ?? '', transport: str(o.transport) ?? 'sse', headers, condition: str(o.condition) || null };
}

export function parseAdaptiveSchema(raw: unknown): RemoteAdaptiveSchema {
  const schema = obj(obj(raw).jsonSchema);
  return { properties: 'properties' in schema ? (obj(schema.properties) as JsonObject) : null };
}

/** The blocks of a site's config that these reads serve. */
export interface AiWanted {
  agentSettings?: AgentSettingsT;
  mcpServers?: readonly McpServerT[];
  adaptiveSchema?: AdaptiveSchemaT;
}

export async function readAgentSettings(ctx: Pick<Reader, 'client'>, base: string, wanted: AiWanted): Promise<RemoteAgentSettings | undefined> {
  if (wanted.agentSettings === undefined) return undefined;
  const { body } = await ctx.client.request('GET', `${base}/agent-settings`, { schema: AgentSettingsAnswer });
  return parseAgentSettings(body);
}

export async function readMcpServers(ctx: Pick<Reader, 'client'>, base: string, wanted: AiWanted): Promise<RemoteMcpServer[] | undefined> {
  if (wanted.mcpServers === undefined) return undefined;
  const items = await ctx.client.listAll(`${base}/mcp-servers`, {}, { schema: McpServerAnswer });
  return items.map(parseMcpServer);
}

export async function readAdaptiveSchema(ctx: Pick<Reader, 'client'>, base: string, wanted: AiWanted): Promise<RemoteAdaptiveSchema | undefined> {
  if (wanted.adaptiveSchema === undefined) return undefined;
  try {
    const { body } = await ctx.client.request('GET', `${base}/adaptive-schema`, { schema: AdaptiveSchemaAnswer });
    return parseAdaptiveSchema(body);
  } catch (err) {
    // "No visitor attributes schema found for the site."
    if (err instanceof ApiError && err.status === 404) return { properties: null };
    throw err;
  }
}
