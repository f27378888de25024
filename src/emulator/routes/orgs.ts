/** Organizations (API 4.5): list, get, patch; agent instructions; the organization's spaces. */
import { z } from 'zod';
import { badRequest, bodyObject, listReply, ok, validate } from '../http.js';
import type { Router } from '../http.js';
import { agentInstructionsView, orgView, spaceView } from '../views.js';
import { Doc, Role, Uri, canReach, liveSpaces, nowIso, orgOf, storeDoc, viewCtx } from './common.js';

const PatchOrg = z.strictObject({
  title: z.string().min(2).max(255).optional(),
  emailDomains: z.array(z.string().min(1)).optional(),
  hostname: z.string().min(3).max(32).optional(),
  defaultRole: Role.nullable().optional(),
  defaultContent: z.strictObject({ type: z.literal('site'), site: z.string().min(1) }).nullable().optional(),
  logo: Uri(2048).nullable().optional(),
  sso: z.boolean().optional(),
  ai: z.boolean().optional(),
  inviteLinks: z.boolean().optional(),
  mergeRules: z.looseObject({ type: z.string() }).optional(),
});

const PutAgentInstructions = z.strictObject({ instructions: Doc });

export function orgRoutes(router: Router): void {
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

  router.add('GET', '/v1/orgs/:org/spaces', (req) => {
    const org = orgOf(req);
    return listReply(req.query, liveSpaces(req, org), (s) => spaceView(viewCtx(req), s));
  });

  router.add('GET', '/v1/orgs/:org/agent-instructions', (req) => ok(agentInstructionsView(viewCtx(req), orgOf(req))));

  router.add('PUT', '/v1/orgs/:org/agent-instructions', (req) => {
    const org = orgOf(req);
    const body = validate(PutAgentInstructions, bodyObject(req));
    org.agentInstructions = { instructions: storeDoc(req, body.instructions), updatedAt: nowIso(req), updatedBy: req.userId };
    return ok(agentInstructionsView(viewCtx(req), org));
  });
}
