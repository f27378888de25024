/**
 * The context connections of a site's agent (`sites["ID"].contextConnections["Support tickets"]`):
 * its knowledge sources — a website, a help desk, GitHub issues, an integration — with how the agent
 * uses them (`usageSettings`) and which items are ingested (`filter`). Keyed by label, or by connector
 * for one without a label. Listed with listSiteContextConnections, made with
 * createSiteContextConnection (then its label, which the create does not take, with
 * updateSiteContextConnectionById), changed with updateSiteContextConnectionById (only what differs),
 * deleted with deleteSiteContextConnectionById when `prune: [contextConnections]` and the site's config
 * lists its connections.
 *
 * Credentials in `setupSettings` (tokens, API keys, client secrets) are secrets: the API redacts them
 * when read back, so they are never compared; the setup is sent again when one of its other fields
 * differs, or when `--replace` names the connection (to rotate a token).
 */
import { key, matchesAny, ref } from '../../../model/address.js';
import type { JsonObject, JsonValue, PlanProblem, RequestSpec } from '../../../model/step.js';
import { MASK } from '../../../core/secrets.js';
import { Raw, type Draft } from '../../common/import.js';
import { sameJson } from '../../common/match.js';
import { analyse, mergeKindPlan } from '../../common/analyse.js';
import { step } from '../../common/step.js';
import { emptyKindPlan, type KindPlan, type KindSpec, type PlanContext, type ReadContext } from '../../kind.js';
import { siteAddress } from '../addresses.js';
import { sitePath } from '../remote.js';
import { siteKey, type SiteT } from '../schema.js';
import { siteBase } from '../site.js';
import { matchSites, readSiteInfos, type RemoteSiteInfo } from '../../shared/sites.js';
import { ContextConnectionAnswer } from './answers.js';
import { changeField, updateDraft } from './update.js';
import { CONNECTOR_SETUPS, SECRET_SETTINGS, connectionKey, type ContextConnectionT } from './schema.js';

export interface RemoteConnection {
  id: string;
  connector: string;
  label: string | null;
  /** As read: credentials redacted. */
  setupSettings: Record<string, JsonValue>;
  usageSettings: JsonObject;
  filter: string | null;
}

export interface ConnectionSite {
  site: SiteT;
  info?: RemoteSiteInfo;
  connections: RemoteConnection[];
}

export const connectionAddress = (site: string, k: string): string => `${siteAddress(site)}.contextConnections${key(k)}`;

const isSecret = (field: string): boolean => SECRET_SETTINGS.includes(field);

const obj = (v: unknown): Record<string, JsonValue> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, JsonValue>) : {});

export function parseConnection(raw: Record<string, unknown>): RemoteConnection {
  return {
    id: String(raw.id),
    connector: String(raw.connector),
    label: typeof raw.label === 'string' && raw.label !== '' ? raw.label : null,
    setupSettings: obj(raw.setupSettings),
    usageSettings: obj(raw.usageSettings),
    filter: typeof raw.filter === 'string' && raw.filter !== '' ? raw.filter : null,
  };
}

/** listSiteContextConnections: every page. */
export async function listConnections(ctx: Pick<ReadContext, 'org' | 'client'>, site: string): Promise<RemoteConnection[]> {
  const items = await ctx.client.listAll<Record<string, unknown>>(`${sitePath(ctx.org, site)}/context-connections`, {}, { schema: ContextConnectionAnswer });
  return items.map(parseConnection);
}

async function readConnections(ctx: ReadContext): Promise<ConnectionSite[] | undefined> {
  const desired = (ctx.desired.sites ?? []).filter((s) => s.contextConnections !== undefined);
  if (desired.length === 0) return undefined;
  const list = await readSiteInfos(ctx);
  return Promise.all(
    matchSites(desired, list).pairs.map(async (p): Promise<ConnectionSite> =>
      p.remote ? { site: p.desired, info: p.remote, connections: await listConnections(ctx, p.remote.id) } : { site: p.desired, connections: [] },
    ),
  );
}

/** The setup without its credentials: what a plan compares and shows. */
function openSetup(setup: Record<string, unknown>): JsonObject {
  const entries = Object.entries(setup).filter(([f]) => !isSecret(f)) as Array<[string, JsonValue]>;
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1))) as JsonObject;
}

/** The setup as a plan shows it: credentials as (sensitive). */
function shownSetup(setup: Record<string, unknown>): JsonObject {
  const entries = Object.entries(setup).map(([f, v]): [string, JsonValue] => [f, isSecret(f) ? MASK : (v as JsonValue)]);
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1))) as JsonObject;
}

const normalConnection = (r: RemoteConnection): JsonObject => ({
  id: r.id,
  connector: r.connector,
  label: r.label,
  setupSettings: openSetup(r.setupSettings),
  usageSettings: r.usageSettings,
  filter: r.filter,
});

const shownRemote = (r: RemoteConnection): JsonObject => ({
  connector: r.connector,
  label: r.label,
  setupSettings: shownSetup(r.setupSettings),
  usageSettings: r.usageSettings,
  filter: r.filter,
});

function planSite(ctx: PlanContext, o: ConnectionSite, kp: KindPlan): void {
  const org = ctx.org;
  const name = siteKey(o.site);
  const base = `${siteBase(org, o.site, o.info)}/context-connections`;
  const problem = (address: string, message: string): PlanProblem => {
    const location = ctx.desired.locations[address];
    return { org, address, message, ...(location ? { location } : {}) };
  };
  const analysis = analyse<ContextConnectionT, RemoteConnection>(org, o.site.contextConnections ?? [], o.connections, {
    kind: 'contextConnections',
    what: 'context connections',
    address: (k) => connectionAddress(name, k),
    desiredKey: (d) => connectionKey(d),
    remoteKey: (r) => connectionKey(r),
    remoteId: (r) => r.id,
    desiredId: (d) => d.id,
    prune: ctx.prunes('contextConnections'),
    fingerprint: normalConnection,
    observe: (r) => ({ connector: r.connector, label: r.label, usageSettings: r.usageSettings, filter: r.filter }),
    create(d, address) {
      const needsSetup = CONNECTOR_SETUPS[d.connector] !== undefined;
      const setup = (d.setupSettings ?? {}) as JsonObject;
      if (needsSetup && d.setupSettings === undefined) {
        return { problems: [problem(address, `a new ${d.connector} connection needs its setupSettings (the create takes them): add them, or create the connection in the app`)] };
      }
      const body: JsonObject = {
        connector: d.connector,
        ...(needsSetup ? { setupSettings: setup } : {}),
        ...(d.usageSettings ? { usageSettings: d.usageSettings as JsonObject } : {}),
        ...(d.filter !== undefined && d.filter !== null ? { filter: d.filter } : {}),
      };
      const open = openSetup(setup);
      const match: Record<string, JsonValue> = { connector: d.connector, ...Object.fromEntries(Object.entries(open).filter(([, v]) => typeof v === 'string').map(([f, v]) => [`setupSettings.${f}`, v])) };
      const requests: RequestSpec[] = [{ method: 'POST', path: base, body, capture: true, lookup: { path: base, match } }];
      // The create takes no label: it is set right after, on the connection the create made.
      if (d.label) requests.push({ method: 'PATCH', path: `${base}/${ref(org, address)}`, body: { label: d.label } });
      return [step({
        address,
        kind: 'contextConnections',
        action: 'create',
        before: null,
        after: { connector: d.connector, label: d.label ?? null, ...(needsSetup ? { setupSettings: setup } : {}), ...(d.usageSettings ? { usageSettings: d.usageSettings as JsonObject } : {}), filter: d.filter ?? null },
        requests,
        needs: o.info ? [] : [siteAddress(name)],
      })];
    },
    update(d, r, address) {
      const needsSetup = CONNECTOR_SETUPS[d.connector] !== undefined;
      const setup = (d.setupSettings ?? {}) as JsonObject;
      const draft = updateDraft();
      const { before, after, body, changes } = draft;
      const forced = matchesAny(ctx.replace ?? [], org, address);
      if (d.setupSettings !== undefined && needsSetup) {
        const want = openSetup(setup);
        const have = openSetup(r.setupSettings);
        if (!sameJson(want, have) || forced) {
          before.setupSettings = shownSetup(r.setupSettings);
          after.setupSettings = setup;
          for (const f of [...new Set([...Object.keys(want), ...Object.keys(have)])].sort()) {
            if (!sameJson(want[f], have[f])) changes.push({ path: `setupSettings.${f}`, kind: 'change', before: have[f] ?? null, after: want[f] ?? null });
          }
          // Credentials are not read back: a resend shows them as sent (masked where they are secrets).
          for (const f of Object.keys(setup).filter(isSecret).sort()) changes.push({ path: `setupSettings.${f}`, kind: 'change', before: MASK, after: setup[f] });
          Object.assign(body, { connector: d.connector, setupSettings: setup });
        }
      }
      if (d.usageSettings !== undefined) {
        const want = { ...r.usageSettings, ...(d.usageSettings as JsonObject) };
        if (!sameJson(want, r.usageSettings)) {
          for (const f of Object.keys(want).sort()) {
            if (!sameJson(want[f], r.usageSettings[f])) changes.push({ path: `usageSettings.${f}`, kind: 'change', before: r.usageSettings[f] ?? null, after: want[f] });
          }
          before.usageSettings = r.usageSettings;
          after.usageSettings = want;
          body.usageSettings = want;
        }
      }
      if (d.filter !== undefined && (d.filter ?? null) !== r.filter) changeField(draft, 'filter', r.filter, d.filter, d.filter ?? '');
      if (d.label !== undefined && d.label !== r.label) changeField(draft, 'label', r.label, d.label);
      if (Object.keys(body).length === 0) return [];
      return [step({
        address,
        kind: 'contextConnections',
        action: 'update',
        before,
        after,
        changes,
        requests: [{ method: 'PATCH', path: `${base}/${encodeURIComponent(r.id)}`, body }],
        remoteId: r.id,
        ...(forced && body.setupSettings ? { notes: ['setupSettings sent again because of --replace (its credentials cannot be read back)'] } : {}),
      })];
    },
    remove: (r) => ({ before: shownRemote(r), requests: [{ method: 'DELETE', path: `${base}/${encodeURIComponent(r.id)}` }] }),
  });
  mergeKindPlan(kp, analysis.plan);
}

export const connectionsModule: KindSpec<ConnectionSite[] | undefined> = {
  kind: 'contextConnections',
  label: { one: 'context connection', many: 'context connections' },
  prunable: true,
  // Credentials cannot be read back: `--replace` sends a connection's setup again.
  replaceable: true,
  addresses: (org) => (org.sites ?? []).flatMap((s) => (s.contextConnections ?? []).map((c) => connectionAddress(siteKey(s), connectionKey(c)))),
  count: (org) => (org.sites ?? []).reduce((n, s) => n + (s.contextConnections?.length ?? 0), 0),
  read: readConnections,
  plan(ctx, remote): KindPlan {
    const kp = emptyKindPlan();
    if (!remote) return kp;
    for (const o of remote) {
      if (!o.info && o.site.id !== undefined) continue;
      planSite(ctx, o, kp);
    }
    return kp;
  },
};

/** A remote connection as the config writes it (import); credentials as `${env:NAME}` (named by `env`). */
export function connectionEntry(r: RemoteConnection, env: (field: string) => string): Draft {
  const setup = Object.fromEntries(
    Object.keys(r.setupSettings)
      .sort()
      .map((f): [string, Draft] => [f, isSecret(f) ? new Raw(`\${env:${env(f)}}`) : (r.setupSettings[f] as Draft)]),
  );
  return {
    id: r.id,
    connector: r.connector,
    ...(r.label ? { label: r.label } : {}),
    ...(CONNECTOR_SETUPS[r.connector] !== undefined ? { setupSettings: setup } : {}),
    usageSettings: r.usageSettings as Draft,
    ...(r.filter ? { filter: r.filter } : {}),
  };
}
