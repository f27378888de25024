/**
 * The current state of the sites a config names: two requests per site (its structure — sections
 * with their site spaces and section groups, in order, in one answer — and its share links), read
 * once and shared by the four site kinds. API objects are reduced to the fields the planner compares;
 * unknown fields are ignored, missing ones read as null.
 */
import { ApiError } from '../../core/errors.js';
import type { JsonObject } from '../../model/step.js';
import type { ReadContext } from '../kind.js';
import { readCustomization } from './customization-read.js';
import { readPublishingAuth, type RemotePublishingAuth } from './publishing-auth-read.js';
import { readRedirects, type RemoteRedirect } from './redirects-read.js';
import type { SiteT } from './schema.js';

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
  // Read only for a site whose config has the block (redirects-read.ts, customization-read.ts, publishing-auth-read.ts).
  redirects?: RemoteRedirect[];
  /** The customization document, without its read-only fields. */
  customization?: JsonObject;
  publishingAuth?: RemotePublishingAuth;
}

/** The blocks of a site's config that cost reads of their own. */
export type SiteReads = Pick<SiteT, 'redirects' | 'customization' | 'publishingAuth'>;

/** What import reads of every site: all of it. */
export const READ_EVERYTHING: SiteReads = { redirects: [], customization: {}, publishingAuth: { backend: 'custom' } };

export interface SitesRemote {
  /** One entry per site the config names; `site` null when the site does not exist. */
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

async function readSite(ctx: Pick<ReadContext, 'org' | 'client'>, site: string, wanted: SiteReads): Promise<RemoteSite | null> {
  const base = sitePath(ctx.org, site);
  try {
    const [structure, links, redirects, customization, publishingAuth] = await Promise.all([
      ctx.client.request('GET', `${base}/structure`),
      ctx.client.listAll(`${base}/share-links`),
      readRedirects(ctx, base, wanted),
      readCustomization(ctx, base, wanted),
      readPublishingAuth(ctx, base, wanted),
    ]);
    const out = structureSite(site, structure.body, links);
    if (redirects) out.redirects = redirects;
    if (customization) out.customization = customization;
    if (publishingAuth) out.publishingAuth = publishingAuth;
    return out;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** Sites by id (each once), read concurrently; null for a site the organization does not have. */
export async function readSiteList(ctx: Pick<ReadContext, 'org' | 'client'>, ids: readonly string[], wanted: (id: string) => SiteReads = () => ({})): Promise<SitesRemote> {
  const unique = [...new Set(ids)];
  const sites = await Promise.all(unique.map(async (id) => ({ id, site: await readSite(ctx, id, wanted(id)) })));
  return { sites };
}

/** Every site the config names, read once per plan; shared by the site kinds. */
export function readSites(ctx: ReadContext): Promise<SitesRemote> {
  const configs = ctx.desired.sites ?? [];
  const wanted = (id: string): SiteReads => configs.find((s) => s.id === id) ?? {};
  return ctx.shared('sites', () => readSiteList(ctx, configs.map((s) => s.id), wanted));
}
