/**
 * Installations of integrations on organizations, and on their spaces and sites
 * (`/integrations/{name}/installations/…`, `/orgs/{org}/installations`).
 */
import { z } from 'zod';
import { badRequest, bodyObject, created, deleted, listReply, notFound, ok, validate } from '../http.js';
import type { RouteRequest, Router } from '../http.js';
import { SeedError, defineKind } from '../kind.js';
import type { OrgRec, World } from '../model.js';
import { canReach, location, nowIso, orgOf, viewCtx } from '../routing.js';
import { apiUrl, appUrl, compact } from '../views.js';
import type { Obj, ViewContext } from '../views.js';
import { integrationView } from './integrations.js';
import { siteView } from './sites/site-routes.js';
import { spaceView } from './spaces.js';

type Configuration = Record<string, unknown>;

interface TargetRec {
  configuration: Configuration;
  externalIds: string[];
}

export interface InstallationRec {
  id: string;
  integration: string;
  org: string;
  spaceSelection: 'all' | 'selected';
  siteSelection: 'all' | 'selected';
  configuration: Configuration;
  externalIds: string[];
  createdAt: string;
  updatedAt: string;
  /** Space installations by space id. */
  spaces: Map<string, TargetRec>;
  /** Site installations by site id. */
  sites: Map<string, TargetRec>;
  /** Where the state file seeds it, for the check of its integration once every organization is seeded. */
  seededAt?: string;
}

declare module '../model.js' {
  interface World {
    /** Installations by id. */
    installations: Map<string, InstallationRec>;
  }
}

const Selection = z.enum(['all', 'selected']);
const Configuration = z.record(z.string(), z.unknown());
const ExternalIds = z.array(z.string()).max(5);

const SpaceSeed = z.strictObject({ space: z.string().min(1), configuration: Configuration.optional() });
const SiteSeed = z.strictObject({ site: z.string().min(1), configuration: Configuration.optional() });
const InstallationSeed = z.strictObject({
  integration: z.string().min(1),
  configuration: Configuration.optional(),
  externalIds: ExternalIds.optional(),
  spaces: z.union([z.literal('all'), z.array(SpaceSeed)]).optional(),
  sites: z.union([z.literal('all'), z.array(SiteSeed)]).optional(),
});

const UpdateInstallation = z.strictObject({
  externalIds: ExternalIds.optional(),
  configuration: Configuration.optional(),
  space_selection: Selection.optional(),
  site_selection: Selection.optional(),
});
const UpdateTarget = z.strictObject({ externalIds: ExternalIds.optional(), configuration: Configuration.optional() });

const endpoint = (i: InstallationRec, rest = '') => `https://integrations.docplane.test/v1/integrations/${i.integration}/installations/${i.id}${rest}`;

function installationView(ctx: ViewContext, i: InstallationRec): Obj {
  return {
    object: 'integration-installation',
    id: i.id,
    status: 'active',
    space_selection: i.spaceSelection,
    site_selection: i.siteSelection,
    spaces: i.spaces.size,
    configuration: structuredClone(i.configuration),
    externalIds: [...i.externalIds],
    target: { organization: i.org },
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
    urls: {
      location: apiUrl(ctx, `/integrations/${i.integration}/installations/${i.id}`),
      app: appUrl(`/o/${i.org}/integrations/${i.integration}`),
      publicEndpoint: endpoint(i),
      // Required by the live description; it equals publicEndpoint without a separate content origin.
      publicContentEndpoint: endpoint(i),
    },
  };
}

/**
 * A space or site installation. `space` (`site`) is the id, or with `extended` the Space (Site) object
 * (IntegrationSpaceInstallation's oneOf; the string is deprecated in favour of the object's id).
 */
function targetView(req: RouteRequest, i: InstallationRec, one: 'space' | 'site', id: string, t: TargetRec): Obj {
  const ctx = viewCtx(req);
  const rest = `/${one}s/${id}`;
  let ref: string | Obj = id;
  if (req.query.get('extended') === 'true') {
    const space = one === 'space' ? req.world.spaces.get(id) : undefined;
    const site = one === 'site' ? req.world.orgs.get(i.org)?.sites.get(id) : undefined;
    if (space) ref = spaceView(ctx, space);
    if (site) ref = siteView(ctx, site);
  }
  return compact({
    integration: i.integration,
    installation: i.id,
    status: 'active',
    configuration: structuredClone(t.configuration),
    externalIds: [...t.externalIds],
    urls: {
      location: apiUrl(ctx, `/integrations/${i.integration}/installations/${i.id}${rest}`),
      publicEndpoint: endpoint(i, rest),
      publicContentEndpoint: endpoint(i, rest),
    },
    [one]: ref,
  });
}

/** The installation of a path, when the token reaches its organization. */
function installationOf(req: RouteRequest): InstallationRec {
  const i = req.world.installations.get(req.params.installation);
  const org = i ? req.world.orgs.get(i.org) : undefined;
  if (!i || i.integration !== req.params.name || !org || !canReach(req, org)) throw notFound(`no installation ${req.params.installation} of integration ${req.params.name}`);
  return i;
}

/** Whether an organization may install an integration: its own, or one published for all. */
function installable(world: World, name: string, org: OrgRec): boolean {
  const it = world.integrations.get(name);
  return it !== undefined && (it.owner === org.id || it.visibility !== 'private');
}

function spaceIn(world: World, org: string, id: string): boolean {
  const s = world.spaces.get(id);
  return s !== undefined && s.org === org && !s.deletedAt;
}

function siteIn(world: World, org: string, id: string): boolean {
  return world.orgs.get(org)?.sites.has(id) ?? false;
}

/** The routes of one kind of target (spaces or sites) of an installation. */
function targetRoutes(router: Router, target: 'spaces' | 'sites'): void {
  const one = target === 'spaces' ? 'space' : 'site';
  const exists = target === 'spaces' ? spaceIn : siteIn;
  const base = `/v1/integrations/:name/installations/:installation/${target}`;
  const targetOf = (req: RouteRequest, i: InstallationRec): TargetRec => {
    const t = i[target].get(req.params.target);
    if (!t) throw notFound(`integration ${i.integration} is not installed on ${one} ${req.params.target}`);
    return t;
  };
  router.add('GET', base, (req) => {
    const i = installationOf(req);
    return listReply(req.query, [...i[target].entries()], ([id, t]) => targetView(req, i, one, id, t));
  });
  router.add('POST', base, (req) => {
    const i = installationOf(req);
    // installIntegrationOnSpace takes `space`, installIntegrationOnSite takes `siteId`.
    const field = target === 'spaces' ? 'space' : 'siteId';
    const body = validate(z.strictObject({ [field]: z.string().min(1) }), bodyObject(req)) as Record<string, string>;
    const id = body[field];
    if (!exists(req.world, i.org, id)) throw notFound(`no ${one} ${id} in organization ${i.org}`);
    const t = i[target].get(id) ?? { configuration: {}, externalIds: [] };
    i[target].set(id, t);
    i.updatedAt = nowIso(req);
    return created(targetView(req, i, one, id, t), location(req, `/integrations/${i.integration}/installations/${i.id}/${target}/${id}`));
  });
  router.add('GET', `${base}/:target`, (req) => {
    const i = installationOf(req);
    return ok(targetView(req, i, one, req.params.target, targetOf(req, i)));
  });
  router.add('PATCH', `${base}/:target`, (req) => {
    const i = installationOf(req);
    const t = targetOf(req, i);
    const body = validate(UpdateTarget, bodyObject(req));
    if (body.configuration !== undefined) t.configuration = structuredClone(body.configuration);
    if (body.externalIds !== undefined) t.externalIds = [...body.externalIds];
    return ok(targetView(req, i, one, req.params.target, t));
  });
  router.add('DELETE', `${base}/:target`, (req) => deleted(installationOf(req)[target].delete(req.params.target)));
}

export const installationsKind = defineKind({
  name: 'installations',
  auditObjects: { installations: 'installation' },
  orgSeed: {
    /** Integrations installed on this organization (published by it or by another, not private). */
    installations: z.array(InstallationSeed).default([]),
  },
  secretFields: [{ field: 'configuration', holds: 'map' }],
  initWorld(world) {
    world.installations = new Map();
  },
  seedOrg(ctx, org, seed, place) {
    const { world } = ctx;
    seed.installations.forEach((s, n) => {
      const at = `${place}.installations[${n}]`;
      if ([...world.installations.values()].some((i) => i.org === org.id && i.integration === s.integration)) {
        throw new SeedError(`${at}.integration`, `integration ${s.integration} is installed twice`);
      }
      const stamp = ctx.stamp();
      const targets = (list: ReadonlyArray<{ space?: string; site?: string; configuration?: Configuration }> | 'all' | undefined, one: 'space' | 'site'): Map<string, TargetRec> => {
        const out = new Map<string, TargetRec>();
        if (!Array.isArray(list)) return out;
        list.forEach((t, k) => {
          const id = t[one] ?? '';
          const found = one === 'space' ? spaceIn(world, org.id, id) : siteIn(world, org.id, id);
          if (!found) throw new SeedError(`${at}.${one}s[${k}].${one}`, `no ${one} ${id} in ${org.id}`);
          out.set(id, { configuration: structuredClone(t.configuration ?? {}), externalIds: [] });
        });
        return out;
      };
      const id = world.newId('inst');
      world.installations.set(id, {
        id,
        integration: s.integration,
        org: org.id,
        spaceSelection: s.spaces === 'all' ? 'all' : 'selected',
        siteSelection: s.sites === 'all' ? 'all' : 'selected',
        configuration: structuredClone(s.configuration ?? {}),
        externalIds: [...(s.externalIds ?? [])],
        createdAt: stamp,
        updatedAt: stamp,
        spaces: targets(s.spaces, 'space'),
        sites: targets(s.sites, 'site'),
        seededAt: `${at}.integration`,
      });
    });
  },
  afterSeed(world) {
    // The integration may be published by an organization seeded later in the file.
    for (const i of world.installations.values()) {
      const org = world.orgs.get(i.org);
      if (i.seededAt && org && !installable(world, i.integration, org)) throw new SeedError(i.seededAt, `no integration ${i.integration} that ${org.id} may install`);
    }
  },
  routes(router) {
    router.add('GET', '/v1/orgs/:org/installations', (req) => {
      const org = orgOf(req);
      const search = req.query.get('search')?.toLowerCase();
      const items = [...req.world.installations.values()].filter((i) => i.org === org.id && (!search || i.integration.toLowerCase().includes(search)));
      return listReply(req.query, items, (i) => {
        const it = req.world.integrations.get(i.integration);
        return { installation: installationView(viewCtx(req), i), integration: it ? integrationView(viewCtx(req), it) : undefined };
      });
    });

    router.add('GET', '/v1/integrations/:name/installations', (req) => {
      if (!req.world.integrations.has(req.params.name)) throw notFound(`no integration ${req.params.name}`);
      const externalId = req.query.get('externalId');
      const items = [...req.world.installations.values()].filter((i) => {
        const org = req.world.orgs.get(i.org);
        return i.integration === req.params.name && org !== undefined && canReach(req, org) && (externalId === null || i.externalIds.includes(externalId));
      });
      return listReply(req.query, items, (i) => installationView(viewCtx(req), i));
    });

    router.add('POST', '/v1/integrations/:name/installations', (req) => {
      const body = validate(z.strictObject({ organization: z.string().min(1) }), bodyObject(req));
      const org = orgOf(req, body.organization);
      if (!installable(req.world, req.params.name, org)) throw notFound(`no integration ${req.params.name} that organization ${org.id} may install`);
      if ([...req.world.installations.values()].some((i) => i.org === org.id && i.integration === req.params.name)) {
        throw badRequest(`integration ${req.params.name} is already installed on organization ${org.id}`);
      }
      const at = nowIso(req);
      const i: InstallationRec = {
        id: req.world.newId('inst'),
        integration: req.params.name,
        org: org.id,
        spaceSelection: 'selected',
        siteSelection: 'selected',
        configuration: {},
        externalIds: [],
        createdAt: at,
        updatedAt: at,
        spaces: new Map(),
        sites: new Map(),
      };
      req.world.installations.set(i.id, i);
      return created(installationView(viewCtx(req), i), location(req, `/integrations/${i.integration}/installations/${i.id}`));
    });

    router.add('GET', '/v1/integrations/:name/installations/:installation', (req) => ok(installationView(viewCtx(req), installationOf(req))));

    router.add('PATCH', '/v1/integrations/:name/installations/:installation', (req) => {
      const i = installationOf(req);
      const body = validate(UpdateInstallation, bodyObject(req));
      if (body.configuration !== undefined) i.configuration = structuredClone(body.configuration);
      if (body.externalIds !== undefined) i.externalIds = [...body.externalIds];
      if (body.space_selection !== undefined) i.spaceSelection = body.space_selection;
      if (body.site_selection !== undefined) i.siteSelection = body.site_selection;
      i.updatedAt = nowIso(req);
      return ok(installationView(viewCtx(req), i));
    });

    router.add('DELETE', '/v1/integrations/:name/installations/:installation', (req) => {
      const i = req.world.installations.get(req.params.installation);
      if (i) installationOf(req);
      return deleted(req.world.installations.delete(req.params.installation));
    });

    targetRoutes(router, 'spaces');
    targetRoutes(router, 'sites');
  },
});
