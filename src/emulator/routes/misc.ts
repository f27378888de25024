/** SAML providers and SSO (API 4.3), translations (4.4) and integrations (4.13). */
import { z } from 'zod';
import { HttpError, badRequest, bodyObject, created, deleted, listReply, noContent, notFound, ok, queryBoolean, validate } from '../http.js';
import type { RouteRequest, Router } from '../http.js';
import { integrationView, samlView, translationView } from '../views.js';
import type { IntegrationRec, OrgRec, SamlRec, TranslationRec } from '../world.js';
import { Doc, Role, Uri, canReach, location, nowIso, orgOf, storeDoc, viewCtx } from './common.js';

const SamlFields = {
  label: z.string().min(1).max(30),
  entityID: z.string().max(1024).optional(),
  certificate: z.string().max(10000).optional(),
  ssoURL: Uri(2048).optional(),
  defaultTeam: z.string().min(1).nullable().optional(),
  defaultRole: Role.nullable().optional(),
};
const CreateSaml = z.strictObject(SamlFields);
const PatchSaml = z.strictObject({ ...SamlFields, label: SamlFields.label.optional() });

const Language = z.string().min(1).max(16);
const CreateTranslation = z.strictObject({
  language: Language,
  source: z.strictObject({ space: z.string().min(1), language: Language }),
  instructions: Doc.optional(),
});
const PutTranslation = z.strictObject({ instructions: Doc });

const IntegrationName = z
  .string()
  .max(100)
  .regex(/^[a-zA-Z0-9-_.]+$/, 'letters, digits, "-", "_" and "." only');
const Publish = z.strictObject({
  runtime: z.string().min(1).optional(),
  icon: z.string().optional(),
  title: z.string().min(2).max(30),
  description: z.string().max(100),
  summary: z.string().max(2048).optional(),
  previewImages: z.array(z.string()).max(3).optional(),
  visibility: z.string().min(1).optional(),
  target: z.string().min(1).optional(),
  scopes: z.array(z.string().min(1)),
  categories: z.array(z.string().min(1)).optional(),
  blocks: z.array(z.record(z.string(), z.unknown())).optional(),
  contentSources: z.array(z.record(z.string(), z.unknown())).optional(),
  externalLinks: z.array(z.record(z.string(), z.unknown())).optional(),
  configurations: z.record(z.string(), z.unknown()).optional(),
  script: z.string().min(1),
  organization: z.string().min(1),
  secrets: z.record(z.string(), z.string()).optional(),
  contentSecurityPolicy: z.string().optional(),
});

function samlOf(req: RouteRequest, org: OrgRec): SamlRec {
  const p = org.saml.get(req.params.saml);
  if (!p) throw notFound(`no SAML provider ${req.params.saml} in organization ${org.id}`);
  return p;
}

function teamId(org: OrgRec, id: string | null | undefined): string | null | undefined {
  if (id === undefined || id === null) return id;
  if (!org.teams.has(id)) throw badRequest(`defaultTeam: no team ${id} in organization ${org.id}`);
  return id;
}

function translationOf(req: RouteRequest, org: OrgRec): TranslationRec {
  const t = org.translations.get(req.params.translation);
  if (!t) throw notFound(`no translation ${req.params.translation} in organization ${org.id}`);
  return t;
}

export function samlRoutes(router: Router): void {
  router.add('GET', '/v1/orgs/:org/saml', (req) => {
    const org = orgOf(req);
    return listReply(req.query, [...org.saml.values()], (p) => samlView(viewCtx(req), org, p));
  });

  router.add('POST', '/v1/orgs/:org/saml', (req) => {
    const org = orgOf(req);
    const body = validate(CreateSaml, bodyObject(req));
    const p: SamlRec = {
      id: req.world.newId('saml'),
      label: body.label,
      entityID: body.entityID,
      ssoURL: body.ssoURL,
      certificate: body.certificate,
      defaultTeam: teamId(org, body.defaultTeam) ?? null,
      defaultRole: body.defaultRole ?? null,
      status: 'active',
      createdAt: nowIso(req),
    };
    org.saml.set(p.id, p);
    return created(samlView(viewCtx(req), org, p), location(req, `/orgs/${org.id}/saml/${p.id}`));
  });

  router.add('GET', '/v1/orgs/:org/saml/:saml', (req) => {
    const org = orgOf(req);
    return ok(samlView(viewCtx(req), org, samlOf(req, org)));
  });

  router.add('PATCH', '/v1/orgs/:org/saml/:saml', (req) => {
    const org = orgOf(req);
    const p = samlOf(req, org);
    const body = validate(PatchSaml, bodyObject(req));
    const team = teamId(org, body.defaultTeam);
    if (body.label !== undefined) p.label = body.label;
    if (body.entityID !== undefined) p.entityID = body.entityID;
    if (body.ssoURL !== undefined) p.ssoURL = body.ssoURL;
    if (body.certificate !== undefined) p.certificate = body.certificate;
    if (team !== undefined) p.defaultTeam = team;
    if (body.defaultRole !== undefined) p.defaultRole = body.defaultRole;
    return ok(samlView(viewCtx(req), org, p));
  });

  router.add('DELETE', '/v1/orgs/:org/saml/:saml', (req) => {
    const org = orgOf(req);
    return deleted(org.saml.delete(req.params.saml));
  });

  router.add('GET', '/v1/orgs/:org/sso', (req) => {
    const org = orgOf(req);
    const items = [...org.saml.values()].map((p) => ({ id: p.id, label: p.label, startURL: `https://app.docplane.test/saml/${p.id}/start` }));
    return ok({ items });
  });
}

export function translationRoutes(router: Router): void {
  router.add('GET', '/v1/orgs/:org/translations', (req) => {
    const org = orgOf(req);
    return listReply(req.query, [...org.translations.values()], (t) => translationView(viewCtx(req), org, t));
  });

  router.add('POST', '/v1/orgs/:org/translations', (req) => {
    const org = orgOf(req);
    const body = validate(CreateTranslation, bodyObject(req));
    const space = req.world.spaces.get(body.source.space);
    if (!space || space.org !== org.id || space.deletedAt) throw badRequest(`source.space: no space ${body.source.space} in organization ${org.id}`);
    const at = nowIso(req);
    const t: TranslationRec = {
      id: req.world.newId('tr'),
      language: body.language,
      source: { space: body.source.space, language: body.source.language },
      instructions: body.instructions ? storeDoc(req, body.instructions) : undefined,
      resultSpace: req.world.newId('space'),
      revision: req.world.newId('rev'),
      runs: 0,
      createdAt: at,
      updatedAt: at,
    };
    org.translations.set(t.id, t);
    return created(translationView(viewCtx(req), org, t), location(req, `/orgs/${org.id}/translations/${t.id}`));
  });

  router.add('GET', '/v1/orgs/:org/translations/:translation', (req) => {
    const org = orgOf(req);
    return ok(translationView(viewCtx(req), org, translationOf(req, org)));
  });

  router.add('PUT', '/v1/orgs/:org/translations/:translation', (req) => {
    const org = orgOf(req);
    const t = translationOf(req, org);
    const body = validate(PutTranslation, bodyObject(req));
    t.instructions = storeDoc(req, body.instructions);
    t.updatedAt = nowIso(req);
    return ok(translationView(viewCtx(req), org, t));
  });

  router.add('DELETE', '/v1/orgs/:org/translations/:translation', (req) => {
    const org = orgOf(req);
    return deleted(org.translations.delete(req.params.translation));
  });

  router.add('POST', '/v1/orgs/:org/translations/:translation/run', (req) => {
    const org = orgOf(req);
    const t = translationOf(req, org);
    t.runs += 1;
    t.updatedAt = nowIso(req);
    return noContent();
  });
}

/** The publishing organization, by id or hostname (the API's "id or subdomain"). */
function publisher(req: RouteRequest, ref: string): OrgRec {
  const org = req.world.orgs.get(ref) ?? [...req.world.orgs.values()].find((o) => o.hostname === ref);
  if (!org || !canReach(req, org)) throw badRequest(`organization: no organization ${ref}`);
  return org;
}

export function integrationRoutes(router: Router): void {
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
}
