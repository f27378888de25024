/**
 * A generator of large organizations for the benchmark and the robustness tests: one organization
 * with members, teams, collections, spaces, three sites with sections, site spaces, groups and share
 * links, plus a few SAML providers, translations and integrations (installed on the organization,
 * some spaces and a site), OpenAPI specs, and direct access grants (teams
 * and users) on every third collection and space and on every site. At scale 1: 3,000 members, 300
 * teams of 10, 300 collections, 3 sites × 60 sections, 300 share links, access on 100 collections,
 * 134 spaces and 3 sites.
 *
 * It gives three things that agree with each other:
 * - `seed`: the world the API cannot create (users, members, spaces, empty sites), every member at
 *   role `read` but the first (the admin), and some user grants on spaces and sites (a third as the
 *   config wants them, a third with another role) — what "apply everything from empty" starts from;
 * - `config`: the desired state, a config document;
 * - `full`: the seed world with everything the config describes already made, as an apply leaves it
 *   (so that planning `config` against `full` finds nothing to do).
 * The same (scale, seed) always gives the same world.
 */
import type { ConfigDocumentT } from '../config/schema.js';
import type { RoleT } from '../kinds/common/fields.js';
import type { EmulatorState } from '../emulator/state.js';
import { seededRandom, type Random } from '../emulator/random.js';

export const BENCH_ORG = 'org_bench';
export const SITE_COUNT = 3;
/** Members per team. */
export const TEAM_SIZE = 10;
/** Children per top-level collection at most (300 collections = 60 top-level × (1 + 4)). */
const CHILDREN_PER_COLLECTION = 4;
/** Every 6 sections, three are in a group (10 groups of 3 in a site of 60 sections). */
const GROUP_EVERY = 6;
const GROUP_SIZE = 3;
/** A site without sections, its spaces at its root, and how many it shows. */
const ROOT_SITE = 'site_root';
const ROOT_SITE_SPACES = 3;
const NESTED_GROUP = 'Nested links';
const LANGUAGES = ['fr', 'de', 'es', 'it', 'ja'] as const;
const EMOJIS = ['📘', '📗', '📙', '📕', '📓'] as const;
/** Every ACCESS_EVERY-th collection and space has `access` (every site has). */
const ACCESS_EVERY = 3;
const TEAM_GRANT_ROLES: readonly RoleT[] = ['edit', 'read', 'review', 'comment'];
const USER_GRANT_ROLES: readonly RoleT[] = ['read', 'edit', 'comment', 'create'];

/** How many of each thing the world holds (for the formulas of the benchmark). */
export interface WorldCounts {
  members: number;
  /** Members whose desired role differs from the seed's `read`. */
  memberRoleChanges: number;
  teams: number;
  /** Teams with an owner (one more request at create: the API's team create takes no roles). */
  teamsWithOwner: number;
  teamSize: number;
  collections: number;
  /** Collections with a description or defaultLevel (a PATCH after the create: POST takes only title and parent). */
  collectionsWithSettings: number;
  spaces: number;
  /** Spaces the config places in a collection (a move each, from the top level). */
  spacesPlaced: number;
  /** Sites in the seed world (the config names them by id, with site fields the seed lacks). */
  sites: number;
  /** Sites the config creates from nothing (by title), each with NEW_SITE_SECTIONS sections and published. */
  newSites: number;
  newSiteSections: number;
  /** Seeded sites whose configured fields (visibility) differ from the seed's: a PATCH each. */
  sitesPatched: number;
  /** Sites the config publishes (all of them; the seed's and a new site are unpublished). */
  sitesPublished: number;
  sectionsPerSite: number;
  /** Site spaces beyond each section's own (one per section). */
  extraSiteSpacesPerSite: number;
  groupsPerSite: number;
  /** Groups nested in another group (created with `parent`), beyond `groupsPerSite`. */
  nestedGroupsPerSite: number;
  externalLinksPerSite: number;
  shareLinksPerSite: number;
  inactiveShareLinksPerSite: number;
  saml: number;
  translations: number;
  integrations: number;
  /** Installations of the integrations (each with a configuration: a PATCH after the create, which takes only the organization). */
  installations: number;
  /** Lists of spaces or sites the installations' config gives (a plan reads each of an existing installation). */
  installationLists: number;
  /** Lists an import reads: the spaces or sites of every installation whose selection is not `all`. */
  installationSelectedLists: number;
  /** Spaces and sites the installations are installed on, each with its configuration (POST, then PATCH). */
  installationTargets: number;
  /** The most targets in one list (its pages). */
  installationTargetsPerList: number;
  /** OpenAPI specs (each with a visibility: a PATCH after the PUT), and those made from a text (one raw read each once made). */
  openapiSpecs: number;
  openapiTextSpecs: number;
  /** Sites without sections, their spaces at their root (beyond `sites`). */
  rootSites: number;
  rootSiteSpacesPerSite: number;
  /** Collections, spaces and sites whose `access` the config gives. */
  accessCollections: number;
  accessSpaces: number;
  accessSites: number;
  /** Sites with redirects in the config, and the redirects of each (all created from empty). */
  redirectSites: number;
  redirectsPerSite: number;
  /** Sites with customization (one PUT each from empty) and with publishing auth (one PATCH each). */
  customizationSites: number;
  publishingAuthSites: number;
  /** Sites with agent settings (one PUT each from empty), with MCP servers (and how many each), with an adaptive schema (one PUT each). */
  agentSettingsSites: number;
  mcpServerSites: number;
  mcpServersPerSite: number;
  adaptiveSchemaSites: number;
  /** Sites with agent channels in the config, and the channels of each (all created from empty). */
  channelSites: number;
  channelsPerSite: number;
  /** Sites with context connections in the config, and the connections of each (created from empty, each with its label). */
  connectionSites: number;
  connectionsPerSite: number;
  /** Sites with topics in the config (one list each), and their topics whose usage settings the seed has otherwise (one PATCH each). */
  topicSites: number;
  topicsChanged: number;
  /** Grants the config gives (team grants + user grants). */
  accessGrants: number;
  /** Of those, grants the seed world already has: with the desired role, and with another role (a PATCH). */
  accessGrantsSeeded: number;
  accessGrantsSeededOtherRole: number;
}

export interface BenchWorld {
  org: string;
  scale: number;
  seed: number;
  /** Every site the config names: those with sections, then the one with its spaces at its root. */
  siteIds: string[];
  /** The world the API cannot create, with nothing made through the API yet. */
  seedState: EmulatorState;
  /** The world after the config has been applied. */
  fullState: EmulatorState;
  config: ConfigDocumentT;
  counts: WorldCounts;
}

/** 1 for a list of spaces or sites whose selection is not `all` (an absent one keeps the API's selection of none). */
const selected = (targets: unknown): number => (targets === 'all' ? 0 : 1);

const pad = (n: number, width = 4) => String(n).padStart(width, '0');

/** A role drawn with the weights of a real organization: most read, few admins. */
function drawRole(random: Random): RoleT {
  const r = random();
  if (r < 0.7) return 'read';
  if (r < 0.82) return 'edit';
  if (r < 0.9) return 'comment';
  if (r < 0.95) return 'review';
  if (r < 0.98) return 'create';
  return 'admin';
}

/** `k` distinct integers in [0, n), in drawing order. */
function sample(random: Random, n: number, k: number): number[] {
  const picked = new Set<number>();
  const out: number[] = [];
  while (out.length < Math.min(k, n)) {
    const i = Math.floor(random() * n);
    if (picked.has(i)) continue;
    picked.add(i);
    out.push(i);
  }
  return out;
}

/** Section indexes (0-based) of each group of a site, in order: three of every six sections. */
function groupsOf(sections: number): number[][] {
  const groups: number[][] = [];
  for (let g = 0; (g + 1) * GROUP_EVERY <= sections; g++) {
    groups.push(Array.from({ length: GROUP_SIZE }, (_, k) => g * GROUP_EVERY + 1 + k));
  }
  return groups;
}

/**
 * The `access` of the k-th object that has one (k counts over collections, then spaces, then sites):
 * one or two teams (of the generated ones) and one user, by email, with roles drawn from k (not
 * from the random stream, so that the rest of the world is as it was before access).
 */
function accessOf(k: number, teamTitles: readonly string[], emails: readonly string[]): { teams: Record<string, RoleT>; users: Record<string, RoleT> } {
  const teams: Record<string, RoleT> = { [teamTitles[k % teamTitles.length]]: TEAM_GRANT_ROLES[k % TEAM_GRANT_ROLES.length] };
  if (k % 2 === 0 && teamTitles.length > 1) teams[teamTitles[(k + 1) % teamTitles.length]] = TEAM_GRANT_ROLES[(k + 1) % TEAM_GRANT_ROLES.length];
  // Not the first user (the admin): any member would do, but spread them.
  const user = emails[1 + ((k * 7) % (emails.length - 1))];
  return { teams, users: { [user]: USER_GRANT_ROLES[k % USER_GRANT_ROLES.length] } };
}

/** The role a seeded grant has when it differs from the desired one. */
const otherRole = (role: RoleT): RoleT => (role === 'read' ? 'comment' : 'read');

export function generate(scale: number, seed: number): BenchWorld {
  if (!(scale > 0)) throw new RangeError(`scale must be above 0, not ${scale}`);
  const random = seededRandom(seed);
  const org = BENCH_ORG;
  const nMembers = Math.max(20, Math.round(3000 * scale));
  const nTeams = Math.max(2, Math.round(300 * scale));
  const nCollections = Math.max(5, Math.round(300 * scale));
  const nSections = Math.max(GROUP_EVERY, Math.round(60 * scale));
  const nLinks = Math.max(2, Math.round(100 * scale));
  const nLooseSpaces = Math.max(4, Math.round(40 * scale));
  const nExternalLinks = Math.max(3, Math.round(12 * scale));
  const rootSpaces = Array.from({ length: ROOT_SITE_SPACES }, (_, i) => ({ space: `space_loose_${pad(i, 3)}`, path: `root-${i}` }));
  const sectionSiteIds = Array.from({ length: SITE_COUNT }, (_, i) => `site_${i + 1}`);
  const siteIds = [...sectionSiteIds, ROOT_SITE];

  // ---- users and members -------------------------------------------------------------------------
  const users = Array.from({ length: nMembers }, (_, i) => ({ id: `u_${pad(i, 5)}`, email: `user${pad(i, 5)}@bench.example`, displayName: `User ${i}` }));
  const roles: RoleT[] = users.map((_, i) => (i === 0 ? 'admin' : drawRole(random)));

  // ---- teams --------------------------------------------------------------------------------------
  const teams = Array.from({ length: nTeams }, (_, t) => {
    const picked = sample(random, nMembers, TEAM_SIZE);
    const owner = t % 2 === 0 ? picked[0] : undefined;
    return { title: `Team ${pad(t)}`, members: picked, owner };
  });

  // ---- collections: top-level areas with topics under them ---------------------------------------
  const nTop = Math.ceil(nCollections / (1 + CHILDREN_PER_COLLECTION));
  const children: number[] = Array.from({ length: nTop }, () => 0);
  for (let i = 0; i < nCollections - nTop; i++) children[i % nTop]++;
  const collectionPaths: string[] = [];
  const collections = Array.from({ length: nTop }, (_, a) => {
    const title = `Area ${pad(a, 3)}`;
    collectionPaths.push(title);
    const kids = Array.from({ length: children[a] }, (_, k) => {
      const kid = `Topic ${pad(a, 3)}-${k + 1}`;
      collectionPaths.push(`${title}/${kid}`);
      return { title: kid };
    });
    return { title, description: `Everything about area ${a}`, defaultLevel: 'read' as const, children: kids };
  });

  // ---- spaces: two per section (its own and one more), and some loose ones -----------------------
  const spaceIds: string[] = [];
  const sectionSpaces = sectionSiteIds.map((_, s) =>
    Array.from({ length: nSections }, (_, i) => {
      const own = `space_s${s + 1}_${pad(i, 3)}`;
      const extra = `space_s${s + 1}_${pad(i, 3)}_v2`;
      spaceIds.push(own, extra);
      return { own, extra };
    }),
  );
  for (let i = 0; i < nLooseSpaces; i++) spaceIds.push(`space_loose_${pad(i, 3)}`);
  const spaceTitle = (id: string) => `Space ${id.slice('space_'.length)}`;
  // Three spaces in four are placed in a collection; every space gets an emoji.
  const placement = spaceIds.map((_, i) => (i % 4 === 3 ? null : collectionPaths[Math.floor(random() * collectionPaths.length)]));
  const emoji = spaceIds.map((_, i) => EMOJIS[i % EMOJIS.length]);

  // ---- sites ---------------------------------------------------------------------------------------
  // The seeded sites get site fields (unlisted, published); one more site is created from nothing.
  const siteTitle = (s: number) => `Site ${s + 1}`;
  const siteFields = { visibility: 'unlisted' as const, published: true };
  const newSite = {
    title: 'Site from nothing',
    visibility: 'share-link' as const,
    published: true,
    sections: [{ path: 'start', title: 'Start here', space: spaceIds[spaceIds.length - 1] }],
  };
  const groups = groupsOf(nSections);
  const sectionPath = (i: number) => `sec-${pad(i, 3)}`;
  const sites = sectionSiteIds.map((id, s) => ({
    id,
    sections: sectionSpaces[s].map((sp, i) => ({
      path: sectionPath(i),
      title: `Section ${pad(i, 3)} of site ${s + 1}`,
      space: sp.own,
      ...(i % 2 === 0 ? { icon: 'book' } : {}),
      ...(i % 3 === 0 ? { description: `Section ${i} describes part ${i % 7}` } : {}),
      ...(i % 10 === 0 ? { condition: 'visitor.claims.plan == "pro"' } : {}),
      extra: sp.extra,
    })),
    // The first group holds a nested one (no sections of its own: its links).
    groups: [
      ...groups.map((members, g) => ({ title: `Group ${pad(g, 2)}`, icon: 'box', sections: members.map(sectionPath) })),
      { title: NESTED_GROUP, icon: 'link', parent: 'Group 00' },
    ],
    // External links: at the top level, in the first group, in the nested group, in turn.
    externalLinks: Array.from({ length: nExternalLinks }, (_, l) => ({
      title: `Link ${pad(l, 3)}`,
      url: `https://example.com/site-${s + 1}/${l}`,
      ...(l % 3 === 1 ? { group: 'Group 00' } : l % 3 === 2 ? { group: NESTED_GROUP } : {}),
    })),
    links: Array.from({ length: nLinks }, (_, l) => ({ name: `link-${pad(l, 3)}`, active: l % 5 !== 4 })),
  }));

  // ---- redirects on the first site, customization on the first two, publishing auth on the second --
  const nRedirects = Math.max(2, Math.round(50 * scale));
  const nMcpServers = 2;
  const siteExtras = siteIds.map((_, s) => ({
    ...(s === 0 ? { redirects: Array.from({ length: nRedirects }, (_, r) => ({ source: `/old/page-${pad(r, 4)}`, destination: `https://archive.bench.example/page-${r}`, permanent: r % 2 === 0 })) } : {}),
    ...(s <= 1 ? { customization: { title: `Bench Site ${s + 1}`, styling: { primaryColor: { light: '#0B5FFF', dark: '#6EA0FF' }, corners: 'straight' as const } } } : {}),
    ...(s === 1 ? { publishingAuth: { backend: 'custom' as const, fallbackURL: 'https://login.bench.example/' } } : {}),
    // AI and adaptive content on the first site: its agent settings, MCP servers, the claims its conditions name.
    ...(s === 0
      ? {
          agentSettings: { findings: { changeRequests: 'always' as const } },
          mcpServers: Array.from({ length: nMcpServers }, (_, m) => ({ name: `Bench tools ${m + 1}`, url: `https://mcp${m + 1}.bench.example/sse` })),
          adaptiveSchema: { properties: { plan: { type: 'string' as const, enum: ['free', 'pro'], description: 'The visitor\'s plan' } } },
          channels: [
            { type: 'builtin:slack' as const, role: 'support' as const, setupSettings: { allowedChannels: ['bench-help', 'support-*'] } },
            { type: 'builtin:github' as const, role: 'collaborator' as const, setupSettings: { allowedRepositories: ['bench/docs'] } },
          ],
          contextConnections: [{ label: 'Bench blog', connector: 'builtin:website', setupSettings: { url: 'https://blog.bench.example/' } }],
          topics: [{ label: 'Bench billing', usageSettings: { changeRequests: false } }],
        }
      : {}),
  }));
  /** The same, as the emulator's state file holds it (a redirect's destination as the API's object). */
  // The seed has no agent channels or context connections: the config makes them. Its topics are the
  // service's (made from the content): in the seed world too, with the service's usage settings.
  const siteExtrasSeed = siteExtras.map(({ redirects, agentSettings, channels: _channels, contextConnections: _connections, topics: _topics, ...rest }) => ({
    ...(redirects ? { redirects: redirects.map((r) => ({ ...r, destination: { kind: 'external' as const, url: r.destination } })) } : {}),
    // The state file's agent settings are flat (src/emulator/README.md).
    ...(agentSettings ? { agentSettings: { changeRequests: agentSettings.findings.changeRequests } } : {}),
    ...rest,
  }));

  const saml = Array.from({ length: 3 }, (_, i) => ({
    label: `IdP ${i + 1}`,
    entityID: `urn:bench:idp:${i + 1}`,
    ssoURL: `https://idp${i + 1}.bench.example/sso`,
    defaultTeam: teams[i % teams.length].title,
    defaultRole: 'read' as const,
  }));
  const translations = LANGUAGES.map((language, i) => ({
    source: { space: sectionSpaces[0][i % nSections].own, language: 'en' as const },
    language,
    instructions: `Translate into ${language}; keep product names in English.`,
  }));
  const integrations = Array.from({ length: 2 }, (_, i) => ({
    name: `bench-integration-${i + 1}`,
    title: `Bench Integration ${i + 1}`,
    description: `Integration ${i + 1} of the benchmark`,
    scopes: ['space:content:read' as const],
    script: `export default { fetch: () => new Response('integration ${i + 1}') };\n`,
  }));
  // The first integration on the organization, a few spaces and the first site, each configured; the
  // second on every space (its sites a selection of none). No configuration key names a secret (an
  // import would write it as an ${env:…} reference, which the import round trip would then need set).
  const installSpaces = Array.from({ length: Math.max(2, Math.round(20 * scale)) }, (_, i) => spaceIds[i * 2]);
  const installations = [
    {
      integration: integrations[0].name,
      configuration: { account: 'bench-1', region: 'eu' },
      spaces: installSpaces.map((space, i) => ({ space, configuration: { label: `space ${i}` } })),
      sites: [{ site: sectionSiteIds[0], configuration: { widget: 'chat' } }],
    },
    { integration: integrations[1].name, configuration: { tracking: true }, spaces: 'all' as const },
  ];
  const openapiSpecs = [
    { slug: 'bench-public-api', source: { url: 'https://specs.bench.example/public.json' }, visibility: 'public' as const },
    { slug: 'bench-internal-api', source: { text: 'openapi: 3.1.0\ninfo: { title: Internal, version: "1" }\npaths: {}\n' }, visibility: 'private' as const },
  ];
  // No translation glossary: its batch is sent once (a lost answer fails the step rather than risk
  // inserting twice), so the faults scenario's applies could not all succeed with one.
  const agentInstructions = 'Answer briefly.\n\nCite the page you found the answer on.';

  // ---- access: every third collection (by path, in config order) and space, every site ----------
  const teamTitles = teams.map((t) => t.title);
  const emails = users.map((u) => u.email);
  let nextAccess = 0;
  const collectionAccess = new Map<string, ReturnType<typeof accessOf>>();
  collectionPaths.forEach((path, i) => {
    if (i % ACCESS_EVERY === 0) collectionAccess.set(path, accessOf(nextAccess++, teamTitles, emails));
  });
  const spaceAccess = spaceIds.map((_, i) => (i % ACCESS_EVERY === 0 ? accessOf(nextAccess++, teamTitles, emails) : undefined));
  const siteAccess = sectionSiteIds.map(() => accessOf(nextAccess++, teamTitles, emails));
  // The seed world cannot hold team grants (no team exists yet) nor collection grants (no
  // collection): of the user grants on spaces and sites, one in three is seeded as the config wants
  // it and one in three with another role.
  let seeded = 0;
  let seededOther = 0;
  const seedGrants = (target: 'space' | 'site', id: string, access: ReturnType<typeof accessOf>, n: number) => {
    if (n % 3 === 2) return [];
    const [email, role] = Object.entries(access.users)[0];
    if (n % 3 === 0) seeded++;
    else seededOther++;
    return [{ [target]: id, users: { [email]: n % 3 === 0 ? role : otherRole(role) } }];
  };
  let n = 0;
  const seedAccess = [
    ...spaceIds.flatMap((id, i) => (spaceAccess[i] ? seedGrants('space', id, spaceAccess[i], n++) : [])),
    ...sectionSiteIds.flatMap((id, s) => seedGrants('site', id, siteAccess[s], n++)),
  ];
  const fullAccess = [
    ...[...collectionAccess].map(([collection, a]) => ({ collection, ...a })),
    ...spaceIds.flatMap((space, i) => (spaceAccess[i] ? [{ space, ...spaceAccess[i] }] : [])),
    ...sectionSiteIds.map((site, s) => ({ site, ...siteAccess[s] })),
  ];
  const grantCount = fullAccess.reduce((sum, a) => sum + Object.keys(a.teams).length + Object.keys(a.users).length, 0);
  const withAccess = (path: string) => {
    const a = collectionAccess.get(path);
    return a ? { access: a } : {};
  };

  // ---- the config ----------------------------------------------------------------------------------
  const config: ConfigDocumentT = {
    version: 1,
    organization: { id: org, title: 'Bench Org', ai: true, inviteLinks: false, agentInstructions },
    members: users.map((u, i) => ({ user: u.email, role: roles[i] })),
    teams: teams.map((t) => ({
      title: t.title,
      members: t.members.map((m) => (m === t.owner ? { user: users[m].email, role: 'owner' as const } : users[m].email)),
    })),
    collections: collections.map((c) => ({
      title: c.title,
      description: c.description,
      defaultLevel: c.defaultLevel,
      ...(c.children.length > 0 ? { collections: c.children.map((k) => ({ title: k.title, ...withAccess(`${c.title}/${k.title}`) })) } : {}),
      ...withAccess(c.title),
    })),
    spaces: spaceIds.map((id, i) => ({ id, title: spaceTitle(id), emoji: emoji[i], collection: placement[i], ...(spaceAccess[i] ? { access: spaceAccess[i] } : {}) })),
    sites: [
      ...sites.map((site, s) => ({
        id: site.id,
        title: siteTitle(s),
        ...siteFields,
        access: siteAccess[s],
        sections: site.sections.map(({ extra, ...sec }) => ({ ...sec, siteSpaces: [{ space: extra, path: 'v2' }] })),
        sectionGroups: site.groups,
        externalLinks: site.externalLinks,
        shareLinks: site.links,
        ...siteExtras[s],
      })),
      newSite,
      { id: ROOT_SITE, siteSpaces: rootSpaces },
    ],
    saml,
    integrations,
    installations,
    translations,
    openapiSpecs,
  };

  // ---- the seed world, and the world as the config would leave it --------------------------------
  const tokens = [
    { token: 'dev-token', access: 'write' as const },
    { token: 'read-token', access: 'read' as const },
  ];
  const baseOrg = {
    id: org,
    title: 'Bench Org',
    emailDomains: ['bench.example'],
    ai: false,
    inviteLinks: false,
  };
  const seedState: EmulatorState = {
    tokens,
    users,
    organizations: [
      {
        ...baseOrg,
        members: users.map((u, i) => ({ user: u.id, role: i === 0 ? ('admin' as const) : ('read' as const) })),
        spaces: spaceIds.map((id) => ({ id, title: spaceTitle(id) })),
        sites: siteIds.map((id, s) => ({ id, title: id === ROOT_SITE ? 'Root site' : siteTitle(s) })),
        siteAgent: siteExtras.flatMap((e, s) => (e.topics ? [{ site: siteIds[s], topics: e.topics.map((t) => ({ label: t.label, changeRequests: !t.usageSettings.changeRequests })) }] : [])),
        access: seedAccess,
      },
    ],
  };
  const fullState: EmulatorState = {
    tokens,
    users,
    organizations: [
      {
        ...baseOrg,
        ai: true,
        agentInstructions,
        members: users.map((u, i) => ({ user: u.id, role: roles[i] })),
        teams: teams.map((t) => ({
          title: t.title,
          members: t.members.map((m) => ({ user: users[m].id, role: m === t.owner ? ('owner' as const) : ('member' as const) })),
        })),
        collections: collections.map((c) => ({
          title: c.title,
          description: c.description,
          defaultLevel: c.defaultLevel,
          collections: c.children.map((k) => ({ title: k.title })),
        })),
        spaces: spaceIds.map((id, i) => ({ id, title: spaceTitle(id), emoji: emoji[i], ...(placement[i] ? { collection: placement[i] } : {}) })),
        sites: [
          ...sites.map((site, s) => ({
            id: site.id,
            title: siteTitle(s),
            ...siteFields,
            sections: site.sections.map(({ extra, space, ...sec }) => ({ ...sec, siteSpaces: [{ space }, { space: extra, path: 'v2' }] })),
            sectionGroups: site.groups,
            externalLinks: site.externalLinks,
            shareLinks: site.links,
            ...siteExtrasSeed[s],
          })),
          { id: ROOT_SITE, title: 'Root site', siteSpaces: rootSpaces },
          { ...newSite, sections: newSite.sections.map(({ space, ...sec }) => ({ ...sec, siteSpaces: [{ space }] })) },
        ],
        saml: saml.map((p) => ({ ...p })),
        translations: translations.map((t) => ({ ...t })),
        integrations: integrations.map((i) => ({ ...i })),
        installations: installations.map((i) => ({ ...i })),
        openapiSpecs: openapiSpecs.map(({ source, ...s }) => ({ ...s, ...source })),
        siteAgent: siteExtras.flatMap((e, s) =>
          e.channels || e.contextConnections || e.topics
            ? [
                {
                  site: siteIds[s],
                  channels: (e.channels ?? []).map((c) => ({ ...c })),
                  contextConnections: (e.contextConnections ?? []).map((c) => ({ ...c })),
                  topics: (e.topics ?? []).map((t) => ({ label: t.label, changeRequests: t.usageSettings.changeRequests })),
                },
              ]
            : [],
        ),
        access: fullAccess,
      },
    ],
  };

  return {
    org,
    scale,
    seed,
    siteIds,
    seedState,
    fullState,
    config,
    counts: {
      members: nMembers,
      memberRoleChanges: roles.filter((r, i) => i > 0 && r !== 'read').length,
      teams: nTeams,
      teamsWithOwner: teams.filter((t) => t.owner !== undefined).length,
      teamSize: Math.min(TEAM_SIZE, nMembers),
      collections: nCollections,
      collectionsWithSettings: nTop,
      spaces: spaceIds.length,
      spacesPlaced: placement.filter((p) => p !== null).length,
      sites: SITE_COUNT,
      newSites: 1,
      newSiteSections: newSite.sections.length,
      sitesPatched: SITE_COUNT,
      sitesPublished: SITE_COUNT + 1,
      sectionsPerSite: nSections,
      extraSiteSpacesPerSite: nSections,
      groupsPerSite: groups.length,
      nestedGroupsPerSite: 1,
      externalLinksPerSite: nExternalLinks,
      rootSites: 1,
      rootSiteSpacesPerSite: rootSpaces.length,
      shareLinksPerSite: nLinks,
      inactiveShareLinksPerSite: sites[0].links.filter((l) => !l.active).length,
      saml: saml.length,
      translations: translations.length,
      integrations: integrations.length,
      installations: installations.length,
      installationLists: installations.reduce((n, i) => n + (Array.isArray(i.spaces) ? 1 : 0) + (Array.isArray(i.sites) ? 1 : 0), 0),
      // An installation without `sites` in the config keeps the API's selection: a selection of none.
      installationSelectedLists: installations.reduce((n, i) => n + selected(i.spaces) + selected('sites' in i ? i.sites : undefined), 0),
      installationTargets: installations.reduce((n, i) => n + (Array.isArray(i.spaces) ? i.spaces.length : 0) + (i.sites?.length ?? 0), 0),
      installationTargetsPerList: installSpaces.length,
      openapiSpecs: openapiSpecs.length,
      openapiTextSpecs: openapiSpecs.filter((s) => 'text' in s.source).length,
      accessCollections: collectionAccess.size,
      accessSpaces: spaceAccess.filter((a) => a !== undefined).length,
      accessSites: siteAccess.length,
      redirectSites: siteExtras.filter((e) => e.redirects).length,
      redirectsPerSite: nRedirects,
      customizationSites: siteExtras.filter((e) => e.customization).length,
      publishingAuthSites: siteExtras.filter((e) => e.publishingAuth).length,
      agentSettingsSites: siteExtras.filter((e) => e.agentSettings).length,
      mcpServerSites: siteExtras.filter((e) => e.mcpServers).length,
      mcpServersPerSite: nMcpServers,
      adaptiveSchemaSites: siteExtras.filter((e) => e.adaptiveSchema).length,
      channelSites: siteExtras.filter((e) => e.channels).length,
      channelsPerSite: Math.max(0, ...siteExtras.map((e) => e.channels?.length ?? 0)),
      connectionSites: siteExtras.filter((e) => e.contextConnections).length,
      connectionsPerSite: Math.max(0, ...siteExtras.map((e) => e.contextConnections?.length ?? 0)),
      topicSites: siteExtras.filter((e) => e.topics).length,
      topicsChanged: siteExtras.reduce((n, e) => n + (e.topics?.length ?? 0), 0),
      accessGrants: grantCount,
      accessGrantsSeeded: seeded,
      accessGrantsSeededOtherRole: seededOther,
    },
  };
}
