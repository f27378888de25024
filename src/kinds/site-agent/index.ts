/**
 * The site agent: where a site's agent acts (`channels` of a `sites` entry). Its kinds are fields of
 * the site entries, so, as access and Git Sync do, it joins the sites unit rather than having a config
 * key of its own: `withSiteAgent` adds the kinds after the unit's own, their address names, the
 * positions and duplicate checks of the entries, and the blocks in the import (one list per site).
 */
import { child, type Item } from '../../source/origin.js';
import { Raw, compare, type Draft } from '../common/import.js';
import type { Importer, ImportReadContext, KindUnit } from '../kind.js';
import { siteKey, type SiteT } from '../sites/schema.js';
import { readSiteInfos } from '../sites/site-remote.js';
import { channelAddress, channelEntry, channelsModule, listChannels, type RemoteChannel } from './channels.js';

export { channelsModule } from './channels.js';

/** What import reads of the site agent, by site id. */
interface SiteAgentState {
  base: unknown;
  channels: Map<string, RemoteChannel[]>;
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
  }
}

/** The sites unit with the site agent's kinds. */
export function withSiteAgent(unit: KindUnit): KindUnit {
  const base = unit.importer;
  const importer: Importer<SiteAgentState> = {
    ...(base.first ? { first: base.first } : {}),
    async read(ctx) {
      const [state, sites] = await Promise.all([base.read(ctx), importedSites(ctx)]);
      const channels = await Promise.all(sites.map(async (id) => [id, await listChannels(ctx, id)] as const));
      return { base: state, channels: new Map(channels) };
    },
    ...(base.notFound ? { notFound: (state: SiteAgentState) => base.notFound?.(isState(state) ? state.base : state) ?? [] } : {}),
    write(state, sink) {
      if (!isState(state)) return base.write(state, sink);
      const written = base.write(state.base, sink) as Draft | undefined;
      let n = 0;
      if (Array.isArray(written)) {
        for (const item of written) {
          if (item === null || typeof item !== 'object' || Array.isArray(item) || item instanceof Raw) continue;
          const entry = item as Record<string, Draft | undefined>;
          const channels = typeof entry.id === 'string' ? state.channels.get(entry.id) : undefined;
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
      return written;
    },
  };
  return {
    ...unit,
    kinds: [...unit.kinds, channelsModule],
    addressNames: { top: unit.addressNames.top, inner: [...(unit.addressNames.inner ?? []), 'channels'] },
    flowMaps: [...(unit.flowMaps ?? []), 'sites.*.channels.*.setupSettings'],
    resolve(entries, ctx) {
      unit.resolve?.(entries, ctx);
      resolveSiteAgent(entries, ctx);
    },
    importer: importer as Importer,
  };
}
