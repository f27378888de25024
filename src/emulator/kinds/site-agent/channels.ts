/**
 * The channels of a site's agent (`listSiteChannels`, `createSiteChannel`, `getSiteChannelById`,
 * `updateSiteChannelById`, `deleteSiteChannelById`): a setup (`type` and its `setupSettings`, whose
 * allow-list depends on the type) and a role. Connecting the service is the app's part: a channel is
 * `pending` until then, which the emulator never reaches.
 */
import { z } from 'zod';
import { bodyObject, created, deleted, listReply, notFound, ok, validate, type RouteRequest, type Router } from '../../http.js';
import type { SeedContext } from '../../kind.js';
import { nowIso, viewCtx } from '../../routing.js';
import { apiUrl } from '../../views.js';
import type { SiteRec } from '../sites/records.js';
import { siteOf } from '../sites/routes.js';

export interface ChannelRec {
  id: string;
  type: string;
  setupSettings: Record<string, string[]>;
  role: 'support' | 'collaborator';
  status: 'active' | 'pending';
  createdAt: string;
}

declare module '../sites/records.js' {
  interface SiteRec {
    /** Made on first use. */
    channels?: Map<string, ChannelRec>;
  }
}

const Generic = z.string().regex(/^[a-zA-Z0-9_*-]+$/);
const Repository = z.string().regex(/^[a-zA-Z0-9._*-]+\/[a-zA-Z0-9._*-]+$/);
const Role = z.enum(['collaborator', 'support']);

/** SiteChannelSetup: the allow-list each type takes (`setupSettings` admits no other field). */
export const ChannelSetup = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('builtin:slack'), setupSettings: z.strictObject({ allowedChannels: z.array(Generic).optional() }) }),
  z.looseObject({ type: z.literal('builtin:linear'), setupSettings: z.strictObject({ allowedTeams: z.array(Generic).optional() }) }),
  z.looseObject({ type: z.literal('builtin:github'), setupSettings: z.strictObject({ allowedRepositories: z.array(Repository).optional() }) }),
  z.looseObject({ type: z.literal('builtin:discord'), setupSettings: z.strictObject({ allowedChannels: z.array(Generic).optional() }) }),
]);
const RoleField = z.looseObject({ role: Role.optional() });

function channelsOf(site: SiteRec): Map<string, ChannelRec> {
  site.channels ??= new Map();
  return site.channels;
}

function channelView(req: RouteRequest, site: SiteRec, c: ChannelRec): Record<string, unknown> {
  return {
    object: 'site-channel',
    id: c.id,
    type: c.type,
    setupSettings: structuredClone(c.setupSettings),
    status: c.status,
    role: c.role,
    answers: 0,
    createdAt: c.createdAt,
    urls: { location: apiUrl(viewCtx(req), `/orgs/${site.org}/sites/${site.id}/channels/${c.id}`) },
  };
}

function channelOf(req: RouteRequest, site: SiteRec): ChannelRec {
  const c = channelsOf(site).get(req.params.channel);
  if (!c) throw notFound(`no channel ${req.params.channel} in site ${site.id}`);
  return c;
}

export function channelRoutes(router: Router): void {
  const SITE = '/v1/orgs/:org/sites/:site';

  router.add('GET', `${SITE}/channels`, (req) => {
    const { site } = siteOf(req);
    return listReply(req.query, [...channelsOf(site).values()], (c) => channelView(req, site, c));
  });

  router.add('POST', `${SITE}/channels`, (req) => {
    const { site } = siteOf(req);
    const body = bodyObject(req);
    const setup = validate(ChannelSetup, body);
    const { role } = validate(RoleField, body);
    const c: ChannelRec = {
      id: req.world.newId('channel'),
      type: setup.type,
      setupSettings: structuredClone(setup.setupSettings) as Record<string, string[]>,
      role: role ?? 'support',
      status: 'pending',
      createdAt: nowIso(req),
    };
    channelsOf(site).set(c.id, c);
    return created(channelView(req, site, c));
  });

  router.add('GET', `${SITE}/channels/:channel`, (req) => {
    const { site } = siteOf(req);
    return ok(channelView(req, site, channelOf(req, site)));
  });

  router.add('PATCH', `${SITE}/channels/:channel`, (req) => {
    const { site } = siteOf(req);
    const c = channelOf(req, site);
    const body = bodyObject(req);
    const { role } = validate(RoleField, body);
    // Either a setup (its type and settings) or a role, or both.
    if (body.type !== undefined || body.setupSettings !== undefined) {
      const setup = validate(ChannelSetup, body);
      c.type = setup.type;
      c.setupSettings = structuredClone(setup.setupSettings) as Record<string, string[]>;
    }
    if (role !== undefined) c.role = role;
    return ok(channelView(req, site, c));
  });

  router.add('DELETE', `${SITE}/channels/:channel`, (req) => {
    const { site } = siteOf(req);
    return deleted(channelsOf(site).delete(req.params.channel));
  });
}

/** A channel of the state file: a setup and a role, as if made earlier through the API. */
export const ChannelSeed = z.intersection(ChannelSetup, z.object({ id: z.string().min(1).optional(), role: Role.default('support'), status: z.enum(['active', 'pending']).default('active') }));

export function seedChannels(ctx: SeedContext, site: SiteRec, seeds: ReadonlyArray<z.output<typeof ChannelSeed>>): void {
  for (const s of seeds) {
    const id = s.id ?? ctx.world.newId('channel');
    channelsOf(site).set(id, { id, type: s.type, setupSettings: structuredClone(s.setupSettings) as Record<string, string[]>, role: s.role, status: s.status, createdAt: ctx.stamp() });
  }
}
