/** `docplane explain ADDRESS` (src/render/explain.ts): why each step at an address exists. */
import { describe, expect, it } from 'vitest';
import type { Step } from '../../src/plan/types.js';
import { renderExplain } from '../../src/render/explain.js';
import { renderPlan } from '../../src/render/index.js';
import { emptyPlan } from './fixtures/big-plan.js';

const team: Step = {
  id: 'org_acme/teams["Legacy"]:delete',
  org: 'org_acme',
  address: 'teams["Legacy"]',
  kind: 'teams',
  action: 'delete',
  before: { title: 'Legacy' },
  after: null,
  changes: [],
  requests: [{ method: 'DELETE', path: '/v1/orgs/org_acme/teams/team_1' }],
  dependsOn: [],
};
const section: Step = {
  id: 'org_acme/sites["site_docs"].sections["api"]:update',
  org: 'org_acme',
  address: 'sites["site_docs"].sections["api"]',
  kind: 'sections',
  action: 'update',
  before: { title: 'API' },
  after: { title: 'API reference' },
  changes: [{ path: 'title', kind: 'change', before: 'API', after: 'API reference' }],
  requests: [{ method: 'PATCH', path: '/v1/orgs/org_acme/sites/site_docs/sections/sec_1' }],
  dependsOn: [],
};
const plan = emptyPlan({
  steps: [team, section],
  violations: [{ rule: 'maxDeletes', message: '1 deletion in org_acme, more than safety.maxDeletes (0)', steps: [team.id] }],
  notes: ['warning: teams["Legacy"] (delete): archive teams instead (policy keep-teams)'],
});
const locations = { org_acme: { 'sites["site_docs"]': { file: 'docplane/sites.yaml', line: 3, column: 5 }, 'sites["site_docs"].sections["api"]': { file: 'docplane/sites.yaml', line: 9, column: 9 } } };

describe('docplane explain', () => {
  it('an update: its config entry and line, the remote value it replaces, no rule', () => {
    const text = renderExplain(plan, 'sites["site_docs"].sections["api"]', locations, []);
    expect(text).toContain('sites["site_docs"].sections["api"] (update): the config and the remote differ');
    expect(text).toContain('  config: docplane/sites.yaml:9:9');
    expect(text).toContain('  replaces: title: "API" → "API reference"');
    expect(text).toContain('  rules: no safety rule or policy weighs on it');
    expect(text).toContain('  sends: PATCH /v1/orgs/org_acme/sites/site_docs/sections/sec_1');
  });

  it('a delete: no config entry, the safety rule and the policy warning that weigh on it', () => {
    const text = renderExplain(plan, 'teams["Legacy"]', locations, []);
    expect(text).toContain('  config: no entry (the config does not mention it)');
    expect(text).toContain('  safety rule maxDeletes: 1 deletion in org_acme');
    expect(text).toContain('  policy warning: teams["Legacy"] (delete): archive teams instead');
    expect(text).toContain('  removes: title: "Legacy"');
  });

  it('a parent address explains every step under it; an address with none says so', () => {
    expect(renderExplain(plan, 'sites["site_docs"]', locations, [])).toContain('sections["api"] (update)');
    expect(renderExplain(plan, 'teams["Writers"]', locations, [])).toMatch(/^teams\["Writers"\]: no step; the plan changes nothing there/);
  });
});

describe('plan --verbose: why, under each step', () => {
  it('text: the reason and the config entry under each step, then the rules that weigh on it', () => {
    const text = renderPlan(plan, { format: 'text', color: false, secrets: [], locations, why: true });
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes('sites["site_docs"].sections["api"]'));
    expect(lines.slice(at).find((l) => l.includes('# why:'))).toBe('  # why: the config and the remote differ; config: docplane/sites.yaml:9:9');
    expect(text).toContain('  # why: the remote has it and the config does not (its kind is pruned, or the config moved it); config: no entry (the config does not mention it)');
    expect(text).toContain('  # safety rule maxDeletes: 1 deletion in org_acme');
    expect(text).toContain('  # policy warning: teams["Legacy"] (delete): archive teams instead (policy keep-teams)');
    // Without --verbose (no locations), no such line.
    expect(renderPlan(plan, { format: 'text', color: false, secrets: [] })).not.toContain('why:');
  });

  it('markdown: the same lines inside the step\'s diff block', () => {
    const md = renderPlan(plan, { format: 'markdown', color: false, secrets: [], locations, why: true });
    expect(md).toContain('#   why: the config and the remote differ; config: docplane/sites.yaml:9:9');
    expect(renderPlan(plan, { format: 'markdown', color: false, secrets: [] })).not.toContain('why:');
  });
});
