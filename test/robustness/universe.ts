/**
 * A small universe for the property tests: one organization with six users, eight spaces and one
 * site, and fast-check arbitraries of a current state (an emulator seed, as if things had been made
 * earlier through the API) and of a desired state (a config document) over every kind docplane
 * manages. Names come from small pools, so that current and desired often meet (updates, renames
 * of titles, moves) and often do not (creates, deletes).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import type { ApiClient } from '../../src/api/types.js';
import { loadConfig } from '../../src/config/load.js';
import type { AccessT } from '../../src/kinds/shared/access-schema.js';
import type { ChannelT, ContextConnectionT } from '../../src/kinds/sites/agent/schema.js';
import type { TranslationT } from '../../src/kinds/translations/schema.js';
import type { ConfigDocumentT } from '../../src/config/schema.js';
import type { LoadedConfig } from '../../src/config/types.js';
import type { EmulatorState } from '../../src/emulator/server.js';

export const ORG = 'org_r';
export const SITE = 'site_r';
const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export const USERS = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => ({ id: `u_${n}`, email: `${n}@r.example`, displayName: `User ${n.toUpperCase()}` }));
export const SPACES = Array.from({ length: 8 }, (_, i) => ({ id: `space_${i + 1}`, title: `Space ${i + 1}` }));
const TEAM_TITLES = ['Red', 'Green', 'Blue', 'Gold'];
const TOP_COLLECTIONS = ['Alpha', 'Beta', 'Gamma'];
const CHILD_COLLECTIONS = ['One', 'Two'];
/** Section path → the space it is made with (fixed, so that a path always means the same section). */
const SECTION_PATHS = ['intro', 'guides', 'api', 'faq'];
const sectionSpace = (path: string) => SPACES[SECTION_PATHS.indexOf(path)].id;
/** The space the current state synchronises with a repository, and the branches its Git Sync may follow. */
const GIT_SPACE = SPACES[SPACES.length - 1].id;
const GIT_BRANCHES = ['refs/heads/main', 'refs/heads/docs'];
/** The further spaces a section may show: two candidates each, never another section's own space. */
const extraSpaces = (path: string) => [SPACES[4 + (SECTION_PATHS.indexOf(path) % 4)].id, SPACES[4 + ((SECTION_PATHS.indexOf(path) + 1) % 4)].id];
const GROUP_TITLES = ['Group A', 'Group B'];
const LINK_NAMES = ['l1', 'l2', 'l3'];
const REDIRECT_SOURCES = ['/a', '/b/*', '/c'];
const REDIRECT_URLS = ['https://r.example/1', 'https://r.example/2'];
const MCP_NAMES = ['Tools A', 'Tools B'];
const MCP_URLS = ['https://mcp.r.example/1', 'https://mcp.r.example/2'];
const CHANNEL_TYPES = ['builtin:slack', 'builtin:github'] as const;
const CONNECTION_LABELS = ['Blog', 'Tickets'] as const;
/** The site's topics: the service makes them, so every world has them; states and configs differ in their usage settings. */
const TOPIC_LABELS = ['Billing', 'SSO'] as const;
/** A labelled website connection: its URL, usage settings and filter drawn from a few. */
const connectionArb = (label: string, optional: boolean) => {
  const url = fc.constantFrom('https://a.r.example/', 'https://b.r.example/').map((u) => ({ url: u }));
  const usage = fc.record({ changeRequests: fc.boolean(), search: fc.boolean(), searchBoost: fc.constantFrom('x0.8', 'x1.0', 'x1.2') });
  const filter = fc.constantFrom('docs', 'faq');
  return fc.record({
    label: fc.constant(label),
    connector: fc.constant('builtin:website'),
    setupSettings: url,
    usageSettings: optional ? fc.option(usage, { nil: undefined }) : usage,
    filter: optional ? fc.option(fc.option(filter, { nil: null }), { nil: undefined }) : filter,
  });
};
const CHANNEL_LISTS = { 'builtin:slack': ['allowedChannels', ['help', 'docs-*']], 'builtin:github': ['allowedRepositories', ['r/docs', 'r/*']] } as const;
/** A channel of one type: a role and an allow-list drawn from its type's patterns. */
const channelArb = (type: (typeof CHANNEL_TYPES)[number], optional: boolean) => {
  const [field, values] = CHANNEL_LISTS[type];
  const role = fc.constantFrom('support', 'collaborator');
  const list = fc.subarray([...values]);
  return fc.record({
    type: fc.constant(type),
    role: optional ? fc.option(role, { nil: undefined }) : role,
    setupSettings: optional ? fc.option(list.map((l) => ({ [field]: l })), { nil: undefined }) : list.map((l) => ({ [field]: l })),
  });
};
const SAML_LABELS = ['IdP A', 'IdP B'];
const FONT_FAMILIES = ['Font A', 'Font B'];
const fontKey = (family: string, weight: number, version: string) => `fonts/${family.replace(' ', '-')}-${weight}-${version}.woff2`;
const LANGUAGES = ['fr', 'de'];
const INTEGRATIONS = ['int-a', 'int-b'];
/** The spaces an integration may be installed on, and the configurations of installations and their targets. */
const INSTALL_SPACES = [SPACES[0].id, SPACES[1].id, SPACES[2].id];
const CONFIGURATIONS = [{ apiKey: 'k1' }, { apiKey: 'k2', region: 'eu' }, { tracking: { enabled: true, sample: 0.5 } }];
const TARGET_CONFIGURATIONS = [{ label: 'one' }, { label: 'two', beta: true }];
const EXTERNAL_IDS = [['x1'], ['x1', 'x2']];
const SPEC_SLUGS = ['spec-a', 'spec-b'];
const SPEC_URLS = ['https://specs.r.example/a.json', 'https://specs.r.example/b.json'];
const SPEC_TEXTS = ['openapi: 3.0.0\ninfo: { title: A, version: "1" }\npaths: {}\n', 'openapi: 3.1.0\ninfo: { title: A, version: "2" }\npaths: {}\n'];
/** Glossary entries by their English term (which names them), and how other languages write them. */
const GLOSSARY_TERMS = ['API', 'Workspace', 'Change request'];
const GLOSSARY_FR = ['Terme un', 'Terme deux'];
const PRUNABLE = ['teams', 'collections', 'sections', 'siteSpaces', 'sectionGroups', 'shareLinks', 'redirects', 'mcpServers', 'channels', 'contextConnections', 'saml', 'translations', 'fonts', 'installations', 'openapiSpecs'] as const;
/** What a config may protect: a few keys of each prunable kind, exact or by glob. */
const PROTECTABLE = [
  'teams["Red"]',
  'teams["G*"]',
  'collections["Alpha"]',
  'collections["Gamma/One"]',
  'collections["*/Two"]',
  `sites["${SITE}"].sections["guides"]`,
  `sites["${SITE}"].shareLinks["l1"]`,
  `sites["${SITE}"].sectionGroups["Group A"]`,
  'saml["IdP A"]',
  'translations["**"]',
  'installations["int-b"]',
  'openapiSpecs["spec-b"]',
];

/** A subset of `items`, in a random order. */
function subsetOf<T>(items: readonly T[], max = items.length): fc.Arbitrary<T[]> {
  return fc.shuffledSubarray([...items], { minLength: 0, maxLength: max });
}

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
const role = fc.constantFrom(...ROLES);
/** A member's role: null is a guest. */
const memberRole = fc.option(role, { nil: null, freq: 8 });
const teamMembers = fc.array(fc.record({ user: fc.constantFrom(...USERS.map((u) => u.id)), owner: fc.boolean() }), { maxLength: 4 });

// ---- the current state ------------------------------------------------------------------------------

interface SectionShape {
  path: string;
  title: string;
  extra: Array<{ space: string; path?: string }>;
  icon?: string;
  description?: string;
}

const sectionsArb = subsetOf(SECTION_PATHS).chain((paths) =>
  fc.tuple(
    ...paths.map((path) =>
      fc.record({
        path: fc.constant(path),
        title: fc.constantFrom(`${path} section`, `${path} pages`),
        // Paths of site spaces are unique within a section (the API refuses a second one).
        extra: subsetOf(extraSpaces(path)).chain((spaces) =>
          fc
            .tuple(...spaces.map((space) => fc.record({ space: fc.constant(space), path: fc.option(fc.constantFrom('v1', 'v2'), { nil: undefined }) })))
            .map((xs) => xs.map((x, i) => (x.path !== undefined && xs.slice(0, i).some((y) => y.path === x.path) ? { space: x.space } : x))),
        ),
        icon: fc.option(fc.constantFrom('book', 'star'), { nil: undefined }),
        description: fc.option(fc.constantFrom('First words', 'Second words'), { nil: undefined }),
      }),
    ),
  ),
) as fc.Arbitrary<SectionShape[]>;

/** Groups over the given section paths: each section in one group at most. */
function groupsOver(paths: string[]): fc.Arbitrary<Array<{ title: string; sections: string[] }>> {
  return fc.tuple(subsetOf(GROUP_TITLES), fc.array(fc.nat(2), { minLength: paths.length, maxLength: paths.length })).map(([titles, slot]) =>
    titles.map((title, g) => ({ title, sections: paths.filter((_, i) => slot[i] === g) })),
  );
}

const collectionsArb = subsetOf(TOP_COLLECTIONS).chain((tops) =>
  fc.tuple(...tops.map((title) => fc.record({ title: fc.constant(title), children: subsetOf(CHILD_COLLECTIONS) }))),
) as fc.Arbitrary<Array<{ title: string; children: string[] }>>;

/** An installation of an integration: its configuration, and the spaces and sites it covers (`all` or a list, each with its own). */
function installationArb(optionalLists: boolean) {
  const targets = <K extends string>(one: K, ids: readonly string[]) => {
    const list = fc.oneof(
      fc.constant('all' as const),
      subsetOf(ids).chain((xs) => fc.tuple(...xs.map((id) => fc.record({ [one]: fc.constant(id), configuration: maybe(fc.constantFrom(...TARGET_CONFIGURATIONS)) })))),
    );
    return optionalLists ? maybe(list) : list;
  };
  return fc.record({
    configuration: maybe(fc.constantFrom(...CONFIGURATIONS)),
    externalIds: maybe(fc.constantFrom(...EXTERNAL_IDS)),
    spaces: targets('space', INSTALL_SPACES),
    sites: targets('site', [SITE]),
  });
}

interface InstallationShape {
  configuration?: Record<string, unknown>;
  externalIds?: string[];
  spaces?: 'all' | Array<{ space: string; configuration?: Record<string, unknown> }>;
  sites?: 'all' | Array<{ site: string; configuration?: Record<string, unknown> }>;
}

/** An installation without its absent fields (the seed and the config refuse an `undefined`). */
function installationOf(integration: string, i: InstallationShape): Record<string, unknown> {
  const clean = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  const targets = (t: InstallationShape['spaces'] | InstallationShape['sites']) => (Array.isArray(t) ? t.map((x) => clean(x)) : t);
  return clean({ integration, configuration: i.configuration, externalIds: i.externalIds, spaces: targets(i.spaces), sites: targets(i.sites) });
}

/** Glossary entries: a subset of the English terms, each with a French term or none. */
const glossaryArb = subsetOf(GLOSSARY_TERMS).chain((terms) => fc.tuple(...terms.map((en) => fc.record({ en: fc.constant(en), fr: maybe(fc.constantFrom(...GLOSSARY_FR)) }))));

function glossaryOf(entries: ReadonlyArray<{ en: string; fr?: string }>): Array<{ translations: { en: string; fr?: string } }> {
  return entries.map((e) => ({ translations: { en: e.en, ...(e.fr !== undefined ? { fr: e.fr } : {}) } }));
}

function collectionPaths(tree: Array<{ title: string; children: string[] }>): string[] {
  return tree.flatMap((c) => [c.title, ...c.children.map((k) => `${c.title}/${k}`)]);
}

export const currentArb: fc.Arbitrary<EmulatorState> = fc
  .record({
    roles: fc.array(memberRole, { minLength: USERS.length - 1, maxLength: USERS.length - 1 }),
    title: fc.constantFrom('Robust Org', 'Robust Inc'),
    ai: fc.boolean(),
    agentInstructions: fc.option(fc.constantFrom('Be brief.', 'Be thorough.\n\nCite sources.'), { nil: undefined }),
    teams: subsetOf(TEAM_TITLES).chain((titles) => fc.tuple(...titles.map((title) => fc.record({ title: fc.constant(title), members: teamMembers })))),
    collections: collectionsArb,
    placement: fc.array(fc.nat(8), { minLength: SPACES.length, maxLength: SPACES.length }),
    emoji: fc.array(fc.option(fc.constantFrom('📘', '📗'), { nil: undefined }), { minLength: SPACES.length, maxLength: SPACES.length }),
    sections: sectionsArb,
    links: subsetOf(LINK_NAMES).chain((names) => fc.tuple(...names.map((name) => fc.record({ name: fc.constant(name), active: fc.boolean() })))),
    site: fc.record({ visibility: fc.constantFrom('public', 'unlisted'), published: fc.boolean() }),
    redirects: subsetOf(REDIRECT_SOURCES).chain((sources) =>
      fc.tuple(...sources.map((source) => fc.record({ source: fc.constant(source), url: fc.constantFrom(...REDIRECT_URLS), permanent: fc.boolean() }))),
    ),
    corners: fc.option(fc.constantFrom('rounded', 'straight'), { nil: undefined }),
    gitSync: fc.record({ branch: fc.constantFrom(...GIT_BRANCHES), priority: fc.constantFrom('git', 'gitbook') }),
    mcpServers: subsetOf(MCP_NAMES).chain((names) => fc.tuple(...names.map((name) => fc.record({ name: fc.constant(name), url: fc.constantFrom(...MCP_URLS), transport: fc.constantFrom('sse', 'http') })))),
    topics: fc.option(fc.constantFrom('auto', 'never'), { nil: undefined }),
    channels: subsetOf([...CHANNEL_TYPES]).chain((types) => fc.tuple(...types.map((t) => channelArb(t, false)))),
    connections: subsetOf([...CONNECTION_LABELS]).chain((labels) => fc.tuple(...labels.map((l) => connectionArb(l, false)))),
    siteTopics: fc.tuple(...TOPIC_LABELS.map(() => fc.boolean())),
    saml: subsetOf(SAML_LABELS),
    samlTeam: fc.nat(4),
    fonts: subsetOf(FONT_FAMILIES).chain((families) => fc.tuple(...families.map((family) => fc.record({ family: fc.constant(family), bold: fc.boolean() })))),
    translations: subsetOf(LANGUAGES),
    // The organization publishes int-a always (so that a config may install it), int-b sometimes.
    integrations: subsetOf(INTEGRATIONS.slice(1)).map((rest) => [INTEGRATIONS[0], ...rest]),
    installations: fc.record({ 'int-a': maybe(installationArb(false)), 'int-b': maybe(installationArb(false)) }),
    specs: subsetOf(SPEC_SLUGS).chain((slugs) =>
      fc.tuple(...slugs.map((slug) => fc.record({ slug: fc.constant(slug), url: maybe(fc.constantFrom(...SPEC_URLS)), text: fc.constantFrom(...SPEC_TEXTS), visibility: fc.constantFrom('private', 'public') }))),
    ),
    glossary: glossaryArb,
    // Grants made earlier: never admin, so that a desired access never has to keep a remote admin.
    grants: fc.array(fc.record({ space: fc.nat(SPACES.length - 1), team: fc.nat(4), user: fc.nat(5), role: fc.constantFrom('edit', 'read', 'comment') }), { maxLength: 4 }),
  })
  .chain((r) => groupsOver(r.sections.map((s) => s.path)).map((groups) => ({ ...r, groups })))
  .map((r) => {
    const paths = collectionPaths(r.collections);
    const teams = r.teams as Array<{ title: string; members: Array<{ user: string; owner: boolean }> }>;
    return {
      tokens: [
        { token: 'dev-token', access: 'write' },
        { token: 'read-token', access: 'read' },
      ],
      users: USERS,
      organizations: [
        {
          id: ORG,
          title: r.title,
          emailDomains: ['r.example'],
          ai: r.ai,
          ...(r.agentInstructions ? { agentInstructions: r.agentInstructions } : {}),
          members: USERS.map((u, i) => ({ user: u.id, role: i === 0 ? 'admin' : r.roles[i - 1] })),
          teams: teams.map((t) => ({ title: t.title, members: dedupe(t.members).map((m) => ({ user: m.user, role: m.owner ? 'owner' : 'member' })) })),
          collections: r.collections.map((c) => ({ title: c.title, collections: c.children.map((k) => ({ title: k })) })),
          spaces: SPACES.map((s, i) => ({
            ...s,
            ...(r.placement[i] < paths.length ? { collection: paths[r.placement[i]] } : {}),
            ...(r.emoji[i] ? { emoji: r.emoji[i] } : {}),
          })),
          sites: [
            {
              id: SITE,
              title: 'Robust Site',
              ...r.site,
              sections: r.sections.map((s) => ({
                title: s.title,
                path: s.path,
                ...(s.icon ? { icon: s.icon } : {}),
                ...(s.description ? { description: s.description } : {}),
                siteSpaces: [{ space: sectionSpace(s.path) }, ...s.extra.map((x) => ({ space: x.space, ...(x.path ? { path: x.path } : {}) }))],
              })),
              sectionGroups: r.groups.filter((g) => g.sections.length > 0),
              shareLinks: r.links as Array<{ name: string; active: boolean }>,
              redirects: (r.redirects as Array<{ source: string; url: string; permanent: boolean }>).map((x) => ({ source: x.source, destination: { kind: 'external', url: x.url }, permanent: x.permanent })),
              ...(r.corners ? { customization: { styling: { corners: r.corners } } } : {}),
              mcpServers: r.mcpServers as Array<{ name: string; url: string; transport: 'sse' | 'http' }>,
              ...(r.topics ? { agentSettings: { topics: r.topics as 'auto' | 'never' } } : {}),
            },
          ],
          // The last space is synchronised with a repository (connected in the app).
          gitSync: [{ space: GIT_SPACE, repository: 'r/docs', ...r.gitSync }],
          siteAgent: [
            {
              site: SITE,
              channels: r.channels as Array<{ type: (typeof CHANNEL_TYPES)[number]; role: 'support' | 'collaborator'; setupSettings: Record<string, string[]> }>,
              contextConnections: r.connections as Array<{ connector: 'builtin:website'; label: string; setupSettings: { url: string }; usageSettings: { changeRequests: boolean; search: boolean; searchBoost: 'x0.8' | 'x1.0' | 'x1.2' }; filter: string }>,
              topics: TOPIC_LABELS.map((label, i) => ({ label, changeRequests: (r.siteTopics as boolean[])[i] })),
            },
          ],
          saml: r.saml.map((label, i) => ({
            label,
            entityID: `urn:${label}`,
            ssoURL: 'https://idp.r.example/sso',
            ...(teams.length > 0 && (r.samlTeam + i) % 2 === 0 ? { defaultTeam: teams[(r.samlTeam + i) % teams.length].title } : {}),
          })),
          translations: r.translations.map((language) => ({ language, source: { space: SPACES[0].id, language: 'en' }, instructions: 'Old instructions.' })),
          fonts: (r.fonts as Array<{ family: string; bold: boolean }>).map((f) => ({
            fontFamily: f.family,
            fontFaces: [{ weight: 400, storageKey: fontKey(f.family, 400, 'v1') }, ...(f.bold ? [{ weight: 700, storageKey: fontKey(f.family, 700, 'v1') }] : [])],
          })),
          integrations: r.integrations.map((name) => ({ name, title: `Old ${name}`, description: 'Old', scopes: ['space:content:read'], script: 'old' })),
          // Only integrations the organization publishes can be installed on it.
          installations: Object.entries(r.installations as Record<string, InstallationShape | undefined>)
            .filter(([name, i]) => i !== undefined && r.integrations.includes(name))
            .map(([name, i]) => installationOf(name, i!)),
          // A spec from a URL or from a text.
          openapiSpecs: (r.specs as Array<{ slug: string; url?: string; text: string; visibility: string }>).map((s) => ({ slug: s.slug, ...(s.url !== undefined ? { url: s.url } : { text: s.text }), visibility: s.visibility })),
          glossary: glossaryOf(r.glossary as Array<{ en: string; fr?: string }>),
          access: r.grants.map((g) => ({
            space: SPACES[g.space].id,
            teams: g.team < teams.length ? { [teams[g.team].title]: g.role } : {},
            users: { [USERS[g.user].id]: g.role },
          })),
        },
      ],
    } as EmulatorState;
  });

function dedupe(members: Array<{ user: string; owner: boolean }>): Array<{ user: string; owner: boolean }> {
  const seen = new Map<string, { user: string; owner: boolean }>();
  for (const m of members) seen.set(m.user, m);
  return [...seen.values()];
}

// ---- the desired state ------------------------------------------------------------------------------

/**
 * Sometimes a `renamedFrom` naming a key of the pool that the config does not use itself (the loader
 * refuses one that names a resource the config defines). Each key is used by one resource at most,
 * so the choice is by the resource's own key.
 */
function renamedFromOf(pool: readonly string[], used: readonly string[]): fc.Arbitrary<string | undefined> {
  const free = pool.filter((k) => !used.includes(k));
  return free.length === 0 ? fc.constant(undefined) : fc.option(fc.constantFrom(...free), { nil: undefined, freq: 2 });
}

/** Access on a collection or a space: teams by index into the config's teams, users (all members) by index. */
const accessArb = maybe(fc.record({ teams: subsetOf([0, 1, 2, 3], 2), users: subsetOf([1, 2, 3, 4, 5], 2), role }));
type AccessShape = { teams: number[]; users: number[]; role: (typeof ROLES)[number] } | undefined;

/** The `access` of a config object: only teams of the config (a title it does not define may name nothing). */
function accessOf(a: AccessShape, teamTitles: readonly string[]): { access?: AccessT } {
  if (a === undefined) return {};
  return {
    access: {
      teams: Object.fromEntries(a.teams.filter((i) => i < teamTitles.length).map((i) => [teamTitles[i], a.role])),
      users: Object.fromEntries(a.users.map((i) => [USERS[i].email, a.role])),
    },
  };
}

export const desiredArb: fc.Arbitrary<ConfigDocumentT> = fc
  .record({
    title: maybe(fc.constantFrom('Robust Org', 'Robust Inc')),
    ai: maybe(fc.boolean()),
    defaultRole: maybe(fc.option(role, { nil: null })),
    agentInstructions: maybe(fc.constantFrom('Be brief.', 'Answer in French.\n\nBe kind.')),
    members: maybe(fc.array(memberRole, { minLength: USERS.length - 1, maxLength: USERS.length - 1 }).chain((roles) => subsetOf(roles.map((r, i) => ({ user: USERS[i + 1].email, role: r }))))),
    teams: maybe(
      subsetOf(TEAM_TITLES).chain((titles) =>
        fc.tuple(...titles.map((title) => fc.record({ title: fc.constant(title), members: maybe(teamMembers), renamedFrom: renamedFromOf(TEAM_TITLES, titles) }))),
      ),
    ),
    collections: maybe(
      subsetOf(TOP_COLLECTIONS).chain((tops) =>
        fc.tuple(
          ...tops.map((title) =>
            fc.record({
              title: fc.constant(title),
              renamedFrom: renamedFromOf(['Alpha', 'Beta', 'Gamma', 'Alpha/One', 'Beta/Two'], [...tops, ...tops.flatMap((t) => CHILD_COLLECTIONS.map((k) => `${t}/${k}`))]),
              description: maybe(fc.option(fc.constantFrom('About it', 'Other words'), { nil: null })),
              defaultLevel: maybe(fc.option(fc.constantFrom('read', 'edit', 'inherit'), { nil: null })),
              access: accessArb,
              children: subsetOf(CHILD_COLLECTIONS),
            }),
          ),
        ),
      ),
    ),
    spaces: maybe(subsetOf(SPACES.map((s) => s.id)).chain((ids) => fc.tuple(...ids.map((id) => fc.record({ id: fc.constant(id), place: fc.nat(8), emoji: maybe(fc.constantFrom('📘', '🚀')), access: accessArb, gitSync: maybe(fc.record({ branch: maybe(fc.constantFrom(...GIT_BRANCHES)), priority: maybe(fc.constantFrom('git', 'gitbook')) })) }))))),
    sections: maybe(sectionsArb.chain((secs) => fc.tuple(fc.constant(secs), fc.array(fc.boolean(), { minLength: secs.length, maxLength: secs.length })))),
    groupSlots: fc.array(fc.nat(2), { minLength: SECTION_PATHS.length, maxLength: SECTION_PATHS.length }),
    groups: maybe(subsetOf(GROUP_TITLES)),
    links: maybe(
      subsetOf(LINK_NAMES).chain((names) =>
        fc.tuple(...names.map((name) => fc.record({ name: fc.constant(name), active: maybe(fc.boolean()), renamedFrom: renamedFromOf(LINK_NAMES, names) }))),
      ),
    ),
    redirects: maybe(
      subsetOf(REDIRECT_SOURCES).chain((sources) =>
        fc.tuple(...sources.map((source) => fc.record({ source: fc.constant(source), url: fc.constantFrom(...REDIRECT_URLS), permanent: maybe(fc.boolean()) }))),
      ),
    ),
    customization: maybe(fc.record({ title: maybe(fc.constantFrom('Robust Site', 'Docs R')), corners: maybe(fc.constantFrom('rounded', 'straight', 'circular')), font: fc.nat(3) })),
    fonts: maybe(
      subsetOf(FONT_FAMILIES).chain((families) =>
        fc.tuple(...families.map((family) => fc.record({ family: fc.constant(family), bold: fc.boolean(), version: fc.constantFrom('v1', 'v2') }))),
      ),
    ),
    publishingAuth: maybe(fc.record({ backend: fc.constantFrom('custom', 'integration'), fallbackURL: maybe(fc.option(fc.constantFrom(...REDIRECT_URLS), { nil: null })) })),
    mcpServers: maybe(
      subsetOf(MCP_NAMES).chain((names) =>
        fc.tuple(...names.map((name) => fc.record({ name: fc.constant(name), url: fc.constantFrom(...MCP_URLS), transport: maybe(fc.constantFrom('sse', 'http')), condition: maybe(fc.option(fc.constant('visitor.claims.beta'), { nil: null })) }))),
      ),
    ),
    agentSettings: maybe(fc.record({ topics: maybe(fc.constantFrom('auto', 'never')), changeRequests: maybe(fc.constantFrom('always', 'never')), instructions: maybe(fc.option(fc.constantFrom('Be brief.'), { nil: null })) })),
    adaptiveSchema: maybe(fc.constantFrom(['beta'], ['beta', 'plan'])),
    channels: maybe(subsetOf([...CHANNEL_TYPES]).chain((types) => fc.tuple(...types.map((t) => channelArb(t, true))))),
    connections: maybe(subsetOf([...CONNECTION_LABELS]).chain((labels) => fc.tuple(...labels.map((l) => connectionArb(l, true))))),
    siteTopics: maybe(subsetOf([...TOPIC_LABELS]).chain((labels) => fc.tuple(...labels.map((label) => fc.record({ label: fc.constant(label), changeRequests: maybe(fc.boolean()) }))))),
    saml: maybe(subsetOf(SAML_LABELS).chain((labels) => fc.tuple(...labels.map((label) => fc.record({ label: fc.constant(label), team: fc.nat(4), role: maybe(role), entity: fc.constantFrom('a', 'b') }))))),
    translations: maybe(subsetOf(LANGUAGES).chain((langs) => fc.tuple(...langs.map((language) => fc.record({ language: fc.constant(language), instructions: maybe(fc.constantFrom('Formal.', 'Casual.')) }))))),
    integrations: maybe(subsetOf(INTEGRATIONS).chain((names) => fc.tuple(...names.map((name) => fc.record({ name: fc.constant(name), title: fc.constantFrom(`Old ${name}`, `New ${name}`) }))))),
    installations: maybe(fc.record({ 'int-a': maybe(installationArb(true)), 'int-b': maybe(installationArb(true)) })),
    openapiSpecs: maybe(
      subsetOf(SPEC_SLUGS).chain((slugs) =>
        fc.tuple(
          ...slugs.map((slug) =>
            fc.record({
              slug: fc.constant(slug),
              source: fc.oneof(fc.constantFrom(...SPEC_URLS).map((url) => ({ url })), fc.constantFrom(...SPEC_TEXTS).map((text) => ({ text }))),
              visibility: maybe(fc.constantFrom('private', 'public')),
            }),
          ),
        ),
      ),
    ),
    glossary: maybe(glossaryArb),
    // The site's own fields, and a site made from nothing (by title) with one section, published or not.
    siteFields: maybe(fc.record({ visibility: maybe(fc.constantFrom('public', 'unlisted', 'share-link')), published: maybe(fc.boolean()), basename: maybe(fc.constantFrom('docs', 'help')) })),
    newSite: maybe(fc.boolean()),
    prune: subsetOf(PRUNABLE),
    // One run in two, a few protected keys (the config may then be refused with a `protect` problem).
    protect: fc.oneof({ arbitrary: fc.constant(undefined), weight: 1 }, { arbitrary: subsetOf(PROTECTABLE, 3), weight: 1 }),
  })
  .map((r) => {
    const collections = r.collections as
      | Array<{ title: string; renamedFrom?: string; description?: string | null; defaultLevel?: 'read' | 'edit' | 'inherit' | null; children: string[]; access?: AccessShape }>
      | undefined;
    const paths = collections ? collectionPaths(collections) : [];
    const teams = r.teams as Array<{ title: string; members?: Array<{ user: string; owner: boolean }>; renamedFrom?: string }> | undefined;
    const teamTitles = teams === undefined ? [] : unique(teams, (t) => t.renamedFrom).map((t) => t.title);
    const sectionPick = r.sections as [SectionShape[], boolean[]] | undefined;
    const sections = sectionPick?.[0];
    const fonts = r.fonts as Array<{ family: string; bold: boolean; version: string }> | undefined;
    // A customization names only a font of the config (one the organization has may be pruned away).
    const customFont = fonts && r.customization && r.customization.font < fonts.length ? fonts[r.customization.font].family : undefined;
    const doc: ConfigDocumentT = {
      version: 1,
      organization: {
        id: ORG,
        ...(r.title !== undefined ? { title: r.title } : {}),
        ...(r.ai !== undefined ? { ai: r.ai } : {}),
        ...(r.defaultRole !== undefined ? { defaultRole: r.defaultRole } : {}),
        ...(r.agentInstructions !== undefined ? { agentInstructions: r.agentInstructions } : {}),
      },
      // The first user is the admin and stays one (the organization keeps an admin, always).
      ...(r.members !== undefined ? { members: [{ user: USERS[0].email, role: 'admin' as const }, ...(r.members as Array<{ user: string; role: (typeof ROLES)[number] | null }>)] } : {}),
      ...(teams !== undefined
        ? {
            teams: unique(teams, (t) => t.renamedFrom).map((t) => ({
              title: t.title,
              ...(t.renamedFrom !== undefined ? { renamedFrom: t.renamedFrom } : {}),
              ...(t.members !== undefined
                ? { members: dedupe(t.members).map((m) => (m.owner ? { user: emailOf(m.user), role: 'owner' as const } : emailOf(m.user))) }
                : {}),
            })),
          }
        : {}),
      ...(collections !== undefined
        ? {
            collections: unique(collections, (c) => c.renamedFrom).map((c) => ({
              title: c.title,
              ...(c.renamedFrom !== undefined ? { renamedFrom: c.renamedFrom } : {}),
              ...(c.description !== undefined ? { description: c.description } : {}),
              ...(c.defaultLevel !== undefined ? { defaultLevel: c.defaultLevel } : {}),
              ...(c.children.length > 0 ? { collections: c.children.map((k) => ({ title: k })) } : {}),
              ...accessOf(c.access, teamTitles),
            })),
          }
        : {}),
      ...(r.spaces !== undefined
        ? {
            spaces: (r.spaces as Array<{ id: string; place: number; emoji?: string; access?: AccessShape; gitSync?: Record<string, string | undefined> }>).map((s) => ({
              id: s.id,
              // A space is placed only in a collection of this config (or at the top level).
              collection: s.place < paths.length ? paths[s.place] : null,
              ...(s.emoji !== undefined ? { emoji: s.emoji } : {}),
              ...accessOf(s.access, teamTitles),
              // Only the synchronised space can take a gitSync block (another's is a plan problem).
              ...(s.id === GIT_SPACE && s.gitSync !== undefined ? { gitSync: Object.fromEntries(Object.entries(s.gitSync).filter(([, v]) => v !== undefined)) } : {}),
            })),
          }
        : {}),
      ...(sections !== undefined || r.groups !== undefined || r.links !== undefined || r.siteFields !== undefined || r.newSite !== undefined || r.redirects !== undefined || r.customization !== undefined || r.publishingAuth !== undefined || r.mcpServers !== undefined || r.channels !== undefined || r.connections !== undefined || r.siteTopics !== undefined || r.agentSettings !== undefined || r.adaptiveSchema !== undefined
        ? {
            sites: [
              {
                id: SITE,
                ...Object.fromEntries(Object.entries((r.siteFields ?? {}) as Record<string, unknown>).filter(([, v]) => v !== undefined)),
                ...(sections !== undefined
                  ? {
                      sections: sections.map((s, i) => ({
                        path: s.path,
                        title: s.title,
                        space: sectionSpace(s.path),
                        ...(s.icon ? { icon: s.icon } : {}),
                        ...(s.description ? { description: s.description } : {}),
                        // Whole truth when given; unmanaged when not.
                        // Paths are given for all the listed site spaces or for none: a path left
                        // unmanaged may hold the one another site space is given (the API refuses
                        // that; the plan does not foresee it).
                        ...(sectionPick![1][i] ? { siteSpaces: withPaths(s.extra) } : {}),
                      })),
                    }
                  : {}),
                ...(r.groups !== undefined
                  ? {
                      sectionGroups: (r.groups as string[]).map((title, g) => ({
                        title,
                        sections: (sections ?? []).filter((_, i) => r.groupSlots[i] === g).map((s) => s.path),
                      })),
                    }
                  : {}),
                ...(r.links !== undefined
                  ? {
                      shareLinks: unique(r.links as Array<{ name: string; active?: boolean; renamedFrom?: string }>, (l) => l.renamedFrom).map((l) => ({
                        name: l.name,
                        ...(l.renamedFrom !== undefined ? { renamedFrom: l.renamedFrom } : {}),
                        ...(l.active !== undefined ? { active: l.active } : {}),
                      })),
                    }
                  : {}),
                ...(r.redirects !== undefined
                  ? {
                      redirects: (r.redirects as Array<{ source: string; url: string; permanent?: boolean }>).map((x) => ({
                        source: x.source,
                        destination: x.url,
                        ...(x.permanent !== undefined ? { permanent: x.permanent } : {}),
                      })),
                    }
                  : {}),
                ...(r.customization !== undefined
                  ? {
                      customization: {
                        ...(r.customization.title !== undefined ? { title: r.customization.title } : {}),
                        ...(r.customization.corners !== undefined || customFont !== undefined
                          ? {
                              styling: {
                                ...(r.customization.corners !== undefined ? { corners: r.customization.corners as 'rounded' | 'straight' | 'circular' } : {}),
                                ...(customFont !== undefined ? { font: { customFont } } : {}),
                              },
                            }
                          : {}),
                      },
                    }
                  : {}),
                ...(r.publishingAuth !== undefined
                  ? {
                      publishingAuth: {
                        backend: r.publishingAuth.backend as 'custom' | 'integration',
                        ...(r.publishingAuth.fallbackURL !== undefined ? { fallbackURL: r.publishingAuth.fallbackURL } : {}),
                      },
                    }
                  : {}),
                ...(r.mcpServers !== undefined
                  ? {
                      mcpServers: (r.mcpServers as Array<{ name: string; url: string; transport?: string; condition?: string | null }>).map((m) => ({
                        name: m.name,
                        url: m.url,
                        ...(m.transport !== undefined ? { transport: m.transport as 'sse' | 'http' } : {}),
                        ...(m.condition !== undefined ? { condition: m.condition } : {}),
                      })),
                    }
                  : {}),
                ...(r.channels !== undefined
                  ? {
                      channels: (r.channels as Array<{ type: (typeof CHANNEL_TYPES)[number]; role?: 'support' | 'collaborator'; setupSettings?: Record<string, string[]> }>).map((c) => ({
                        type: c.type,
                        ...(c.role !== undefined ? { role: c.role } : {}),
                        ...(c.setupSettings !== undefined ? { setupSettings: c.setupSettings } : {}),
                      })) as ChannelT[],
                    }
                  : {}),
                ...(r.connections !== undefined
                  ? {
                      contextConnections: (r.connections as Array<{ label: string; connector: string; setupSettings: { url: string }; usageSettings?: ContextConnectionT['usageSettings']; filter?: string | null }>).map((c) => ({
                        label: c.label,
                        connector: c.connector,
                        setupSettings: c.setupSettings,
                        ...(c.usageSettings !== undefined ? { usageSettings: c.usageSettings } : {}),
                        ...(c.filter !== undefined ? { filter: c.filter } : {}),
                      })),
                    }
                  : {}),
                ...(r.siteTopics !== undefined
                  ? {
                      topics: (r.siteTopics as Array<{ label: string; changeRequests?: boolean }>).map((t) => ({
                        label: t.label,
                        ...(t.changeRequests !== undefined ? { usageSettings: { changeRequests: t.changeRequests } } : {}),
                      })),
                    }
                  : {}),
                ...(r.agentSettings !== undefined
                  ? {
                      agentSettings: {
                        ...(r.agentSettings.topics !== undefined ? { scans: { topics: r.agentSettings.topics as 'auto' | 'never' } } : {}),
                        ...(r.agentSettings.changeRequests !== undefined ? { findings: { changeRequests: r.agentSettings.changeRequests as 'always' | 'never' } } : {}),
                        ...(r.agentSettings.instructions !== undefined ? { editing: { customInstructions: r.agentSettings.instructions } } : {}),
                      },
                    }
                  : {}),
                ...(r.adaptiveSchema !== undefined
                  ? {
                      adaptiveSchema: {
                        properties: Object.fromEntries((r.adaptiveSchema as readonly string[]).map((c) => [c, c === 'plan' ? { type: 'string' as const, enum: ['free', 'pro'], description: 'Plan' } : { type: 'boolean' as const, description: 'Beta' }])),
                      },
                    }
                  : {}),
              },
              // Last: the checks of collisions look at the first site (site_r).
              ...(r.newSite !== undefined ? [{ title: 'Fresh site', published: r.newSite as boolean, sections: [{ path: 'intro', title: 'Intro', space: SPACES[0].id }] }] : []),
            ],
          }
        : {}),
      ...(r.saml !== undefined
        ? {
            saml: (r.saml as Array<{ label: string; team: number; role?: (typeof ROLES)[number]; entity: string }>).map((p) => ({
              label: p.label,
              entityID: `urn:${p.label}:${p.entity}`,
              ssoURL: 'https://idp.r.example/sso',
              // A default team only among the config's own teams (a title the config does not define
              // would have to exist remotely).
              ...(teams && teams.length > 0 && p.team < teams.length ? { defaultTeam: teams[p.team].title } : {}),
              ...(p.role !== undefined ? { defaultRole: p.role } : {}),
            })),
          }
        : {}),
      ...(fonts !== undefined
        ? {
            fonts: fonts.map((f) => ({
              fontFamily: f.family,
              // v2 replaces the files the state seeds (v1); no 700 removes the bold face.
              fontFaces: [{ weight: 400, storageKey: fontKey(f.family, 400, f.version) }, ...(f.bold ? [{ weight: 700, storageKey: fontKey(f.family, 700, f.version) }] : [])],
            })),
          }
        : {}),
      ...(r.translations !== undefined
        ? {
            translations: (r.translations as Array<{ language: string; instructions?: string }>).map((t) => ({
              source: { space: SPACES[0].id, language: 'en' as const },
              language: t.language as TranslationT['language'],
              ...(t.instructions !== undefined ? { instructions: t.instructions } : {}),
            })),
          }
        : {}),
      ...(r.integrations !== undefined
        ? {
            integrations: (r.integrations as Array<{ name: string; title: string }>).map((i) => ({
              name: i.name,
              title: i.title,
              description: 'Made by the robustness test',
              scopes: ['space:content:read'],
              script: `export default '${i.name}';`,
            })),
          }
        : {}),
      ...(r.installations !== undefined
        ? {
            // int-a is always published; int-b only when this config publishes it.
            installations: Object.entries(r.installations as Record<string, InstallationShape | undefined>)
              .filter(([name, i]) => i !== undefined && (name === INTEGRATIONS[0] || (r.integrations as Array<{ name: string }> | undefined)?.some((x) => x.name === name)))
              .map(([name, i]) => installationOf(name, i!)) as ConfigDocumentT['installations'],
          }
        : {}),
      ...(r.openapiSpecs !== undefined
        ? {
            openapiSpecs: (r.openapiSpecs as Array<{ slug: string; source: { url: string } | { text: string }; visibility?: 'private' | 'public' }>).map((s) => ({
              slug: s.slug,
              source: s.source,
              ...(s.visibility !== undefined ? { visibility: s.visibility } : {}),
            })),
          }
        : {}),
      ...(r.glossary !== undefined ? { glossary: glossaryOf(r.glossary as Array<{ en: string; fr?: string }>) } : {}),
      prune: r.prune,
      ...(r.protect !== undefined && r.protect.length > 0 ? { protect: r.protect } : {}),
      safety: { maxDeletes: 1000, maxDeletePercent: 100, keepSsoMembers: true },
    };
    return doc;
  });

/** The site spaces with a path each (v1, v2, … where the generator gave none), or with none at all. */
function withPaths(extra: Array<{ space: string; path?: string }>): Array<{ space: string; path?: string }> {
  if (extra.every((x) => x.path === undefined)) return extra.map((x) => ({ space: x.space }));
  const taken = new Set(extra.map((x) => x.path).filter((p) => p !== undefined));
  const free = ['v1', 'v2', 'v3', 'v4'].filter((p) => !taken.has(p));
  return extra.map((x) => ({ space: x.space, path: x.path ?? (free.shift() as string) }));
}

/** Keeps the first `renamedFrom` of each value and drops the repeats (two renames from one key are refused). */
function unique<T extends { renamedFrom?: string }>(items: T[], from: (item: T) => string | undefined): T[] {
  const seen = new Set<string>();
  return items.map((item) => {
    const f = from(item);
    if (f === undefined) return item;
    if (seen.has(f)) return { ...item, renamedFrom: undefined };
    seen.add(f);
    return item;
  });
}

function emailOf(userId: string): string {
  return USERS.find((u) => u.id === userId)!.email;
}

/** Writes the document to a scratch folder and loads it as `docplane` would. */
export async function loadDocument(doc: ConfigDocumentT): Promise<LoadedConfig> {
  const dir = mkdtempSync(join(tmpdir(), 'docplane-robust-'));
  try {
    const file = join(dir, 'docplane.yaml');
    writeFileSync(file, stringify(doc), 'utf8');
    return await loadConfig({ path: file, cwd: dir, env: {} });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Natural keys that must be unique in the remote state; duplicates found, as `kind: key` lines. */
export async function duplicates(client: ApiClient): Promise<string[]> {
  const org = `/v1/orgs/${ORG}`;
  const site = `${org}/sites/${SITE}`;
  const [teams, collections, sections, groups, links, saml, translations, redirects, mcpServers, installations, channels, connections] = await Promise.all([
    client.listAll<{ title: string }>(`${org}/teams`),
    client.listAll<{ title: string; parent?: string | null }>(`${org}/collections`, { nested: true }),
    client.listAll<{ path: string; siteSpaces: Array<{ space: { id: string } }> }>(`${site}/sections`),
    client.listAll<{ title: string }>(`${site}/section-groups`),
    client.listAll<{ name: string }>(`${site}/share-links`),
    client.listAll<{ label: string }>(`${org}/saml`),
    client.listAll<{ language: string; source: { space: string } }>(`${org}/translations`),
    client.listAll<{ source: string }>(`${site}/redirects`),
    client.listAll<{ name: string }>(`${site}/mcp-servers`),
    client.listAll<{ integration: { name: string } }>(`${org}/installations`),
    client.listAll<{ type: string }>(`${site}/channels`),
    client.listAll<{ label?: string; connector: string }>(`${site}/context-connections`),
  ]);
  const keys: string[] = [
    ...teams.map((t) => `team: ${t.title}`),
    ...collections.map((c) => `collection: ${c.parent ?? ''}/${c.title}`),
    ...sections.map((s) => `section: ${s.path}`),
    ...sections.flatMap((s) => s.siteSpaces.map((x) => `site space: ${s.path}/${x.space.id}`)),
    ...groups.map((g) => `group: ${g.title}`),
    ...links.map((l) => `share link: ${l.name}`),
    ...saml.map((p) => `saml: ${p.label}`),
    ...translations.map((t) => `translation: ${t.source.space}/${t.language}`),
    ...redirects.map((r) => `redirect: ${r.source}`),
    ...mcpServers.map((m) => `MCP server: ${m.name}`),
    ...installations.map((i) => `installation: ${i.integration.name}`),
    ...channels.map((c) => `channel: ${c.type}`),
    ...connections.map((c) => `context connection: ${c.label || c.connector}`),
  ];
  const seen = new Set<string>();
  return keys.filter((k) => (seen.has(k) ? true : (seen.add(k), false)));
}

/**
 * Whether the desired state renames a resource (`renamedFrom`) onto the natural key of another remote
 * resource that stays (its kind is not pruned): the plan must refuse it with a problem (applying it
 * would leave two resources with one key).
 */
export function renameCollides(current: EmulatorState, desired: ConfigDocumentT): { teams: boolean; collections: boolean; shareLinks: boolean } {
  const org = current.organizations?.[0];
  if (!org) return { teams: false, collections: false, shareLinks: false };
  const pruned = new Set(Array.isArray(desired.prune) ? desired.prune : desired.prune === 'all' ? PRUNABLE : []);
  const teamTitles = new Set((org.teams ?? []).map((t) => t.title));
  const topCollections = (org.collections ?? []) as Array<{ title: string; collections?: Array<{ title: string }> }>;
  const collectionPathSet = new Set(topCollections.flatMap((c) => [c.title, ...(c.collections ?? []).map((k) => `${c.title}/${k.title}`)]));
  const linkNames = new Set(((org.sites?.[0]?.shareLinks ?? []) as Array<{ name: string }>).map((l) => l.name));
  const collides = (renamedFrom: string | undefined, own: string, keys: Set<string>, kind: string) =>
    renamedFrom !== undefined && keys.has(renamedFrom) && keys.has(own) && !pruned.has(kind as (typeof PRUNABLE)[number]);
  return {
    teams: (desired.teams ?? []).some((t) => collides(t.renamedFrom, t.title, teamTitles, 'teams')),
    collections: (desired.collections ?? []).some((c) => collides(c.renamedFrom, c.title, collectionPathSet, 'collections')),
    shareLinks: (desired.sites?.[0]?.shareLinks ?? []).some((l) => collides(l.renamedFrom, l.name, linkNames, 'shareLinks')),
  };
}

