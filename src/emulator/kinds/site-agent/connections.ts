/**
 * The context connections of a site's agent (`listSiteContextConnections`,
 * `createSiteContextConnection`, `getSiteContextConnectionById`, `updateSiteContextConnectionById`,
 * `deleteSiteContextConnectionById`): a connector and its setup (ContextConnectorSetup), the usage
 * settings, a filter and a label (which only the update takes). Credentials in the setup are redacted
 * when read back, as the description says of them; the exchange log masks them too.
 */
import { z } from 'zod';
import { bodyObject, created, deleted, listReply, notFound, ok, validate, type RouteRequest, type Router } from '../../http.js';
import type { SeedContext } from '../../kind.js';
import { nowIso, viewCtx } from '../../routing.js';
import { apiUrl, compact } from '../../views.js';
import type { SiteRec } from '../sites/records.js';
import { siteOf } from '../sites/routes.js';

type UsageSettings = { changeRequests: boolean; search: boolean; searchBoost: 'x0.8' | 'x1.0' | 'x1.2'; sync?: boolean };

export interface ConnectionRec {
  id: string;
  connector: string;
  setupSettings?: Record<string, unknown>;
  usageSettings: UsageSettings;
  label?: string;
  filter?: string;
  createdAt: string;
}

declare module '../sites/records.js' {
  interface SiteRec {
    /** Made on first use. */
    contextConnections?: Map<string, ConnectionRec>;
  }
}

/** What a read answers in place of a credential. */
const REDACTED = '********';
/** The setup fields the description says are redacted when read back. */
export const CREDENTIALS = ['token', 'apiToken', 'apiKey', 'clientId', 'clientSecret', 'refreshToken'];

const S = z.string().min(1);
const Repo = z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/);
const withSetup = <T extends z.ZodRawShape>(connector: string, setup: T) => z.looseObject({ connector: z.literal(connector), setupSettings: z.looseObject(setup) });
const TOKEN = { token: S };

/** ContextConnectorSetup: the connector and, for those that need one, its setup. */
export const ConnectorSetup = z.union([
  z.looseObject({ connector: z.enum(['builtin:email', 'builtin:api']) }),
  z.looseObject({ connector: z.string().regex(/^integration:[^:]+$/) }),
  withSetup('builtin:website', { url: z.url() }),
  withSetup('builtin:youtube', { channelId: S }),
  withSetup('builtin:github-discussions', { repository: Repo, token: S }),
  withSetup('builtin:github-issues', { repository: Repo, token: S }),
  withSetup('builtin:intercom', TOKEN),
  withSetup('builtin:front', TOKEN),
  withSetup('builtin:zendesk', { subdomain: S, email: S, apiToken: S }),
  withSetup('builtin:zoho-desk', { dataCenter: S, orgId: S, clientId: S, clientSecret: S, refreshToken: S }),
  withSetup('builtin:freshdesk', { domain: S, apiKey: S }),
  withSetup('builtin:pylon', TOKEN),
  withSetup('builtin:hubspot', TOKEN),
  withSetup('builtin:linear', TOKEN),
  withSetup('builtin:jira', { baseUrl: z.url().max(2048), apiEmail: z.email().max(254), apiToken: S.max(1024), statusMapping: z.record(z.string(), z.string().min(1).max(255)).optional() }),
]);
const Usage = z.looseObject({ changeRequests: z.boolean(), search: z.boolean(), searchBoost: z.enum(['x0.8', 'x1.0', 'x1.2']), sync: z.boolean().optional() });
const Create = z.looseObject({ usageSettings: Usage.optional(), filter: z.string().max(1024).optional() });
const Update = z.looseObject({ usageSettings: Usage.optional(), label: z.string().max(128).optional(), filter: z.string().max(1024).optional() });

/** The service's usage settings of a new connection. */
const DEFAULT_USAGE: UsageSettings = { changeRequests: true, search: true, searchBoost: 'x1.0' };

function connectionsOf(site: SiteRec): Map<string, ConnectionRec> {
  site.contextConnections ??= new Map();
  return site.contextConnections;
}

function redacted(setup: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(setup).map(([k, v]) => [k, CREDENTIALS.includes(k) ? REDACTED : structuredClone(v)]));
}

function connectionView(req: RouteRequest, site: SiteRec, c: ConnectionRec): Record<string, unknown> {
  return compact({
    object: 'context-connection',
    id: c.id,
    createdAt: c.createdAt,
    label: c.label,
    filter: c.filter,
    status: 'succeeded',
    records: 0,
    ...(c.connector === 'builtin:email' ? { email: { ingestionAddress: `${c.id}@ingest.docplane.test` } } : {}),
    usageSettings: { ...c.usageSettings },
    urls: { location: apiUrl(viewCtx(req), `/orgs/${site.org}/sites/${site.id}/context-connections/${c.id}`) },
    connector: c.connector,
    setupSettings: c.setupSettings ? redacted(c.setupSettings) : undefined,
  });
}

function connectionOf(req: RouteRequest, site: SiteRec): ConnectionRec {
  const c = connectionsOf(site).get(req.params.connection);
  if (!c) throw notFound(`no context connection ${req.params.connection} in site ${site.id}`);
  return c;
}

function setupOf(body: object): Record<string, unknown> | undefined {
  const setup = (body as { setupSettings?: unknown }).setupSettings;
  return setup && typeof setup === 'object' ? structuredClone(setup as Record<string, unknown>) : undefined;
}

export function connectionRoutes(router: Router): void {
  const SITE = '/v1/orgs/:org/sites/:site';

  router.add('GET', `${SITE}/context-connections`, (req) => {
    const { site } = siteOf(req);
    return listReply(req.query, [...connectionsOf(site).values()], (c) => connectionView(req, site, c));
  });

  router.add('POST', `${SITE}/context-connections`, (req) => {
    const { site } = siteOf(req);
    const body = bodyObject(req);
    const setup = validate(ConnectorSetup, body);
    const rest = validate(Create, body);
    const c: ConnectionRec = compact({
      id: req.world.newId('ctx'),
      connector: setup.connector,
      setupSettings: setupOf(setup),
      usageSettings: rest.usageSettings ? (structuredClone(rest.usageSettings) as UsageSettings) : { ...DEFAULT_USAGE },
      filter: rest.filter || undefined,
      createdAt: nowIso(req),
    }) as unknown as ConnectionRec;
    connectionsOf(site).set(c.id, c);
    return created(connectionView(req, site, c));
  });

  router.add('GET', `${SITE}/context-connections/:connection`, (req) => {
    const { site } = siteOf(req);
    return ok(connectionView(req, site, connectionOf(req, site)));
  });

  router.add('PATCH', `${SITE}/context-connections/:connection`, (req) => {
    const { site } = siteOf(req);
    const c = connectionOf(req, site);
    const body = bodyObject(req);
    const rest = validate(Update, body);
    // A setup (the connector and its settings), or the other fields, or both.
    if (body.connector !== undefined || body.setupSettings !== undefined) {
      const setup = validate(ConnectorSetup, body);
      c.connector = setup.connector;
      c.setupSettings = setupOf(setup);
    }
    if (rest.usageSettings !== undefined) c.usageSettings = structuredClone(rest.usageSettings) as UsageSettings;
    // An empty label or filter clears it.
    if (rest.label !== undefined) c.label = rest.label || undefined;
    if (rest.filter !== undefined) c.filter = rest.filter || undefined;
    return ok(connectionView(req, site, c));
  });

  router.add('DELETE', `${SITE}/context-connections/:connection`, (req) => {
    const { site } = siteOf(req);
    return deleted(connectionsOf(site).delete(req.params.connection));
  });
}

/** A connection of the state file, as if made earlier through the API. */
export const ConnectionSeed = z.intersection(
  ConnectorSetup,
  z.object({ id: z.string().min(1).optional(), label: z.string().max(128).optional(), filter: z.string().max(1024).optional(), usageSettings: Usage.optional() }),
);

export function seedConnections(ctx: SeedContext, site: SiteRec, seeds: ReadonlyArray<z.output<typeof ConnectionSeed>>): void {
  for (const s of seeds) {
    const id = s.id ?? ctx.world.newId('ctx');
    connectionsOf(site).set(
      id,
      compact({ id, connector: s.connector, setupSettings: setupOf(s), usageSettings: (s.usageSettings as UsageSettings | undefined) ?? { ...DEFAULT_USAGE }, label: s.label, filter: s.filter, createdAt: ctx.stamp() }) as unknown as ConnectionRec,
    );
  }
}
