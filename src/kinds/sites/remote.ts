/**
 * The current state of the sites a config names: two requests per site (its structure — sections
 * with their site spaces and section groups, in order, in one answer — and its share links), read
 * once and shared by the four site kinds. API objects are reduced to the fields the planner compares;
 * unknown fields are ignored, missing ones read as null.
 */
import { ApiError } from '../../core/errors.js';
import type { ReadContext } from '../kind.js';
import { listSites, matchSites, type RemoteSiteInfo } from './site-remote.js';

export interface RemoteSiteSpace {
  id: string;
  /** Id of the space shown. */
  space: string;
  path: string | null;
  condition: string | null;
}

export interface RemoteSection {
  id: string;
  title: string;
  path: string;
  description: string | null;
  icon: string | null;
  condition: string | null;
  /** Whether it is the site's default section. */
  default?: boolean;
  /** Its site spaces, in order. */
  siteSpaces: RemoteSiteSpace[];
}

export interface RemoteGroup {
  id: string;
  title: string;
  icon: string | null;
  /** Ids of its sections, in order. */
  sections: string[];
}

export interface RemoteShareLink {
  id: string;
  name: string | null;
  active: boolean;
}

/** One item of a site's top level. */
export type TopItem = { type: 'section'; id: string } | { type: 'group'; id: string };

export interface RemoteSite {
  id: string;
  /** In structure order (depth-first). */
  sections: RemoteSection[];
  /** In structure order. */
  groups: RemoteGroup[];
  shareLinks: RemoteShareLink[];
  /** The top level, in order. */
  top: TopItem[];
}

export interface SitesRemote {
  /** Every site of the organization (`GET ORG/sites`); empty when the config has no `sites`. */
  list: RemoteSiteInfo[];
  /** One entry per listed site the config names; `site` null when its structure was not found. */
  sites: Array<{ id: string; site: RemoteSite | null }>;
}

export function sitePath(org: string, site: string): string {
  return `/v1/orgs/${encodeURIComponent(org)}/sites/${encodeURIComponent(site)}`;
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function obj(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `space` is a Space object in the API; an id string is accepted too. */
export function parseSiteSpace(raw: unknown): RemoteSiteSpace {
  const o = obj(raw);
  const space = typeof o.space === 'string' ? o.space : (str(obj(o.space).id) ?? '');
  return { id: String(o.id), space, path: str(o.path), condition: str(o.condition) };
}

export function parseSection(raw: unknown): RemoteSection {
  const o = obj(raw);
  return {
    id: String(o.id),
    title: str(o.title) ?? '',
    path: str(o.path) ?? '',
    description: str(o.description),
    icon: str(o.icon),
    condition: str(o.condition),
    siteSpaces: arr(o.siteSpaces).map(parseSiteSpace),
    ...(o.default === true ? { default: true } : {}),
  };
}

/** A group's own fields; its sections come from its `children` in the structure. */
export function parseGroup(raw: unknown): Omit<RemoteGroup, 'sections'> {
  const o = obj(raw);
  return { id: String(o.id), title: str(o.title) ?? '', icon: str(o.icon) };
}

export function parseShareLink(raw: unknown): RemoteShareLink {
  const o = obj(raw);
  // A link is created active; a missing flag reads as that default.
  return { id: String(o.id), name: str(o.name), active: typeof o.active === 'boolean' ? o.active : true };
}

/**
 * The site from its structure (`GET SITE/structure`): the top level in order, each group's children
 * in order. A site whose spaces sit at its root (`type: siteSpaces`) has no sections. Nested groups
 * and external links are not modelled yet: a nested group's sections count as members of the
 * top-level group that holds it.
 */
export function structureSite(id: string, structure: unknown, linksRaw: unknown[]): RemoteSite {
  const o = obj(structure);
  const items = o.type === 'sections' ? arr(o.structure) : [];
  const sections: RemoteSection[] = [];
  const groups: RemoteGroup[] = [];
  const top: TopItem[] = [];
  const sectionsIn = (children: unknown[]): string[] =>
    children.flatMap((c) => {
      const child = obj(c);
      if (child.object === 'site-section') {
        const s = parseSection(child);
        sections.push(s);
        return [s.id];
      }
      return child.object === 'site-section-group' ? sectionsIn(arr(child.children)) : [];
    });
  for (const raw of items) {
    const item = obj(raw);
    if (item.object === 'site-section') {
      const s = parseSection(item);
      sections.push(s);
      top.push({ type: 'section', id: s.id });
    } else if (item.object === 'site-section-group') {
      const g = parseGroup(item);
      groups.push({ ...g, sections: sectionsIn(arr(item.children)) });
      top.push({ type: 'group', id: g.id });
    }
  }
  return { id, sections, groups, shareLinks: linksRaw.map(parseShareLink), top };
}

async function readSite(ctx: Pick<ReadContext, 'org' | 'client'>, site: string): Promise<RemoteSite | null> {
  const base = sitePath(ctx.org, site);
  try {
    const [structure, links] = await Promise.all([ctx.client.request('GET', `${base}/structure`), ctx.client.listAll(`${base}/share-links`)]);
    return structureSite(site, structure.body, links);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** Sites by id (each once), read concurrently; null for a site the organization does not have. */
export async function readSiteList(ctx: Pick<ReadContext, 'org' | 'client'>, ids: readonly string[]): Promise<Pick<SitesRemote, 'sites'>> {
  const unique = [...new Set(ids)];
  const sites = await Promise.all(unique.map(async (id) => ({ id, site: await readSite(ctx, id) })));
  return { sites };
}

/**
 * The organization's sites (one list) and, of those the config names, the structure and share links;
 * read once per plan, shared by the site kinds. Nothing when the config has no `sites`.
 */
export function readSites(ctx: ReadContext): Promise<SitesRemote> {
  return ctx.shared('sites', async () => {
    const desired = ctx.desired.sites;
    if (desired === undefined) return { list: [], sites: [] };
    const list = await listSites(ctx.client, ctx.org);
    const ids = matchSites(desired, list).pairs.flatMap((p) => (p.remote ? [p.remote.id] : []));
    return { list, ...(await readSiteList(ctx, ids)) };
  });
}
