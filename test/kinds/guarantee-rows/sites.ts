/**
 * The guarantees of a site's structure kinds (sections, site spaces, section groups, external links)
 * and the scenarios the other site kinds' rows lacked (resume, pre-empted creates, named twice).
 */
import { IMPORT, ORG_PATH, SITE, type Row } from './common.js';

/** Spaces the sections show, and site_a with the given fields. */
const seed = (site: Record<string, unknown> = {}) => ({
  spaces: [{ id: 'space_a', title: 'Guides' }, { id: 'space_b', title: 'Reference' }, { id: 'space_c', title: 'Changelog' }],
  sites: [{ id: 'site_a', title: 'Docs', ...site }],
});
const SECTION = (path: string, space = 'space_a', extra = '') => `{ path: ${path}, title: ${path[0].toUpperCase()}${path.slice(1)}, space: ${space}${extra} }`;
const seedSection = (id: string, path: string, space = 'space_a') => ({ id, title: `${path[0].toUpperCase()}${path.slice(1)}`, path, siteSpaces: [{ space }] });
const SITE_A = 'sites["site_a"]';
const BASE = `${ORG_PATH}/sites/site_a`;
/** One section the structure kinds' worlds all have. */
const GUIDES = `    sections: [${SECTION('guides')}]\n`;

export const sectionsRow: Row = {
  twins: 'a section\'s path is its key, and the API keeps paths unique within a site: two sections never share one',
  twice: { seed: seed({ sections: [seedSection('sec_a', 'guides')] }), yaml: SITE(`    sections:\n      - ${SECTION('guides', 'space_a', ', id: sec_a')}\n      - ${SECTION('guides', 'space_b')}\n`), at: 'config', lines: [6, 7] },
  rename: { seed: seed({ sections: [seedSection('sec_a', 'old')] }), yaml: SITE('    sections: [{ path: guides, title: Old, space: space_a, renamedFrom: old }]\n'), address: `${SITE_A}.sections["guides"]` },
  prune: { seed: seed({ sections: [seedSection('sec_a', 'guides'), seedSection('sec_b', 'gone', 'space_b')] }), yaml: `prune: [sections]\n${SITE(GUIDES)}`, deletes: [`${SITE_A}.sections["gone"]`] },
  import: IMPORT,
  resume: { seed: seed({ sections: [seedSection('sec_a', 'old')] }), yaml: SITE(`    sections: [${SECTION('guides', 'space_a', ', renamedFrom: old')}, ${SECTION('api', 'space_b')}, ${SECTION('changelog', 'space_c')}]\n`) },
  preempt: {
    seed: seed({ sections: [seedSection('sec_a', 'guides')] }),
    yaml: SITE(`    sections: [${SECTION('guides')}, ${SECTION('api', 'space_b', ', icon: book')}]\n`),
    other: async (client) => {
      const made = await client.request<{ id: string }>('POST', `${BASE}/sections`, { body: { spaceId: 'space_b', title: 'Api', icon: 'gear' } });
      await client.request('PATCH', `${BASE}/sections/${made.body.id}`, { body: { path: 'api' } });
    },
    address: `${SITE_A}.sections["api"]`,
    field: 'icon',
  },
};

export const siteSpacesRow: Row = {
  twins: 'a site space is keyed by its space within its section, and a section shows a space once',
  twice: 'one space listed twice in a section is refused by the loader (test/config/bad-configs.test.ts)',
  rename: 'a site space is named by the space it shows, which the config cannot rename',
  prune: { seed: seed({ sections: [{ id: 'sec_a', title: 'Guides', path: 'guides', siteSpaces: [{ space: 'space_a' }, { space: 'space_b' }] }] }), yaml: `prune: [siteSpaces]\n${SITE(GUIDES)}`, deletes: [`${SITE_A}.sections["guides"].siteSpaces["space_b"]`] },
  import: IMPORT,
  resume: { seed: seed({ sections: [seedSection('sec_a', 'guides')] }), yaml: SITE(`    sections: [${SECTION('guides', 'space_a', ', siteSpaces: [{ space: space_a, path: intro }, { space: space_b, path: ref }, { space: space_c }]')}]\n`) },
  preempt: 'a site space is added to its section, which a second one of the same space would not be: the API refuses it',
};

const GROUP = (title: string, extra = '') => `{ title: ${title}${extra} }`;
export const sectionGroupsRow: Row = {
  twins: { seed: seed({ sections: [seedSection('sec_a', 'guides')], sectionGroups: [{ id: 'grp_a', title: 'Learn' }, { id: 'grp_b', title: 'Learn' }] }), yaml: SITE(`${GUIDES}    sectionGroups: [${GROUP('Learn')}]\n`), twin: `${SITE_A}.sectionGroups["Learn#grp_b"]` },
  twice: { seed: seed({ sections: [seedSection('sec_a', 'guides')], sectionGroups: [{ id: 'grp_a', title: 'Learn' }] }), yaml: SITE(`${GUIDES}    sectionGroups:\n      - ${GROUP('Learn', ', id: grp_a')}\n      - ${GROUP('Learn')}\n`), at: 'config', lines: [7, 8] },
  rename: { seed: seed({ sections: [seedSection('sec_a', 'guides')], sectionGroups: [{ id: 'grp_a', title: 'Old' }] }), yaml: SITE(`${GUIDES}    sectionGroups: [${GROUP('Learn', ', renamedFrom: Old')}]\n`), address: `${SITE_A}.sectionGroups["Learn"]` },
  prune: { seed: seed({ sections: [seedSection('sec_a', 'guides')], sectionGroups: [{ id: 'grp_a', title: 'Keep' }, { id: 'grp_b', title: 'Gone' }] }), yaml: `prune: [sectionGroups]\n${SITE(`${GUIDES}    sectionGroups: [${GROUP('Keep')}]\n`)}`, deletes: [`${SITE_A}.sectionGroups["Gone"]`] },
  import: IMPORT,
  resume: { seed: seed({ sections: [seedSection('sec_a', 'guides'), seedSection('sec_b', 'api', 'space_b')], sectionGroups: [{ id: 'grp_a', title: 'Old' }] }), yaml: SITE(`    sections: [${SECTION('guides')}, ${SECTION('api', 'space_b')}]\n    sectionGroups: [${GROUP('Learn', ', renamedFrom: Old, icon: book')}, ${GROUP('Reference', ', sections: [api]')}, ${GROUP('More')}]\n`) },
  preempt: {
    seed: seed({ sections: [seedSection('sec_a', 'guides')] }),
    yaml: SITE(`${GUIDES}    sectionGroups: [${GROUP('Learn', ', icon: book')}]\n`),
    other: async (client) => {
      await client.request('POST', `${BASE}/section-groups`, { body: { title: 'Learn', icon: 'gear' } });
    },
    address: `${SITE_A}.sectionGroups["Learn"]`,
    field: 'icon',
  },
};

const LINK = (title: string, extra = '') => `{ title: ${title}, url: "https://${title.toLowerCase()}.example"${extra} }`;
const seedLink = (id: string, title: string) => ({ id, title, url: `https://${title.toLowerCase()}.example` });
export const externalLinksRow: Row = {
  twins: { seed: seed({ sections: [seedSection('sec_a', 'guides')], externalLinks: [seedLink('ext_a', 'Status'), seedLink('ext_b', 'Status')] }), yaml: SITE(`${GUIDES}    externalLinks: [${LINK('Status')}]\n`), twin: `${SITE_A}.externalLinks["Status#ext_b"]` },
  twice: { seed: seed({ sections: [seedSection('sec_a', 'guides')], externalLinks: [seedLink('ext_a', 'Status')] }), yaml: SITE(`${GUIDES}    externalLinks:\n      - ${LINK('Status', ', id: ext_a')}\n      - ${LINK('Status')}\n`), at: 'config', lines: [7, 8] },
  rename: { seed: seed({ sections: [seedSection('sec_a', 'guides')], externalLinks: [{ id: 'ext_a', title: 'Old', url: 'https://status.example' }] }), yaml: SITE(`${GUIDES}    externalLinks: [${LINK('Status', ', renamedFrom: Old')}]\n`), address: `${SITE_A}.externalLinks["Status"]` },
  prune: { seed: seed({ sections: [seedSection('sec_a', 'guides')], externalLinks: [seedLink('ext_a', 'Keep'), seedLink('ext_b', 'Gone')] }), yaml: `prune: [externalLinks]\n${SITE(`${GUIDES}    externalLinks: [${LINK('Keep')}]\n`)}`, deletes: [`${SITE_A}.externalLinks["Gone"]`] },
  import: IMPORT,
  resume: { seed: seed({ sections: [seedSection('sec_a', 'guides')], externalLinks: [{ id: 'ext_a', title: 'Old', url: 'https://status.example' }] }), yaml: SITE(`${GUIDES}    externalLinks: [${LINK('Status', ', renamedFrom: Old')}, ${LINK('Blog')}, ${LINK('Forum')}]\n`) },
  preempt: {
    seed: seed({ sections: [seedSection('sec_a', 'guides')] }),
    yaml: SITE(`${GUIDES}    externalLinks: [${LINK('Status')}]\n`),
    other: async (client) => {
      await client.request('POST', `${BASE}/external-links`, { body: { title: 'Status', url: 'https://elsewhere.example' } });
    },
    address: `${SITE_A}.externalLinks["Status"]`,
    field: 'url',
  },
};

/** The `resume` and `preempt` of sites, and what the other site kinds' rows gain. */
export const sitesMore: Pick<Row, 'resume' | 'preempt'> = {
  resume: { seed: seed({ sections: [seedSection('sec_a', 'guides')] }), yaml: SITE(`    title: Handbook\n    sections: [${SECTION('guides', 'space_a', ', icon: book')}, ${SECTION('api', 'space_b')}]\n    shareLinks: [{ name: partner }]\n`) },
  preempt: {
    yaml: 'sites: [{ title: Handbook, visibility: public }]\n',
    other: async (client) => {
      await client.request('POST', `${ORG_PATH}/sites`, { body: { title: 'Handbook', visibility: 'unlisted' } });
    },
    address: 'sites["Handbook"]',
    field: 'visibility',
  },
};

const MCP = (name: string, url = `https://mcp.example/${name}`) => `{ name: ${name}, url: "${url}" }`;
/** The rows of the other site kinds, where they lacked a scenario. */
export const shareLinksMore: Pick<Row, 'preempt'> = {
  preempt:
    'a share link is created by its name alone (its key); `active` is set by a later request, which an interrupted apply leaves to be sent: a link someone else made is the half-done create, and the later request makes it as reviewed',
};
export const redirectsMore: Pick<Row, 'preempt'> = {
  preempt: {
    seed: seed(),
    yaml: SITE('    redirects: [{ source: /a, destination: { kind: external, url: "https://new.example/a" } }]\n'),
    other: async (client) => {
      await client.request('POST', `${BASE}/redirects`, { body: { source: '/a', destination: { kind: 'external', url: 'https://old.example/a' } } });
    },
    address: `${SITE_A}.redirects["/a"]`,
    field: 'destination',
  },
};
export const mcpServersMore: Pick<Row, 'twice' | 'preempt'> = {
  twice: { seed: seed(), yaml: SITE(`    mcpServers:\n      - ${MCP('search')}\n      - ${MCP('search', 'https://mcp.example/other')}\n`), at: 'config', lines: [6, 7] },
  preempt: {
    seed: seed(),
    yaml: SITE(`    mcpServers: [${MCP('search')}]\n`),
    other: async (client) => {
      await client.request('POST', `${BASE}/mcp-servers`, { body: { name: 'search', url: 'https://mcp.example/elsewhere', headers: {} } });
    },
    address: `${SITE_A}.mcpServers["search"]`,
    field: 'url',
  },
};

/** A singleton of a site: its resume world, with a share link's create so that the plan has steps to be cut between. */
const singletonResume = (yaml: string, site: Record<string, unknown> = {}): Pick<Row, 'resume'> => ({ resume: { seed: seed(site), yaml: SITE(`${yaml}    shareLinks: [{ name: partner }]\n`) } });
export const siteSingletonResume: Record<string, Partial<Row>> = {
  // A connect carries its access token, a secret: the generated saved plan is written without the
  // run's secrets, so the file's token never matches the re-derivation's placeholder.
  siteGitSync: {
    resume: 'a connect carries a secret (accessToken), which the generated saved plan cannot hold; test/kinds/git-sync.test.ts covers the connect',
    import: 'not generated: its world needs a repository connected with a secret, which no generated world seeds (a known gap)',
  },
  publishingAuthKeys: { resume: 'a key is rotated only by `plan --replace` of its address, one step with nothing to resume between' },
  customHostnames: { resume: { seed: { ...seed(), customHostnames: [{ hostname: 'docs.acme.example', site: 'site_a' }] }, yaml: SITE('    customHostname: null\n    shareLinks: [{ name: partner }]\n') } },
  defaultSiteSpaces: singletonResume('    siteSpaces: [{ space: space_b }, { space: space_a }]\n    defaultSiteSpace: space_b\n', { siteSpaces: [{ space: 'space_a' }] }),
  variantCustomization: singletonResume('    siteSpaces: [{ space: space_a, customization: { title: Guides FR } }, { space: space_b }]\n', { siteSpaces: [{ space: 'space_a' }] }),
};

