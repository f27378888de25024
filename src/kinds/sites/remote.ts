/**
 * The current state of the sites a config names: two requests per site (its structure — sections
 * with their site spaces, section groups nested in any depth and external links, in order, or the
 * site spaces at the root of a site without sections, in one answer — and its share links), read
 * once and shared by the four site kinds. API objects are reduced to the fields the planner compares;
 * unknown fields are ignored, missing ones read as null.
 */
import { ApiError } from '../../core/errors.js';
import type { JsonObject, Kind } from '../../model/step.js';
import type { ReadContext } from '../kind.js';
import { matchSites, readSiteInfos, type RemoteSiteInfo } from '../shared/sites.js';
import { readAdaptiveSchema, readAgentSettings, readMcpServers, type RemoteAdaptiveSchema, type RemoteAgentSettings, type RemoteMcpServer } from './ai-read.js';
import { customFontsNamed, readCustomization } from './customization-read.js';
import { readFonts, type RemoteFont } from '../shared/fonts.js';
import { readPublishingAuth, type RemotePublishingAuth } from './publishing-auth-read.js';
import { readRedirects, type RemoteRedirect } from './redirects-read.js';
import type { SiteT } from './schema.js';
import { readSpaceIds, type SpaceIds } from '../shared/spaces.js';
import { ShareLinkAnswer, StructureAnswer } from './answers.js';

export interface RemoteSiteSpace {
  id: string;
  /** Id of the space shown. */
  space: string;
  path: string | null;
  condition: string | null;
  draft: boolean;
  hidden: boolean;
  /** Whether it is the one shown by default (in its section, or at the site's root). */
  default: boolean;
}

/** A `LocalizedString128/256`: overrides keyed by language. */
export type Localized = Record<string, string>;

export interface RemoteSection {
  id: string;
  title: string;
  path: string;
  description: string | null;
  icon: string | null;
  condition: string | null;
  /** Whether it is the site's default section. */
  default?: boolean;
  draft: boolean;
  localizedTitle: Localized | null;
  localizedDescription: Localized | null;
  /** Its site spaces, in order. */
  siteSpaces: RemoteSiteSpace[];
}

export interface RemoteGroup {
  id: string;
  title: string;
  icon: string | null;
  draft: boolean;
  localizedTitle: Localized | null;
  /** The group holding it, or null at the top level. */
  parent: string | null;
  /** Ids of its sections (its direct children that are sections), in order. */
  sections: string[];
  /** Its children (sections, groups, external links), in order. */
  children: TopItem[];
}

export interface RemoteExternalLink {
  id: string;
  title: string;
  url: string;
  description: string | null;
  icon: string | null;
  condition: string | null;
  draft: boolean;
  localizedTitle: Localized | null;
  localizedDescription: Localized | null;
  /** The group holding it, or null at the top level. */
  parent: string | null;
}

export interface RemoteShareLink {
  id: string;
  name: string | null;
  active: boolean;
}

/** One item of a site's top level or of a group's children. */
export type TopItem = { type: 'section' | 'group' | 'link'; id: string };

export interface RemoteSite {
  id: string;
  /** In structure order (depth-first). */
  sections: RemoteSection[];
  /** In structure order (depth-first: a group before the groups it holds). */
  groups: RemoteGroup[];
  /** External links, in structure order (depth-first). */
  links: RemoteExternalLink[];
  /** The site spaces at the root of a site without sections (`type: siteSpaces`), in order. */
  rootSiteSpaces: RemoteSiteSpace[];
  shareLinks: RemoteShareLink[];
  /** The top level, in order. */
  top: TopItem[];
  // Read only for a site whose config has the block (redirects-read.ts, customization-read.ts, publishing-auth-read.ts).
  redirects?: RemoteRedirect[];
  /** The customization document, without its read-only fields. */
  customization?: JsonObject;
  publishingAuth?: RemotePublishingAuth;
  // Read only for a site whose config has the block (ai-read.ts).
  agentSettings?: RemoteAgentSettings;
  mcpServers?: RemoteMcpServer[];
  adaptiveSchema?: RemoteAdaptiveSchema;
}

/** The blocks of a site's config that cost reads of their own. */
export type SiteReads = Pick<SiteT, 'redirects' | 'customization' | 'publishingAuth' | 'agentSettings' | 'mcpServers' | 'adaptiveSchema'>;

/** What import reads of every site: all of it. */
export const READ_EVERYTHING: SiteReads = { redirects: [], customization: {}, publishingAuth: { backend: 'custom' }, agentSettings: {}, mcpServers: [], adaptiveSchema: { properties: {} } };

export interface SitesRemote {
  /** Every site of the organization (`GET ORG/sites`); empty when the config has no `sites`. */
  list: RemoteSiteInfo[];
  /** One entry per listed site the config names; `site` null when its structure was not found. */
  sites: Array<{ id: string; site: RemoteSite | null }>;
  /** The config's spaces without id that sections and site spaces name by natural key (src/kinds/spaces/refer.ts). */
  spaceIds?: SpaceIds;
  /** The organization's custom fonts, when a customization names one by family. */
  fonts?: RemoteFont[];
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

const bool = (value: unknown): boolean => value === true;

/** A localized string map; absent or empty reads as null (no overrides). */
function localized(value: unknown): Localized | null {
  const o = obj(value);
  const entries = Object.entries(o).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length > 0 ? Object.fromEntries(entries) : null;
}

/** `space` is a Space object in the API; an id string is accepted too. */
export function parseSiteSpace(raw: unknown): RemoteSiteSpace {
  const o = obj(raw);
  const space = typeof o.space === 'string' ? o.space : (str(obj(o.space).id) ?? '');
  return { id: String(o.id), space, path: str(o.path), condition: str(o.condition), draft: bool(o.draft), hidden: bool(o.hidden), default: bool(o.default) };
}

/** What a section and an external link share: how the site presents them. */
function presentation(o: Record<string, unknown>) {
  return {
    description: str(o.description),
    icon: str(o.icon),
    condition: str(o.condition),
    draft: bool(o.draft),
    localizedTitle: localized(o.localizedTitle),
    localizedDescription: localized(o.localizedDescription),
  };
}

export function parseSection(raw: unknown): RemoteSection {
  const o = obj(raw);
  return {
    id: String(o.id),
    title: str(o.title) ?? '',
    path: str(o.path) ?? '',
    ...presentation(o),
    siteSpaces: arr(o.siteSpaces).map(parseSiteSpace),
    ...(o.default === true ? { default: true } : {}),
  };
}

/** A group's own fields; its children come from its `children` in the structure. */
export function parseGroup(raw: unknown, parent: string | null = null): Omit<RemoteGroup, 'sections' | 'children'> {
  const o = obj(raw);
  return { id: String(o.id), title: str(o.title) ?? '', icon: str(o.icon), draft: bool(o.draft), localizedTitle: localized(o.localizedTitle), parent };
}

export function parseExternalLink(raw: unknown, parent: string | null = null): RemoteExternalLink {
  const o = obj(raw);
  return {
    id: String(o.id),
    title: str(o.title) ?? '',
    url: str(o.url) ?? '',
    ...presentation(o),
    parent,
  };
}

export function parseShareLink(raw: unknown): RemoteShareLink {
  const o = obj(raw);
  // A link is created active; a missing flag reads as that default.
  return { id: String(o.id), name: str(o.name), active: typeof o.active === 'boolean' ? o.active : true };
}

/**
 * The site from its structure (`GET SITE/structure`): the top level in order, each group's children
 * (sections, nested groups, external links) in order; or, for a site without sections
 * (`type: siteSpaces`), its root site spaces in order. Unknown items are ignored.
 */
export function structureSite(id: string, structure: unknown, linksRaw: unknown[]): RemoteSite {
  const o = obj(structure);
  const site: RemoteSite = { id, sections: [], groups: [], links: [], rootSiteSpaces: [], shareLinks: linksRaw.map(parseShareLink), top: [] };
  if (o.type === 'siteSpaces') site.rootSiteSpaces = arr(o.structure).map(parseSiteSpace);
  const walk = (children: unknown[], parent: string | null): TopItem[] =>
    children.flatMap((raw): TopItem[] => {
      const item = obj(raw);
      if (item.object === 'site-section') {
        const s = parseSection(item);
        site.sections.push(s);
        return [{ type: 'section', id: s.id }];
      }
      if (item.object === 'site-external-link') {
        const l = parseExternalLink(item, parent);
        site.links.push(l);
        return [{ type: 'link', id: l.id }];
      }
      if (item.object === 'site-section-group') {
        const group: RemoteGroup = { ...parseGroup(item, parent), sections: [], children: [] };
        site.groups.push(group);
        // `children` holds every kind of child; `sections` (deprecated) is read when it is absent.
        group.children = walk(arr(item.children ?? item.sections), group.id);
        group.sections = group.children.filter((c) => c.type === 'section').map((c) => c.id);
        return [{ type: 'group', id: group.id }];
      }
      return [];
    });
  if (o.type === 'sections') site.top = walk(arr(o.structure), null);
  return site;
}

/** The two reads every site has: its structure and its share links (both, unless a check needs less). */
export interface SiteParts {
  structure: boolean;
  shareLinks: boolean;
}

const EVERY_PART: SiteParts = { structure: true, shareLinks: true };

async function readSite(ctx: Pick<ReadContext, 'org' | 'client'>, site: string, wanted: SiteReads, parts: SiteParts): Promise<RemoteSite | null> {
  const base = sitePath(ctx.org, site);
  try {
    const [structure, links, redirects, customization, publishingAuth, agentSettings, mcpServers, adaptiveSchema] = await Promise.all([
      parts.structure ? ctx.client.request('GET', `${base}/structure`, { schema: StructureAnswer }) : { body: {} },
      parts.shareLinks ? ctx.client.listAll(`${base}/share-links`, {}, { schema: ShareLinkAnswer }) : [],
      readRedirects(ctx, base, wanted),
      readCustomization(ctx, base, wanted),
      readPublishingAuth(ctx, base, wanted),
      readAgentSettings(ctx, base, wanted),
      readMcpServers(ctx, base, wanted),
      readAdaptiveSchema(ctx, base, wanted),
    ]);
    const out = structureSite(site, structure.body, links);
    if (redirects) out.redirects = redirects;
    if (customization) out.customization = customization;
    if (publishingAuth) out.publishingAuth = publishingAuth;
    if (agentSettings) out.agentSettings = agentSettings;
    if (mcpServers) out.mcpServers = mcpServers;
    if (adaptiveSchema) out.adaptiveSchema = adaptiveSchema;
    return out;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** Sites by id (each once), read concurrently; null for a site the organization does not have. */
export async function readSiteList(
  ctx: Pick<ReadContext, 'org' | 'client'>,
  ids: readonly string[],
  wanted: (id: string) => SiteReads = () => ({}),
  parts: SiteParts = EVERY_PART,
): Promise<Pick<SitesRemote, 'sites'>> {
  const unique = [...new Set(ids)];
  const sites = await Promise.all(unique.map(async (id) => ({ id, site: await readSite(ctx, id, wanted(id), parts) })));
  return { sites };
}

/**
 * The organization's sites (one list) and, of those the config names, the structure and share links;
 * read once per plan, shared by the site kinds. Nothing when the config has no `sites`.
 */
/** The kinds planned from a site's structure. */
const STRUCTURE_KINDS: readonly Kind[] = ['sections', 'siteSpaces', 'sectionGroups', 'externalLinks', 'defaultSiteSpaces'];

/** The spaces a config site names: its sections' spaces and site spaces, and its root site spaces. */
function spacesNamed(site: SiteT): string[] {
  return [
    ...(site.sections ?? []).flatMap((s) => [s.space, ...(s.siteSpaces ?? []).map((x) => x.space), ...(s.defaultSiteSpace === undefined ? [] : [s.defaultSiteSpace])]),
    ...(site.siteSpaces ?? []).map((x) => x.space),
  ];
}

export function readSites(ctx: ReadContext): Promise<SitesRemote> {
  return ctx.shared('sites', async () => {
    const desired = ctx.desired.sites;
    if (desired === undefined) return { list: [], sites: [] };
    const list = await readSiteInfos(ctx);
    const pairs = matchSites(desired, list).pairs.flatMap((p) => (p.remote ? [[p.remote.id, p.desired] as const] : []));
    // Redirects, customization, publishing auth, agent settings, MCP servers and the adaptive schema
    // are read only for a site whose config has the
    // block; a check of known steps reads only what their kinds plan from.
    const wants = (kind: Kind) => ctx.kinds === undefined || ctx.kinds.has(kind);
    const configOf = new Map<string, SiteReads>(pairs);
    const blocks = (id: string): SiteReads => {
      const c = configOf.get(id) ?? {};
      return {
        redirects: wants('redirects') ? c.redirects : undefined,
        customization: wants('customization') ? c.customization : undefined,
        publishingAuth: wants('publishingAuth') ? c.publishingAuth : undefined,
        agentSettings: wants('agentSettings') ? c.agentSettings : undefined,
        mcpServers: wants('mcpServers') ? c.mcpServers : undefined,
        adaptiveSchema: wants('adaptiveSchema') ? c.adaptiveSchema : undefined,
      };
    };
    const parts: SiteParts = { structure: STRUCTURE_KINDS.some(wants), shareLinks: wants('shareLinks') };
    const namesFonts = wants('customization') && desired.some((s) => customFontsNamed(s.customization).length > 0);
    const [read, spaceIds, fonts] = await Promise.all([
      readSiteList(ctx, pairs.map(([id]) => id), blocks, parts),
      readSpaceIds(ctx, ctx.desired, desired.flatMap(spacesNamed)),
      namesFonts ? readFonts(ctx) : undefined,
    ]);
    return { list, ...read, ...(Object.keys(spaceIds).length > 0 ? { spaceIds } : {}), ...(fonts ? { fonts } : {}) };
  });
}
