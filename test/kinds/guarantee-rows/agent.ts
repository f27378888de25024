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
