/**
 * Git Sync: a space or a site synchronised with a repository. Its installation's configuration is a
 * field of the space's or site's entry (`gitSync`), so, as access does, it joins the spaces and sites
 * units rather than having a config key of its own: `withGitSync` adds the kind after the unit's own,
 * the `gitSync` address name, the positions of the block (and, on a site, of the fields its
 * repository owns, for the refusals of src/kinds/git-sync/owned.ts), and the block in the import.
 */
import { key } from '../../model/address.js';
import { child, type Item } from '../../source/origin.js';
import { Raw, type Draft } from '../common/import.js';
import type { Importer, ImportReadContext, KindSpec, KindUnit } from '../kind.js';
import { siteKey } from '../shared/sites.js';
import { readSiteInfos, type listSites } from '../shared/sites.js';
import { readSpaceList } from '../shared/space-list.js';
import { spaceKey, type SpaceT } from '../shared/spaces.js';
import { gitSyncAddress, readInstallation, siteGitSyncModule, spaceGitSyncModule, currentOf, type RemoteGitSyncInstallation } from './git-sync.js';
import { SITE_OWNED_FIELDS } from '../shared/git-sync-owned.js';
import { GIT_SYNC_FIELDS, INHERITED_FIELDS } from '../shared/git-sync-schema.js';
import { parseGitSyncState } from '../shared/git-sync-state.js';

export { SITE_OWNED_FIELDS, SITE_FILE, ownedSiteProblems, SITE_STRUCTURE_KINDS } from '../shared/git-sync-owned.js';
export { siteGitSyncModule, spaceGitSyncModule } from './git-sync.js';

export interface GitSyncOf {
  kind: KindSpec;
  /** The config key of the entry (`spaces`, `sites`). */
  configKey: string;
  /** The address of an entry (`spaces["ID"]`). */
  address(entry: Record<string, unknown>): string;
  /** The synchronised objects the import reads: id → installation id. */
  synced(ctx: ImportReadContext): Promise<Map<string, string>>;
  /** Fields of an entry the repository owns once the object is synchronised (their positions are kept for the refusals). */
  owned?: readonly string[];
}

/** The organization's sites list as import reads it (shared with the sites' own import). */
export function importedSiteList(ctx: ImportReadContext): ReturnType<typeof listSites> {
  return readSiteInfos(ctx);
}

export const spaceGitSync: GitSyncOf = {
  kind: spaceGitSyncModule,
  configKey: 'spaces',
  address: (entry) => `spaces${key(spaceKey(entry as SpaceT))}`,
  async synced(ctx) {
    const spaces = await readSpaceList(ctx);
    return new Map(spaces.flatMap((s) => {
      const state = s.deletedAt ? undefined : parseGitSyncState(s.gitSync);
      return state ? [[s.id, state.installationId] as const] : [];
    }));
  },
};

export const siteGitSync: GitSyncOf = {
  kind: siteGitSyncModule,
  configKey: 'sites',
  address: (entry) => `sites${key(siteKey(entry))}`,
  async synced(ctx) {
    const list = await importedSiteList(ctx);
    const wanted = new Set(ctx.sites);
    return new Map(list.flatMap((s) => (s.gitSync && (wanted.size === 0 || wanted.has(s.id)) ? [[s.id, s.gitSync.installationId] as const] : [])));
  },
  owned: [...SITE_OWNED_FIELDS, 'title'],
};

/** The `gitSync` block import writes: every field the installation has (those it inherits from its site's, left out). */
export function gitSyncDraft(i: RemoteGitSyncInstallation): Draft | undefined {
  const out: Record<string, Draft> = {};
  for (const f of GIT_SYNC_FIELDS) {
    if (i.parentInstallationId && (INHERITED_FIELDS as readonly string[]).includes(f)) continue;
    const v = currentOf(i, f);
    if (v !== undefined && v !== null) out[f] = v as Draft;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

interface WithGitSync {
  base: unknown;
  installations: Map<string, RemoteGitSyncInstallation>;
}

const isWithGitSync = (state: unknown): state is WithGitSync =>
  typeof state === 'object' && state !== null && 'base' in state && (state as WithGitSync).installations instanceof Map;

/** The unit with its Git Sync kind, the `gitSync` addresses and positions, and the block in its import. */
export function withGitSync(unit: KindUnit, o: GitSyncOf): KindUnit {
  const base = unit.importer;
  const importer: Importer<WithGitSync> = {
    ...(base.first ? { first: base.first } : {}),
    async read(ctx) {
      const [state, synced] = await Promise.all([base.read(ctx), o.synced(ctx)]);
      const read = await Promise.all([...synced].map(async ([id, installation]) => [id, await readInstallation(ctx, installation)] as const));
      return { base: state, installations: new Map(read) };
    },
    ...(base.notFound ? { notFound: (state: WithGitSync) => base.notFound?.(isWithGitSync(state) ? state.base : state) ?? [] } : {}),
    write(state, sink) {
      if (!isWithGitSync(state)) return base.write(state, sink);
      const written = base.write(state.base, sink) as Draft | undefined;
      let n = 0;
      if (Array.isArray(written)) {
        for (const item of written) {
          if (item === null || typeof item !== 'object' || Array.isArray(item) || item instanceof Raw) continue;
          const entry = item as Record<string, Draft | undefined>;
          if (typeof entry.id !== 'string') continue;
          const installation = state.installations.get(entry.id);
          const draft = installation ? gitSyncDraft(installation) : undefined;
          if (draft === undefined) continue;
          entry.gitSync = draft;
          n += 1;
        }
      }
      if (n > 0) sink.count(o.kind.label, n);
      return written;
    },
  };
  return {
    ...unit,
    kinds: [...unit.kinds, o.kind],
    addressNames: { top: unit.addressNames.top, inner: [...(unit.addressNames.inner ?? []), 'gitSync'] },
    resolve(entries, ctx) {
      unit.resolve?.(entries, ctx);
      for (const { value, origin } of entries as readonly Item<Record<string, unknown>>[]) {
        const address = o.address(value);
        for (const field of o.owned ?? []) if (value[field] !== undefined) ctx.locate(`${address}.${field}`, child(origin, field), 'key');
        const block = value.gitSync;
        if (block === undefined || block === null || typeof block !== 'object') continue;
        const at = gitSyncAddress(address);
        ctx.locate(at, child(origin, 'gitSync'), 'key');
        for (const field of Object.keys(block)) ctx.locate(`${at}.${field}`, child(origin, 'gitSync', field), 'key');
        // A GitLab access token is a secret wherever it comes from.
        const token = (block as { accessToken?: unknown }).accessToken;
        if (typeof token === 'string' && token !== '') ctx.secret({ name: `value:${ctx.org}/${at}.accessToken`, value: token });
      }
    },
    importer: importer as Importer,
  };
}
