/** Rows of the site agent's kinds (src/kinds/sites/agent/). */
import type { ApiClient } from '../../../src/api/types.js';
import { IMPORT, ORG_PATH, SITE, siteSeed, type Row } from './common.js';

const agentSeed = (parts: Record<string, unknown>) => ({ ...siteSeed({}), siteAgent: [{ site: 'site_a', ...parts }] });
const SLACK = (id: string, allowed: string[] = []) => ({ id, type: 'builtin:slack', setupSettings: { allowedChannels: allowed }, role: 'support' });

export const channelsRow: Row = {
  twins: { seed: agentSeed({ channels: [SLACK('ch1'), SLACK('ch2', ['general'])] }), yaml: SITE('    channels: [{ type: builtin:slack }]\n'), twin: 'sites["site_a"].channels["builtin:slack#ch2"]' },
  twice: { seed: siteSeed({}), yaml: SITE('    channels:\n      - { type: builtin:slack, role: support }\n      - { type: builtin:slack, role: collaborator }\n'), at: 'config', lines: [6, 7] },
  rename: 'a channel is named by its type, which is what it is: another type is another channel',
  prune: {
    seed: agentSeed({ channels: [SLACK('ch1'), { id: 'ch2', type: 'builtin:discord', setupSettings: {}, role: 'support' }] }),
    yaml: `prune: [channels]\n${SITE('    channels: [{ type: builtin:slack }]\n')}`,
    deletes: ['sites["site_a"].channels["builtin:discord"]'],
  },
  import: IMPORT,
  resume: { seed: agentSeed({ channels: [SLACK('ch1')] }), yaml: SITE('    channels:\n      - { type: builtin:slack, role: collaborator }\n      - { type: builtin:github, role: support, setupSettings: { allowedRepositories: [acme/docs] } }\n') },
  preempt: {
    seed: siteSeed({}),
    yaml: SITE('    channels: [{ type: builtin:slack, role: support }]\n'),
    other: async (client: ApiClient) => {
      await client.request('POST', `${ORG_PATH}/sites/site_a/channels`, { body: { type: 'builtin:slack', setupSettings: { allowedChannels: [] }, role: 'collaborator' } });
    },
    address: 'sites["site_a"].channels["builtin:slack"]',
    field: 'role',
  },
};

const WEB = (id: string, label: string) => ({ id, connector: 'builtin:website', setupSettings: { url: `https://${id}.acme.test/` }, label });
const web = (label: string, extra = '') => `{ label: ${label}, connector: builtin:website, setupSettings: { url: "https://${label.toLowerCase()}.acme.test/" }${extra} }`;
const AT = 'sites["site_a"].contextConnections';

export const contextConnectionsRow: Row = {
  twins: { seed: agentSeed({ contextConnections: [WEB('c1', 'Blog'), WEB('c2', 'Blog')] }), yaml: SITE(`    contextConnections: [${web('Blog')}]\n`), twin: `${AT}["Blog#c2"]` },
  twice: { seed: siteSeed({}), yaml: SITE(`    contextConnections:\n      - ${web('Blog')}\n      - ${web('Blog', ', filter: docs')}\n`), at: 'config', lines: [6, 7] },
  rename: { seed: agentSeed({ contextConnections: [WEB('c1', 'Old')] }), yaml: SITE('    contextConnections: [{ id: c1, label: New, connector: builtin:website }]\n'), address: `${AT}["New"]` },
  prune: { seed: agentSeed({ contextConnections: [WEB('c1', 'Keep'), WEB('c2', 'Gone')] }), yaml: `prune: [contextConnections]\n${SITE('    contextConnections: [{ label: Keep, connector: builtin:website }]\n')}`, deletes: [`${AT}["Gone"]`] },
  import: IMPORT,
  resume: { seed: agentSeed({ contextConnections: [WEB('c1', 'Old')] }), yaml: SITE(`    contextConnections:\n      - ${web('Blog')}\n      - ${web('Help', ', filter: docs')}\n      - { id: c1, label: New, connector: builtin:website }\n`) },
  preempt: {
    seed: siteSeed({}),
    yaml: SITE(`    contextConnections: [${web('Blog', ', filter: docs')}]\n`),
    other: async (client: ApiClient) => {
      const path = `${ORG_PATH}/sites/site_a/context-connections`;
      const made = await client.request<{ id: string }>('POST', path, { body: { connector: 'builtin:website', setupSettings: { url: 'https://blog.acme.test/' }, filter: 'other' } });
      await client.request('PATCH', `${path}/${made.body.id}`, { body: { label: 'Blog' } });
    },
    address: `${AT}["Blog"]`,
    field: 'filter',
  },
};

const TOPIC = (id: string, label: string, changeRequests = true) => ({ id, label, changeRequests });
const topic = (label: string, changeRequests = false) => `{ label: ${label}, usageSettings: { changeRequests: ${changeRequests} } }`;

export const topicsRow: Row = {
  twins: { seed: agentSeed({ topics: [TOPIC('t1', 'Billing'), TOPIC('t2', 'Billing')] }), yaml: SITE(`    topics: [${topic('Billing')}]\n`), twin: 'sites["site_a"].topics["Billing#t2"]' },
  twice: { seed: agentSeed({ topics: [TOPIC('t1', 'Billing')] }), yaml: SITE(`    topics:\n      - ${topic('Billing')}\n      - ${topic('Billing', true)}\n`), at: 'config', lines: [6, 7] },
  rename: 'topics are named by the service: a config cannot rename one',
  prune: 'the API deletes no topic: the service makes and removes them',
  import: IMPORT,
  resume: { seed: agentSeed({ topics: [TOPIC('t1', 'Billing'), TOPIC('t2', 'SSO')] }), yaml: SITE(`    topics: [${topic('Billing')}, ${topic('SSO')}]\n`) },
  preempt: 'the API cannot create a topic: there is no create to pre-empt',
};

const GLOSS = (id: string, en: string, fr: string): { id: string; translations: Record<string, string> } => ({ id, translations: { en, fr } });

/** The glossary: one object (its entries changed in one batch), the whole truth when given. */
export const glossaryRow: Row = {
  twins: 'the glossary is one object and the whole truth when given: a second entry with one term is deleted in its one batch, shown as en:API#ID (test/kinds/glossary.test.ts)',
  twice: { yaml: 'glossary:\n  - { translations: { en: API, fr: API } }\n  - { translations: { en: API, fr: Interface } }\n', at: 'config', lines: [4, 5] },
  rename: { seed: { glossary: [GLOSS('g1', 'Workspace', 'Espace')] }, yaml: 'glossary: [{ id: g1, translations: { en: Space, fr: Espace } }]\n', address: 'glossary' },
  prune: 'the glossary is the whole truth when given (no prune needed): an entry the config omits is deleted in its one batch (test/kinds/glossary.test.ts)',
  import: IMPORT,
  resume: { seed: { glossary: [GLOSS('g1', 'API', 'API')] }, yaml: 'teams: [{ title: Dev }]\nglossary: [{ translations: { en: API, fr: Interface } }, { translations: { en: Space, fr: Espace } }]\n' },
  preempt: 'the glossary is never created: a plan updates its entries in one batch',
};

// Integrations this organization publishes, and where they are installed (src/kinds/integrations/,
// src/kinds/installations/).
const INTEGRATION = (name: string) => ({ name, title: name, description: name, scopes: ['space:content:read'], script: 'export default {}' });
const integration = (name: string) => `{ name: ${name}, title: ${name}, description: ${name}, scopes: [space:content:read], script: "export default {}" }`;
const published = (...names: string[]) => ({ integrations: names.map(INTEGRATION) });

export const integrationsRow: Row = {
  twins: 'a name names one integration on the whole platform: the API keys integrations by it',
  twice: { yaml: `integrations:\n  - ${integration('acme-a')}\n  - ${integration('acme-a')}\n`, at: 'config', lines: [4, 5] },
  rename: 'an integration is named by its name, which the API cannot change: another name is another integration',
  prune: { seed: published('acme-keep', 'acme-gone'), yaml: `prune: [integrations]\nintegrations: [${integration('acme-keep')}]\n`, deletes: ['integrations["acme-gone"]'] },
  import: 'the API returns no script: import writes a stub the user fills in, which a plan refuses to publish (test/import/roundtrip.test.ts)',
  resume: { seed: published('acme-old'), yaml: `integrations: [${integration('acme-a')}, ${integration('acme-b')}]\n` },
  preempt: 'a publish is by name and makes a new version whoever published before: the integration is as the plan says after it',
};

export const installationsRow: Row = {
  twins: 'an organization installs an integration once: the API keys installations by integration',
  twice: { seed: published('acme-a'), yaml: 'installations:\n  - { integration: acme-a }\n  - { integration: acme-a, configuration: { theme: dark } }\n', at: 'config', lines: [4, 5] },
  rename: 'an installation is named by its integration: another integration is another installation',
  prune: {
    seed: { ...published('acme-keep', 'acme-gone'), installations: [{ integration: 'acme-keep' }, { integration: 'acme-gone' }] },
    yaml: 'prune: [installations]\ninstallations: [{ integration: acme-keep }]\n',
    deletes: ['installations["acme-gone"]'],
  },
  import: IMPORT,
  resume: { seed: published('acme-a', 'acme-b'), yaml: 'installations: [{ integration: acme-a, configuration: { theme: dark } }, { integration: acme-b }]\n' },
  preempt: 'an install\'s configuration is sent by a later request of its create, which a resumed apply sends: a pre-empted install ends as the plan says',
};

const sitesAB = { sites: [{ id: 'site_a', title: 'Docs' }, { id: 'site_b', title: 'Blog' }] };
export const installationTargetsRow: Row = {
  twins: 'an integration is installed once on a space or site: the API keys it by the space or site',
  twice: { seed: { ...published('acme-a'), ...sitesAB }, yaml: 'installations:\n  - integration: acme-a\n    sites:\n      - { site: site_a }\n      - { site: site_a, configuration: { position: left } }\n', at: 'config', lines: [6, 7] },
  rename: 'a target is the space or site it is installed on: another one is another target',
  prune: {
    seed: { ...published('acme-a'), ...sitesAB, installations: [{ integration: 'acme-a', sites: [{ site: 'site_a' }, { site: 'site_b' }] }] },
    yaml: 'installations: [{ integration: acme-a, sites: [{ site: site_a }] }]\n',
    deletes: ['installations["acme-a"].sites["site_b"]'],
  },
  import: IMPORT,
  resume: { seed: { ...published('acme-a'), ...sitesAB }, yaml: 'installations: [{ integration: acme-a, sites: [{ site: site_a, configuration: { position: right } }, { site: site_b }] }]\n' },
  preempt: 'a target\'s configuration is sent by a later request of its install, which a resumed apply sends: a pre-empted install ends as the plan says',
};
