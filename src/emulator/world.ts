/**
 * The emulator's in-memory world: plain records, keyed by id, in the order the API shows them.
 * Handlers change it; views (views.ts) turn records into the API's objects. Built from a validated
 * state file by createWorld; seeds that refer to something missing are reported with their place.
 */
import { DocplaneError } from '../core/errors.js';
import { textToDocument } from '../core/richtext.js';
import type { Random } from './random.js';
import { idMaker } from './random.js';
import type { CollectionSeed, OrganizationSeedT, ParsedEmulatorState, SiteSeedT } from './state.js';
import { DEFAULT_TOKENS } from './state.js';

export type Role = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';
export type Level = Role | 'inherit';
export type TeamRole = 'owner' | 'member';
export type TokenAccess = 'read' | 'write';

export interface TokenRec {
  token: string;
  access: TokenAccess;
  user?: string;
}

export interface UserRec {
  id: string;
  email: string;
  displayName: string;
  photoURL?: string;
}

export interface MemberRec {
  userId: string;
  role: Role | null;
  sso: boolean;
  disabled: boolean;
  joinedAt: string;
  lastSeenAt?: string;
}

export interface TeamRec {
  id: string;
  title: string;
  createdAt: string;
  /** User id → role in the team, in the order they joined. */
  members: Map<string, TeamRole>;
}

export interface CollectionRec {
  id: string;
  org: string;
  title: string;
  description?: string;
  parent?: string;
  defaultLevel: Level | null;
  createdAt: string;
}

export interface SpaceRec {
  id: string;
  org: string;
  title: string;
  emoji?: string;
  visibility: string;
  editMode: 'live' | 'locked';
  defaultLevel: Level | null;
  language?: string;
  parent?: string;
  mergeRules: unknown;
  revision: string;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
}

/** An item of a site's top level: a section not in a group, or a section group. */
export interface TopItem {
  type: 'section' | 'group';
  id: string;
}

export interface SectionRec {
  id: string;
  title: string;
  path: string;
  description?: string;
  condition?: string;
  icon?: string;
  draft: boolean;
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
  /** Section ids, in order. */
  sections: string[];
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
  /** The top level of the structure, in order. */
  top: TopItem[];
  /** Site spaces at the root (a site without sections), in order. */
  rootSiteSpaces: string[];
  defaultSection?: string;
  sections: Map<string, SectionRec>;
  groups: Map<string, GroupRec>;
  siteSpaces: Map<string, SiteSpaceRec>;
  shareLinks: Map<string, ShareLinkRec>;
}

export interface SamlRec {
  id: string;
  label: string;
  entityID?: string;
  ssoURL?: string;
  certificate?: string;
  /** Team id, or null. */
  defaultTeam: string | null;
  defaultRole: Role | null;
  status: string;
  createdAt: string;
}

export interface RichTextDoc {
  object: 'document';
  data?: Record<string, unknown>;
  nodes: unknown[];
  [k: string]: unknown;
}

export interface TranslationRec {
  id: string;
  language: string;
  source: { space: string; language: string };
  instructions?: RichTextDoc;
  resultSpace: string;
  revision: string;
  runs: number;
  createdAt: string;
  updatedAt: string;
}

export interface IntegrationRec {
  name: string;
  owner: string;
  version: number;
  title: string;
  description: string;
  summary?: string;
  previewImages: string[];
  icon?: string;
  runtime: string;
  target: string;
  visibility: string;
  verified: boolean;
  scopes: string[];
  categories: string[];
  blocks: unknown[];
  contentSources: unknown[];
  externalLinks: unknown[];
  configurations: Record<string, unknown>;
  contentSecurityPolicy?: string;
  /** Kept, never returned. */
  script: string;
  /** Kept, never returned. */
  secrets: Record<string, string>;
}

export interface AgentInstructionsRec {
  instructions: RichTextDoc;
  updatedAt: string;
  updatedBy?: string;
}

export interface OrgRec {
  id: string;
  title: string;
  createdAt: string;
  emailDomains: string[];
  hostname?: string;
  type: string;
  useCase?: string;
  communityType?: string;
  defaultRole: Role | null;
  defaultContent: { type: 'site'; site: string } | null;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  plan: string;
  mergeRules: unknown;
  customHostname?: string;
  logo?: string;
  /** User id → membership, in the order they joined. */
  members: Map<string, MemberRec>;
  teams: Map<string, TeamRec>;
  sites: Map<string, SiteRec>;
  saml: Map<string, SamlRec>;
  translations: Map<string, TranslationRec>;
  /** Ids of the organization's spaces in the order the API lists them. */
  spaceOrder: string[];
  agentInstructions: AgentInstructionsRec | null;
}

export interface World {
  tokens: Map<string, TokenRec>;
  users: Map<string, UserRec>;
  orgs: Map<string, OrgRec>;
  /** Spaces of every organization (their ids are global: `/v1/spaces/{id}`). */
  spaces: Map<string, SpaceRec>;
  /** Collections of every organization (`/v1/collections/{id}`). */
  collections: Map<string, CollectionRec>;
  /** Published integrations by name. */
  integrations: Map<string, IntegrationRec>;
  /** A fresh opaque id with a kind prefix. */
  newId(prefix: string): string;
  now(): Date;
  /** Where the emulator listens, for `urls.location`; set once the server is up. */
  baseUrl: string;
}

export interface WorldOptions {
  random: Random;
  now?: () => Date;
}

// ---------------------------------------------------------------------------------------------
// Small shared helpers

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

/** A copy of a document in which every block has a `key` (the live service adds them). */
export function withBlockKeys(doc: RichTextDoc, newKey: () => string): RichTextDoc {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = { ...(node as Record<string, unknown>) };
    if (out.object === 'block' && (typeof out.key !== 'string' || out.key === '')) out.key = newKey();
    if (Array.isArray(out.nodes)) out.nodes = out.nodes.map(walk);
    return out;
  };
  return walk(doc) as RichTextDoc;
}

export function findUser(world: World, idOrEmail: string): UserRec | undefined {
  const byId = world.users.get(idOrEmail);
  if (byId) return byId;
  const lower = idOrEmail.toLowerCase();
  for (const user of world.users.values()) if (user.email.toLowerCase() === lower) return user;
  return undefined;
}

/** A space that exists for the API: not deleted, or deleted within the retention window. */
export const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export function isPurged(world: World, space: SpaceRec): boolean {
  return space.deletedAt !== undefined && world.now().getTime() - Date.parse(space.deletedAt) > RETENTION_MS;
}

/** The collection and every collection under it (depth-first, the collection first). */
export function collectionSubtree(world: World, rootId: string): string[] {
  const out: string[] = [rootId];
  for (let i = 0; i < out.length; i++) {
    for (const c of world.collections.values()) if (c.parent === out[i]) out.push(c.id);
  }
  return out;
}

/** An organization's collections, parents before children, siblings in creation order. */
export function orgCollections(world: World, org: string): CollectionRec[] {
  const all = [...world.collections.values()].filter((c) => c.org === org);
  const out: CollectionRec[] = [];
  const visit = (parent: string | undefined) => {
    for (const c of all) {
      if (c.parent === parent) {
        out.push(c);
        visit(c.id);
      }
    }
  };
  visit(undefined);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Building the world from a state file

class SeedError extends DocplaneError {
  constructor(place: string, message: string) {
    super('EMULATOR_STATE_INVALID', `emulator state: ${place}: ${message}`, {
      hint: 'Fix the state file; its format is described in src/emulator/README.md.',
    });
    this.name = 'SeedError';
  }
}

const DAY = 24 * 60 * 60 * 1000;

export function createWorld(state: ParsedEmulatorState, options: WorldOptions): World {
  const now = options.now ?? (() => new Date());
  const makeId = idMaker(options.random);
  const world: World = {
    tokens: new Map(),
    users: new Map(),
    orgs: new Map(),
    spaces: new Map(),
    collections: new Map(),
    integrations: new Map(),
    newId: makeId,
    now,
    baseUrl: 'http://127.0.0.1',
  };

  const tokens: TokenRec[] = state.tokens ?? DEFAULT_TOKENS;
  for (const t of tokens) {
    if (world.tokens.has(t.token)) throw new SeedError('tokens', 'a token is listed twice');
    world.tokens.set(t.token, { token: t.token, access: t.access, user: t.user });
  }
  state.users.forEach((u, i) => {
    if (world.users.has(u.id)) throw new SeedError(`users[${i}].id`, `user ${u.id} is listed twice`);
    world.users.set(u.id, { id: u.id, email: u.email, displayName: u.displayName ?? u.email.split('@')[0], photoURL: u.photoURL });
  });
  for (const t of world.tokens.values()) {
    if (t.user && !world.users.has(t.user)) throw new SeedError('tokens', `a token names user ${t.user}, who is not in users`);
  }

  // Seeded objects look as if made over the last weeks, in file order.
  const base = now().getTime() - 30 * DAY;
  let tick = 0;
  const stamp = () => new Date(base + tick++ * 60_000).toISOString();

  state.organizations.forEach((seed, i) => seedOrganization(world, seed, `organizations[${i}]`, stamp));
  return world;
}

function seedOrganization(world: World, seed: OrganizationSeedT, place: string, stamp: () => string): void {
  const id = seed.id ?? world.newId('org');
  if (world.orgs.has(id)) throw new SeedError(`${place}.id`, `organization ${id} is listed twice`);
  const org: OrgRec = {
    id,
    title: seed.title,
    createdAt: seed.createdAt ?? stamp(),
    emailDomains: [...seed.emailDomains],
    hostname: seed.hostname,
    type: seed.type ?? 'business',
    useCase: seed.useCase,
    communityType: seed.communityType,
    defaultRole: seed.defaultRole ?? null,
    defaultContent: seed.defaultContent ?? null,
    sso: seed.sso ?? false,
    ai: seed.ai ?? false,
    inviteLinks: seed.inviteLinks ?? false,
    plan: seed.plan ?? 'free_2024',
    mergeRules: seed.mergeRules ?? { type: 'rules', rules: [] },
    customHostname: seed.customHostname,
    logo: seed.logo,
    members: new Map(),
    teams: new Map(),
    sites: new Map(),
    saml: new Map(),
    translations: new Map(),
    spaceOrder: [],
    agentInstructions: null,
  };
  world.orgs.set(id, org);

  seed.members.forEach((m, i) => {
    const user = findUser(world, m.user);
    if (!user) throw new SeedError(`${place}.members[${i}].user`, `no user ${m.user} in users`);
    if (org.members.has(user.id)) throw new SeedError(`${place}.members[${i}].user`, `${m.user} is listed twice`);
    org.members.set(user.id, {
      userId: user.id,
      role: m.role,
      sso: m.sso ?? false,
      disabled: m.disabled ?? false,
      joinedAt: m.joinedAt ?? stamp(),
      lastSeenAt: m.lastSeenAt,
    });
  });

  // Collections before spaces, which may be placed in them by path.
  const byPath = new Map<string, string>();
  const seedCollections = (list: CollectionSeed[], parent: string | undefined, prefix: string, where: string) => {
    list.forEach((c, i) => {
      const cid = c.id ?? world.newId('col');
      if (world.collections.has(cid)) throw new SeedError(`${where}[${i}].id`, `collection ${cid} is listed twice`);
      world.collections.set(cid, {
        id: cid,
        org: id,
        title: c.title,
        description: c.description,
        parent,
        defaultLevel: c.defaultLevel ?? null,
        createdAt: stamp(),
      });
      const path = prefix ? `${prefix}/${c.title}` : c.title;
      byPath.set(path, cid);
      seedCollections(c.collections, cid, path, `${where}[${i}].collections`);
    });
  };
  seedCollections(seed.collections, undefined, '', `${place}.collections`);

  seed.spaces.forEach((s, i) => {
    const sid = s.id ?? world.newId('space');
    if (world.spaces.has(sid)) throw new SeedError(`${place}.spaces[${i}].id`, `space ${sid} is listed twice`);
    let parent = s.parent;
    if (parent !== undefined && world.collections.get(parent)?.org !== id) {
      throw new SeedError(`${place}.spaces[${i}].parent`, `no collection ${parent} in ${id}`);
    }
    if (s.collection !== undefined) {
      parent = byPath.get(s.collection);
      if (!parent) throw new SeedError(`${place}.spaces[${i}].collection`, `no collection at path ${s.collection}`);
    }
    const createdAt = s.createdAt ?? stamp();
    world.spaces.set(sid, {
      id: sid,
      org: id,
      title: s.title,
      emoji: s.emoji,
      visibility: s.visibility ?? (parent ? 'in-collection' : 'private'),
      editMode: s.editMode ?? 'live',
      defaultLevel: s.defaultLevel ?? null,
      language: s.language,
      parent,
      mergeRules: { type: 'inherit' },
      revision: world.newId('rev'),
      createdAt,
      updatedAt: createdAt,
      deletedAt: s.deletedAt,
    });
    org.spaceOrder.push(sid);
  });

  seed.sites.forEach((s, i) => seedSite(world, org, s, `${place}.sites[${i}]`, stamp));
  if (org.defaultContent && !org.sites.has(org.defaultContent.site)) {
    throw new SeedError(`${place}.defaultContent.site`, `no site ${org.defaultContent.site} in ${id}`);
  }

  seed.teams.forEach((t, i) => {
    const tid = t.id ?? world.newId('team');
    const members = new Map<string, TeamRole>();
    t.members.forEach((m, j) => {
      const who = typeof m === 'string' ? m : m.user;
      const user = findUser(world, who);
      if (!user || !org.members.has(user.id)) {
        throw new SeedError(`${place}.teams[${i}].members[${j}]`, `${who} is not a member of ${id}`);
      }
      members.set(user.id, typeof m === 'string' ? 'member' : m.role);
    });
    org.teams.set(tid, { id: tid, title: t.title, createdAt: t.createdAt ?? stamp(), members });
  });

  seed.saml.forEach((p, i) => {
    let defaultTeam: string | null = null;
    if (p.defaultTeam) {
      const team = org.teams.get(p.defaultTeam) ?? [...org.teams.values()].find((t) => t.title === p.defaultTeam);
      if (!team) throw new SeedError(`${place}.saml[${i}].defaultTeam`, `no team ${p.defaultTeam} in ${id}`);
      defaultTeam = team.id;
    }
    const pid = p.id ?? world.newId('saml');
    org.saml.set(pid, {
      id: pid,
      label: p.label,
      entityID: p.entityID,
      ssoURL: p.ssoURL,
      certificate: p.certificate,
      defaultTeam,
      defaultRole: p.defaultRole ?? null,
      status: p.status ?? 'active',
      createdAt: stamp(),
    });
  });

  seed.translations.forEach((t, i) => {
    if (world.spaces.get(t.source.space)?.org !== id) {
      throw new SeedError(`${place}.translations[${i}].source.space`, `no space ${t.source.space} in ${id}`);
    }
    const tid = t.id ?? world.newId('tr');
    const at = stamp();
    org.translations.set(tid, {
      id: tid,
      language: t.language,
      source: { ...t.source },
      instructions: t.instructions === undefined ? undefined : toDoc(world, t.instructions),
      resultSpace: world.newId('space'),
      revision: world.newId('rev'),
      runs: 0,
      createdAt: at,
      updatedAt: at,
    });
  });

  seed.integrations.forEach((it, i) => {
    if (world.integrations.has(it.name)) throw new SeedError(`${place}.integrations[${i}].name`, `integration ${it.name} is listed twice`);
    world.integrations.set(it.name, {
      name: it.name,
      owner: id,
      version: it.version ?? 1,
      title: it.title,
      description: it.description,
      summary: it.summary,
      previewImages: [],
      runtime: 'v1',
      target: it.target ?? 'all',
      visibility: it.visibility ?? 'private',
      verified: it.verified ?? false,
      scopes: [...it.scopes],
      categories: [...it.categories],
      blocks: [],
      contentSources: [],
      externalLinks: [],
      configurations: {},
      script: it.script,
      secrets: { ...(it.secrets ?? {}) },
    });
  });

  if (seed.agentInstructions != null) {
    org.agentInstructions = { instructions: toDoc(world, seed.agentInstructions), updatedAt: stamp() };
  }
}

function toDoc(world: World, value: string | RichTextDoc): RichTextDoc {
  const doc = typeof value === 'string' ? (textToDocument(value) as RichTextDoc) : value;
  return withBlockKeys(doc, () => world.newId('blk'));
}

function seedSite(world: World, org: OrgRec, seed: SiteSeedT, place: string, stamp: () => string): void {
  const id = seed.id ?? world.newId('site');
  for (const o of world.orgs.values()) {
    if (o.sites.has(id)) throw new SeedError(`${place}.id`, `site ${id} is listed twice`);
  }
  const site: SiteRec = {
    id,
    org: org.id,
    title: seed.title,
    top: [],
    rootSiteSpaces: [],
    sections: new Map(),
    groups: new Map(),
    siteSpaces: new Map(),
    shareLinks: new Map(),
  };
  org.sites.set(id, site);

  const addSiteSpace = (ss: SiteSeedT['siteSpaces'][number], section: SectionRec | undefined, where: string): SiteSpaceRec => {
    const space = world.spaces.get(ss.space);
    if (!space || space.org !== org.id) throw new SeedError(`${where}.space`, `no space ${ss.space} in ${org.id}`);
    const container = section ? section.siteSpaces : site.rootSiteSpaces;
    const taken = (p: string) => container.some((sid) => site.siteSpaces.get(sid)?.path === p);
    const ssid = ss.id ?? world.newId('sitesp');
    const rec: SiteSpaceRec = {
      id: ssid,
      section: section?.id,
      space: space.id,
      path: ss.path ?? uniqueSlug(slugify(space.title, 'space'), taken),
      condition: ss.condition,
      draft: ss.draft ?? false,
      createdAt: stamp(),
    };
    site.siteSpaces.set(ssid, rec);
    container.push(ssid);
    return rec;
  };

  if (seed.siteSpaces.length > 0 && seed.sections.length > 0) {
    throw new SeedError(`${place}.siteSpaces`, 'root site spaces are only for a site without sections; list them under a section');
  }
  seed.siteSpaces.forEach((ss, i) => addSiteSpace(ss, undefined, `${place}.siteSpaces[${i}]`));

  seed.sections.forEach((s, i) => {
    const where = `${place}.sections[${i}]`;
    const sid = s.id ?? world.newId('sec');
    const path = s.path ?? uniqueSlug(slugify(s.title), (p) => [...site.sections.values()].some((x) => x.path === p));
    if ([...site.sections.values()].some((x) => x.path === path)) throw new SeedError(`${where}.path`, `path ${path} is used twice`);
    const section: SectionRec = {
      id: sid,
      title: s.title,
      path,
      description: s.description,
      condition: s.condition,
      icon: s.icon,
      draft: s.draft ?? false,
      siteSpaces: [],
      createdAt: stamp(),
    };
    site.sections.set(sid, section);
    site.top.push({ type: 'section', id: sid });
    if (s.default) site.defaultSection = sid;
    s.siteSpaces.forEach((ss, j) => {
      const rec = addSiteSpace(ss, section, `${where}.siteSpaces[${j}]`);
      if (ss.default) section.defaultSiteSpace = rec.id;
    });
  });

  seed.sectionGroups.forEach((g, i) => {
    const where = `${place}.sectionGroups[${i}]`;
    const gid = g.id ?? world.newId('grp');
    const group: GroupRec = { id: gid, title: g.title, icon: g.icon, draft: g.draft ?? false, sections: [], createdAt: stamp() };
    site.groups.set(gid, group);
    site.top.push({ type: 'group', id: gid });
    g.sections.forEach((ref, j) => {
      const section = site.sections.get(ref) ?? [...site.sections.values()].find((x) => x.path === ref);
      if (!section) throw new SeedError(`${where}.sections[${j}]`, `no section with path or id ${ref} in ${id}`);
      if (section.group) throw new SeedError(`${where}.sections[${j}]`, `section ${ref} is already in a group`);
      // The group stands where its first section stood.
      const at = site.top.findIndex((t) => t.type === 'section' && t.id === section.id);
      site.top.splice(at, 1);
      if (group.sections.length === 0) {
        site.top.splice(site.top.findIndex((t) => t.type === 'group' && t.id === gid), 1);
        site.top.splice(at, 0, { type: 'group', id: gid });
      }
      group.sections.push(section.id);
      section.group = gid;
    });
  });

  seed.shareLinks.forEach((l) => {
    const lid = l.id ?? world.newId('link');
    site.shareLinks.set(lid, { id: lid, name: l.name, active: l.active ?? true, createdAt: l.createdAt ?? stamp() });
  });
}
