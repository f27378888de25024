/**
 * The site agent: where a site's agent acts (`channels` of a `sites` entry), what it knows
 * (`contextConnections`) and what it may change from the topics the service found (`topics`). Its kinds are fields of
 * the site entries, so, as access and Git Sync do, it joins the sites unit rather than having a config
 * key of its own: `withSiteAgent` adds the kinds after the unit's own, their address names, the
 * positions and duplicate checks of the entries, and the blocks in the import (one list per site).
 */
import { child, type Item } from '../../../source/origin.js';
import { Raw, compare, type Draft } from '../../common/import.js';
import type { Importer, ImportReadContext, KindUnit } from '../../kind.js';
import { siteKey, type SiteT } from '../schema.js';
import { readSiteInfos } from '../../shared/sites.js';
import { envName } from '../import-extras.js';
import { channelAddress, channelEntry, channelsModule, listChannels, type RemoteChannel } from './channels.js';
import { connectionAddress, connectionEntry, connectionsModule, listConnections, type RemoteConnection } from './connections.js';
import { SECRET_SETTINGS, connectionKey } from './schema.js';
import { listTopics, topicAddress, topicsModule, type RemoteTopic } from './topics.js';

export { channelsModule } from './channels.js';
export { connectionsModule } from './connections.js';
export { topicsModule } from './topics.js';

/** What import reads of the site agent, by site id. */
interface SiteAgentState {
  base: unknown;
  channels: Map<string, RemoteChannel[]>;
  connections: Map<string, RemoteConnection[]>;
  topics: Map<string, RemoteTopic[]>;
}

const isState = (state: unknown): state is SiteAgentState =>
  typeof state === 'object' && state !== null && 'base' in state && (state as SiteAgentState).channels instanceof Map;

/** The sites import writes (every site, or those `--site` names). */
async function importedSites(ctx: ImportReadContext): Promise<string[]> {
  const wanted = new Set(ctx.sites);
  return (await readSiteInfos(ctx)).map((s) => s.id).filter((id) => wanted.size === 0 || wanted.has(id));
}

function resolveSiteAgent(entries: readonly Item<unknown>[], ctx: Parameters<NonNullable<KindUnit['resolve']>>[1]): void {
  for (const { value, origin } of entries as readonly Item<SiteT>[]) {
    const name = siteKey(value);
    (value.channels ?? []).forEach((c, i) => {
      const o = child(origin, 'channels', i);
      ctx.claim(`channel:${name}:${c.type}`, channelAddress(name, c.type), o, `the ${c.type} channel of site ${name}`);
      if (c.setupSettings) ctx.locate(`${channelAddress(name, c.type)}.setupSettings`, child(o, 'setupSettings'), 'key');
    });
    (value.topics ?? []).forEach((t, i) => {
      const o = child(origin, 'topics', i);
      ctx.claim(`topic:${name}:${t.label}`, topicAddress(name, t.label), o, `topic "${t.label}" of site ${name}`);
    });
    (value.contextConnections ?? []).forEach((c, i) => {
      const o = child(origin, 'contextConnections', i);
      const address = connectionAddress(name, connectionKey(c));
      const what = c.label ? `context connection "${c.label}" of site ${name}` : `the ${c.connector} context connection without a label of site ${name} (give each a label to tell them apart)`;
      if (!ctx.claim(`contextConnection:${name}:${connectionKey(c)}`, address, o, what)) return;
      // Credentials are secrets wherever they come from: masked in every output, placeholders in a saved plan.
      for (const [field, v] of Object.entries(c.setupSettings ?? {})) {
        if (SECRET_SETTINGS.includes(field) && typeof v === 'string' && v !== '') ctx.secret({ name: `value:${ctx.org}/${address}.setupSettings.${field}`, value: v });
      }
    });
  }
}

/** A site's connections as import writes them: one per key (the first by id), credentials as `${env:…}`. */
function writeConnections(list: readonly RemoteConnection[], site: string, sink: Parameters<Importer['write']>[1], variables: string[]): Draft[] {
  const byKey = new Map<string, RemoteConnection>();
  for (const c of [...list].sort((a, b) => compare(a.id, b.id))) {
    const k = connectionKey(c);
    if (byKey.has(k)) sink.warn(`${connectionAddress(site, k)}: the site has a second connection with this key (${c.id}); one is written, the plan shows the other as unmanaged`);
    else byKey.set(k, c);
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => compare(a, b))
    .map(([k, c]) =>
      connectionEntry(c, (field) => {
        const name = envName([site, 'context', k, field]);
        variables.push(name);
        return name;
      }),
    );
}

/** A site's topics as import writes them: by label, with their usage settings; a label two topics share, pinned by id. */
function writeTopics(list: readonly RemoteTopic[], site: string, sink: Parameters<Importer['write']>[1]): Draft[] {
  const count = new Map<string, number>();
  for (const t of list) count.set(t.label, (count.get(t.label) ?? 0) + 1);
  const shared = [...count].filter(([, n]) => n > 1).map(([label]) => label);
  if (shared.length > 0) sink.warn(`${shared.map((l) => topicAddress(site, l)).join(', ')}: two topics of the site share the label; the first by id is written, pinned with its id, the plan shows the other as unmanaged`);
  const written = new Set<string>();
  return [...list]
    .filter((t) => t.changeRequests !== null)
    .sort((a, b) => compare(a.label, b.label) || compare(a.id, b.id))
    .filter((t) => !written.has(t.label) && written.add(t.label))
    .map((t) => ({ ...(count.get(t.label)! > 1 ? { id: t.id } : {}), label: t.label, usageSettings: { changeRequests: t.changeRequests } }));
}

/** The sites unit with the site agent's kinds. */
export function withSiteAgent(unit: KindUnit): KindUnit {
  const base = unit.importer;
  const importer: Importer<SiteAgentState> = {
    ...(base.first ? { first: base.first } : {}),
    async read(ctx) {
      const [state, sites] = await Promise.all([base.read(ctx), importedSites(ctx)]);
      const [channels, connections, topics] = await Promise.all([
        Promise.all(sites.map(async (id) => [id, await listChannels(ctx, id)] as const)),
        Promise.all(sites.map(async (id) => [id, await listConnections(ctx, id)] as const)),
        Promise.all(sites.map(async (id) => [id, await listTopics(ctx, id)] as const)),
      ]);
      return { base: state, channels: new Map(channels), connections: new Map(connections), topics: new Map(topics) };
    },
    ...(base.notFound ? { notFound: (state: SiteAgentState) => base.notFound?.(isState(state) ? state.base : state) ?? [] } : {}),
    write(state, sink) {
      if (!isState(state)) return base.write(state, sink);
      const written = base.write(state.base, sink) as Draft | undefined;
      let n = 0;
      let nConnections = 0;
      let nTopics = 0;
      const variables: string[] = [];
      if (Array.isArray(written)) {
        for (const item of written) {
          if (item === null || typeof item !== 'object' || Array.isArray(item) || item instanceof Raw) continue;
          const entry = item as Record<string, Draft | undefined>;
          if (typeof entry.id !== 'string') continue;
          const site = entry.id;
          const connections = writeConnections(state.connections.get(site) ?? [], site, sink, variables);
          if (connections.length > 0) {
            entry.contextConnections = connections;
            nConnections += connections.length;
          }
          const topics = writeTopics(state.topics.get(site) ?? [], site, sink);
          if (topics.length > 0) {
            entry.topics = topics;
            nTopics += topics.length;
          }
          const channels = state.channels.get(site);
          if (!channels || channels.length === 0) continue;
          // One per type: a second channel of a type is left to the plan (unmanaged, `KEY#ID`).
          const byType = new Map<string, RemoteChannel>();
          for (const c of [...channels].sort((a, b) => compare(a.id, b.id))) if (!byType.has(c.type)) byType.set(c.type, c);
          for (const c of channels) if (byType.get(c.type) !== c) sink.warn(`${channelAddress(entry.id as string, c.type)}: the site has a second ${c.type} channel (${c.id}); one is written, the plan shows the other as unmanaged`);
          entry.channels = [...byType.values()].sort((a, b) => compare(a.type, b.type)).map((c) => channelEntry(c) as Draft);
          n += byType.size;
        }
      }
      if (n > 0) sink.count(channelsModule.label, n);
      if (nConnections > 0) sink.count(connectionsModule.label, nConnections);
      if (nTopics > 0) sink.count(topicsModule.label, nTopics);
      if (variables.length > 0) sink.warn(`sites: the credentials of context connections are written as \${env:…} references (the API does not return them); set ${variables.join(', ')} before planning`);
      return written;
    },
  };
  return {
    ...unit,
    kinds: [...unit.kinds, channelsModule, connectionsModule, topicsModule],
    addressNames: { top: unit.addressNames.top, inner: [...(unit.addressNames.inner ?? []), 'channels', 'contextConnections', 'topics'] },
    flowMaps: [...(unit.flowMaps ?? []), 'sites.*.channels.*.setupSettings', 'sites.*.contextConnections.*.usageSettings', 'sites.*.topics.*'],
    resolve(entries, ctx) {
      unit.resolve?.(entries, ctx);
      resolveSiteAgent(entries, ctx);
    },
    importer: importer as Importer,
  };
}
