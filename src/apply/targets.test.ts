import { describe, expect, it } from 'vitest';
import type { Plan } from '../plan/types.js';
import { makePlan, makeStep } from './fake-client.test-support.js';
import { narrowToTargets } from './targets.js';

const ORG = 'org_a';
const site = makeStep(ORG, 'sites["s"].sections["a"]', 'create', [{ method: 'POST', path: '/a' }], [], 'sections');
const group = makeStep(ORG, 'sites["s"].sectionGroups["G"]', 'create', [{ method: 'POST', path: '/g' }], [site.id], 'sectionGroups');
const team = makeStep(ORG, 'teams["T"]', 'update', [{ method: 'PATCH', path: '/t' }]);
const old = makeStep(ORG, 'teams["Old"]', 'delete', [{ method: 'DELETE', path: '/o' }]);
const plan: Plan = {
  ...makePlan([site, group, team, old]),
  fingerprints: {
    [`${ORG}/${site.address}`]: 'f1',
    [`${ORG}/${group.address}`]: 'f2',
    [`${ORG}/${team.address}`]: 'f3',
    [`${ORG}/${old.address}`]: 'f4',
  },
  violations: [{ rule: 'maxDeletes', message: '1 delete', steps: [old.id] }],
  summary: { create: 2, update: 1, delete: 1, other: 0, unmanaged: 5 },
};

describe('narrowToTargets', () => {
  it('keeps the targeted steps and what they depend on, in plan order, with their fingerprints only', () => {
    const narrowed = narrowToTargets(plan, ['sites["s"].sectionGroups["G"]']);
    expect(narrowed.steps.map((s) => s.id)).toEqual([site.id, group.id]);
    expect(narrowed.fingerprints).toEqual({ [`${ORG}/${site.address}`]: 'f1', [`${ORG}/${group.address}`]: 'f2' });
    expect(narrowed.summary).toEqual({ create: 2, update: 0, delete: 0, other: 0, unmanaged: 5 });
    // The delete is left out, and so is the rule it broke.
    expect(narrowed.violations).toEqual([]);
  });

  it('keeps a broken rule that concerns a kept step; qualified and prefix targets select as plan --target does', () => {
    const narrowed = narrowToTargets(plan, [`${ORG}/teams`]);
    expect(narrowed.steps.map((s) => s.id)).toEqual([team.id, old.id]);
    expect(narrowed.violations).toEqual(plan.violations);
    expect(narrowToTargets(plan, ['org_other/teams']).steps).toEqual([]);
  });

  it('is the plan itself without targets', () => {
    expect(narrowToTargets(plan, [])).toBe(plan);
  });
});
