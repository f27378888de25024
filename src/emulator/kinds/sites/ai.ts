/**
 * A site's AI and adaptive content:
 * - agent settings (`getSiteAgentSettingsById`, `updateSiteAgentSettingsById`): one document per
 *   site, the service's defaults until a PUT replaces it whole (`SiteAgentSettingsInput`: scans,
 *   findings and editing are all required);
 * - MCP servers (`listSiteMcpServers`, `createSiteMcpServer`, `getSiteMcpServerById`,
 *   `updateSiteMcpServerById`, `deleteSiteMcpServerById`): header values are secrets (the exchange
 *   log masks `headers`);
 * - the adaptive schema (`getSiteAdaptiveSchema`, `updateSiteAdaptiveSchema`): 404 until a PUT sets
 *   one. Conditions are not evaluated against it.
 */
import { z } from 'zod';
import { bodyObject, created, deleted, listReply, notFound, ok, validate } from '../../http.js';
import type { RouteRequest, Router } from '../../http.js';
import type { RichTextDoc } from '../../model.js';
import { nowIso, storeDoc, viewCtx } from '../../routing.js';
import { Doc, SeedDoc, emptyDocument } from '../../schemas.js';
import { seedDocument } from '../../documents.js';
import type { SeedContext } from '../../kind.js';
import { apiUrl, compact } from '../../views.js';
import type { SiteRec } from './records.js';
import { siteOf } from './routes.js';

export interface AgentSettingsRec {
  topics: 'auto' | 'never';
  changeRequests: 'always' | 'auto-fixable' | 'never';
  customInstructions: RichTextDoc;
  updatedAt?: string;
  updatedBy?: string;
}

export interface McpServerRec {
  id: string;
  name: string;
  url: string;
  transport: 'sse' | 'http';
  headers: Record<string, string>;
  condition?: string;
}

declare module './records.js' {
  interface SiteRec {
    /** Made on first use, with the defaults. */
    agentSettings?: AgentSettingsRec;
    /** Made on first use. */
    mcpServers?: Map<string, McpServerRec>;
    /** The JSON schema of the claims; absent until set. */
    adaptiveSchema?: { jsonSchema: Record<string, unknown>; updatedAt: string };
  }
}

const Topics = z.enum(['auto', 'never']);
const ChangeRequests = z.enum(['always', 'auto-fixable', 'never']);
/** `JSONDocument`: `data` is required. */
const JsonDocument = Doc.extend({ data: z.record(z.string(), z.unknown()) });

const PutAgentSettings = z.looseObject({
  scans: z.looseObject({ topics: Topics }),
  findings: z.looseObject({ changeRequests: ChangeRequests }),
  editing: z.looseObject({ customInstructions: JsonDocument }),
});

const Name = z.string().min(1).max(100);
const Url = z.url().max(2048);
const Transport = z.enum(['sse', 'http']);
const Headers = z.record(z.string(), z.string().min(1).max(512));
const Expression = z.string().max(1024);
const CreateMcpServer = z.strictObject({ name: Name, url: Url, transport: Transport.optional(), headers: Headers, condition: Expression.nullable().optional() });
const PatchMcpServer = CreateMcpServer.partial();

/** `SiteAdaptiveJSONSchemaClaimsProperties`, recursive through object claims. */
const Primitive = z.union([
  z.strictObject({ type: z.literal('boolean'), description: z.string() }),
  z.strictObject({ type: z.literal('string'), enum: z.array(z.string()).optional(), description: z.string() }),
  z.strictObject({ type: z.literal('number'), description: z.string() }),
]);
const Claim: z.ZodType<unknown> = z.lazy(() =>
  z.union([
    Primitive,
    z.strictObject({ type: z.literal('array'), description: z.string(), items: Primitive }),
    z.strictObject({ type: z.literal('object'), description: z.string(), properties: z.record(z.string(), Claim), additionalProperties: z.literal(false) }),
  ]),
);
const Unsigned = z.strictObject({
  type: z.literal('object'),
  description: z.literal('Unsigned claims of the site visitor.'),
  properties: z.record(z.string(), Claim),
  additionalProperties: z.literal(false),
});
const JsonSchema = z.strictObject({
  $schema: z.literal('http://json-schema.org/draft-07/schema#').optional(),
  type: z.literal('object'),
  properties: z.record(z.string(), Claim).superRefine((props, ctx) => {
    if ('unsigned' in props && !Unsigned.safeParse(props.unsigned).success) {
      ctx.addIssue({ code: 'custom', path: ['unsigned'], message: 'the unsigned claims are an object claim described "Unsigned claims of the site visitor."' });
    }
  }),
  additionalProperties: z.literal(false),
});
const PutAdaptiveSchema = z.strictObject({ jsonSchema: JsonSchema });

function agentSettingsOf(site: SiteRec): AgentSettingsRec {
  site.agentSettings ??= { topics: 'auto', changeRequests: 'never', customInstructions: emptyDocument() as RichTextDoc };
  return site.agentSettings;
}

function mcpServersOf(site: SiteRec): Map<string, McpServerRec> {
  site.mcpServers ??= new Map();
  return site.mcpServers;
}

const sitePathOf = (site: SiteRec) => `/orgs/${site.org}/sites/${site.id}`;

function agentSettingsView(site: SiteRec): Record<string, unknown> {
  const a = agentSettingsOf(site);
  return compact({
    object: 'site-agent-settings',
    updatedAt: a.updatedAt,
    updatedBy: a.updatedBy,
    urls: { location: `${sitePathOf(site)}/agent-settings` },
    scans: { topics: a.topics },
    findings: { changeRequests: a.changeRequests },
    editing: { customInstructions: structuredClone(a.customInstructions) },
  });
}

function mcpServerView(req: RouteRequest, site: SiteRec, m: McpServerRec): Record<string, unknown> {
  return compact({
    object: 'site-mcp-server',
    id: m.id,
    name: m.name,
    url: m.url,
    transport: m.transport,
    headers: { ...m.headers },
    condition: m.condition,
    urls: { location: apiUrl(viewCtx(req), `${sitePathOf(site)}/mcp-servers/${m.id}`) },
  });
}

function mcpServerOf(req: RouteRequest, site: SiteRec): McpServerRec {
  const m = mcpServersOf(site).get(req.params.mcpServer);
  if (!m) throw notFound(`no MCP server ${req.params.mcpServer} in site ${site.id}`);
  return m;
}

export function siteAiRoutes(router: Router): void {
  const SITE = '/v1/orgs/:org/sites/:site';

  router.add('GET', `${SITE}/agent-settings`, (req) => ok(agentSettingsView(siteOf(req).site)));

  router.add('PUT', `${SITE}/agent-settings`, (req) => {
    const { site } = siteOf(req);
    const body = validate(PutAgentSettings, bodyObject(req));
    site.agentSettings = {
      topics: body.scans.topics,
      changeRequests: body.findings.changeRequests,
      customInstructions: storeDoc(req, body.editing.customInstructions as RichTextDoc),
      updatedAt: nowIso(req),
      ...(req.userId ? { updatedBy: req.userId } : {}),
    };
    return ok(agentSettingsView(site));
  });

  router.add('GET', `${SITE}/mcp-servers`, (req) => {
    const { site } = siteOf(req);
    return listReply(req.query, [...mcpServersOf(site).values()], (m) => mcpServerView(req, site, m));
  });

  router.add('POST', `${SITE}/mcp-servers`, (req) => {
    const { site } = siteOf(req);
    const body = validate(CreateMcpServer, bodyObject(req));
    const m: McpServerRec = compact({
      id: req.world.newId('mcp'),
      name: body.name,
      url: body.url,
      transport: body.transport ?? 'sse',
      headers: { ...body.headers },
      condition: body.condition ?? undefined,
    }) as unknown as McpServerRec;
    mcpServersOf(site).set(m.id, m);
    // The description documents no Location header for this answer.
    return created(mcpServerView(req, site, m));
  });

  router.add('GET', `${SITE}/mcp-servers/:mcpServer`, (req) => {
    const { site } = siteOf(req);
    return ok(mcpServerView(req, site, mcpServerOf(req, site)));
  });

  router.add('PATCH', `${SITE}/mcp-servers/:mcpServer`, (req) => {
    const { site } = siteOf(req);
    const m = mcpServerOf(req, site);
    const body = validate(PatchMcpServer, bodyObject(req));
    if (body.name !== undefined) m.name = body.name;
    if (body.url !== undefined) m.url = body.url;
    if (body.transport !== undefined) m.transport = body.transport;
    if (body.headers !== undefined) m.headers = { ...body.headers };
    // null (or an empty expression) removes the condition; absent leaves it.
    if (body.condition !== undefined) {
      if (body.condition === null || body.condition === '') delete m.condition;
      else m.condition = body.condition;
    }
    return ok(mcpServerView(req, site, m));
  });

  router.add('DELETE', `${SITE}/mcp-servers/:mcpServer`, (req) => {
    const { site } = siteOf(req);
    return deleted(mcpServersOf(site).delete(req.params.mcpServer));
  });

  router.add('GET', `${SITE}/adaptive-schema`, (req) => {
    const { site } = siteOf(req);
    if (!site.adaptiveSchema) throw notFound(`site ${site.id} has no adaptive schema`);
    return ok({ object: 'site-adaptive-schema', jsonSchema: structuredClone(site.adaptiveSchema.jsonSchema), updatedAt: site.adaptiveSchema.updatedAt });
  });

  router.add('PUT', `${SITE}/adaptive-schema`, (req) => {
    const { site } = siteOf(req);
    const body = validate(PutAdaptiveSchema, bodyObject(req));
    site.adaptiveSchema = { jsonSchema: structuredClone(body.jsonSchema) as Record<string, unknown>, updatedAt: nowIso(req) };
    return ok({ object: 'site-adaptive-schema', jsonSchema: structuredClone(site.adaptiveSchema.jsonSchema), updatedAt: site.adaptiveSchema.updatedAt });
  });
}

/** The state file's fields of a site: agent settings (over the defaults), MCP servers, the adaptive schema's claims. */
export const SiteAiSeed = {
  agentSettings: z
    .strictObject({ topics: Topics.optional(), changeRequests: ChangeRequests.optional(), customInstructions: z.union([z.string(), SeedDoc]).optional() })
    .optional(),
  mcpServers: z
    .array(z.strictObject({ id: z.string().min(1).optional(), name: Name, url: Url, transport: Transport.optional(), headers: Headers.default({}), condition: Expression.optional() }))
    .default([]),
  /** The claims by name (`properties` of the JSON schema). */
  adaptiveSchema: z.strictObject({ properties: z.record(z.string(), Claim) }).optional(),
};

type SeedOf = z.output<z.ZodObject<typeof SiteAiSeed>>;

export function seedSiteAi(ctx: SeedContext, site: SiteRec, seed: SeedOf): void {
  if (seed.agentSettings) {
    const a = agentSettingsOf(site);
    if (seed.agentSettings.topics) a.topics = seed.agentSettings.topics;
    if (seed.agentSettings.changeRequests) a.changeRequests = seed.agentSettings.changeRequests;
    if (seed.agentSettings.customInstructions !== undefined) a.customInstructions = seedDocument(ctx.world, seed.agentSettings.customInstructions as string | RichTextDoc);
    a.updatedAt = ctx.stamp();
  }
  for (const m of seed.mcpServers) {
    const id = m.id ?? ctx.world.newId('mcp');
    mcpServersOf(site).set(id, compact({ id, name: m.name, url: m.url, transport: m.transport ?? 'sse', headers: { ...m.headers }, condition: m.condition }) as unknown as McpServerRec);
  }
  if (seed.adaptiveSchema) {
    site.adaptiveSchema = { jsonSchema: { type: 'object', properties: structuredClone(seed.adaptiveSchema.properties), additionalProperties: false }, updatedAt: ctx.stamp() };
  }
}
