/**
 * Plan problems read as config errors do (file:line:column, the field, the message), the summary
 * says "No changes" only when there are no problems, and a targeted plan says so at the top.
 */
import { describe, expect, it } from 'vitest';
import { emptyPlan } from './fixtures/big-plan.js';
import type { Plan } from '../../src/plan/types.js';
import { renderPlan, summaryLine } from '../../src/render/index.js';

const located = (): Plan =>
  emptyPlan({
    problems: [
      {
        org: 'org_acme',
        address: 'saml["Okta"]',
        field: 'defaultTeam',
        location: { file: 'docplane.yaml', line: 41, column: 18 },
        message: '"Writrs" names no team, neither in the config nor in organization org_acme — did you mean "Writers"?',
      },
    ],
  });

const render = (plan: Plan, format: 'text' | 'markdown' | 'json') => renderPlan(plan, { format, color: false, secrets: [] });

describe('plan problems', () => {
  it('text: file:line:column: address.field: message', () => {
    expect(render(located(), 'text')).toContain(
      '✗ docplane.yaml:41:18: saml["Okta"].defaultTeam: "Writrs" names no team, neither in the config nor in organization org_acme — did you mean "Writers"?',
    );
  });

  it('markdown: the position and the field, and a title that does not say "No changes"', () => {
    const md = render(located(), 'markdown');
    expect(md.split('\n')[0]).toBe('### Plan: 1 problem to fix; nothing to create, update or delete.');
    expect(md).toContain('> - `docplane.yaml:41:18`: `saml["Okta"].defaultTeam`: "Writrs" names no team');
    expect(md).not.toMatch(/No changes/i);
  });

  it('json: field and location beside the message', () => {
    const doc = JSON.parse(render(located(), 'json')) as { problems: unknown[] };
    expect(doc.problems).toEqual([
      {
        org: 'org_acme',
        address: 'saml["Okta"]',
        message: '"Writrs" names no team, neither in the config nor in organization org_acme — did you mean "Writers"?',
        field: 'defaultTeam',
        location: { file: 'docplane.yaml', line: 41, column: 18 },
      },
    ]);
  });

  it('summary: "No changes" only without problems', () => {
    expect(summaryLine(emptyPlan())).toBe('No changes.');
    expect(summaryLine(located())).toBe('Plan: 1 problem to fix; nothing to create, update or delete.');
    const two = emptyPlan({ problems: [...located().problems, ...located().problems], summary: { create: 0, update: 0, delete: 0, other: 0, unmanaged: 2 } });
    expect(summaryLine(two)).toBe('Plan: 2 problems to fix; nothing to create, update or delete; 2 unmanaged.');
  });
});

describe('a targeted plan', () => {
  it('says so first in text, in a note under the title in markdown, and in json', () => {
    const plan = emptyPlan({ targets: ['teams["Engineering"]', 'saml["Okta"]'] });
    expect(render(plan, 'text').split('\n')[0]).toBe(
      'Targeted plan: only teams["Engineering"], saml["Okta"] and what they depend on (--target); the rest of the config was not planned.',
    );
    expect(render(plan, 'markdown')).toContain('> [!IMPORTANT]\n> Targeted plan: only teams\\["Engineering"\\], saml\\["Okta"\\]');
    expect((JSON.parse(render(plan, 'json')) as { targets: string[] }).targets).toEqual(['teams["Engineering"]', 'saml["Okta"]']);
    expect(JSON.parse(render(emptyPlan(), 'json'))).not.toHaveProperty('targets');
  });
});
