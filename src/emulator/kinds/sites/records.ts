/** The records of a site: its structure (sections, section groups, external links, site spaces) and its share links. */

/** An item of a site's top level or of a group's children: a section, a section group or an external link. */
export interface TopItem {
  type: 'section' | 'group' | 'link';
  id: string;
}

/** A `LocalizedString128/256`: overrides by language. */
export type LocalizedRec = Record<string, string>;

export interface SectionRec {
  id: string;
  title: string;
  path: string;
  description?: string;
  condition?: string;
  icon?: string;
  draft: boolean;
  localizedTitle?: LocalizedRec;
  localizedDescription?: LocalizedRec;
  /** The group holding it, when it is in one. */
  group?: string;
  /** Site space ids, in order. */
  siteSpaces: string[];
  defaultSiteSpace?: string;
  createdAt: string;
}

export interface GroupRec {
  id: string;
  title: string;
  icon?: string;
  draft: boolean;
  localizedTitle?: LocalizedRec;
  /** The group holding it, when it is nested. */
  parent?: string;
  /** Its children (sections, groups, external links), in order. */
  children: TopItem[];
  createdAt: string;
}

export interface LinkRec {
  id: string;
  title: string;
  url: string;
  description?: string;
  icon?: string;
  condition?: string;
  draft: boolean;
  localizedTitle?: LocalizedRec;
  localizedDescription?: LocalizedRec;
  /** The group holding it, when it is in one. */
  parent?: string;
  createdAt: string;
}

export interface SiteSpaceRec {
  id: string;
  /** The section holding it; absent for a site space at the root of a site without sections. */
  section?: string;
  space: string;
  path: string;
  condition?: string;
  draft: boolean;
  hidden: boolean;
  createdAt: string;
}

export interface ShareLinkRec {
  id: string;
  name: string;
  active: boolean;
  createdAt: string;
}

export interface SiteRec {
  id: string;
  org: string;
  title: string;
  /** The site's own settings (site-view.ts shows them, site-routes.ts changes them). */
  settings: SiteSettings;
  /** The top level of the structure, in order. */
  top: TopItem[];
  /** Site spaces at the root (a site without sections), in order. */
  rootSiteSpaces: string[];
  defaultSection?: string;
  sections: Map<string, SectionRec>;
  groups: Map<string, GroupRec>;
  links: Map<string, LinkRec>;
  siteSpaces: Map<string, SiteSpaceRec>;
  shareLinks: Map<string, ShareLinkRec>;
  /** publishSite answers with a checkout session instead of publishing. */
  publishNeedsPurchase?: boolean;
}

/** What `updateSiteById`, `publishSite` and `unpublishSite` change, and the create's type. */
export interface SiteSettings {
  type: string;
  visibility: string;
  basename?: string;
  published: boolean;
  adaptiveContent: boolean;
  defaultLevel: string | null;
  /** The proxy origin. */
  proxy?: string;
  /** The id of its style guide space. */
  styleguide?: string;
  createdAt: string;
}

declare module '../../model.js' {
  interface OrgRec {
    sites: Map<string, SiteRec>;
  }
}

/** `Guides v2` → `guides-v2`: lower-case, ASCII letters and digits, single dashes. */
export function slugify(text: string, fallback = 'section'): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90);
  return slug || fallback;
}

/** `base`, else `base-2`, `base-3`, … whichever is not taken. */
export function uniqueSlug(base: string, taken: (candidate: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken(candidate)) return candidate;
  }
}

/** A site with nothing in it yet: made by a create and by the seed alike. */
export function emptySite(id: string, org: string, title: string, settings: SiteSettings): SiteRec {
  return {
    id,
    org,
    title,
    settings,
    top: [],
    rootSiteSpaces: [],
    sections: new Map(),
    groups: new Map(),
    links: new Map(),
    siteSpaces: new Map(),
    shareLinks: new Map(),
  };
}
