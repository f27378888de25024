/**
 * From merged documents to OrgConfigs: the address of every resource (for duplicates and for
 * `locations`), and the cross-references a config can check offline. What the config cannot check
 * (a SAML default team, a collection or a section the config does not define) is recorded in
 * `deferred` for the planner.
 */
import type { Secret } from '../core/secrets.js';
import { key } from '../resources/types.js';
import { didYouMean } from './messages.js';
import { child, locationOf, where } from './model.js';
import type { Item, Origin, Problems } from './model.js';
import type { OrgDraft } from './merge.js';
import type { CollectionT, SectionGroupT, SectionT, ShareLinkT, SiteT } from './schema.js';
import { formatPath } from './source.js';
import type { DeferredCheck, OrgConfig, SourceLocation } from './types.js';

/** The addresses of one organization, each with where it was first defined. */
class Registry {
  readonly locations: Record<string, SourceLocation> = {};
  private readonly seen = new Map<string, { address: string; origin: Origin }>();

  constructor(private readonly problems: Problems) {}

  /**
   * Claims a natural key (`identity`, compared as given) for `address`. A second claim is a
   * duplicate, reported at the second place and naming the first. Returns false on a duplicate.
   */
  claim(identity: string, address: string, origin: Origin, what = address): boolean {
    const earlier = this.seen.get(identity);
    if (earlier) {
      this.problems.at(origin, `${what} is defined twice: here and at ${where(earlier.origin)}`);
      return false;
    }
    this.seen.set(identity, { address, origin });
    this.locations[address] ??= locationOf(origin);
    return true;
  }

  locate(address: string, origin: Origin, mode: 'value' | 'key' = 'value'): void {
    this.locations[address] ??= locationOf(origin, mode);
  }

  get(identity: string): { address: string; origin: Origin } | undefined {
    return this.seen.get(identity);
  }
}

/** Ids and renamedFrom values of one kind within one scope (a site, or the organization). */
class Identities {
  private readonly ids = new Map<string, { address: string; origin: Origin }>();
  private readonly renamed = new Map<string, { address: string; origin: Origin }>();

  constructor(
    private readonly problems: Problems,
    /** `teams`, `sites["site_docs"].sections`, … */
    private readonly prefix: string,
    private readonly keyName: string,
  ) {}

  add(own: string, item: { id?: string; renamedFrom?: string }, origin: Origin, keys: ReadonlySet<string>): void {
    const address = `${this.prefix}${key(own)}`;
    if (item.id !== undefined) {
      const earlier = this.ids.get(item.id);
      if (earlier) this.problems.at(child(origin, 'id'), `id "${item.id}" is also given to ${earlier.address} at ${where(earlier.origin)}`);
      else this.ids.set(item.id, { address, origin: child(origin, 'id') });
    }
    const from = item.renamedFrom;
    if (from === undefined) return;
    const at = child(origin, 'renamedFrom');
    if (from === own) {
      this.problems.at(at, `is this resource's own ${this.keyName}; give the ${this.keyName} it had before, or remove renamedFrom`);
    } else if (keys.has(from)) {
      this.problems.at(at, `renamedFrom names ${this.prefix}${key(from)}, which this config also defines; a resource cannot be renamed to two`);
    } else {
      const earlier = this.renamed.get(from);
      if (earlier) this.problems.at(at, `${earlier.address} at ${where(earlier.origin)} is also renamed from "${from}"`);
      else this.renamed.set(from, { address, origin: at });
    }
  }
}

function lowerIfEmail(user: string): string {
  return user.includes('@') ? user.toLowerCase() : user;
}

interface FlatCollection {
  path: string;
  value: CollectionT;
  origin: Origin;
}

function flattenCollections(items: readonly Item<CollectionT>[]): FlatCollection[] {
  const out: FlatCollection[] = [];
  const walk = (value: CollectionT, origin: Origin, parent: string | undefined, depth: number) => {
    const path = parent === undefined ? value.title : `${parent}/${value.title}`;
    out.push({ path, value, origin });
    // Depth is bounded by the YAML itself; the guard only protects against pathological input.
    if (depth > 256) return;
    (value.collections ?? []).forEach((c, i) => walk(c, child(origin, 'collections', i), path, depth + 1));
  };
  for (const item of items) walk(item.value, item.origin, undefined, 0);
  return out;
}

export interface ResolveResult {
  org: OrgConfig;
  secrets: Secret[];
}

export function resolveOrg(draft: OrgDraft, problems: Problems, options: { crossReferences: boolean }): ResolveResult {
  const reg = new Registry(problems);
  const deferred: DeferredCheck[] = [];
  const secrets: Secret[] = [];
  const org = draft.id;
  const check = options.crossReferences;

  reg.locate('organization', draft.origin);
  const agent = draft.fieldOrigins.get('agentInstructions');
  if (agent) reg.locate('organization.agentInstructions', agent);

  // Members, by email (case-insensitive) or user id.
  for (const { value, origin } of draft.members ?? []) {
    const address = `members${key(value.user)}`;
    reg.claim(`member:${lowerIfEmail(value.user)}`, address, origin, `member ${value.user}`);
  }

  // Teams and their memberships.
  const teamTitles = new Set((draft.teams ?? []).map((t) => t.value.title));
  const teamIds = new Identities(problems, 'teams', 'title');
  for (const { value, origin } of draft.teams ?? []) {
    const address = `teams${key(value.title)}`;
    if (!reg.claim(`team:${value.title}`, address, origin, address)) continue;
    teamIds.add(value.title, value, origin, teamTitles);
    if (value.members) {
      reg.locate(`${address}.members`, child(origin, 'members'), 'key');
      const users = new Map<string, Origin>();
      value.members.forEach((m, i) => {
        const user = typeof m === 'string' ? m : m.user;
        const at = child(origin, 'members', i);
        const earlier = users.get(lowerIfEmail(user));
        if (earlier) problems.at(at, `${user} is listed twice in team "${value.title}" (also at ${where(earlier)})`);
        else users.set(lowerIfEmail(user), at);
      });
    }
  }

  // Collections, by path of titles.
  const collections = flattenCollections(draft.collections ?? []);
  const collectionPaths = new Set(collections.map((c) => c.path));
  const collectionIds = new Identities(problems, 'collections', 'path');
  for (const c of collections) {
    const address = `collections${key(c.path)}`;
    if (reg.claim(`collection:${c.path}`, address, c.origin)) collectionIds.add(c.path, c.value, c.origin, collectionPaths);
  }

  // Spaces, and the collection each is placed in.
  for (const { value, origin } of draft.spaces ?? []) {
    const address = `spaces${key(value.id)}`;
    if (!reg.claim(`space:${value.id}`, address, origin)) continue;
    const target = value.collection;
    if (!check || target === undefined || target === null) continue;
    if (draft.collections === undefined) {
      deferred.push({ kind: 'collections', key: target, from: address, field: 'collection', location: locationOf(child(origin, 'collection')) });
    } else if (!collectionPaths.has(target)) {
      problems.at(
        child(origin, 'collection'),
        `names no collection of this config (collections are written as paths of titles, like "Product/API")${didYouMean(target, [...collectionPaths])}`,
      );
    }
  }

  // Sites: sections, their site spaces, section groups, share links.
  for (const { value, origin } of draft.sites ?? []) resolveSite(value, origin, reg, problems, deferred, check);

  // SAML providers: the default team by title.
  const samlLabels = new Set((draft.saml ?? []).map((s) => s.value.label));
  const samlIds = new Identities(problems, 'saml', 'label');
  for (const { value, origin } of draft.saml ?? []) {
    const address = `saml${key(value.label)}`;
    if (!reg.claim(`saml:${value.label}`, address, origin)) continue;
    samlIds.add(value.label, value, origin, samlLabels);
    if (value.certificate) secrets.push({ name: `value:${org}/${address}.certificate`, value: value.certificate });
    const team = value.defaultTeam;
    if (!check || team === undefined || team === null || teamTitles.has(team)) continue;
    if (draft.teams !== undefined && draft.prune.has('teams')) {
      problems.at(
        child(origin, 'defaultTeam'),
        `names no team of this config, and teams are pruned: the plan would delete team "${team}"${didYouMean(team, [...teamTitles])}`,
      );
    } else {
      deferred.push({ kind: 'teams', key: team, from: address, field: 'defaultTeam', location: locationOf(child(origin, 'defaultTeam')) });
    }
  }

  for (const { value, origin } of draft.integrations ?? []) {
    const address = `integrations${key(value.name)}`;
    if (!reg.claim(`integration:${value.name}`, address, origin)) continue;
    for (const [name, secret] of Object.entries(value.secrets ?? {})) {
      secrets.push({ name: `value:${org}/${address}.${formatPath(['secrets', name])}`, value: secret });
    }
  }

  for (const { value, origin } of draft.translations ?? []) {
    const address = `translations${key(`${value.source.space}/${value.language}`)}`;
    reg.claim(`translation:${value.source.space}/${value.language}`, address, origin);
  }

  const pick = <T>(items: Item<T>[] | undefined): T[] | undefined => items?.map((i) => i.value);
  const orgConfig: OrgConfig = {
    organization: draft.organization as OrgConfig['organization'],
    members: pick(draft.members),
    teams: pick(draft.teams),
    collections: pick(draft.collections),
    spaces: pick(draft.spaces),
    sites: pick(draft.sites),
    saml: pick(draft.saml),
    integrations: pick(draft.integrations),
    translations: pick(draft.translations),
    prune: [...draft.prune].sort((a, b) => PRUNE_ORDER.indexOf(a) - PRUNE_ORDER.indexOf(b)),
    safety: { ...draft.safety },
    protect: draft.protect.map((p) => p.value),
    locations: reg.locations,
    deferred,
  };
  // Lists the config does not have stay absent (not undefined-valued keys), as configs built in code.
  for (const k of Object.keys(orgConfig) as (keyof OrgConfig)[]) if (orgConfig[k] === undefined) delete orgConfig[k];
  return { org: orgConfig, secrets };
}

const PRUNE_ORDER = ['members', 'teams', 'collections', 'sections', 'siteSpaces', 'sectionGroups', 'shareLinks', 'saml', 'translations'];

function resolveSite(site: SiteT, origin: Origin, reg: Registry, problems: Problems, deferred: DeferredCheck[], check: boolean): void {
  const siteAddress = `sites${key(site.id)}`;
  if (!reg.claim(`site:${site.id}`, siteAddress, origin)) return;
  if (site.sections || site.sectionGroups) reg.locate(`${siteAddress}.structure`, origin);

  const sections: SectionT[] = site.sections ?? [];
  const paths = new Set(sections.map((s) => s.path));
  const sectionIds = new Identities(problems, `${siteAddress}.sections`, 'path');
  sections.forEach((section, i) => {
    const at = child(origin, 'sections', i);
    const address = `${siteAddress}.sections${key(section.path)}`;
    if (!reg.claim(`section:${site.id}:${section.path}`, address, at, `section "${section.path}" of site ${site.id}`)) return;
    sectionIds.add(section.path, section, at, paths);
    const listed = new Set((section.siteSpaces ?? []).map((s) => s.space));
    if (!listed.has(section.space)) reg.locate(`${address}.siteSpaces${key(section.space)}`, child(at, 'space'));
    if (section.siteSpaces) {
      reg.locate(`${address}.siteSpaces`, child(at, 'siteSpaces'), 'key');
      section.siteSpaces.forEach((ss, j) => {
        const ssAt = child(at, 'siteSpaces', j);
        reg.claim(
          `siteSpace:${site.id}:${section.path}:${ss.space}`,
          `${address}.siteSpaces${key(ss.space)}`,
          ssAt,
          `space ${ss.space} in section "${section.path}"`,
        );
      });
    }
  });

  const groups: SectionGroupT[] = site.sectionGroups ?? [];
  const titles = new Set(groups.map((g) => g.title));
  const groupIds = new Identities(problems, `${siteAddress}.sectionGroups`, 'title');
  const grouped = new Map<string, Origin>();
  groups.forEach((group, i) => {
    const at = child(origin, 'sectionGroups', i);
    const address = `${siteAddress}.sectionGroups${key(group.title)}`;
    if (!reg.claim(`sectionGroup:${site.id}:${group.title}`, address, at, `section group "${group.title}" of site ${site.id}`)) return;
    groupIds.add(group.title, group, at, titles);
    (group.sections ?? []).forEach((path, j) => {
      const sAt = child(at, 'sections', j);
      const earlier = grouped.get(path);
      if (earlier) {
        problems.at(sAt, `section "${path}" is already in a section group (at ${where(earlier)}); a section belongs to one group at most`);
        return;
      }
      grouped.set(path, sAt);
      if (!check) return;
      if (site.sections === undefined) {
        deferred.push({ kind: 'sections', key: path, site: site.id, from: address, field: 'sections', location: locationOf(sAt) });
      } else if (!paths.has(path)) {
        problems.at(sAt, `names no section of site ${site.id} (sections are named by their path)${didYouMean(path, [...paths])}`);
      }
    });
  });

  const links: ShareLinkT[] = site.shareLinks ?? [];
  const names = new Set(links.map((l) => l.name));
  const linkIds = new Identities(problems, `${siteAddress}.shareLinks`, 'name');
  links.forEach((link, i) => {
    const at = child(origin, 'shareLinks', i);
    const address = `${siteAddress}.shareLinks${key(link.name)}`;
    if (reg.claim(`shareLink:${site.id}:${link.name}`, address, at, `share link "${link.name}" of site ${site.id}`)) linkIds.add(link.name, link, at, names);
  });
}
