/**
 * Golden files for the markdown plan's pictures (src/render/mermaid.ts): a site's structure as a
 * Mermaid flowchart with added, removed and moved items, a large site drawn as its changes and their
 * parents, and access changes as a table per object. After a deliberate change, rewrite them with
 * `UPDATE_GOLDEN=1 npx vitest run test/render/pictures.test.ts` and review the diff.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writePlanFile } from '../../src/plan/file.js';
import type { Action, JsonObject, Kind, Plan, Step } from '../../src/plan/types.js';
import { renderPlan } from '../../src/render/index.js';
import { MARKDOWN_LIMIT } from '../../src/render/markdown.js';
import { segmentsOf } from '../../src/render/mermaid.js';
import { runBuiltCli } from '../cli-run.js';
import { emptyPlan } from './fixtures/big-plan.js';

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const SITE = 'sites["site_docs"]';

function step(address: string, kind: Kind, action: Action, before: JsonObject | null, after: JsonObject | null, org = 'org_acme'): Step {
  return { id: `${org}/${address}:${action}`, org, address, kind, action, before, after, changes: [], requests: [], dependsOn: [] };
}

const markdown = (plan: Plan) => `${renderPlan(plan, { format: 'markdown', color: false, secrets: [] })}\n`;

/** The pictures of a rendering: from the first heading of a picture to the first collapsible block. */
function picturesOf(text: string): string {
  const start = text.indexOf('#### ');
  const end = text.indexOf('<details><summary>', start);
  return start < 0 ? '' : `${text.slice(start, end < 0 ? undefined : end).trimEnd()}\n`;
}

function golden(file: string, actual: string): void {
  const path = join(GOLDEN, file);
  if (UPDATE) writeFileSync(path, actual);
  expect(existsSync(path), `${file} is missing: run with UPDATE_GOLDEN=1 to write it`).toBe(true);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

const ADDED = emptyPlan({
  steps: [
    step(`${SITE}.sectionGroups["Reference"]`, 'sectionGroups', 'create', null, { title: 'Reference', sections: ['api'] }),
    step(`${SITE}.sections["api"]`, 'sections', 'create', null, { title: 'API', path: 'api' }),
    step(`${SITE}.sections["api"].siteSpaces["space_api"]`, 'siteSpaces', 'create', null, { spaceId: 'space_api', path: 'v1' }),
    step(`${SITE}.sections["guides"].siteSpaces["space_guides_v2"]`, 'siteSpaces', 'create', null, { spaceId: 'space_guides_v2', path: 'v2' }),
    step(`${SITE}.externalLinks["Status page"]`, 'externalLinks', 'create', null, { title: 'Status page', url: 'https://status.acme.com', group: 'Reference' }),
  ],
});

const REMOVED = emptyPlan({
  steps: [
    step(`${SITE}.sections["legacy"].siteSpaces["space_old"]`, 'siteSpaces', 'delete', { spaceId: 'space_old' }, null),
    step(`${SITE}.sections["legacy"]`, 'sections', 'delete', { title: 'Legacy', path: 'legacy' }, null),
    step(`${SITE}.sectionGroups["Old"]`, 'sectionGroups', 'delete', { title: 'Old', sections: ['archive'] }, null),
    step(`${SITE}.externalLinks["Forum"]`, 'externalLinks', 'delete', { title: 'Forum', url: 'https://forum.acme.com' }, null),
  ],
});

const MOVED = emptyPlan({
  steps: [
    // "changelog" leaves the group Reference for the group Release notes; the link leaves the top level.
    step(`${SITE}.sectionGroups["Reference"]`, 'sectionGroups', 'update', { sections: ['api', 'changelog'] }, { sections: ['api'] }),
    step(`${SITE}.sectionGroups["Release notes"]`, 'sectionGroups', 'update', { sections: [], parent: null }, { sections: ['changelog'], parent: 'Reference' }),
    step(`${SITE}.externalLinks["Status page"]`, 'externalLinks', 'update', { group: null }, { group: 'Reference' }),
    step(
      `${SITE}.structure`,
      'sections',
      'sort',
      { order: ['sections["guides"]', 'sections["faq"]', 'sectionGroups["Reference"]'] },
      { order: ['sections["faq"]', 'sections["guides"]', 'sectionGroups["Reference"]'] },
    ),
    step(`${SITE}.sections["guides"].siteSpaces`, 'siteSpaces', 'sort', { order: ['space_v1', 'space_v2', 'space_v3'] }, { order: ['space_v3', 'space_v1', 'space_v2'] }),
  ],
});

/** A site of `n` sections at the top level, where two change places and one is added. */
function largeSite(n: number): Plan {
  const paths = Array.from({ length: n }, (_, i) => `s${String(i).padStart(4, '0')}`);
  const after = [paths[n - 1], ...paths.slice(0, n - 1).filter((p) => p !== paths[10]), paths[10]];
  return emptyPlan({
    steps: [
      step(`${SITE}.sections["new"]`, 'sections', 'create', null, { title: 'New', path: 'new' }),
      step(`${SITE}.sections["s0003"].siteSpaces["space_x"]`, 'siteSpaces', 'create', null, { spaceId: 'space_x', path: 'x' }),
      step(`${SITE}.structure`, 'sections', 'sort', { order: paths.map((p) => `sections["${p}"]`) }, { order: after.map((p) => `sections["${p}"]`) }),
    ],
  });
}

describe('the markdown plan draws each site whose structure changes', () => {
  it('added items (sections, a group holding one, site spaces, a link) match mermaid-added.md', () => {
    golden('mermaid-added.md', picturesOf(markdown(ADDED)));
  });

  it('removed items match mermaid-removed.md', () => {
    golden('mermaid-removed.md', picturesOf(markdown(REMOVED)));
  });

  it('moved items are drawn in their new place with an edge from their old one (mermaid-moved.md)', () => {
    const text = picturesOf(markdown(MOVED));
    golden('mermaid-moved.md', text);
    // Only the items whose place changes are moved: the fewest moves of each order.
    expect(text.match(/\(moved\)/g)?.length).toBe(5);
  });

  it('a large site draws only what changes and its parents (mermaid-large.md)', () => {
    const text = picturesOf(markdown(largeSite(400)));
    golden('mermaid-large.md', text);
    expect(text).toContain('397 other items left out');
  });

  it('many changed sites keep the comment under GitHub\'s limit, saying what is not shown', () => {
    const steps = Array.from({ length: 300 }, (_, i) => largeSite(60).steps.map((s) => ({ ...s, address: s.address.replace('site_docs', `site_${i}`), id: `${s.id}#${i}` }))).flat();
    const text = markdown(emptyPlan({ steps }));
    expect(text.length).toBeLessThan(MARKDOWN_LIMIT);
    expect(text).toMatch(/> … \d+ more pictures and tables not shown \(plan too large for one comment\)/);
    expect(text).toMatch(/steps not shown/);
  });

  it('access changes are a table per object: who, before → after (access-table.md)', () => {
    const plan = emptyPlan({
      steps: [
        step('collections["Product"].access.teams["Engineering"]', 'collectionAccess', 'update', { role: 'edit' }, { role: 'admin' }),
        step('collections["Product"].access.users["carol@acme.com"]', 'collectionAccess', 'create', null, { role: 'read' }),
        step('spaces["space_api"].access.teams["Support"]', 'spaceAccess', 'delete', { role: 'read' }, null),
      ],
    });
    golden('access-table.md', picturesOf(markdown(plan)));
  });

  it('show PLANFILE --format markdown (the built CLI) draws the same as the plan did', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docplane-pictures-'));
    try {
      const file = join(dir, 'plan.json');
      writePlanFile(MOVED, [], file);
      const r = await runBuiltCli(['show', file, '--format', 'markdown', '--no-color'], { NO_COLOR: undefined }, dir);
      expect(r.stderr).toBe('');
      expect(picturesOf(r.stdout)).toBe(readFileSync(join(GOLDEN, 'mermaid-moved.md'), 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a plan without structure or access changes has no pictures', () => {
    const plan = emptyPlan({ steps: [step('teams["Engineering"]', 'teams', 'create', null, { title: 'Engineering' }), step(`${SITE}.shareLinks["x"]`, 'shareLinks', 'delete', { name: 'x' }, null)] });
    expect(picturesOf(markdown(plan))).toBe('');
  });

  it('reads addresses with quotes and dots in their keys', () => {
    expect(segmentsOf('sites["a.b"].sections["say \\"hi\\""]')).toEqual([
      { name: 'sites', key: 'a.b' },
      { name: 'sections', key: 'say "hi"' },
    ]);
    expect(segmentsOf('sites["x"].structure')).toEqual([{ name: 'sites', key: 'x' }, { name: 'structure' }]);
  });
});
