/**
 * The least the API's shape allows, computed from a generated world (not from what docplane sends),
 * and the ideal wall time that follows from it. docs/benchmarks.md explains each formula.
 *
 * Reads: every list is read a page (≤ 1000 items) at a time, and the pages of one list follow each
 * other (the next page's cursor comes with the previous page); team membership is one list per team
 * (the API has no list of all memberships), and it needs the team list first (for the ids); the
 * direct grants of an object are two lists (its team grants and its user grants): a plan reads them
 * for each existing object whose `access` the config gives, an import for every collection, space
 * and site (it writes `access` wherever there are grants).
 * Writes: one request per created or changed resource, plus a second one where the API's create
 * cannot carry a field (POST ORG/collections takes only title and parent; PUT ORG/teams takes no
 * roles; POST SITE/sections sets no path, description or condition; POST SITE/site-spaces sets no
 * path; POST SITE/share-links creates active links). A nested group is created with its parent, an
 * external link with its group: one POST each. A grant is one request: a POST (invite) when
 * missing, a PATCH when its role differs.
 */
import type { Plan } from '../plan/types.js';
import type { WorldCounts } from './generate.js';

export const PAGE_SIZE = 1000;

export function pages(items: number): number {
  return Math.max(1, Math.ceil(items / PAGE_SIZE));
}

/** A count with the terms it is the sum of, for the report. */
export interface Formula {
  total: number;
  terms: Array<{ what: string; n: number }>;
}

function formula(terms: Array<{ what: string; n: number }>): Formula {
  const kept = terms.filter((t) => t.n > 0);
  return { total: kept.reduce((a, t) => a + t.n, 0), terms: kept };
}

export interface ReadCost {
  requests: Formula;
  /** Round trips one after the other that no concurrency can overlap. */
  criticalPath: number;
}

/**
 * The reads of a plan (or an import) of the whole world: `made` says whether the resources the
 * config creates exist yet (from empty: only the seed; after apply: everything).
 */
export function leastReads(c: WorldCounts, made: boolean): ReadCost {
  return withAccessReads(c, baseReads(c, made), made ? c.accessCollections : 0, c.accessSpaces, c.accessSites, 'managed');
}

/**
 * The reads of an import of the whole world (everything made): those of a plan, but the grants of
 * every collection, space and site, whether the config manages their access or not.
 */
export function leastImportReads(c: WorldCounts): ReadCost {
  const cost = withAccessReads(c, baseReads(c, true, true), c.collections, c.spaces, c.sites + c.newSites + c.rootSites, 'every');
  // Its custom fonts: one answer (the list has no pages). A plan reads the fonts only when the config
  // has `fonts` or a customization names a `customFont`, which the bench's config does not. Its
  // translation glossary and its invite links: a page each (the bench's config has neither
  // `glossary` nor `inviteLinks`, so a plan reads none).
  return {
    ...cost,
    requests: formula([...cost.requests.terms, { what: 'custom fonts: 1 (one answer)', n: 1 }, { what: 'translation glossary: pages(0)', n: 1 }, { what: 'invite links: pages(0)', n: 1 }]),
  };
}

/**
 * The organization's installations (one list), and the spaces and sites of an installation: a plan
 * lists those its config gives a list of, an import those whose selection is not `all` (with `all`,
 * there is no list to write). Its OpenAPI specs (one list) and the raw text of each spec made from a
 * text (a plan compares the config's text with it; an import writes it to a file; a spec from a URL
 * has none to read).
 */
function orgExtraReads(c: WorldCounts, made: boolean, importing: boolean): { terms: Array<{ what: string; n: number }>; criticalPath: number } {
  const lists = made ? (importing ? c.installationSelectedLists : c.installationLists) : 0;
  const listPages = pages(c.installationTargetsPerList);
  const texts = made ? c.openapiTextSpecs : 0;
  return {
    terms: [
      { what: `installations: pages(${made ? c.installations : 0}) + ${lists} lists of spaces or sites × pages(${c.installationTargetsPerList})`, n: pages(made ? c.installations : 0) + lists * listPages },
      { what: `OpenAPI specs: pages(${made ? c.openapiSpecs : 0}) + ${texts} texts`, n: pages(made ? c.openapiSpecs : 0) + texts },
    ],
    criticalPath: Math.max(pages(made ? c.installations : 0) + (lists > 0 ? listPages : 0), pages(made ? c.openapiSpecs : 0) + (texts > 0 ? 1 : 0)),
  };
}

/** Two lists (team grants, user grants) per object; they need the object's id (a collection's from the collection list). */
function withAccessReads(c: WorldCounts, base: ReadCost, collections: number, spaces: number, sites: number, which: string): ReadCost {
  const requests = formula([
    ...base.requests.terms,
    { what: `access: 2 × (${collections} + ${spaces} + ${sites}) (${which} collections, spaces, sites)`, n: 2 * (collections + spaces + sites) },
  ]);
  const criticalPath = Math.max(base.criticalPath, collections > 0 ? pages(c.collections) + 1 : 0, spaces + sites > 0 ? 1 : 0);
  return { requests, criticalPath };
}

/**
 * A site's redirects (pages of their list), customization (one GET), publishing auth (one GET),
 * agent settings (one GET), MCP servers (pages of their list), adaptive schema (one GET), agent
 * channels and context connections (pages of their lists) and topics (one answer): a plan
 * reads them for the sites whose config has the block, an import for every site.
 */
function siteExtraReads(c: WorldCounts, made: boolean, importing: boolean): Array<{ what: string; n: number }> {
  const redirects = made ? c.redirectsPerSite : 0;
  if (importing) {
    // Every site of the organization: the seeded ones, the one made from nothing, the one without sections.
    const all = c.sites + c.rootSites + (made ? c.newSites : 0);
    return [
      { what: `redirects: ${c.redirectSites} sites × pages(${redirects}) + ${all - c.redirectSites} sites × 1 (every site)`, n: c.redirectSites * pages(redirects) + (all - c.redirectSites) },
      { what: `customization and publishing auth: 2 × ${all} (every site)`, n: 2 * all },
      { what: `agent settings, MCP servers (a page) and adaptive schema: 3 × ${all} (every site)`, n: 3 * all },
      { what: `agent channels and context connections (a page each), topics (one answer): 3 × ${all} (every site)`, n: 3 * all },
    ];
  }
  return [
    { what: `redirects: ${c.redirectSites} sites × pages(${redirects})`, n: c.redirectSites * pages(redirects) },
    { what: `customization: ${c.customizationSites} sites × 1`, n: c.customizationSites },
    { what: `publishing auth: ${c.publishingAuthSites} sites × 1`, n: c.publishingAuthSites },
    { what: `agent settings: ${c.agentSettingsSites} sites × 1`, n: c.agentSettingsSites },
    { what: `MCP servers: ${c.mcpServerSites} sites × pages(${made ? c.mcpServersPerSite : 0})`, n: c.mcpServerSites * pages(made ? c.mcpServersPerSite : 0) },
    { what: `adaptive schema: ${c.adaptiveSchemaSites} sites × 1`, n: c.adaptiveSchemaSites },
    { what: `agent channels: ${c.channelSites} sites × pages(${made ? c.channelsPerSite : 0})`, n: c.channelSites * pages(made ? c.channelsPerSite : 0) },
    { what: `context connections: ${c.connectionSites} sites × pages(${made ? c.connectionsPerSite : 0})`, n: c.connectionSites * pages(made ? c.connectionsPerSite : 0) },
    { what: `topics: ${c.topicSites} sites × 1 (one answer, no paging)`, n: c.topicSites },
  ];
}

function baseReads(c: WorldCounts, made: boolean, importing = false): ReadCost {
  const extra = orgExtraReads(c, made, importing);
  const teams = made ? c.teams : 0;
  const collections = made ? c.collections : 0;
  const links = made ? c.shareLinksPerSite : 0;
  // A site the config creates is in the list, and read, once it is made; it has no share links.
  const newSites = made ? c.newSites : 0;
  const requests = formula([
    { what: 'GET ORG (settings)', n: 1 },
    { what: 'GET ORG/agent-instructions', n: 1 },
    { what: `members: pages(${c.members})`, n: pages(c.members) },
    { what: `teams: pages(${teams})`, n: pages(teams) },
    { what: `team members: ${teams} teams × pages(${c.teamSize})`, n: teams * pages(c.teamSize) },
    { what: `collections: pages(${collections})`, n: pages(collections) },
    // The same list checks the spaces named by id (sections, translations): no request more.
    { what: `spaces: pages(${c.spaces})`, n: pages(c.spaces) },
    { what: `sites: pages(${c.sites + c.rootSites + newSites})`, n: pages(c.sites + c.rootSites + newSites) },
    { what: `${c.sites} sites × (structure + share links pages)`, n: c.sites * (1 + pages(links)) },
    { what: `${newSites} created sites × (structure + share links)`, n: newSites * 2 },
    { what: `${c.rootSites} sites without sections × (structure + share links page)`, n: c.rootSites * 2 },
    ...siteExtraReads(c, made, importing),
    { what: 'SAML, integrations, translations: a page each', n: 3 },
    ...extra.terms,
  ]);
  // A site's structure, share links and redirects are read once the site list has matched it.
  const criticalPath = Math.max(
    pages(c.members),
    pages(teams) + (teams > 0 ? pages(c.teamSize) : 0),
    pages(collections),
    pages(c.spaces),
    pages(c.sites + c.rootSites + newSites) + Math.max(pages(links), pages(made ? c.redirectsPerSite : 0)),
    extra.criticalPath,
  );
  return { requests, criticalPath };
}

/** The writes that make the world from the seed: one per resource, two where the create cannot carry a field. */
export function leastWritesFromEmpty(c: WorldCounts): Formula {
  return formula([
    { what: 'PATCH ORG (ai)', n: 1 },
    { what: 'PUT ORG/agent-instructions', n: 1 },
    { what: 'PATCH member roles that differ', n: c.memberRoleChanges },
    { what: 'PUT ORG/teams (with members)', n: c.teams },
    { what: 'PUT team members (owner roles)', n: c.teamsWithOwner },
    { what: 'POST ORG/collections', n: c.collections },
    { what: 'PATCH collection (description, defaultLevel)', n: c.collectionsWithSettings },
    { what: 'PATCH space (emoji)', n: c.spaces },
    { what: 'POST SPACE/move (into a collection)', n: c.spacesPlaced },
    { what: 'POST ORG/sites (a site from nothing)', n: c.newSites },
    { what: 'PATCH SITE (visibility)', n: c.sitesPatched },
    { what: 'POST SITE/publish', n: c.sitesPublished },
    { what: 'POST + PATCH per section (path, description, condition)', n: (c.sites * c.sectionsPerSite + c.newSiteSections) * 2 },
    { what: 'POST + PATCH per extra site space (path)', n: c.sites * c.extraSiteSpacesPerSite * 2 },
    { what: 'POST section group (with its sections)', n: c.sites * c.groupsPerSite },
    { what: 'POST section group (nested: with its parent)', n: c.sites * c.nestedGroupsPerSite },
    { what: 'POST external link (with its group)', n: c.sites * c.externalLinksPerSite },
    { what: 'POST + PATCH per site space at a site\'s root (path)', n: c.rootSites * c.rootSiteSpacesPerSite * 2 },
    { what: 'POST share link', n: c.sites * c.shareLinksPerSite },
    { what: 'PATCH share link (inactive)', n: c.sites * c.inactiveShareLinksPerSite },
    // Sections made in config order, each group right after its last section, nested groups and
    // links after the sections of their group, leave every level in the desired order: no sort move
    // is needed.
    { what: 'PATCH SITE/structure/sort', n: 0 },
    { what: 'POST SITE/redirects', n: c.redirectSites * c.redirectsPerSite },
    { what: 'PUT SITE/customization (the seed has the defaults)', n: c.customizationSites },
    { what: 'PATCH SITE/publishing/auth (the seed has no fallback URL)', n: c.publishingAuthSites },
    { what: 'PUT SITE/agent-settings (the seed has the defaults)', n: c.agentSettingsSites },
    { what: 'POST SITE/mcp-servers', n: c.mcpServerSites * c.mcpServersPerSite },
    { what: 'PUT SITE/adaptive-schema (the seed has none)', n: c.adaptiveSchemaSites },
    { what: 'POST SITE/channels', n: c.channelSites * c.channelsPerSite },
    { what: 'POST + PATCH per context connection (the create takes no label)', n: c.connectionSites * c.connectionsPerSite * 2 },
    { what: 'PATCH topic (usage settings)', n: c.topicsChanged },
    { what: 'POST ORG/saml', n: c.saml },
    { what: 'POST integration (publish)', n: c.integrations },
    { what: 'POST + PATCH per installation (the POST takes only the organization: configuration, selection)', n: c.installations * 2 },
    { what: 'POST + PATCH per space or site installation (the POST takes only the space or site: configuration)', n: c.installationTargets * 2 },
    { what: 'PUT + PATCH per OpenAPI spec (the PUT takes only the source: visibility)', n: c.openapiSpecs * 2 },
    { what: 'POST ORG/translations', n: c.translations },
    { what: 'POST …/permissions (a grant the seed lacks)', n: c.accessGrants - c.accessGrantsSeeded - c.accessGrantsSeededOtherRole },
    { what: 'PATCH …/permissions/users/ID (a seeded grant with another role)', n: c.accessGrantsSeededOtherRole },
  ]);
}

/**
 * What a per-resource tool would read: one GET per managed resource (members, teams, each team's
 * membership, collections, spaces, sections, every site space, groups, share links, SAML providers,
 * integrations, translations, the organization and its agent instructions), and for the access the
 * config manages the same two grant lists per object as docplane (the API has no per-grant GET).
 */
export function perResourceReads(c: WorldCounts): number {
  const siteSpaces = c.sectionsPerSite + c.extraSiteSpacesPerSite;
  return (
    2 +
    c.members +
    2 * c.teams +
    c.collections +
    c.spaces +
    c.sites * (c.sectionsPerSite + siteSpaces + c.groupsPerSite + c.nestedGroupsPerSite + c.externalLinksPerSite + c.shareLinksPerSite) +
    c.rootSites * c.rootSiteSpacesPerSite +
    c.saml +
    c.integrations +
    c.installations +
    c.installationTargets +
    c.openapiSpecs +
    c.translations +
    c.redirectSites * c.redirectsPerSite +
    c.customizationSites +
    c.publishingAuthSites +
    c.agentSettingsSites +
    c.mcpServerSites * c.mcpServersPerSite +
    c.adaptiveSchemaSites +
    c.channelSites * c.channelsPerSite +
    c.connectionSites * c.connectionsPerSite +
    c.topicsChanged +
    2 * (c.accessCollections + c.accessSpaces + c.accessSites)
  );
}

/** Round trips for `requests` at `concurrency`, never fewer than the critical path. */
export function roundTrips(requests: number, criticalPath: number, concurrency: number): number {
  return Math.max(criticalPath, Math.ceil(requests / concurrency));
}

/**
 * The longest chain of the plan's dependency graph, in requests: a step's requests go one after
 * the other and a step starts when the steps it depends on are done.
 */
export function planCriticalPath(plan: Pick<Plan, 'steps'>): number {
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const memo = new Map<string, number>();
  const longest = (id: string): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const step = byId.get(id);
    if (!step) return 0;
    // The plan's steps are in dependency order, so the recursion depth is the chain's length.
    const before = step.dependsOn.reduce((m, d) => Math.max(m, longest(d)), 0);
    const total = before + step.requests.length;
    memo.set(id, total);
    return total;
  };
  let max = 0;
  // In plan order: dependencies come first, so each call finds its dependencies memoized.
  for (const s of plan.steps) max = Math.max(max, longest(s.id));
  return max;
}

/** Requests of the plan's steps (what apply sends when nothing goes wrong). */
export function planRequests(plan: Pick<Plan, 'steps'>): number {
  return plan.steps.reduce((n, s) => n + s.requests.length, 0);
}

/** What a drift check `--since` finds changed in its window (objects of the kinds the bench changes by hand). */
export interface SinceChanges {
  /** Spaces changed (their settings: the config places each in a collection). */
  spaces?: number;
  /** Of those, spaces whose `access` the config gives (two grant lists each). */
  spacesWithAccess?: number;
  /** Teams whose membership changed. */
  teams?: number;
  /** Whether a member's role changed. */
  members?: boolean;
  /** Whether an event came through the API (docplane then asks whose token it holds, to tell its own). */
  viaApi?: boolean;
}

/**
 * The reads of `plan --since` (src/drift/read.ts): one page of up to 100 audit events, and one event
 * at or before the window's start (does the log reach back that far?), sent together; the token's
 * user when an event came through the API; then the lists holding the changed objects, each once: the
 * space list and the collection tree its placement is checked against, two grant lists per space
 * whose access is managed, the team list and each changed team's members, and the member list (which
 * a team's members are matched by). Nothing changed: the first two, and nothing else.
 */
export function leastSinceReads(c: WorldCounts, changed: SinceChanges = {}): ReadCost {
  const spaces = changed.spaces ?? 0;
  const teams = changed.teams ?? 0;
  const members = changed.members === true || teams > 0;
  const requests = formula([
    { what: 'audit events (one page of 100)', n: 1 },
    { what: 'audit event at or before the window (the log reaches back)', n: 1 },
    { what: 'the token’s user (an event through the API)', n: changed.viaApi ? 1 : 0 },
    { what: 'space list pages', n: spaces > 0 ? pages(c.spaces) : 0 },
    { what: 'collection tree pages (placement)', n: spaces > 0 ? pages(c.collections) : 0 },
    { what: 'grant lists of changed spaces with access', n: 2 * (changed.spacesWithAccess ?? 0) },
    { what: 'team list pages', n: teams > 0 ? pages(c.teams) : 0 },
    { what: 'membership list per changed team', n: teams },
    { what: 'member list pages', n: members ? pages(c.members) : 0 },
  ]);
  // The audit reads, then the longest chain of pages among the lists (a team's members after the team list).
  const chains = [spaces > 0 ? Math.max(pages(c.spaces), pages(c.collections)) : 0, teams > 0 ? pages(c.teams) + 1 : 0, members ? pages(c.members) : 0];
  return { requests, criticalPath: 1 + (changed.viaApi ? 1 : 0) + Math.max(...chains) };
}

/** Requests the live service's documented rate limit lets through in one window. */
export const RATE_LIMIT_PER_WINDOW = 60;

/** Windows of the rate limit a number of requests waits through beyond the first (0: it fits in one). */
export function rateLimitWaits(requests: number): number {
  return Math.max(0, Math.ceil(requests / RATE_LIMIT_PER_WINDOW) - 1);
}
