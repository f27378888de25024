/**
 * The channels of a site's agent (`sites["ID"].channels["builtin:slack"]`): where the agent answers
 * (Slack, Discord, GitHub, Linear), which channels, repositories or teams of that service it may act
 * in, and its role there (`support` answers; `collaborator` also opens change requests). One channel
 * per type, the type being its identity. Listed with listSiteChannels, made with createSiteChannel,
 * changed with updateSiteChannelById (only what differs: the setup, the role, or both), deleted with
 * deleteSiteChannelById when `prune: [channels]` and the site's config lists its channels.
 *
 * A site the config does not give `channels` reads and plans nothing; a site this plan creates gets
 * its channels after it is made. Connecting the service itself (the Slack workspace, the GitHub app)
 * happens in the app: a new channel stays `pending` until then.
 */
import { key } from '../../../model/address.js';
import type { JsonObject, JsonValue } from '../../../model/step.js';
import { analyse, mergeKindPlan } from '../../common/analyse.js';
import { step } from '../../common/step.js';
import { emptyKindPlan, type KindPlan, type KindSpec, type ReadContext } from '../../kind.js';
import { siteAddress } from '../addresses.js';
import { sitePath } from '../remote.js';
import { siteKey, type SiteT } from '../schema.js';
import { siteBase } from '../site.js';
import { matchSites, readSiteInfos, type RemoteSiteInfo } from '../../shared/sites.js';
import { ChannelAnswer } from './answers.js';
import { changeField, updateDraft } from './update.js';
import { ALLOW_LIST, CHANNEL_TYPES, type ChannelT, type ChannelType } from './schema.js';

export interface RemoteChannel {
  id: string;
  type: string;
  role: string | null;
  /** The allow-list, sorted (empty: everything allowed). */
  allowed: string[];
}

/** One config site with `channels`, and what the API has of it. */
export interface ChannelSite {
  site: SiteT;
  /** The site as the organization lists it; absent for a site this plan creates. */
  info?: RemoteSiteInfo;
  channels: RemoteChannel[];
}

export const channelAddress = (site: string, type: string): string => `${siteAddress(site)}.channels${key(type)}`;

const isType = (t: string): t is ChannelType => (CHANNEL_TYPES as readonly string[]).includes(t);

/** The allow-list of a channel's setup, sorted and without repeats: the API treats it as a set. */
const normalList = (v: unknown): string[] => [...new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])].sort();

export function parseChannel(raw: Record<string, unknown>): RemoteChannel {
  const type = String(raw.type);
  const setup = (raw.setupSettings ?? {}) as Record<string, unknown>;
  return {
    id: String(raw.id),
    type,
    role: typeof raw.role === 'string' ? raw.role : null,
    allowed: normalList(isType(type) ? setup[ALLOW_LIST[type]] : undefined),
  };
}

/** listSiteChannels: every page. */
export async function listChannels(ctx: Pick<ReadContext, 'org' | 'client'>, site: string): Promise<RemoteChannel[]> {
  const items = await ctx.client.listAll<Record<string, unknown>>(`${sitePath(ctx.org, site)}/channels`, {}, { schema: ChannelAnswer });
  return items.map(parseChannel);
}

async function readChannels(ctx: ReadContext): Promise<ChannelSite[] | undefined> {
  const desired = (ctx.desired.sites ?? []).filter((s) => s.channels !== undefined);
  if (desired.length === 0) return undefined;
  const list = await readSiteInfos(ctx);
  return Promise.all(
    matchSites(desired, list).pairs.map(async (p): Promise<ChannelSite> =>
      p.remote ? { site: p.desired, info: p.remote, channels: await listChannels(ctx, p.remote.id) } : { site: p.desired, channels: [] },
    ),
  );
}

/** What a plan shows of a channel (and a fingerprint holds, with its id). */
function shown(type: string, role: string | null, allowed: readonly string[]): JsonObject {
  const field = isType(type) ? ALLOW_LIST[type] : 'allowed';
  return { type, role, setupSettings: { [field]: [...allowed] } };
}

const normalChannel = (r: RemoteChannel): JsonObject => ({ id: r.id, ...shown(r.type, r.role, r.allowed) });

/** The `setupSettings` a request sends: the config's list, or none (all allowed). */
function setupOf(d: ChannelT): JsonObject {
  const field = ALLOW_LIST[d.type];
  const given = (d.setupSettings as Record<string, string[] | undefined> | undefined)?.[field];
  return { [field]: normalList(given) };
}

function planSite(o: ChannelSite, org: string, prune: boolean, kp: KindPlan): void {
  const name = siteKey(o.site);
  const base = siteBase(org, o.site, o.info);
  const analysis = analyse<ChannelT, RemoteChannel>(org, o.site.channels ?? [], o.channels, {
    kind: 'channels',
    what: 'agent channels',
    address: (type) => channelAddress(name, type),
    desiredKey: (d) => d.type,
    remoteKey: (r) => r.type,
    remoteId: (r) => r.id,
    desiredId: (d) => d.id,
    prune,
    fingerprint: normalChannel,
    observe: (r) => shown(r.type, r.role, r.allowed),
    create(d, address) {
      const setup = setupOf(d);
      const body: JsonObject = { type: d.type, setupSettings: setup, ...(d.role ? { role: d.role } : {}) };
      return [step({
        address,
        kind: 'channels',
        action: 'create',
        before: null,
        after: shown(d.type, d.role ?? null, setup[ALLOW_LIST[d.type]] as string[]),
        requests: [{ method: 'POST', path: `${base}/channels`, body, capture: true, lookup: { path: `${base}/channels`, match: { type: d.type } } }],
        needs: o.info ? [] : [siteAddress(name)],
      })];
    },
    update(d, r, address) {
      const setup = setupOf(d);
      const allowed = setup[ALLOW_LIST[d.type]] as string[];
      const draft = updateDraft();
      const { before, after, body, changes } = draft;
      // An allow-list is a set: shown whole, before and after, rather than as moved positions.
      if (d.setupSettings !== undefined && JSON.stringify(r.allowed) !== JSON.stringify(allowed)) {
        before.setupSettings = { [ALLOW_LIST[d.type]]: r.allowed };
        after.setupSettings = setup;
        changes.push({ path: `setupSettings.${ALLOW_LIST[d.type]}`, kind: 'change', before: r.allowed, after: allowed });
        // The setup goes with its type (SiteChannelSetup): the type says which allow-list it is.
        Object.assign(body, { type: d.type, setupSettings: setup });
      }
      if (d.role !== undefined && d.role !== r.role) changeField(draft, 'role', r.role, d.role);
      if (Object.keys(body).length === 0) return [];
      return [step({ address, kind: 'channels', action: 'update', before, after, changes, requests: [{ method: 'PATCH', path: `${base}/channels/${encodeURIComponent(r.id)}`, body }], remoteId: r.id })];
    },
    remove: (r) => ({ before: shown(r.type, r.role, r.allowed), requests: [{ method: 'DELETE', path: `${base}/channels/${encodeURIComponent(r.id)}` }] }),
  });
  mergeKindPlan(kp, analysis.plan);
}

export const channelsModule: KindSpec<ChannelSite[] | undefined> = {
  kind: 'channels',
  label: { one: 'agent channel', many: 'agent channels' },
  prunable: true,
  count: (org) => (org.sites ?? []).reduce((n, s) => n + (s.channels?.length ?? 0), 0),
  read: readChannels,
  plan(ctx, remote): KindPlan {
    const kp = emptyKindPlan();
    if (!remote) return kp;
    for (const o of remote) {
      // A site given by id that the organization lacks is the sites kind's problem; nothing to plan here.
      if (!o.info && o.site.id !== undefined) continue;
      planSite(o, ctx.org, ctx.prunes('channels'), kp);
    }
    return kp;
  },
};

/** A remote channel as the config writes it (import). */
export function channelEntry(r: RemoteChannel): Record<string, JsonValue> {
  const field = isType(r.type) ? ALLOW_LIST[r.type] : undefined;
  return {
    id: r.id,
    type: r.type,
    ...(r.role ? { role: r.role } : {}),
    setupSettings: field && r.allowed.length > 0 ? { [field]: r.allowed } : {},
  };
}
