/** SAML providers of an organization and its SSO entry points. */
import { z } from 'zod';
import { badRequest, bodyObject, created, deleted, listReply, notFound, ok, validate } from '../http.js';
import type { RouteRequest } from '../http.js';
import { SeedError, defineKind } from '../kind.js';
import type { OrgRec, Role as RoleT } from '../model.js';
import { location, nowIso, orgOf, viewCtx } from '../routing.js';
import { Id, Role, Uri } from '../schemas.js';
import { apiUrl, compact } from '../views.js';
import type { Obj, ViewContext } from '../views.js';
import { findTeam, teamView } from './teams.js';

export interface SamlRec {
  id: string;
  label: string;
  entityID?: string;
  ssoURL?: string;
  certificate?: string;
  /** Team id, or null. */
  defaultTeam: string | null;
  defaultRole: RoleT | null;
  status: string;
  createdAt: string;
}

declare module '../model.js' {
  interface OrgRec {
    saml: Map<string, SamlRec>;
  }
}

const SamlSeed = z.strictObject({
  id: Id.optional(),
  label: z.string().min(1).max(30),
  entityID: z.string().max(1024).optional(),
  ssoURL: z.string().max(2048).optional(),
  certificate: z.string().max(10000).optional(),
  /** Team title or id. */
  defaultTeam: z.string().min(1).nullable().optional(),
  defaultRole: Role.nullable().optional(),
  status: z.string().optional(),
});

// The live description's request body: `defaultTeam` is a string, not nullable (no way to remove a
// default team by update: docs/conformance.md); `defaultRole` is a role or null (guest).
const SamlFields = {
  label: z.string().min(1).max(30),
  entityID: z.string().max(1024).optional(),
  certificate: z.string().max(10000).optional(),
  ssoURL: Uri(2048).optional(),
  defaultTeam: z.string().min(1).optional(),
  defaultRole: Role.nullable().optional(),
};
const CreateSaml = z.strictObject(SamlFields);
const PatchSaml = z.strictObject({ ...SamlFields, label: SamlFields.label.optional() });

export function samlView(ctx: ViewContext, org: OrgRec, p: SamlRec): Obj {
  const team = p.defaultTeam ? org.teams.get(p.defaultTeam) : undefined;
  return compact({
    object: 'saml-provider',
    id: p.id,
    label: p.label,
    // ssoURL, entityID and certificate are required by the live description
    // (OrganizationSAMLProvider); for a provider not configured yet, empty strings and, for the
    // ssoURL (a URI), a placeholder on the reserved `.invalid` domain.
    ssoURL: p.ssoURL ?? `https://idp.invalid/saml/${p.id}`,
    entityID: p.entityID ?? '',
    certificate: p.certificate ?? '',
    // A team object, or absent: never null.
    defaultTeam: team ? teamView(ctx, org, team) : undefined,
    defaultRole: p.defaultRole,
    createdAt: p.createdAt,
    status: p.status,
    service: {
      acsURL: `https://app.docplane.test/saml/${p.id}/acs`,
      startURL: `https://app.docplane.test/saml/${p.id}/start`,
      entityID: `https://app.docplane.test/saml/${p.id}`,
    },
    urls: { location: apiUrl(ctx, `/orgs/${org.id}/saml/${p.id}`) },
  });
}

function samlOf(req: RouteRequest, org: OrgRec): SamlRec {
  const p = org.saml.get(req.params.saml);
  if (!p) throw notFound(`no SAML provider ${req.params.saml} in organization ${org.id}`);
  return p;
}

function teamId(org: OrgRec, id: string | undefined): string | undefined {
  if (id === undefined) return id;
  if (!org.teams.has(id)) throw badRequest(`defaultTeam: no team ${id} in organization ${org.id}`);
  return id;
}

export const samlKind = defineKind({
  name: 'saml',
  auditObjects: { saml: 'saml-provider' },
  orgSeed: {
    saml: z.array(SamlSeed).default([]),
  },
  secretFields: [{ field: 'certificate', holds: 'value' }],
  seedOrg(ctx, org, seed, place) {
    org.saml = new Map();
    seed.saml.forEach((p, i) => {
      let defaultTeam: string | null = null;
      if (p.defaultTeam) {
        const team = findTeam(org, p.defaultTeam);
        if (!team) throw new SeedError(`${place}.saml[${i}].defaultTeam`, `no team ${p.defaultTeam} in ${org.id}`);
        defaultTeam = team.id;
      }
      const pid = p.id ?? ctx.world.newId('saml');
      org.saml.set(pid, {
        id: pid,
        label: p.label,
        entityID: p.entityID,
        ssoURL: p.ssoURL,
        certificate: p.certificate,
        defaultTeam,
        defaultRole: p.defaultRole ?? null,
        status: p.status ?? 'active',
        createdAt: ctx.stamp(),
      });
    });
  },
  on(_world, event) {
    // A provider does not keep a default team that is gone.
    if (event.type !== 'team-deleted') return;
    for (const provider of event.org.saml.values()) if (provider.defaultTeam === event.teamId) provider.defaultTeam = null;
  },
  routes(router) {
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
        // `pending` until the identity provider's three fields are given (SAMLProviderStatus).
        status: body.entityID && body.ssoURL && body.certificate ? 'active' : 'pending',
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
      if (p.status === 'pending' && p.entityID && p.ssoURL && p.certificate) p.status = 'active';
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
  },
});
