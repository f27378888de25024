/** Integrations an organization publishes; their names are global (`/v1/integrations/{name}`). */
import { z } from 'zod';
import { HttpError, badRequest, bodyObject, deleted, listReply, notFound, ok, queryBoolean, validate } from '../http.js';
import type { RouteRequest } from '../http.js';
import { SeedError, defineKind } from '../kind.js';
import type { OrgRec } from '../model.js';
import { canReach, viewCtx } from '../routing.js';
import { apiUrl, appUrl, compact } from '../views.js';
import type { Obj, ViewContext } from '../views.js';
import { orgView } from './organization.js';

export interface IntegrationRec {
  name: string;
  owner: string;
  version: number;
  title: string;
  description: string;
  summary?: string;
  previewImages: string[];
  icon?: string;
  runtime: string;
  target: string;
  visibility: string;
  verified: boolean;
  scopes: string[];
  categories: string[];
  blocks: unknown[];
  contentSources: unknown[];
  externalLinks: unknown[];
  configurations: Record<string, unknown>;
  contentSecurityPolicy?: string;
  /** Kept, never returned. */
  script: string;
  /** Kept, never returned. */
  secrets: Record<string, string>;
}

declare module '../model.js' {
  interface World {
    /** Published integrations by name. */
    integrations: Map<string, IntegrationRec>;
  }
}

// The enums of the live description (IntegrationScope, IntegrationTarget, IntegrationVisibility,
// IntegrationCategory).
const SCOPES = [
  'space:content:read', 'space:content:write', 'space:metadata:read', 'space:metadata:write', 'space:git:sync', 'page:feedback:read',
  'site:metadata:read', 'site:views:read', 'site:script:inject', 'site:script:cookies', 'site:visitor:auth', 'site:visitor:claims',
  'site:adaptive:read', 'site:adaptive:write', 'conversations:ingest', 'openapi:read', 'openapi:write',
] as const;
const Scope = z.enum(SCOPES);
const Target = z.enum(['all', 'site', 'space', 'organization']);
const Visibility = z.enum(['public', 'private', 'unlisted']);
const Category = z.enum(['analytics', 'collaboration', 'content', 'marketing', 'visitor-auth', 'other']);

const IntegrationSeed = z.strictObject({
  name: z.string().min(1).max(100).regex(/^[a-zA-Z0-9-_.]+$/),
  title: z.string().min(2).max(30),
  description: z.string().max(100),
  summary: z.string().max(2048).optional(),
  version: z.number().int().min(1).optional(),
  target: oneOf(Target.options).optional(),
  visibility: oneOf(Visibility.options).optional(),
  scopes: z.array(oneOf(SCOPES)).default([]),
  categories: z.array(oneOf(Category.options)).default([]),
  script: z.string().default(''),
  secrets: z.record(z.string(), z.string()).optional(),
  verified: z.boolean().optional(),
});

const IntegrationName = z
  .string()
  .max(100)
  .regex(/^[a-zA-Z0-9-_.]+$/, 'letters, digits, "-", "_" and "." only');
/** In the state file: a string (its type stays `string`) that must be one of `values`. */
function oneOf(values: readonly string[]) {
  return z.string().refine((s) => values.includes(s), `must be one of ${values.join(', ')}`);
}

const Publish = z.strictObject({
  runtime: z.string().min(1).optional(),
  icon: z.string().optional(),
  title: z.string().min(2).max(30),
  description: z.string().max(100),
  summary: z.string().max(2048).optional(),
  previewImages: z.array(z.string()).max(3).optional(),
  visibility: Visibility.optional(),
  target: Target.optional(),
  scopes: z.array(Scope),
  categories: z.array(Category).optional(),
  blocks: z.array(z.record(z.string(), z.unknown())).optional(),
  contentSources: z.array(z.record(z.string(), z.unknown())).optional(),
  externalLinks: z.array(z.record(z.string(), z.unknown())).optional(),
  configurations: z.record(z.string(), z.unknown()).optional(),
  script: z.string().min(1),
  organization: z.string().min(1),
  secrets: z.record(z.string(), z.string()).optional(),
  contentSecurityPolicy: z.string().optional(),
});

/** Never `script` nor `secrets`. */
export function integrationView(ctx: ViewContext, it: IntegrationRec): Obj {
  const owner = ctx.world.orgs.get(it.owner);
  return compact({
    object: 'integration',
    name: it.name,
    version: it.version,
    title: it.title,
    description: it.description,
    summary: it.summary,
    previewImages: [...it.previewImages],
    target: it.target,
    verified: it.verified,
    visibility: it.visibility,
    scopes: [...it.scopes],
    categories: [...it.categories],
    blocks: structuredClone(it.blocks),
    contentSources: structuredClone(it.contentSources),
    configurations: structuredClone(it.configurations),
    externalLinks: structuredClone(it.externalLinks),
    owner: owner ? orgView(ctx, owner) : undefined,
    urls: {
      location: apiUrl(ctx, `/integrations/${it.name}`),
      icon: `https://integrations.docplane.test/${it.name}/icon.png`,
      app: appUrl(`/integrations/${it.name}`),
      assets: `https://integrations.docplane.test/${it.name}/assets/`,
      publicEndpoint: `https://integrations.docplane.test/v1/integrations/${it.name}/integration`,
      // Required by the live description; it equals publicEndpoint without a separate content origin.
      publicContentEndpoint: `https://integrations.docplane.test/v1/integrations/${it.name}/integration`,
    },
    permissions: { admin: ctx.access === 'write' },
    contentSecurityPolicy: it.contentSecurityPolicy,
  });
}

/** The publishing organization, by id or hostname (the API's "id or subdomain"). */
function publisher(req: RouteRequest, ref: string): OrgRec {
  const org = req.world.orgs.get(ref) ?? [...req.world.orgs.values()].find((o) => o.hostname === ref);
  if (!org || !canReach(req, org)) throw badRequest(`organization: no organization ${ref}`);
  return org;
}

export const integrationsKind = defineKind({
  name: 'integrations',
  auditObjects: { integrations: 'integration' },
  orgSeed: {
    /** Integrations this organization published. */
    integrations: z.array(IntegrationSeed).default([]),
  },
  secretFields: [{ field: 'secrets', holds: 'map' }],
  initWorld(world) {
    world.integrations = new Map();
  },
  seedOrg(ctx, org, seed, place) {
    const { world } = ctx;
    seed.integrations.forEach((it, i) => {
      if (world.integrations.has(it.name)) throw new SeedError(`${place}.integrations[${i}].name`, `integration ${it.name} is listed twice`);
      world.integrations.set(it.name, {
        name: it.name,
        owner: org.id,
        version: it.version ?? 1,
        title: it.title,
        description: it.description,
        summary: it.summary,
        previewImages: [],
        runtime: 'v1',
        target: it.target ?? 'all',
        visibility: it.visibility ?? 'private',
        verified: it.verified ?? false,
        scopes: [...it.scopes],
        categories: [...it.categories],
        blocks: [],
        contentSources: [],
        externalLinks: [],
        configurations: {},
        script: it.script,
        secrets: { ...(it.secrets ?? {}) },
      });
    });
  },
  routes(router) {
    router.add('GET', '/v1/integrations', (req) => {
      const q = req.query;
      const owner = q.get('owner');
      const search = q.get('search')?.toLowerCase();
      const category = q.get('category');
      const scope = q.get('scope');
      const target = q.get('target');
      const blocks = queryBoolean(q, 'blocks');
      const contentSources = queryBoolean(q, 'contentSources');
      const blockDomain = q.get('blockDomain');
      if (blockDomain !== null) validate(z.object({ blockDomain: IntegrationName }), { blockDomain });
      // The query's enums, as the live description declares them.
      validate(z.object({ scope: Scope.optional(), category: Category.optional(), target: Target.optional() }), {
        scope: scope ?? undefined,
        category: category ?? undefined,
        target: target ?? undefined,
      });
      const items = [...req.world.integrations.values()].filter(
        (it: IntegrationRec) =>
          (!owner || it.owner === owner) &&
          (!search || it.name.toLowerCase().includes(search) || it.title.toLowerCase().includes(search)) &&
          (!category || it.categories.includes(category)) &&
          (!scope || it.scopes.includes(scope)) &&
          (!target || it.target === target) &&
          (blocks === undefined || it.blocks.length > 0 === blocks) &&
          (contentSources === undefined || it.contentSources.length > 0 === contentSources) &&
          (!blockDomain || JSON.stringify(it.blocks).includes(blockDomain)),
      );
      return listReply(q, items, (it) => integrationView(viewCtx(req), it));
    });

    router.add('GET', '/v1/integrations/:name', (req) => {
      validate(z.object({ integrationName: IntegrationName }), { integrationName: req.params.name });
      const it = req.world.integrations.get(req.params.name);
      if (!it) throw notFound(`no integration ${req.params.name}`);
      return ok(integrationView(viewCtx(req), it));
    });

    router.add('POST', '/v1/integrations/:name', (req) => {
      validate(z.object({ integrationName: IntegrationName }), { integrationName: req.params.name });
      const body = validate(Publish, bodyObject(req));
      const org = publisher(req, body.organization);
      const previous = req.world.integrations.get(req.params.name);
      if (previous && previous.owner !== org.id) {
        throw new HttpError(403, `integration ${req.params.name} is published by another organization`);
      }
      // Publishing replaces the whole definition; only the version carries over.
      const it: IntegrationRec = {
        name: req.params.name,
        owner: org.id,
        version: (previous?.version ?? 0) + 1,
        title: body.title,
        description: body.description,
        summary: body.summary,
        previewImages: [...(body.previewImages ?? [])],
        icon: body.icon,
        runtime: body.runtime ?? 'v1',
        target: body.target ?? 'all',
        visibility: body.visibility ?? 'private',
        verified: previous?.verified ?? false,
        scopes: [...body.scopes],
        categories: [...(body.categories ?? [])],
        blocks: structuredClone(body.blocks ?? []),
        contentSources: structuredClone(body.contentSources ?? []),
        externalLinks: structuredClone(body.externalLinks ?? []),
        configurations: structuredClone(body.configurations ?? {}),
        contentSecurityPolicy: body.contentSecurityPolicy,
        script: body.script,
        secrets: { ...(body.secrets ?? {}) },
      };
      req.world.integrations.set(it.name, it);
      return ok(integrationView(viewCtx(req), it));
    });

    // unpublishIntegration: by a member of the publishing organization; its installations go with it.
    router.add('DELETE', '/v1/integrations/:name', (req) => {
      validate(z.object({ integrationName: IntegrationName }), { integrationName: req.params.name });
      const it = req.world.integrations.get(req.params.name);
      if (!it) return deleted(false);
      const owner = req.world.orgs.get(it.owner);
      if (!owner || !canReach(req, owner)) throw new HttpError(403, `integration ${req.params.name} is published by another organization`);
      req.world.integrations.delete(it.name);
      for (const [id, i] of req.world.installations) if (i.integration === it.name) req.world.installations.delete(id);
      return deleted(true);
    });
  },
});
