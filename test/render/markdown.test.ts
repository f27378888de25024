import { describe, expect, it } from 'vitest';
import { emptyPlan, manyStepsPlan } from './fixtures/big-plan.js';
import { RICH_SECRETS, richPlan } from './fixtures/rich-plan.js';
import type { Step } from '../../src/plan/types.js';
import { MARKDOWN_LIMIT, maskPlan, renderMarkdown, renderPlan } from '../../src/render/index.js';

/** Every <details> closed and every fence closed: what a cut must never break. */
function expectWellFormed(md: string): void {
  expect(md.match(/<details>/g)?.length ?? 0).toBe(md.match(/<\/details>/g)?.length ?? 0);
  const fences = md.split('\n').filter((l) => /^`{3,}/.test(l));
  expect(fences.length % 2).toBe(0);
}

/** Step header lines inside the diff fences (a `+`, `-` or `!` mark then an address). */
function shownSteps(md: string): number {
  return md.split('\n').filter((l) => /^[+!-] (?:[~»↻⇡] )?(?:members|teams)\[/.test(l)).length;
}

describe('markdown rendering', () => {
  it('starts with the summary, has a counts table, warnings and one details block per config entry', () => {
    const md = renderPlan(richPlan(), { format: 'markdown', color: false, secrets: RICH_SECRETS });
    expect(md.split('\n')[0]).toBe('### Plan: 5 to create, 7 to update, 5 to delete, 6 other changes; 6 unmanaged.');
    expect(md).toContain('| Organization | Kind | Create | Update | Delete | Other | Unmanaged |');
    expect(md).toContain('> [!CAUTION]');
    expect(md).toContain('> [!WARNING]');
    // A renamed team by its new title; its members' change in the same block.
    expect(md).toContain('<details><summary>org_acme: team <b>Engineering</b> · 2 to update</summary>\n\n```diff\n! ~ teams["Engineering"]\n');
    expect(md).toContain('! ~ teams["Engineering"].members\n');
    expect(md.match(/<details><summary>/g)?.length).toBe(new Set(richPlan().steps.map((s) => `${s.org}/${s.address.replace(/^((?:[a-zA-Z]+)(?:\["(?:[^"\\]|\\.)*"\])?).*$/, '$1')}`)).size + 2); // and the unmanaged and requests blocks
    expect(md).not.toContain('more steps not shown');
    expect(md).not.toContain('\u001b[');
    expectWellFormed(md);
  });

  it('a plan of 5,000 steps is cut under 65,536 characters, with a note that counts what is left out', () => {
    const plan = manyStepsPlan(5000);
    const md = renderPlan(plan, { format: 'markdown', color: false, secrets: [] });
    expect(md.length).toBeLessThan(MARKDOWN_LIMIT);
    // Close to the limit: the cut drops only what does not fit.
    expect(md.length).toBeGreaterThan(MARKDOWN_LIMIT - 1000);
    const shown = shownSteps(md);
    expect(shown).toBeGreaterThan(0);
    expect(md).toContain(`> … ${5000 - shown} more steps not shown (plan too large for one comment; see the saved plan artifact)`);
    expect(md.trimEnd().split('\n').at(-1)).toMatch(/more steps not shown/);
    // The table still counts everything, even what the details leave out.
    expect(md).toContain('| members | 0 | 2500 | 0 | 0 | 0 |');
    expect(md).toContain('| teams | 2500 | 0 | 0 | 0 | 0 |');
    expectWellFormed(md);
  });

  it('an entry larger than the comment is cut inside its block, which says how much of it is shown', () => {
    const sections: Step[] = Array.from({ length: 3000 }, (_, i) => ({
      id: `org_acme/sites["site_docs"].sections["s${i}"]:create`,
      org: 'org_acme',
      address: `sites["site_docs"].sections["s${i}"]`,
      kind: 'sections',
      action: 'create',
      before: null,
      after: { title: `Section ${i}`, path: `s${i}` },
      changes: [],
      requests: [],
      dependsOn: [],
    }));
    const md = renderMarkdown(maskPlan(emptyPlan({ steps: sections, summary: { create: 3000, update: 0, delete: 0, other: 0, unmanaged: 0 } }), []));
    expect(md.length).toBeLessThan(MARKDOWN_LIMIT);
    const shown = md.split('\n').filter((l) => l.startsWith('+ sites["site_docs"].sections[')).length;
    expect(shown).toBeGreaterThan(100);
    expect(md).toContain(`<details><summary>site <b>site_docs</b> · 3000 to create (first ${shown} of 3000 shown)</summary>`);
    expect(md).toContain(`> … ${3000 - shown} more steps not shown`);
    expectWellFormed(md);
  });

  it("an entry's file:line is linked under the source URL, a file outside the folder is named only, and titles cannot write HTML there", () => {
    const step = (address: string, title: string): Step => ({ id: `org_acme/${address}:create`, org: 'org_acme', address, kind: 'teams', action: 'create', before: null, after: { title }, changes: [], requests: [], dependsOn: [] });
    const plan = maskPlan(emptyPlan({ steps: [step('teams["A"]', '<img src=x onerror=alert(1)> @team #1'), step('teams["B"]', 'B "quoted"')] }), []);
    const locations = { org_acme: { 'teams["A"]': { file: 'docplane/teams dir/a.yaml', line: 7, column: 5 }, 'teams["B"]': { file: '../elsewhere.yaml', line: 2, column: 5 } } };
    const md = renderMarkdown(plan, { locations, sourceUrl: 'https://github.com/o/r/blob/abc/' });
    expect(md).toContain('<summary>team <b>&lt;img src=x onerror=alert(1)&gt; @\u200bteam #\u200b1</b> · 1 to create · <a href="https://github.com/o/r/blob/abc/docplane/teams%20dir/a.yaml#L7">docplane/teams dir/a.yaml:7</a></summary>');
    expect(md).toContain('<summary>team <b>B &quot;quoted&quot;</b> · 1 to create · <code>../elsewhere.yaml:2</code></summary>');
    expect(md).not.toMatch(/<summary>[^\n]*<img/);
  });

  it('drops details from the end under a small limit, and never goes over it', () => {
    const plan = maskPlan(manyStepsPlan(40), []);
    for (const limit of [800, 1500, 2500]) {
      const md = renderMarkdown(plan, { limit });
      expect(md.length).toBeLessThan(limit);
      const shown = shownSteps(md);
      expect(shown).toBeLessThan(40);
      expect(md).toContain(`${40 - shown} more steps not shown`);
      expectWellFormed(md);
    }
  });

  it('is not cut when it fits', () => {
    const md = renderMarkdown(maskPlan(manyStepsPlan(40), []));
    expect(md.length).toBeGreaterThan(2500);
    expect(shownSteps(md)).toBe(40);
    expect(md).not.toContain('not shown');
  });

  it('a value holding a code fence gets a longer fence', () => {
    const step: Step = {
      id: 'org_acme/teams["```x"]:create',
      org: 'org_acme',
      address: 'teams["```x"]',
      kind: 'teams',
      action: 'create',
      before: null,
      after: { title: '```x' },
      changes: [],
      requests: [],
      dependsOn: [],
    };
    const md = renderMarkdown(maskPlan(emptyPlan({ steps: [step] }), []));
    expect(md).toContain('````diff\n');
    expect(md).toContain('\n````\n');
  });

  it('escapes HTML and markdown in problem messages', () => {
    const plan = emptyPlan({ problems: [{ org: 'org_acme', address: 'teams["x"]', message: '<script>alert(1)</script> | *bold*' }] });
    const md = renderMarkdown(maskPlan(plan, []));
    expect(md).not.toContain('<script>');
    expect(md).toContain('&lt;script&gt;alert\\(1\\)&lt;/script&gt; \\| \\*bold\\*');
  });

  it('a plan with no changes is the summary and the organization only', () => {
    const md = renderMarkdown(maskPlan(emptyPlan(), []));
    expect(md).toBe('### No changes.\n\nOrganization: `org_acme`');
  });
});
