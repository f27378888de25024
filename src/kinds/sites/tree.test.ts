/**
 * The plan of a site's whole structure, table-driven: site spaces at the root, nested groups,
 * external links, draft/hidden, defaultSiteSpace, localized titles, explicit orders. Remote sites
 * are API-shaped structures read through the same parser as the real read.
 */
import { describe, expect, it } from 'vitest';
import type { Kind } from '../../model/step.js';
import type { DraftStep } from '../kind.js';
import { planSite, type SitePlans } from './plan.js';
import { sitePath, structureSite, type RemoteSite } from './remote.js';
import type { SiteT } from './schema.js';

const BASE = '/v1/orgs/org_acme/sites/site_docs';
const A = 'sites["site_docs"]';

/** `{ s: path }` a section, `{ g: title, c: [...] }` a group, `{ l: title }` a link; ids from their keys. */
type Node =
  | { s: string; draft?: boolean; spaces?: Array<{ space: string; default?: boolean; hidden?: boolean }>; localizedTitle?: Record<string, string> }
  | { g: string; c?: Node[]; draft?: boolean }
  | { l: string; url?: string; draft?: boolean };

const siteSpace = (space: string, section: string | undefined, extra: { default?: boolean; hidden?: boolean; draft?: boolean } = {}) => ({
  object: 'site-space',
  id: `ss_${space}`,
  path: space,
  space: { object: 'space', id: space, title: space },
  draft: extra.draft ?? false,
  hidden: extra.hidden ?? false,
  default: extra.default ?? false,
  ...(section ? { section } : {}),
});

function raw(node: Node, parent?: string): unknown {
  if ('s' in node) {
    const id = `sec_${node.s}`;
    return {
      object: 'site-section',
      id,
      title: node.s.toUpperCase(),
      path: node.s,
      draft: node.draft ?? false,
      localizedTitle: node.localizedTitle,
      ...(parent ? { sectionGroup: parent } : {}),
      siteSpaces: (node.spaces ?? [{ space: `space_${node.s}` }]).map((x) => siteSpace(x.space, id, x)),
    };
  }
  if ('g' in node) {
    const id = `grp_${node.g}`;
    const children = (node.c ?? []).map((c) => raw(c, id));
    return { object: 'site-section-group', id, title: node.g, draft: node.draft ?? false, ...(parent ? { sectionGroup: parent } : {}), sections: [], children };
  }
  return { object: 'site-external-link', id: `ext_${node.l}`, title: node.l, url: node.url ?? `https://example.com/${node.l}`, draft: node.draft ?? false, ...(parent ? { sectionGroup: parent } : {}) };
}

const tree = (nodes: Node[]): RemoteSite => structureSite('site_docs', { type: 'sections', structure: nodes.map((n) => raw(n)) }, []);
const rootSpaces = (spaces: string[], extra: Record<string, { hidden?: boolean; draft?: boolean }> = {}): RemoteSite =>
  structureSite('site_docs', { type: 'siteSpaces', structure: spaces.map((s, i) => siteSpace(s, undefined, { default: i === 0, ...extra[s] })) }, []);

function plan(site: Omit<SiteT, 'id'>, current: RemoteSite, prune: Kind[] = []): SitePlans {
  return planSite({ org: 'org_acme', site: { id: 'site_docs', ...site }, remote: current, prunes: (k) => prune.includes(k), base: sitePath('org_acme', 'site_docs') });
}

const all = (p: SitePlans): DraftStep[] => [...p.sections.steps, ...p.siteSpaces.steps, ...p.sectionGroups.steps, ...p.shareLinks.steps, ...p.externalLinks.steps];
/** Every request as `METHOD path body`, in step order. */
const requests = (p: SitePlans): string[] => all(p).flatMap((s) => s.requests.map((r) => `${r.method} ${r.path.slice(BASE.length)} ${JSON.stringify(r.body ?? null)}`));
const req = (method: string, path: string, body: unknown): string => `${method} ${path} ${JSON.stringify(body)}`;
const problems = (p: SitePlans): string[] => Object.values(p).flatMap((k) => k.problems.map((x) => x.message));
const sec = (path: string, extra: Record<string, unknown> = {}) => ({ path, title: path.toUpperCase(), space: `space_${path}`, ...extra });
const sort = (item: string, where: 'before' | 'after', target: string) => {
  const ref = (k: string) => {
    const [t, id] = k.split(':');
    return { type: { s: 'site-section', g: 'site-section-group', l: 'site-external-link', ss: 'site-space' }[t], id };
  };
  return `PATCH /structure/sort ${JSON.stringify({ item: ref(item), position: { [where]: ref(target) } })}`;
};

interface Case {
  name: string;
  config: Omit<SiteT, 'id'>;
  remote: RemoteSite;
  prune?: Kind[];
  requests: string[];
  /** `action address` of each step, when the case checks them. */
  steps?: string[];
}

const cases: Case[] = [
  // ---- site spaces at the root ------------------------------------------------------------------
  {
    name: 'root site spaces as configured: nothing',
    config: { siteSpaces: [{ space: 'space_a' }, { space: 'space_b' }] },
    remote: rootSpaces(['space_a', 'space_b']),
    requests: [],
  },
  {
    name: 'root site space added: POST without a section, then its path; appended, so no sort',
    config: { siteSpaces: [{ space: 'space_a' }, { space: 'space_b', path: 'b' }] },
    remote: rootSpaces(['space_a']),
    requests: [
      'POST /site-spaces {"spaceId":"space_b"}',
      `PATCH /site-spaces/{{ref:org_acme/${A}.siteSpaces["space_b"]}} {"path":"b"}`,
    ],
    steps: [`create ${A}.siteSpaces["space_b"]`],
  },
  {
    name: 'root site spaces moved: one sort move',
    config: { siteSpaces: [{ space: 'space_b' }, { space: 'space_a' }, { space: 'space_c' }] },
    remote: rootSpaces(['space_a', 'space_b', 'space_c']),
    requests: ['PATCH /structure/sort {"item":{"type":"site-space","id":"ss_space_a"},"position":{"after":{"type":"site-space","id":"ss_space_b"}}}'],
    steps: [`sort ${A}.siteSpaces`],
  },
  {
    name: 'root site space left out: unmanaged without prune',
    config: { siteSpaces: [{ space: 'space_a' }] },
    remote: rootSpaces(['space_a', 'space_b']),
    requests: [],
  },
  {
    name: 'root site space left out: deleted with prune',
    config: { siteSpaces: [{ space: 'space_b' }] },
    remote: rootSpaces(['space_a', 'space_b']),
    prune: ['siteSpaces'],
    requests: ['DELETE /site-spaces/ss_space_a null'],
  },
  {
    name: 'root site space hidden and draft toggled',
    config: { siteSpaces: [{ space: 'space_a', hidden: true }, { space: 'space_b', draft: false }] },
    remote: rootSpaces(['space_a', 'space_b'], { space_b: { draft: true } }),
    requests: ['PATCH /site-spaces/ss_space_a {"hidden":true}', 'PATCH /site-spaces/ss_space_b {"draft":false}'],
  },
  // ---- nested groups ---------------------------------------------------------------------------
  {
    name: 'nested groups as configured: nothing',
    config: { sections: [sec('a'), sec('b')], sectionGroups: [{ title: 'Outer', sections: ['a'] }, { title: 'Inner', parent: 'Outer', sections: ['b'] }] },
    remote: tree([{ g: 'Outer', c: [{ s: 'a' }, { g: 'Inner', c: [{ s: 'b' }] }] }]),
    requests: [],
  },
  {
    name: 'a group nested into another by its own update (lands last: no sort needed)',
    config: { sections: [sec('a'), sec('b')], sectionGroups: [{ title: 'Outer', sections: ['a'] }, { title: 'Inner', parent: 'Outer', sections: ['b'] }] },
    remote: tree([{ g: 'Outer', c: [{ s: 'a' }] }, { g: 'Inner', c: [{ s: 'b' }] }]),
    requests: ['PATCH /section-groups/grp_Inner {"parentSectionGroupId":"grp_Outer"}'],
    steps: [`update ${A}.sectionGroups["Inner"]`],
  },
  {
    name: 'a group taken out to the top level (lands after its old top group), then sorted before it',
    config: { sections: [sec('b'), sec('a')], sectionGroups: [{ title: 'Outer', sections: ['a'] }, { title: 'Inner', parent: null, sections: ['b'] }] },
    remote: tree([{ g: 'Outer', c: [{ s: 'a' }, { g: 'Inner', c: [{ s: 'b' }] }] }]),
    // The sort step belongs to the sections kind (listed first here); it waits for the group's update.
    requests: [sort('g:grp_Outer', 'after', 'g:grp_Inner'), 'PATCH /section-groups/grp_Inner {"parentSectionGroupId":null}'],
  },
  {
    name: 'a group created inside a new group: parent by ref, chained',
    config: { sections: [sec('a')], sectionGroups: [{ title: 'Outer' }, { title: 'Inner', parent: 'Outer', sections: ['a'] }] },
    remote: tree([{ s: 'a' }]),
    requests: [
      'POST /section-groups {"title":"Outer"}',
      req('POST', '/section-groups', { title: 'Inner', sections: ['sec_a'], parent: `{{ref:org_acme/${A}.sectionGroups["Outer"]}}` }),
    ],
  },
  // ---- external links ----------------------------------------------------------------------------
  {
    name: 'a link created at the top level: after the sections, in config order',
    config: { sections: [sec('a')], externalLinks: [{ title: 'Status', url: 'https://status.example.com', icon: 'signal' }] },
    remote: tree([{ s: 'a' }]),
    requests: ['POST /external-links {"title":"Status","url":"https://status.example.com","icon":"signal"}'],
    steps: [`create ${A}.externalLinks["Status"]`],
  },
  {
    name: 'a link created in a group: parent by id',
    config: { sections: [sec('a')], sectionGroups: [{ title: 'G', sections: ['a'] }], externalLinks: [{ title: 'Status', url: 'https://s.example.com', group: 'G', draft: true }] },
    remote: tree([{ g: 'G', c: [{ s: 'a' }] }]),
    requests: ['POST /external-links {"title":"Status","url":"https://s.example.com","draft":true,"parent":"grp_G"}'],
  },
  {
    name: 'a link whose url changed: PATCH',
    config: { externalLinks: [{ title: 'Status', url: 'https://new.example.com' }] },
    remote: tree([{ s: 'a' }, { l: 'Status' }]),
    requests: ['PATCH /external-links/ext_Status {"url":"https://new.example.com"}'],
  },
  {
    name: 'a link moved into a group by its own update, then before the section there',
    config: { sections: [sec('a')], sectionGroups: [{ title: 'G', order: [{ link: 'Status' }, { section: 'a' }] }], externalLinks: [{ title: 'Status', url: 'https://example.com/Status', group: 'G' }] },
    remote: tree([{ g: 'G', c: [{ s: 'a' }] }, { l: 'Status' }]),
    requests: [sort('s:sec_a', 'after', 'l:ext_Status'), 'PATCH /external-links/ext_Status {"parent":"grp_G"}'],
  },
  {
    name: 'a link renamed by renamedFrom',
    config: { externalLinks: [{ title: 'Service status', renamedFrom: 'Status', url: 'https://example.com/Status' }] },
    remote: tree([{ s: 'a' }, { l: 'Status' }]),
    requests: ['PATCH /external-links/ext_Status {"title":"Service status"}'],
  },
  {
    name: 'a link left out: deleted with prune',
    config: { externalLinks: [] },
    remote: tree([{ s: 'a' }, { l: 'Status' }]),
    prune: ['externalLinks'],
    requests: ['DELETE /external-links/ext_Status null'],
  },
  {
    name: 'a link left out: unmanaged without prune',
    config: { externalLinks: [] },
    remote: tree([{ s: 'a' }, { l: 'Status' }]),
    requests: [],
  },
  // ---- draft, defaultSiteSpace, localized ----------------------------------------------------------
  {
    name: 'draft on a section, a group and a link',
    config: { sections: [sec('a', { draft: true })], sectionGroups: [{ title: 'G', draft: false }], externalLinks: [{ title: 'L', url: 'https://example.com/L', draft: true }] },
    remote: tree([{ s: 'a' }, { g: 'G', draft: true }, { l: 'L' }]),
    requests: ['PATCH /sections/sec_a {"draft":true}', 'PATCH /section-groups/grp_G {"draft":false}', 'PATCH /external-links/ext_L {"draft":true}'],
  },
  {
    name: 'draft absent: unmanaged',
    config: { sections: [sec('a')], sectionGroups: [{ title: 'G' }] },
    remote: tree([{ s: 'a', draft: true }, { g: 'G', draft: true }]),
    requests: [],
  },
  {
    name: 'defaultSiteSpace: the site-space id of the space',
    config: { sections: [sec('a', { defaultSiteSpace: 'space_v2', siteSpaces: [{ space: 'space_a' }, { space: 'space_v2' }] })] },
    remote: tree([{ s: 'a', spaces: [{ space: 'space_a', default: true }, { space: 'space_v2' }] }]),
    requests: ['PATCH /sections/sec_a {"defaultSiteSpace":"ss_space_v2"}'],
  },
  {
    name: 'defaultSiteSpace already shown by default: nothing',
    config: { sections: [sec('a', { defaultSiteSpace: 'space_v2', siteSpaces: [{ space: 'space_a' }, { space: 'space_v2' }] })] },
    remote: tree([{ s: 'a', spaces: [{ space: 'space_a' }, { space: 'space_v2', default: true }] }]),
    requests: [],
  },
  {
    name: 'defaultSiteSpace naming a site space the plan adds: the ref, after its create',
    config: { sections: [sec('a', { defaultSiteSpace: 'space_v2', siteSpaces: [{ space: 'space_a' }, { space: 'space_v2' }] })] },
    remote: tree([{ s: 'a' }]),
    requests: [
      req('PATCH', '/sections/sec_a', { defaultSiteSpace: `{{ref:org_acme/${A}.sections["a"].siteSpaces["space_v2"]}}` }),
      'POST /site-spaces {"spaceId":"space_v2","sectionId":"sec_a"}',
    ],
  },
  {
    name: 'localized title set, and cleared with an empty map',
    config: { sections: [sec('a', { localizedTitle: { fr: 'Guides' } }), sec('b', { localizedTitle: {} })] },
    remote: tree([{ s: 'a' }, { s: 'b', localizedTitle: { de: 'Anleitungen' } }]),
    requests: ['PATCH /sections/sec_a {"localizedTitle":{"fr":"Guides"}}', 'PATCH /sections/sec_b {"localizedTitle":{}}'],
  },
  // ---- explicit order ----------------------------------------------------------------------------
  {
    name: 'order on the site puts a link between sections',
    config: { sections: [sec('a'), sec('b')], externalLinks: [{ title: 'L', url: 'https://example.com/L' }], order: [{ section: 'a' }, { link: 'L' }] },
    remote: tree([{ s: 'a' }, { s: 'b' }, { l: 'L' }]),
    requests: [sort('s:sec_b', 'after', 'l:ext_L')],
  },
  {
    name: 'today\'s configs mean the same: a group at its first section, no order needed',
    config: { sections: [sec('a'), sec('b'), sec('c')], sectionGroups: [{ title: 'G', sections: ['b', 'c'] }] },
    remote: tree([{ s: 'a' }, { g: 'G', c: [{ s: 'b' }, { s: 'c' }] }]),
    requests: [],
  },
];

describe('a site\'s whole structure', () => {
  it.each(cases)('$name', ({ config, remote, prune, requests: wanted, steps }) => {
    const p = plan(config, remote, prune);
    expect(problems(p)).toEqual([]);
    expect(requests(p)).toEqual(wanted);
    if (steps) expect(all(p).map((s) => `${s.action} ${s.address}`)).toEqual(steps);
  });

  it.each([
    ['root site spaces on a site organised in sections', { siteSpaces: [{ space: 'space_a' }] }, tree([{ s: 'a' }]), 'is organised in sections'],
    ['a link on a site with site spaces at its root', { externalLinks: [{ title: 'L', url: 'https://example.com' }] }, rootSpaces(['space_a']), 'need sections'],
    ['an order naming an item of another level', { sections: [sec('a')], sectionGroups: [{ title: 'G', sections: ['a'] }], order: [{ section: 'a' }] }, tree([{ g: 'G', c: [{ s: 'a' }] }]), 'order names'],
  ] as Array<[string, Omit<SiteT, 'id'>, RemoteSite, string]>)('reports %s', (_name, config, remote, message) => {
    expect(problems(plan(config, remote)).join('\n')).toContain(message);
  });

  it('reads the whole tree from the structure: nested groups, links, root site spaces, flags', () => {
    const r = tree([{ s: 'a', draft: true }, { g: 'Outer', c: [{ l: 'In' }, { g: 'Inner', c: [{ s: 'b' }] }] }, { l: 'Top' }]);
    expect(r.top).toEqual([{ type: 'section', id: 'sec_a' }, { type: 'group', id: 'grp_Outer' }, { type: 'link', id: 'ext_Top' }]);
    expect(r.groups.map((g) => [g.title, g.parent, g.children.map((c) => c.id)])).toEqual([
      ['Outer', null, ['ext_In', 'grp_Inner']],
      ['Inner', 'grp_Outer', ['sec_b']],
    ]);
    expect(r.links.map((l) => [l.title, l.parent])).toEqual([['In', 'grp_Outer'], ['Top', null]]);
    expect(r.sections.map((s) => [s.path, s.draft])).toEqual([['a', true], ['b', false]]);
    expect(rootSpaces(['space_a'], { space_a: { hidden: true } }).rootSiteSpaces).toEqual([
      { id: 'ss_space_a', space: 'space_a', path: 'space_a', condition: null, draft: false, hidden: true, default: true },
    ]);
  });
});
