/**
 * The sites of an organization as `GET ORG/sites` lists them (every page), reduced to the fields a
 * config can manage, and the match of config sites to them: by id where the config gives one, else
 * by `renamedFrom` (an old title), else by title.
 */
import { z } from 'zod';
import { key } from '../../model/address.js';
import type { OrgConfig } from '../../model/desired.js';
import type { Reader } from '../kind.js';
import type { MatchResult } from '../common/match.js';
import { matchPairs, type Pair, type ResourceSpec } from '../common/analyse.js';
import { orgPath } from '../common/paths.js';
import { parseGitSyncState, type RemoteGitSyncState } from './git-sync-state.js';

/** One `sites:` entry of the config. */
type SiteT = NonNullable<OrgConfig['sites']>[number];

/** A site (`GET ORG/sites`), as docplane relies on it (checked by the client as it arrives). */
export const SiteAnswer = z.looseObject({ id: z.string(), title: z.string().nullish() });

/** The config key of a site: the name in its addresses (`sites["KEY"]`): its id, else its title. */
export function siteKey(site: { id?: string; title?: string }): string {
  return site.id ?? site.title ?? '';
}

/** The address of a site: `sites["KEY"]`. */
export const siteAddress = (site: string): string => `sites${key(site)}`;

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
  /** Its ads (a SiteAds of the description), for the siteAds kind. */
  ads?: { status?: string; topic?: string };
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
    ...(o.ads === undefined ? {} : { ads: { ...(str(obj(o.ads).status) ? { status: str(obj(o.ads).status) as string } : {}), ...(str(obj(o.ads).topic) ? { topic: str(obj(o.ads).topic) as string } : {}) } }),
  };
}

function gitSyncOf(raw: unknown): { gitSync?: RemoteGitSyncState } {
  const gitSync = parseGitSyncState(raw);
  return gitSync ? { gitSync } : {};
}

/** `GET ORG/sites`, every page. */
export async function listSites(client: Pick<Reader['client'], 'listAll'>, org: string): Promise<RemoteSiteInfo[]> {
  return (await client.listAll(`${orgPath(org)}/sites`, {}, { schema: SiteAnswer })).map(parseSiteInfo);
}

/** The organization's sites, read once per plan (the sites kinds and references by site id use it). */
export function readSiteInfos(ctx: Reader): Promise<RemoteSiteInfo[]> {
  return ctx.shared('siteList', () => listSites(ctx.client, ctx.org));
}

/**
 * Config sites matched to listed ones (src/kinds/common/analyse.ts). A site with an id matches that id
 * only (an id the list does not have is a problem, not a title match); the others by renamedFrom, then
 * title, among the sites no id took. `twice`: entries whose title names a site another entry names by
 * id (or by rename) — one site named twice, which only the organization can tell.
 */
export function matchSites(desired: readonly SiteT[], list: readonly RemoteSiteInfo[]): MatchResult<SiteT, RemoteSiteInfo> & { twice: Array<{ entry: Pair<SiteT, RemoteSiteInfo>; other: Pair<SiteT, RemoteSiteInfo> }> } {
  return matchPairs(desired, list, SITE_KEYS);
}

/** How the analyser keys a site: its id only where given, else renamedFrom, then title; addressed by siteKey. */
export const SITE_KEYS: Pick<ResourceSpec<SiteT, RemoteSiteInfo>, 'address' | 'addressKey' | 'desiredKey' | 'remoteKey' | 'remoteId' | 'desiredId' | 'idOnly' | 'renamedFrom'> = {
  address: siteAddress,
  addressKey: (d) => siteKey(d),
  desiredKey: (d) => d.title ?? '',
  remoteKey: (r) => r.title,
  remoteId: (r) => r.id,
  desiredId: (d) => d.id,
  idOnly: true,
  renamedFrom: (d) => d.renamedFrom,
};
