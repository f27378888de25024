import { describe, expect, it } from 'vitest';
import { emptyPlan, manyStepsPlan } from './fixtures/big-plan.js';
import { RICH_SECRETS, richPlan } from './fixtures/rich-plan.js';
import type { Step } from '../../src/plan/types.js';
import { renderPlan, summaryLine } from '../../src/render/index.js';

const ESC = '\u001b[';
/** The colour codes picocolors writes, removed. */
const stripAnsi = (s: string) => s.split(ESC).map((part, i) => (i === 0 ? part : part.replace(/^\d+m/, ''))).join('');

describe('summaryLine', () => {
  it('counts every kind of change and the unmanaged resources', () => {
    const plan = emptyPlan({ summary: { create: 3, update: 2, delete: 1, other: 4, unmanaged: 7 } });
    expect(summaryLine(plan)).toBe('Plan: 3 to create, 2 to update, 1 to delete, 4 other changes; 7 unmanaged.');
  });
  it('says "no changes" and still counts what is left alone', () => {
    expect(summaryLine(emptyPlan({ summary: { create: 0, update: 0, delete: 0, other: 0, unmanaged: 7 } }))).toBe(
      'No changes. 7 unmanaged resources left alone.',
    );
    expect(summaryLine(emptyPlan({ summary: { create: 0, update: 0, delete: 0, other: 0, unmanaged: 1 } }))).toBe(
      'No changes. 1 unmanaged resource left alone.',
    );
    expect(summaryLine(emptyPlan())).toBe('No changes.');
  });
  it('uses the singular for one other change and leaves out zero unmanaged', () => {
    expect(summaryLine(emptyPlan({ summary: { create: 0, update: 0, delete: 0, other: 1, unmanaged: 0 } }))).toBe(
      'Plan: 0 to create, 0 to update, 0 to delete, 1 other change.',
    );
  });
});

describe('text rendering', () => {
  it('has no ANSI codes without colour, and has them with colour', () => {
    const plain = renderPlan(richPlan(), { format: 'text', color: false, secrets: RICH_SECRETS });
    const coloured = renderPlan(richPlan(), { format: 'text', color: true, secrets: RICH_SECRETS });
    expect(plain).not.toContain(ESC);
    expect(coloured).toContain(ESC);
    // Same text once the codes are stripped: colour adds nothing else.
    expect(stripAnsi(coloured)).toBe(plain);
  });

  it('colours each action as documented', () => {
    const out = renderPlan(richPlan(), { format: 'text', color: true, secrets: [] });
    expect(out).toContain('\u001b[32m+ teams["Platform"]');
    expect(out).toContain('\u001b[33m~ teams["Engineering"]');
    expect(out).toContain('\u001b[31m- teams["Legacy"]');
    expect(out).toContain('\u001b[36m» collections["Product/API"]');
  });

  it('for one organization: no org header, problems without org prefix, summary last', () => {
    const step: Step = {
      id: 'org_acme/teams["A"]:create',
      org: 'org_acme',
      address: 'teams["A"]',
      kind: 'teams',
      action: 'create',
      before: null,
      after: { title: 'A' },
      changes: [],
      requests: [{ method: 'PUT', path: '/v1/orgs/org_acme/teams', body: { title: 'A' } }],
      dependsOn: [],
    };
    const plan = emptyPlan({
      steps: [step],
      problems: [{ org: 'org_acme', address: 'members["x@y.z"]', message: 'not a member' }],
      unmanaged: { org_acme: { teams: ['teams["A"]', 'teams["B"]'], members: ['members["x@y.z"]'] } },
    });
    const out = renderPlan(plan, { format: 'text', color: false, secrets: [] });
    expect(out).toBe(
      [
        '+ teams["A"]',
        '  + title: "A"',
        '  (1 request)',
        '',
        'Problems (the plan cannot do these):',
        '✗ members["x@y.z"]: not a member',
        '',
        'Unmanaged (not in the config, left alone): members: 1, teams: 2',
        '  members["x@y.z"]',
        '  teams["A"]',
        '  teams["B"]',
        '',
        'Plan: 1 to create, 0 to update, 0 to delete, 0 other changes; 3 unmanaged.',
      ].join('\n'),
    );
  });

  it('for several organizations: a header per org, one with no steps says so', () => {
    const plan = { ...manyStepsPlan(1, 'org_a'), orgs: ['org_a', 'org_b'] };
    const out = renderPlan(plan, { format: 'text', color: false, secrets: [] });
    expect(out.indexOf('Organization org_a')).toBeLessThan(out.indexOf('~ members["user0@big.example"]'));
    expect(out).toMatch(/Organization org_b\n\n {2}\(no changes\)/);
  });

  it('an empty plan is just the summary', () => {
    expect(renderPlan(emptyPlan(), { format: 'text', color: false, secrets: [] })).toBe('No changes.');
  });

  it('lists at most ten steps under a violation', () => {
    const plan = emptyPlan({
      violations: [{ rule: 'maxDeletes', message: '12 deletions', steps: Array.from({ length: 12 }, (_, i) => `o/teams["${i}"]:delete`) }],
    });
    const out = renderPlan(plan, { format: 'text', color: false, secrets: [] });
    expect(out).toContain('! maxDeletes: 12 deletions');
    expect(out).toContain('o/teams["9"]:delete');
    expect(out).not.toContain('o/teams["10"]:delete');
    expect(out).toContain('… and 2 more');
  });
});

describe('unmanaged resources in the text plan', () => {
  it('names at most 50 addresses, as the markdown plan does, and says how many more', () => {
    const members = Array.from({ length: 120 }, (_, i) => `members["user${String(i).padStart(3, '0')}@acme.com"]`);
    const plan = emptyPlan({ unmanaged: { org_acme: { members, spaces: ['spaces["space_x"]'] } } });
    const text = renderPlan(plan, { format: 'text', color: false, secrets: [] });
    const named = text.split('\n').filter((l) => /^ {2}(members|spaces)\[/.test(l));
    expect(named).toHaveLength(50);
    expect(text).toContain('Unmanaged (not in the config, left alone): members: 120, spaces: 1');
    expect(text).toContain('  … and 71 more (--format json lists them all)');
    const markdown = renderPlan(plan, { format: 'markdown', color: false, secrets: [] });
    expect(markdown.split('\n').filter((l) => l.startsWith('- `'))).toHaveLength(50);
    expect(markdown).toContain('- … and 71 more (`--format json` lists them all)');
  });
});
