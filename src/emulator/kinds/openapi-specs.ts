/**
 * The organization's OpenAPI specs, by slug: created from a URL or a text, a new version per source
 * sent, a visibility, deleted. The emulator never fetches a URL: a spec from a URL has versions but
 * no raw text (404), as one still being fetched.
 */
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { badRequest, bodyObject, created, deleted, listReply, notFound, ok, validate } from '../http.js';
import type { RouteRequest } from '../http.js';
import { SeedError, defineKind } from '../kind.js';
import type { OrgRec } from '../model.js';
import { nowIso, orgOf, viewCtx } from '../routing.js';
import { Id } from '../schemas.js';
import { apiUrl, appUrl, compact, perms, publishedUrl } from '../views.js';
import type { Obj, ViewContext } from '../views.js';

type Source = { url: string } | { text: string };

interface VersionRec {
  id: string;
  source: Source;
  createdAt: string;
}

export interface OpenAPISpecRec {
  id: string;
  slug: string;
  visibility: 'private' | 'public';
  versions: VersionRec[];
  /** The latest version's processing error, when its text does not parse. */
  parseError?: string;
  createdAt: string;
  updatedAt: string;
}

declare module '../model.js' {
  interface OrgRec {
    openapiSpecs: Map<string, OpenAPISpecRec>;
  }
}

const SLUG = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;
const Slug = z.string().min(1).max(100).regex(SLUG, 'must match ^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$');
const Url = z.string().max(2048).refine((s) => URL.canParse(s), 'must be a valid URI');
const SourceBody = z.union([z.strictObject({ url: Url }), z.strictObject({ text: z.string().min(1) })], { error: 'source: must be {url} or {text}' });
const Visibility = z.enum(['private', 'public']);

const SpecSeed = z
  .strictObject({
    id: Id.optional(),
    slug: Slug,
    url: Url.optional(),
    text: z.string().min(1).optional(),
    visibility: Visibility.default('private'),
  })
  .refine((s) => (s.url === undefined) !== (s.text === undefined), 'give either url or text');

const CreateSpec = z.strictObject({ slug: Slug, source: SourceBody });
const PutSpec = z.strictObject({ source: SourceBody });
const PatchSpec = z.strictObject({ visibility: Visibility });

/** Why a text is not a spec the API could process, or undefined. */
function parseProblem(text: string): string | undefined {
  try {
    const value: unknown = /^\s*[{[]/.test(text) ? JSON.parse(text) : parseYaml(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? undefined : 'the text is not an OpenAPI document (not a mapping)';
  } catch (e) {
    return `the text does not parse: ${(e as Error).message.split('\n')[0]}`;
  }
}

function addVersion(spec: OpenAPISpecRec, id: string, source: Source, at: string): void {
  spec.versions.push({ id, source, createdAt: at });
  spec.parseError = 'text' in source ? parseProblem(source.text) : undefined;
  spec.updatedAt = at;
}

const latest = (spec: OpenAPISpecRec): VersionRec => spec.versions[spec.versions.length - 1];
const specPath = (org: OrgRec, spec: OpenAPISpecRec) => `/orgs/${org.id}/openapi/${spec.slug}`;

export function specView(ctx: ViewContext, org: OrgRec, spec: OpenAPISpecRec): Obj {
  const last = latest(spec);
  return compact({
    object: 'openapi-spec',
    id: spec.id,
    createdAt: spec.createdAt,
    updatedAt: spec.updatedAt,
    slug: spec.slug,
    sourceURL: 'url' in last.source ? last.source.url : undefined,
    processingState: 'complete',
    visibility: spec.visibility,
    lastVersion: last.id,
    lastProcessedAt: last.createdAt,
    lastProcessErrorCode: spec.parseError === undefined ? undefined : 'PARSE_ERROR',
    lastProcessedErrors: spec.parseError === undefined ? undefined : [{ message: spec.parseError, code: 'PARSE_ERROR' }],
    lastProcessedErrorCount: spec.parseError === undefined ? 0 : 1,
    permissions: perms(ctx, ['view', 'edit']),
    urls: compact({
      location: apiUrl(ctx, specPath(org, spec)),
      app: appUrl(`/o/${org.id}/openapi/${spec.slug}`),
      published: spec.visibility === 'public' ? publishedUrl(org.id, `/openapi/${spec.slug}`) : undefined,
    }),
  });
}

function versionView(ctx: ViewContext, org: OrgRec, spec: OpenAPISpecRec, v: VersionRec): Obj {
  const url = 'url' in v.source ? v.source.url : apiUrl(ctx, `${specPath(org, spec)}/versions/${v.id}/content/raw`);
  return { object: 'openapi-spec-version', id: v.id, createdAt: v.createdAt, url, urls: { location: apiUrl(ctx, `${specPath(org, spec)}/versions/${v.id}`) } };
}

function contentView(ctx: ViewContext, org: OrgRec, spec: OpenAPISpecRec, v: VersionRec): Obj {
  const source = 'url' in v.source ? v.source.url : apiUrl(ctx, `${specPath(org, spec)}/versions/${v.id}/content/raw`);
  return { filesystem: {}, urls: { source, public: spec.visibility === 'public' ? source : null } };
}

function specOf(req: RouteRequest, org: OrgRec): OpenAPISpecRec {
  const spec = org.openapiSpecs.get(req.params.slug);
  if (!spec) throw notFound(`no OpenAPI spec ${req.params.slug} in organization ${org.id}`);
  return spec;
}

function versionOf(req: RouteRequest, spec: OpenAPISpecRec): VersionRec {
  const v = spec.versions.find((x) => x.id === req.params.version);
  if (!v) throw notFound(`no version ${req.params.version} of OpenAPI spec ${spec.slug}`);
  return v;
}

function rawOf(spec: OpenAPISpecRec, v: VersionRec): Obj {
  if ('url' in v.source) throw notFound(`version ${v.id} of OpenAPI spec ${spec.slug} comes from ${v.source.url}, which the emulator does not fetch`);
  return { text: v.source.text, format: /^\s*[{[]/.test(v.source.text) ? 'json' : 'yaml' };
}

export const openapiSpecsKind = defineKind({
  name: 'openapiSpecs',
  auditObjects: { openapi: 'openapi-spec' },
  orgSeed: {
    openapiSpecs: z.array(SpecSeed).default([]),
  },
  seedOrg(ctx, org, seed, place) {
    org.openapiSpecs = new Map();
    seed.openapiSpecs.forEach((s, i) => {
      if (org.openapiSpecs.has(s.slug)) throw new SeedError(`${place}.openapiSpecs[${i}].slug`, `${s.slug} is given twice`);
      const at = ctx.stamp();
      const spec: OpenAPISpecRec = { id: s.id ?? ctx.world.newId('oas'), slug: s.slug, visibility: s.visibility, versions: [], createdAt: at, updatedAt: at };
      addVersion(spec, ctx.world.newId('oasv'), s.url !== undefined ? { url: s.url } : { text: s.text as string }, at);
      org.openapiSpecs.set(s.slug, spec);
    });
  },
  routes(router) {
    const base = '/v1/orgs/:org/openapi';
    router.add('GET', base, (req) => {
      const org = orgOf(req);
      return listReply(req.query, [...org.openapiSpecs.values()], (s) => specView(viewCtx(req), org, s));
    });

    const make = (req: RouteRequest, org: OrgRec, slug: string, source: Source): OpenAPISpecRec => {
      const at = nowIso(req);
      const spec: OpenAPISpecRec = { id: req.world.newId('oas'), slug, visibility: 'private', versions: [], createdAt: at, updatedAt: at };
      addVersion(spec, req.world.newId('oasv'), source, at);
      org.openapiSpecs.set(slug, spec);
      return spec;
    };

    router.add('POST', base, (req) => {
      const org = orgOf(req);
      const body = validate(CreateSpec, bodyObject(req));
      if (org.openapiSpecs.has(body.slug)) throw badRequest(`slug: an OpenAPI spec ${body.slug} already exists in organization ${org.id}`);
      return created(specView(viewCtx(req), org, make(req, org, body.slug, body.source)));
    });

    router.add('GET', `${base}/:slug`, (req) => {
      const org = orgOf(req);
      return ok(specView(viewCtx(req), org, specOf(req, org)));
    });

    router.add('PUT', `${base}/:slug`, (req) => {
      const org = orgOf(req);
      const body = validate(PutSpec, bodyObject(req));
      const existing = org.openapiSpecs.get(req.params.slug);
      if (!existing) {
        validate(Slug, req.params.slug);
        return created(specView(viewCtx(req), org, make(req, org, req.params.slug, body.source)));
      }
      addVersion(existing, req.world.newId('oasv'), body.source, nowIso(req));
      return ok(specView(viewCtx(req), org, existing));
    });

    router.add('PATCH', `${base}/:slug`, (req) => {
      const org = orgOf(req);
      const spec = specOf(req, org);
      const body = validate(PatchSpec, bodyObject(req));
      spec.visibility = body.visibility;
      spec.updatedAt = nowIso(req);
      return ok(specView(viewCtx(req), org, spec));
    });

    router.add('DELETE', `${base}/:slug`, (req) => {
      const org = orgOf(req);
      return deleted(org.openapiSpecs.delete(req.params.slug));
    });

    router.add('GET', `${base}/:slug/versions`, (req) => {
      const org = orgOf(req);
      const spec = specOf(req, org);
      return listReply(req.query, [...spec.versions].reverse(), (v) => versionView(viewCtx(req), org, spec, v));
    });
    // The latest version's routes come before those of a version by id, which would take "latest" as an id.
    router.add('GET', `${base}/:slug/versions/latest`, (req) => {
      const org = orgOf(req);
      const spec = specOf(req, org);
      return ok(versionView(viewCtx(req), org, spec, latest(spec)));
    });
    router.add('GET', `${base}/:slug/versions/latest/content`, (req) => {
      const org = orgOf(req);
      const spec = specOf(req, org);
      return ok(contentView(viewCtx(req), org, spec, latest(spec)));
    });
    router.add('GET', `${base}/:slug/versions/latest/content/raw`, (req) => {
      const spec = specOf(req, orgOf(req));
      return ok(rawOf(spec, latest(spec)));
    });
    router.add('GET', `${base}/:slug/versions/:version`, (req) => {
      const org = orgOf(req);
      const spec = specOf(req, org);
      return ok(versionView(viewCtx(req), org, spec, versionOf(req, spec)));
    });
    router.add('GET', `${base}/:slug/versions/:version/content`, (req) => {
      const org = orgOf(req);
      const spec = specOf(req, org);
      return ok(contentView(viewCtx(req), org, spec, versionOf(req, spec)));
    });
  },
});
