/**
 * Integration installations (`installations["acme-analytics"]`): one per integration and organization.
 * Installed with POST /integrations/{name}/installations (installIntegration), configured with PATCH
 * (updateIntegrationInstallation: `configuration`, `externalIds`, which spaces and sites it covers),
 * uninstalled when pruned. A list of `spaces` or `sites` is the whole truth for that installation:
 * each named space or site is installed (installIntegrationOnSpace / installIntegrationOnSite) and
 * configured (updateIntegration…Installation), the others are uninstalled.
 *
 * A configuration may hold secrets: the values of the API's current configuration are never shown
 * (a plan says `(sensitive)` for each of its strings); the config's own values are masked when they
 * come from `${env:…}` or `${file:…}`.
 */
import { OrgInstallationAnswer, TargetInstallationAnswer } from './answers.js';
import { key, ref } from '../../model/address.js';
import { MASK } from '../../core/secrets.js';
import type { JsonObject, JsonValue } from '../../model/step.js';
import { diffFields, sameJson } from '../common/match.js';
import { emptyKindPlan, type DraftStep, type KindPlan, type KindSpec, type Reader } from '../kind.js';
import { analyse, mergeKindPlan } from '../common/analyse.js';
import { step as draft } from '../common/step.js';
import { enc, orgPath } from '../common/paths.js';
import type { ConfigurationT, InstallationT } from './schema.js';

export interface RemoteInstallation {
  id: string;
  space_selection?: string;
  site_selection?: string;
  configuration?: JsonObject;
  externalIds?: string[];
}

/** One space or site installation (listIntegrationInstallationSpaces / …Sites, not extended). */
export interface RemoteTargetInstallation {
  space?: string | { id: string };
  site?: string | { id: string };
  configuration?: JsonObject;
}

export interface RemoteOrgInstallation {
  integration: string;
  installation: RemoteInstallation;
  /** Read only when the config lists the spaces of this installation. */
  spaces?: RemoteTargetInstallation[];
  /** Read only when the config lists the sites of this installation. */
  sites?: RemoteTargetInstallation[];
}

export type Target = 'spaces' | 'sites';
const ONE: Record<Target, 'space' | 'site'> = { spaces: 'space', sites: 'site' };

export const installationAddress = (integration: string): string => `installations${key(integration)}`;
export const targetAddress = (integration: string, target: Target, id: string): string => `${installationAddress(integration)}.${target}${key(id)}`;

export const installationsPath = (integration: string): string => `/v1/integrations/${enc(integration)}/installations`;

/** The id of a target installation's space or site (a string, or the object when extended). */
export function targetId(t: RemoteTargetInstallation, target: Target): string {
  const v = t[ONE[target]];
  return typeof v === 'string' ? v : (v?.id ?? '');
}

/** A configuration as a plan shows the API's: every string replaced, for it may be a secret. */
export function hidden(value: JsonValue | undefined): JsonValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return MASK;
  if (Array.isArray(value)) return value.map(hidden);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hidden(v)]));
  return value;
}

function normalized(r: RemoteOrgInstallation): JsonObject {
  const i = r.installation;
  return {
    integration: r.integration,
    id: i.id,
    space_selection: i.space_selection ?? null,
    site_selection: i.site_selection ?? null,
    configuration: i.configuration ?? {},
    externalIds: i.externalIds ?? [],
    ...(r.spaces ? { spaces: r.spaces.map((t) => ({ space: targetId(t, 'spaces'), configuration: t.configuration ?? {} })) } : {}),
    ...(r.sites ? { sites: r.sites.map((t) => ({ site: targetId(t, 'sites'), configuration: t.configuration ?? {} })) } : {}),
  };
}

interface RawOrgInstallation {
  integration: { name: string };
  installation: RemoteInstallation;
}

/** The organization's installations: one list (listOrganizationInstallations). */
export async function readOrgInstallations(ctx: Reader): Promise<RemoteOrgInstallation[]> {
  const items = await ctx.client.listAll<RawOrgInstallation>(`${orgPath(ctx.org)}/installations`, {}, { schema: OrgInstallationAnswer });
  return items.map((i) => ({ integration: i.integration.name, installation: i.installation }));
}

/** One installation's spaces or sites: one list each. */
export function readTargets(ctx: Reader, integration: string, installation: string, target: Target): Promise<RemoteTargetInstallation[]> {
  return ctx.client.listAll<RemoteTargetInstallation>(`${installationsPath(integration)}/${enc(installation)}/${target}`, {}, { schema: TargetInstallationAnswer[target] });
}

/** The installations, with the spaces and sites of those whose lists `wants` names. */
export async function readInstallations(ctx: Reader, wants: (r: RemoteOrgInstallation, target: Target) => boolean): Promise<RemoteOrgInstallation[]> {
  const list = await readOrgInstallations(ctx);
  return Promise.all(
    list.map(async (r) => {
      const [spaces, sites] = await Promise.all(
        (['spaces', 'sites'] as const).map((t) => (wants(r, t) ? readTargets(ctx, r.integration, r.installation.id, t) : Promise.resolve(undefined))),
      );
      return { ...r, ...(spaces ? { spaces } : {}), ...(sites ? { sites } : {}) };
    }),
  );
}

const selection = (v: InstallationT['spaces'] | InstallationT['sites']): string | undefined => (v === undefined ? undefined : v === 'all' ? 'all' : 'selected');

/** The fields of updateIntegrationInstallation that the config sets and the API's differ from. */
function installationChanges(d: InstallationT, r: RemoteInstallation | undefined): { before: JsonObject; after: JsonObject; body: JsonObject } {
  const before: JsonObject = {};
  const after: JsonObject = {};
  const body: JsonObject = {};
  const set = (field: string, want: JsonValue | undefined, have: JsonValue | undefined, shown: (v: JsonValue | undefined) => JsonValue) => {
    if (want === undefined || (r !== undefined && sameJson(have ?? null, want))) return;
    if (r !== undefined) before[field] = shown(have);
    after[field] = want;
    body[field] = want;
  };
  set('configuration', d.configuration as JsonValue | undefined, r?.configuration ?? {}, hidden);
  set('externalIds', d.externalIds, r?.externalIds ?? [], (v) => v ?? []);
  set('space_selection', selection(d.spaces), r?.space_selection, (v) => v ?? null);
  set('site_selection', selection(d.sites), r?.site_selection, (v) => v ?? null);
  return { before, after, body };
}

export const installationsModule: KindSpec<RemoteOrgInstallation[] | undefined> = {
  kind: 'installations',
  label: { one: 'integration installation', many: 'integration installations' },
  prunable: true,
  addresses: (org) => (org.installations ?? []).map((i) => installationAddress(i.integration)),
  count: (org) => org.installations?.length ?? 0,

  async read(ctx) {
    const desired = ctx.desired.installations;
    if (desired === undefined) return undefined;
    const lists = new Map(desired.map((d) => [d.integration, d]));
    return ctx.shared('installations', () => readInstallations(ctx, (r, t) => Array.isArray(lists.get(r.integration)?.[t])));
  },

  plan(ctx, remote): KindPlan {
    const desired = ctx.desired.installations;
    if (desired === undefined || remote === undefined) return emptyKindPlan();
    const published = new Set((ctx.desired.integrations ?? []).map((i) => i.name));
    return analyse<InstallationT, RemoteOrgInstallation>(ctx.org, desired, remote, {
      kind: 'installations',
      what: 'integration installations',
      address: installationAddress,
      desiredKey: (d) => d.integration,
      remoteKey: (r) => r.integration,
      remoteId: (r) => r.installation.id,
      prune: ctx.prunes('installations'),
      fingerprint: normalized,
      observe: (r) => ({ configuration: r.installation.configuration ?? {}, externalIds: r.installation.externalIds ?? [] }),
      create(d, address) {
        const base = installationsPath(d.integration);
        const { after, body } = installationChanges(d, undefined);
        const id = ref(ctx.org, address);
        return [draft({
          address,
          kind: 'installations',
          action: 'create',
          before: null,
          after,
          requests: [
            { method: 'POST', path: base, body: { organization: ctx.org }, capture: true, lookup: { path: base, match: { 'target.organization': ctx.org } } },
            ...(Object.keys(body).length > 0 ? [{ method: 'PATCH' as const, path: `${base}/${id}`, body }] : []),
          ],
          // An integration this config publishes is published first.
          needs: published.has(d.integration) ? [`integrations${key(d.integration)}`] : [],
        })];
      },
      update(d, r, address) {
        const { before, after, body } = installationChanges(d, r.installation);
        if (Object.keys(body).length === 0) return [];
        return [draft({ address, kind: 'installations', action: 'update', before, after, requests: [{ method: 'PATCH', path: `${installationsPath(d.integration)}/${enc(r.installation.id)}`, body }], remoteId: r.installation.id })];
      },
      remove: (r) => ({
        before: { integration: r.integration, configuration: hidden(r.installation.configuration) },
        requests: [{ method: 'DELETE', path: `${installationsPath(r.integration)}/${enc(r.installation.id)}` }],
        needs: [...targetAddressesOf(r)].map((a) => `${a}:delete`),
      }),
    }).plan;
  },
};

function targetAddressesOf(r: RemoteOrgInstallation): string[] {
  return (['spaces', 'sites'] as const).flatMap((t) => (r[t] ?? []).map((x) => targetAddress(r.integration, t, targetId(x, t))));
}

/** Whether the config names a resource of a kind by id (its step, when any, goes first). */
function namedIn(desired: readonly { id?: string }[] | undefined, id: string): boolean {
  return (desired ?? []).some((x) => x.id === id);
}

/**
 * The spaces and sites of each installation whose config lists them: installed, configured,
 * uninstalled. A separate kind, so that summaries count them apart from the installations.
 */
export const installationTargetsModule: KindSpec<RemoteOrgInstallation[] | undefined> = {
  kind: 'installationTargets',
  label: { one: 'space or site installation', many: 'space and site installations' },
  count: (org) => (org.installations ?? []).reduce((n, i) => n + (Array.isArray(i.spaces) ? i.spaces.length : 0) + (Array.isArray(i.sites) ? i.sites.length : 0), 0),

  read: (ctx) => installationsModule.read(ctx),

  plan(ctx, remote): KindPlan {
    const kp = emptyKindPlan();
    const desired = ctx.desired.installations;
    if (desired === undefined || remote === undefined) return kp;
    const byName = new Map(remote.map((r) => [r.integration, r]));
    for (const d of desired) {
      const r = byName.get(d.integration);
      for (const target of ['spaces', 'sites'] as const) {
        const wanted = d[target];
        if (!Array.isArray(wanted)) continue;
        planTargets(ctx.org, d.integration, r, target, wanted, r?.[target] ?? [], ctx.desired[target] as readonly { id?: string }[] | undefined, kp);
      }
    }
    return kp;
  },
};

type WantedTarget = { space?: string; site?: string; configuration?: ConfigurationT };

/** One installation's spaces (or sites): the config's list is the whole truth for it. */
function planTargets(
  org: string,
  integration: string,
  r: RemoteOrgInstallation | undefined,
  target: Target,
  wanted: readonly WantedTarget[],
  current: readonly RemoteTargetInstallation[],
  configObjects: readonly { id?: string }[] | undefined,
  kp: KindPlan,
): void {
  const one = ONE[target];
  const owner = installationAddress(integration);
  const installation = r ? enc(r.installation.id) : ref(org, owner);
  const base = `${installationsPath(integration)}/${installation}/${target}`;
  const needsOf = (id: string) => [...(r ? [] : [owner]), ...(namedIn(configObjects, id) ? [`${target}${key(id)}`] : [])];
  const configure = (w: WantedTarget, id: string) => (w.configuration !== undefined ? { method: 'PATCH' as const, path: `${base}/${enc(id)}`, body: { configuration: w.configuration as JsonValue } } : undefined);
  const shown = (t: RemoteTargetInstallation): JsonObject => ({ [one]: targetId(t, target), configuration: t.configuration ?? {} });
  const analysis = analyse<WantedTarget, RemoteTargetInstallation>(org, wanted, current, {
    kind: 'installationTargets',
    what: `${integration}'s ${target}`,
    address: (id) => targetAddress(integration, target, id),
    desiredKey: (w) => w[one] as string,
    remoteKey: (t) => targetId(t, target),
    remoteId: (t) => targetId(t, target),
    prune: true,
    fingerprint: shown,
    observe: (t) => ({ [one]: targetId(t, target), configuration: t.configuration ?? {} }),
    create(w, address) {
      const id = w[one] as string;
      const more = configure(w, id);
      // installIntegrationOnSpace takes `space`, installIntegrationOnSite takes `siteId`.
      // After an unclear outcome, the target list says whether the install went through: its
      // `space` (`site`) is the id, or the object (IntegrationSpaceInstallation's oneOf).
      const install = { method: 'POST' as const, path: base, body: (target === 'spaces' ? { space: id } : { siteId: id }) as JsonObject, lookup: { path: base, match: { [one]: id }, refs: [one] } };
      const after: JsonObject = { [one]: id, ...(w.configuration !== undefined ? { configuration: w.configuration as JsonValue } : {}) };
      return [step(address, 'create', null, after, [install, ...(more ? [more] : [])], needsOf(id))];
    },
    update(w, t, address) {
      const id = w[one] as string;
      const more = configure(w, id);
      if (!more || sameJson(t.configuration ?? {}, w.configuration as JsonValue)) return [];
      return [{ ...step(address, 'update', { configuration: hidden(t.configuration ?? {}) }, { configuration: w.configuration as JsonValue }, [more], needsOf(id)), remoteId: id }];
    },
    remove: (t) => ({ before: { [one]: targetId(t, target), configuration: hidden(t.configuration ?? {}) }, requests: [{ method: 'DELETE', path: `${base}/${enc(targetId(t, target))}` }] }),
  });
  mergeKindPlan(kp, analysis.plan);
}

function step(address: string, action: 'create' | 'update' | 'delete', before: JsonObject | null, after: JsonObject | null, requests: DraftStep['requests'], needs: string[]): DraftStep {
  return {
    address,
    kind: 'installationTargets',
    action,
    before,
    after,
    changes: action === 'delete' ? [] : diffFields(before ?? {}, after ?? {}),
    requests,
    needs,
  };
}
