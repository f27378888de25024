import { describe, expect, it } from 'vitest';
import { emptyPlan } from './fixtures/big-plan.js';
import { RICH_SECRETS, richPlan } from './fixtures/rich-plan.js';
import type { Step } from '../../src/plan/types.js';
import { renderPlan } from '../../src/render/index.js';

function render(plan = richPlan()): any {
  return JSON.parse(renderPlan(plan, { format: 'json', color: false, secrets: RICH_SECRETS }));
}

describe('json rendering', () => {
  it('has the documented top-level fields in order', () => {
    const doc = render();
    expect(Object.keys(doc)).toEqual(['formatVersion', 'toolVersion', 'createdAt', 'orgs', 'summary', 'steps', 'unmanaged', 'unmanagedResources', 'violations', 'problems', 'notes']);
    expect(doc.formatVersion).toBe(1);
    expect(doc.orgs).toEqual(['org_acme', 'org_beta']);
    expect(doc.summary).toEqual({ create: 5, update: 7, delete: 5, other: 6, unmanaged: 6 });
    expect(doc.unmanaged).toEqual({ org_acme: { members: 3, spaces: 2 }, org_beta: { teams: 1 } });
    expect(doc.unmanagedResources).toEqual({
      org_acme: { members: ['members["carol@acme.com"]', 'members["dave@acme.com"]', 'members["u_erin"]'], spaces: ['spaces["space_draft"]', 'spaces["space_old"]'] },
      org_beta: { teams: ['teams["Legacy"]'] },
    });
  });

  it('is 2-space indented', () => {
    const text = renderPlan(emptyPlan(), { format: 'json', color: false, secrets: [] });
    expect(text.split('\n')[1]).toBe('  "formatVersion": 1,');
  });

  it('gives every step its fields, in order, and leaves out what apply alone needs', () => {
    const doc = render();
    expect(doc.steps).toHaveLength(richPlan().steps.length);
    const create = doc.steps.find((s: any) => s.id === 'org_acme/teams["Platform"]:create');
    expect(Object.keys(create)).toEqual(['id', 'org', 'address', 'kind', 'action', 'before', 'after', 'changes', 'requests', 'dependsOn']);
    // capture and lookup are apply's business, not a reader's.
    expect(create.requests).toEqual([{ method: 'PUT', path: '/v1/orgs/org_acme/teams', body: { members: ['u_alice'], title: 'Platform' } }]);
    const members = doc.steps.find((s: any) => s.address === 'teams["Engineering"].members');
    expect(Object.keys(members)).toEqual(['id', 'org', 'address', 'kind', 'action', 'remoteId', 'before', 'after', 'changes', 'requests', 'dependsOn']);
    expect(members.dependsOn).toEqual(['org_acme/teams["Engineering"]:update']);
    expect(members.changes[1]).toEqual({ path: 'members["carol@acme.com"].role', kind: 'change', before: 'member', after: 'owner' });
    const legacy = doc.steps.find((s: any) => s.address === 'teams["Legacy"]');
    expect(legacy.notes).toEqual(['teams is pruned: not in the config']);
    expect(legacy.after).toBeNull();
  });

  it('masks secrets in before/after, changes and request bodies', () => {
    const saml = render().steps.find((s: any) => s.address === 'saml["Okta"]');
    expect(saml.after.certificate).toBe('(sensitive)');
    expect(saml.requests[0].body.certificate).toBe('(sensitive)');
    expect(saml.requests[0].body.ssoURL).toBe('https://acme.okta.com/app/sso/saml?token=(sensitive)');
    const integration = render().steps.find((s: any) => s.address === 'integrations["acme-analytics"]');
    expect(integration.after.script).toBe('(script, 3 lines)');
    expect(integration.after.secrets).toEqual({ API_KEY: '(sensitive)' });
  });

  it('sorts object keys so the output does not depend on how a value was built', () => {
    const make = (after: Record<string, string>): Step => ({
      id: 'org_acme/teams["A"]:create',
      org: 'org_acme',
      address: 'teams["A"]',
      kind: 'teams',
      action: 'create',
      before: null,
      after,
      changes: [],
      requests: [{ method: 'PUT', path: '/p', body: after }],
      dependsOn: [],
    });
    const a = renderPlan(emptyPlan({ steps: [make({ title: 'A', b: 'x' })] }), { format: 'json', color: false, secrets: [] });
    const b = renderPlan(emptyPlan({ steps: [make({ b: 'x', title: 'A' })] }), { format: 'json', color: false, secrets: [] });
    expect(a).toBe(b);
  });

  it('keeps violations and problems whole', () => {
    const doc = render();
    expect(doc.violations).toEqual(richPlan().violations);
    expect(doc.problems).toEqual(richPlan().problems);
  });
});
