/**
 * Golden markdown plans of sites whose structure changes, planned by the sites' own planner from an
 * API-shaped remote structure and a config (not steps made up by hand), so that each picture shows the
 * site as it is and as it will be. After a deliberate change, rewrite them with
 * `UPDATE_GOLDEN=1 npx vitest run test/render/site-pictures.test.ts` and review the diff; every
 * picture here is also parsed by mermaid (test/render/mermaid-parse.test.ts).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { KindPlan } from '../../src/kinds/kind.js';
import { sharedPlans } from '../../src/kinds/kind.js';
import { planSites } from '../../src/kinds/sites/plan.js';
import { structureSite, type SitesRemote } from '../../src/kinds/sites/remote.js';
import type { OrgConfig } from '../../src/model/desired.js';
import type { SiteT } from '../../src/kinds/sites/schema.js';
import type { RemoteSiteInfo } from '../../src/kinds/shared/sites.js';
import { buildPlan } from '../../src/plan/build.js';
import type { Plan } from '../../src/plan/types.js';
import { renderPlan } from '../../src/render/index.js';
import { MARKDOWN_LIMIT } from '../../src/render/markdown.js';

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** `{ s: path, title?, spaces? }` a section, `{ g: title, c: [...] }` a group, `{ l: title }` a link. */
type Node = { s: string; title?: string; spaces?: string[] } | { g: string; c?: Node[] } | { l: string };

function raw(node: Node, parent?: string): unknown {
  if ('s' in node) {
    const id = `sec_${node.s}`;
    return {
      object: 'site-section',
      id,
      title: node.title ?? node.s[0].toUpperCase() + node.s.slice(1),
      path: node.s,
      draft: false,
      ...(parent ? { sectionGroup: parent } : {}),
      siteSpaces: (node.spaces ?? [`space_${node.s}`]).map((space, i) => ({
        object: 'site-space',
        id: `ss_${space}`,
        path: space,
        space: { object: 'space', id: space, title: space },
        draft: false,
        hidden: false,
        default: i === 0,
        section: id,
      })),
    };
  }
  if ('g' in node) {
    const id = `grp_${node.g}`;
    return { object: 'site-section-group', id, title: node.g, draft: false, ...(parent ? { sectionGroup: parent } : {}), sections: [], children: (node.c ?? []).map((c) => raw(c, id)) };
  }
  return { object: 'site-external-link', id: `ext_${node.l}`, title: node.l, url: `https://example.com/${node.l}`, draft: false, ...(parent ? { sectionGroup: parent } : {}) };
}

const info = (id: string, title: string): RemoteSiteInfo => ({
  id,
  title,
  type: 'basic',
  visibility: 'public',
  basename: id,
  published: true,
  adaptiveContent: false,
  defaultLevel: null,
  proxy: null,
  styleguide: null,
});

interface SiteCase {
  site: SiteT;
  /** The remote site spaces at the root of a site without sections, instead of `remote`. */
  rootSpaces?: string[];
  /** The remote structure; absent for a site the plan creates. */
  remote?: Node[];
  title?: string;
}

/** One organization's plan of the given sites, through the sites' planner of a whole config (as `docplane plan` runs it). */
function planOf(sites: SiteCase[]): Plan {
  const remote: SitesRemote = { list: [], sites: [] };
  for (const c of sites) {
    const id = c.site.id as string;
    if (c.rootSpaces) {
      remote.list.push(info(id, c.title ?? 'Docs'));
      const structure = c.rootSpaces.map((space, i) => ({ object: 'site-space', id: `ss_${space}`, path: space, space: { object: 'space', id: space, title: space }, draft: false, hidden: false, default: i === 0 }));
      remote.sites.push({ id, site: structureSite(id, { type: 'siteSpaces', structure }, []) });
      continue;
    }
    if (!c.remote) continue;
    remote.list.push(info(id, c.title ?? 'Docs'));
    remote.sites.push({ id, site: structureSite(id, { type: 'sections', structure: c.remote.map((n) => raw(n)) }, []) });
  }
  const desired = { organization: { id: 'org_acme' }, sites: sites.map((c) => c.site), locations: {} } as unknown as OrgConfig;
  const plans = planSites({ org: 'org_acme', desired, prunes: (k) => ['sections', 'sectionGroups', 'siteSpaces', 'externalLinks'].includes(k), shared: sharedPlans() }, remote);
  return buildPlan({
    toolVersion: '0.0.0-test',
    createdAt: '2030-01-01T00:00:00.000Z',
    configHash: 'h',
    configPaths: [],
    orgs: [{ org: 'org_acme', kinds: plans as Record<string, KindPlan>, safety: { maxDeletes: 1000, maxDeletePercent: 100 }, protect: [] }],
  });
}

const markdown = (plan: Plan) => `${renderPlan(plan, { format: 'markdown', color: false, secrets: [] })}\n`;

function golden(file: string, actual: string): void {
  const path = join(GOLDEN, file);
  if (UPDATE) writeFileSync(path, actual);
  expect(existsSync(path), `${file} is missing: run with UPDATE_GOLDEN=1 to write it`).toBe(true);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

/** The mermaid fence of the first picture. */
const pictureOf = (md: string) => /```mermaid\n([\s\S]*?)\n```/.exec(md)?.[1] ?? '';

const section = (path: string, extra: Partial<NonNullable<SiteT['sections']>[number]> = {}) => ({ path, title: path[0].toUpperCase() + path.slice(1), space: `space_${path}`, ...extra });

/** A new site of `n` sections in groups of 20. */
function largeNewSite(id: string, n: number): SiteCase {
  const paths = Array.from({ length: n }, (_, i) => `s${String(i).padStart(3, '0')}`);
  const groups = Array.from({ length: Math.ceil(n / 20) }, (_, g) => ({ title: `Part ${g + 1}`, sections: paths.slice(g * 20, g * 20 + 20) }));
  return { site: { title: `Handbook ${id}`, sections: paths.map((p) => section(p)), sectionGroups: groups } };
}

describe('pictures of a site as it is and as it will be', () => {
  it('a section moved from Developers into a new group News: one move, "was here" at Developers (site-section-to-new-group.md)', () => {
    const md = markdown(
      planOf([
        {
          site: { id: 'site_docs', sections: [section('api'), section('sdk'), section('guides')], sectionGroups: [{ title: 'Developers', sections: ['api'] }, { title: 'News', sections: ['sdk'] }] },
          remote: [{ g: 'Developers', c: [{ s: 'api' }, { s: 'sdk' }] }, { s: 'guides' }],
        },
      ]),
    );
    golden('site-section-to-new-group.md', md);
    const picture = pictureOf(md);
    expect(picture).toMatch(/section Sdk \(moved\)/);
    expect(picture).toMatch(/group News \(added\)/);
    expect(picture).not.toMatch(/Api \(moved\)|Api \(reordered\)/);
    // "was here" points from the old group, not the root.
    const developers = /(n\d+)\[\/"group Developers"\/\]/.exec(picture)?.[1];
    expect(developers).toBeDefined();
    expect(picture).toMatch(new RegExp(`${developers} -\\. was here \\.-> n\\d+`));
  });

  it('a space moved between sections is one move, not a delete and a create (site-space-moved.md)', () => {
    const md = markdown(
      planOf([
        {
          site: { id: 'site_docs', sections: [section('guides', { siteSpaces: [] }), section('api', { siteSpaces: [{ space: 'space_v2', path: 'v2' }] })] },
          remote: [{ s: 'guides', spaces: ['space_guides', 'space_v2'] }, { s: 'api' }],
        },
      ]),
    );
    golden('site-space-moved.md', md);
    const picture = pictureOf(md);
    expect(picture).toMatch(/space space_v2 \(moved\)/);
    expect(picture).not.toMatch(/space_v2 \((removed|added)\)/);
  });

  it('an unchanged group beside a changed one keeps its items under it (site-unchanged-group.md)', () => {
    const md = markdown(
      planOf([
        {
          site: {
            id: 'site_docs',
            sections: [section('a1'), section('a2'), section('b1'), section('b2')],
            sectionGroups: [
              { title: 'Alpha', sections: ['a1', 'a2'] },
              { title: 'Beta', sections: ['b1', 'b2'] },
            ],
          },
          remote: [{ g: 'Alpha', c: [{ s: 'a1' }, { s: 'a2' }] }, { g: 'Beta', c: [{ s: 'b1' }] }],
        },
      ]),
    );
    golden('site-unchanged-group.md', md);
    const picture = pictureOf(md);
    const alpha = /(n\d+)\[\/"group Alpha"\/\]/.exec(picture)?.[1] as string;
    const a1 = /(n\d+)\["section A1"\]/.exec(picture)?.[1] as string;
    expect(picture).toContain(`${alpha} --> ${a1}`);
    expect(picture).not.toContain('was here');
  });

  it('a reordered group: its items marked reordered, none moved (site-reordered-group.md)', () => {
    const md = markdown(
      planOf([
        {
          site: { id: 'site_docs', sections: [section('a1'), section('a2'), section('a3')], sectionGroups: [{ title: 'Alpha', sections: ['a3', 'a1', 'a2'] }] },
          remote: [{ g: 'Alpha', c: [{ s: 'a1' }, { s: 'a2' }, { s: 'a3' }] }],
        },
      ]),
    );
    golden('site-reordered-group.md', md);
    const picture = pictureOf(md);
    expect(picture.match(/\(reordered\)/g)).toHaveLength(1);
    expect(picture).not.toContain('(moved)');
  });

  it('a 180-section new site is drawn as counts per group, its whole structure collapsed (site-new-180.md)', () => {
    const md = markdown(planOf([largeNewSite('site_handbook', 180)]));
    golden('site-new-180.md', md);
    const picture = pictureOf(md);
    expect(picture.split('\n').filter((l) => /^ {2}n\d+[[(]/.test(l)).length).toBeLessThanOrEqual(12);
    expect(picture).toContain('group Part 1#58; 20 sections, 20 spaces');
    expect(md).toContain('The whole structure as it will be (369 items)');
    expect(md).not.toContain('left out');
  });

  it('three new large sites: each a bounded picture, the comment under the limit (site-new-three.md)', () => {
    const md = markdown(planOf([largeNewSite('site_one', 150), largeNewSite('site_two', 150), largeNewSite('site_three', 150)]));
    golden('site-new-three.md', md);
    expect(md.length).toBeLessThan(MARKDOWN_LIMIT);
    for (const fence of md.matchAll(/```mermaid\n([\s\S]*?)\n```/g)) expect(fence[1].split('\n').length).toBeLessThan(30);
  });

  it('awkward titles are labels that keep their text (site-awkward-titles.md)', () => {
    const titles = ['`Beta` portal', 'style:#1 classDef x:#f00;', 'Fish &amp; chips', 'Say "hi" \'there\'', 'A | B', '<b>bold</b>', '🚀 Launch', '开发者文档', 'مرحبا بالعالم', 'x'.repeat(100)];
    const md = markdown(
      planOf([
        {
          site: { id: 'site_docs', sections: titles.map((title, i) => section(`p${i}`, { title: title.slice(0, 128).padEnd(2, '.') })), sectionGroups: [{ title: '`Beta` & <co>', sections: ['p0', 'p1'] }] },
          remote: [{ s: 'p0', title: 'Old' }],
          title: 'Docs `Beta` portal',
        },
      ]),
    );
    golden('site-awkward-titles.md', md);
    expect(pictureOf(md)).toContain('#96;Beta#96; portal');
  });

  it('site spaces at the root of a site without sections: one of two swapped reordered, one added, one removed', () => {
    const md = markdown(
      planOf([{ site: { id: 'site_status', siteSpaces: [{ space: 'space_c' }, { space: 'space_a' }, { space: 'space_d' }] }, rootSpaces: ['space_a', 'space_b', 'space_c'], title: 'Status' }]),
    );
    const picture = pictureOf(md);
    expect(picture.match(/space space_[ac] \(reordered\)/g)).toHaveLength(1);
    expect(picture).toMatch(/space space_d \(added\)/);
    expect(picture).toMatch(/space space_b \(removed\)/);
  });

  it('two items with one title show their ids', () => {
    const md = markdown(
      planOf([
        {
          site: { id: 'site_docs', sections: [section('a', { title: 'Guide' }), section('b', { title: 'Guide' })] },
          remote: [{ s: 'a', title: 'Guide' }],
        },
      ]),
    );
    expect(pictureOf(md)).toMatch(/section Guide<br><small>a<\/small>/);
    expect(pictureOf(md)).toMatch(/section Guide \(added\)<br><small>b<\/small>/);
  });
});
