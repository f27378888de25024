/**
 * Organizations: the record, its seed, its view, list / get / patch and the lookup by
 * email domain; and the organization's agent instructions, a second kind in the same place.
 */
import { z } from 'zod';
import { seedDocument } from '../documents.js';
import { badRequest, bodyObject, listReply, ok, validate } from '../http.js';
import { SeedError, defineKind } from '../kind.js';
import type { OrgRec, RichTextDoc, Role as RoleT } from '../model.js';
import { canReach, nowIso, orgOf, storeDoc, viewCtx } from '../routing.js';
import { Doc, Id, MergeRules, Role, SeedDoc, Timestamp, Uri, emptyDocument } from '../schemas.js';
import { apiUrl, appUrl, compact, perms } from '../views.js';
import type { Obj, ViewContext } from '../views.js';

export interface AgentInstructionsRec {
  instructions: RichTextDoc;
  updatedAt: string;
  updatedBy?: string;
}

declare module '../model.js' {
  interface OrgRec {
    title: string;
    createdAt: string;
    emailDomains: string[];
    hostname?: string;
    type: string;
    useCase?: string;
    communityType?: string;
    defaultRole: RoleT | null;
    defaultContent: { type: 'site'; site: string } | null;
    sso: boolean;
    ai: boolean;
    inviteLinks: boolean;
    plan: string;
    mergeRules: unknown;
    customHostname?: string;
    logo?: string;
    agentInstructions: AgentInstructionsRec | null;
  }
}

const orgSeed = {
  id: Id.optional(),
  title: z.string().min(2).max(255),
  createdAt: Timestamp.optional(),
  emailDomains: z.array(z.string()).default([]),
  hostname: z.string().min(3).max(32).optional(),
  type: z.string().optional(),
  useCase: z.string().optional(),
  communityType: z.string().optional(),
  defaultRole: Role.nullable().optional(),
  defaultContent: z.strictObject({ type: z.literal('site'), site: Id }).nullable().optional(),
  sso: z.boolean().optional(),
  ai: z.boolean().optional(),
  inviteLinks: z.boolean().optional(),
  plan: z.string().optional(),
  mergeRules: MergeRules.optional(),
  customHostname: z.string().optional(),
  logo: z.string().optional(),
};

const PatchOrg = z.strictObject({
  // The live description's pattern: no blank at either end.
  title: z.string().min(2).max(255).regex(/^\S.*\S$/, 'must not start or end with a blank').optional(),
  emailDomains: z.array(z.string().min(1)).optional(),
  hostname: z.string().min(3).max(32).optional(),
  defaultRole: Role.nullable().optional(),
  defaultContent: z.strictObject({ type: z.literal('site'), site: z.string().min(1) }).nullable().optional(),
  logo: Uri(2048).nullable().optional(),
  sso: z.boolean().optional(),
  ai: z.boolean().optional(),
  inviteLinks: z.boolean().optional(),
  mergeRules: MergeRules.optional(),
});

export function orgView(ctx: ViewContext, org: OrgRec): Obj {
  return compact({
    object: 'organization',
    id: org.id,
    title: org.title,
    createdAt: org.createdAt,
    emailDomains: [...org.emailDomains],
    hostname: org.hostname,
    type: org.type,
    useCase: org.useCase,
    communityType: org.communityType,
    defaultRole: org.defaultRole,
    // Not nullable in the live description: left out when unset.
    defaultContent: org.defaultContent ? { ...org.defaultContent } : undefined,
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    plan: org.plan,
    mergeRules: structuredClone(org.mergeRules),
    customHostname: org.customHostname,
    urls: compact({ location: apiUrl(ctx, `/orgs/${org.id}`), app: appUrl(`/o/${org.id}`), logo: org.logo }),
    trial: { status: 'notapplicable', count: 0 },
    permissions: perms(ctx, [
      'view',
      'access',
      'admin',
      'ownTeam',
      'createContent',
      'createOpenAPISpec',
      'ingestConversations',
      'viewBilling',
      'listMembers',
      'listTeams',
      'listIntegrations',
      'listInstallations',
      'installIntegration',
    ]),
  });
}

export const organizationKind = defineKind({
  name: 'organization',
  auditObjects: { orgs: 'organization' },
  orgSeed,
  // First in the list: it gives the organization its id and puts it in the world.
  seedOrg(ctx, org, seed, place) {
    const { world } = ctx;
    const id = seed.id ?? world.newId('org');
    if (world.orgs.has(id)) throw new SeedError(`${place}.id`, `organization ${id} is listed twice`);
    Object.assign(org, {
      id,
      title: seed.title,
      createdAt: seed.createdAt ?? ctx.stamp(),
      emailDomains: [...seed.emailDomains],
      hostname: seed.hostname,
      type: seed.type ?? 'business',
      useCase: seed.useCase,
      communityType: seed.communityType,
      defaultRole: seed.defaultRole ?? null,
      defaultContent: seed.defaultContent ?? null,
      sso: seed.sso ?? false,
      ai: seed.ai ?? false,
      inviteLinks: seed.inviteLinks ?? false,
      plan: seed.plan ?? 'free_2024',
      mergeRules: seed.mergeRules ?? { type: 'rules', rules: [] },
      customHostname: seed.customHostname,
      logo: seed.logo,
      agentInstructions: null,
    });
    world.orgs.set(id, org);
  },
  routes(router) {
    router.add('GET', '/v1/orgs', (req) => {
      const orgs = [...req.world.orgs.values()].filter((o) => canReach(req, o));
      return listReply(req.query, orgs, (o) => orgView(viewCtx(req), o));
    });

    router.add('GET', '/v1/orgs/:org', (req) => ok(orgView(viewCtx(req), orgOf(req))));

    router.add('PATCH', '/v1/orgs/:org', (req) => {
      const org = orgOf(req);
      const body = validate(PatchOrg, bodyObject(req));
      if (body.defaultContent && !org.sites.has(body.defaultContent.site)) {
        throw badRequest(`defaultContent.site: no site ${body.defaultContent.site} in organization ${org.id}`);
      }
      if (body.title !== undefined) org.title = body.title;
      if (body.emailDomains !== undefined) org.emailDomains = [...body.emailDomains];
      if (body.hostname !== undefined) org.hostname = body.hostname;
      if (body.defaultRole !== undefined) org.defaultRole = body.defaultRole;
      if (body.defaultContent !== undefined) org.defaultContent = body.defaultContent;
      if (body.logo !== undefined) org.logo = body.logo ?? undefined;
      if (body.sso !== undefined) org.sso = body.sso;
      if (body.ai !== undefined) org.ai = body.ai;
      if (body.inviteLinks !== undefined) org.inviteLinks = body.inviteLinks;
      if (body.mergeRules !== undefined) org.mergeRules = structuredClone(body.mergeRules);
      return ok(orgView(viewCtx(req), org));
    });

    router.add('GET', '/v1/email-domains/:domain/orgs', (req) => {
      const domain = req.params.domain.toLowerCase();
      const orgs = [...req.world.orgs.values()].filter((o) => o.emailDomains.some((d) => d.toLowerCase() === domain));
      return ok({ organizations: orgs.map((o) => orgView(viewCtx(req), o)) });
    });
  },
});

const PutAgentInstructions = z.strictObject({ instructions: Doc });

export function agentInstructionsView(ctx: ViewContext, org: OrgRec): Obj {
  const rec = org.agentInstructions;
  return compact({
    object: 'agent-instructions',
    instructions: rec ? structuredClone(rec.instructions) : emptyDocument(),
    // Both required by the live description (OrganizationAgentInstructions): instructions never
    // written count as written when the organization was made, by its first admin.
    updatedAt: rec?.updatedAt ?? org.createdAt,
    updatedBy: rec?.updatedBy ?? firstAdmin(org),
    urls: { location: apiUrl(ctx, `/orgs/${org.id}/agent-instructions`) },
  });
}

/** The member who stands for the organization when no user wrote something: its first admin. */
function firstAdmin(org: OrgRec): string {
  for (const m of org.members.values()) if (m.role === 'admin') return m.userId;
  return '';
}

export const agentInstructionsKind = defineKind({
  name: 'agent instructions',
  orgSeed: {
    /** Plain text (paragraphs separated by a blank line) or a rich-text document. */
    agentInstructions: z.union([z.string(), SeedDoc]).nullable().optional(),
  },
  seedOrg(ctx, org, seed) {
    if (seed.agentInstructions != null) {
      org.agentInstructions = { instructions: seedDocument(ctx.world, seed.agentInstructions as string | RichTextDoc), updatedAt: ctx.stamp() };
    }
  },
  routes(router) {
    router.add('GET', '/v1/orgs/:org/agent-instructions', (req) => ok(agentInstructionsView(viewCtx(req), orgOf(req))));

    router.add('PUT', '/v1/orgs/:org/agent-instructions', (req) => {
      const org = orgOf(req);
      const body = validate(PutAgentInstructions, bodyObject(req));
      org.agentInstructions = { instructions: storeDoc(req, body.instructions), updatedAt: nowIso(req), updatedBy: req.userId ?? firstAdmin(org) };
      return ok(agentInstructionsView(viewCtx(req), org));
    });
  },
});
