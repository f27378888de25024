/**
 * The sites of an organization as `GET ORG/sites` lists them (every page), reduced to the fields a
 * config can manage, and the match of config sites to them: by id where the config gives one, else
 * by `renamedFrom` (an old title), else by title.
 */
import type { ApiClient } from '../../api/types.js';
import type { Reader } from '../kind.js';
import { matchResources, type MatchResult } from '../common/match.js';
import { orgPath } from '../common/paths.js';
import type { SiteT } from './schema.js';
import { SiteAnswer } from './answers.js';
import { parseGitSyncState, type RemoteGitSyncState } from '../git-sync/state.js';

export interface RemoteSiteInfo {
  id: string;
  title: string;
  type: string | null;
  visibility: string | null;
  basename: string | null;
  published: boolean;
  adaptiveContent: boolean;
  defaultLevel: string | null;
  /** The proxy's origin. */
  proxy: string | null;
  /** Present when the site is synchronised with a repository, which then owns its structure. */
  gitSync?: RemoteGitSyncState;
  /** The id of its style guide space. */
  styleguide: string | null;
  /** Its custom hostname (docs.acme.com), when it has one. */
  hostname?: string;
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function obj(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A Site object of the API; unknown fields ignored, missing ones read as the API's defaults. */
export function parseSiteInfo(raw: unknown): RemoteSiteInfo {
  const o = obj(raw);
  return {
    id: String(o.id),
    title: str(o.title) ?? '',
    type: str(o.type),
    visibility: str(o.visibility),
    basename: str(o.basename),
    published: o.published === true,
    adaptiveContent: obj(o.adaptiveContent).enabled === true,
    defaultLevel: str(o.defaultLevel),
    proxy: str(obj(o.proxy).origin),
    ...gitSyncOf(o.gitSync),
    styleguide: str(obj(o.styleguide).space),
    ...(typeof o.hostname === 'string' && o.hostname !== '' ? { hostname: o.hostname } : {}),
  };
}

function gitSyncOf(raw: unknown): { gitSync?: RemoteGitSyncState } {
  const gitSync = parseGitSyncState(raw);
  return gitSync ? { gitSync } : {};
}

/** `GET ORG/sites`, every page. */
export async function listSites(client: Pick<ApiClient, 'listAll'>, org: string): Promise<RemoteSiteInfo[]> {
  return (await client.listAll(`${orgPath(org)}/sites`, {}, { schema: SiteAnswer })).map(parseSiteInfo);
}

/** The organization's sites, read once per plan (the sites kinds and references by site id use it). */
export function readSiteInfos(ctx: Reader): Promise<RemoteSiteInfo[]> {
  return ctx.shared('siteList', () => listSites(ctx.client, ctx.org));
}

/**
 * Config sites matched to listed ones. A site with an id matches that id only (an id the list does
 * not have is a problem, not a title match); the others by renamedFrom, then title, among the sites
 * no id took.
 */
export function matchSites(desired: readonly SiteT[], list: readonly RemoteSiteInfo[]): MatchResult<SiteT, RemoteSiteInfo> {
  const byId = new Map(list.map((s) => [s.id, s]));
  const withId = desired.filter((d) => d.id !== undefined);
  const taken = new Set(withId.map((d) => d.id));
  const byTitle = matchResources(
    desired.filter((d) => d.id === undefined),
    list.filter((s) => !taken.has(s.id)),
    { desiredKey: (d) => d.title ?? '', remoteKey: (r) => r.title, remoteId: (r) => r.id, renamedFrom: (d) => d.renamedFrom },
  );
  const pairs = desired.map((d) => {
    if (d.id !== undefined) {
      const remote = byId.get(d.id);
      return remote ? { desired: d, remote, matchedBy: 'id' as const } : { desired: d };
    }
    return byTitle.pairs.find((p) => p.desired === d) ?? { desired: d };
  });
  return { pairs, unmatched: byTitle.unmatched };
}
