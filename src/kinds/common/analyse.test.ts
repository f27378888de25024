import { describe, expect, it } from 'vitest';
import { analyse, matchPairs, ownPairs, type ResourceSpec } from './analyse.js';
import { step } from './step.js';

type D = { id?: string; title: string; renamedFrom?: string };
type R = { id: string; title: string };

const spec = (prune = false, extra: Partial<ResourceSpec<D, R>> = {}): ResourceSpec<D, R> => ({
  kind: 'things',
  what: 'things',
  address: (k) => `things["${k}"]`,
  desiredKey: (d) => d.title,
  remoteKey: (r) => r.title,
  remoteId: (r) => r.id,
  desiredId: (d) => d.id,
  renamedFrom: (d) => d.renamedFrom,
  normalize: (k) => k.toLowerCase(),
  prune,
  fingerprint: (r) => r,
  create: (d, address) => [step({ address, kind: 'things', action: 'create', before: null, after: { title: d.title }, requests: [] })],
  update: (d, r, address) => (r.title === d.title ? [] : [step({ address, kind: 'things', action: 'update', before: { title: r.title }, after: { title: d.title }, requests: [] })]),
  remove: (r) => ({ before: { title: r.title }, requests: [{ method: 'DELETE', path: `/things/${r.id}` }] }),
  ...extra,
});

const summary = (kp: ReturnType<typeof analyse<D, R>>['plan']) => kp.steps.map((s) => `${s.action} ${s.address}`);

describe('analyse', () => {
  it('matches by id, then renamedFrom, then the normalised key', () => {
    const { pairs } = matchPairs<D, R>([{ id: 't1', title: 'A' }, { title: 'New', renamedFrom: 'old' }, { title: 'ops' }], [{ id: 't1', title: 'X' }, { id: 't2', title: 'Old' }, { id: 't3', title: 'Ops' }], spec());
    expect(pairs.map((p) => [p.remote?.id, p.matchedBy])).toEqual([['t1', 'id'], ['t2', 'renamedFrom'], ['t3', 'key']]);
  });

  it('falls back to the key for an id that names nothing, unless idOnly', () => {
    const remote = [{ id: 't9', title: 'Ops' }];
    expect(matchPairs<D, R>([{ id: 'gone', title: 'Ops' }], remote, spec()).pairs[0].remote?.id).toBe('t9');
    expect(matchPairs<D, R>([{ id: 'gone', title: 'Ops' }], remote, spec(false, { idOnly: true })).pairs[0].remote).toBeUndefined();
  });

  it('names a twin KEY#ID, notes it and counts it as a duplicate; pruned, deletes it there', () => {
    const remote = [{ id: 't1', title: 'Ops' }, { id: 't2', title: 'ops' }];
    const kept = analyse<D, R>('o', [{ title: 'Ops' }], remote, spec()).plan;
    expect(kept.duplicates).toEqual(['things["Ops#t2"]']);
    expect(kept.unmanaged).toEqual(['things["Ops#t2"]']);
    expect(kept.notes?.[0]).toContain('t2 has the same key');
    const pruned = analyse<D, R>('o', [{ title: 'Ops' }], remote, spec(true)).plan;
    expect(summary(pruned)).toEqual(['delete things["Ops#t2"]']);
  });

  it('refuses one object named by id and by key, and two keys that normalise the same', () => {
    const remote = [{ id: 't1', title: 'Ops' }];
    const byIdAndKey = analyse<D, R>('o', [{ id: 't1', title: 'Ops' }, { title: 'OPS' }], remote, spec()).plan;
    expect(byIdAndKey.problems.map((p) => p.address)).toEqual(['things["OPS"]']);
    expect(byIdAndKey.problems[0].message).toContain('things["Ops"]');
    const twoKeys = analyse<D, R>('o', [{ title: 'Dev' }, { title: 'DEV' }], [], spec()).plan;
    expect(twoKeys.problems.map((p) => p.address)).toEqual(['things["DEV"]']);
    expect(summary(twoKeys)).toEqual(['create things["Dev"]']);
    expect(summary(byIdAndKey)).toEqual([]);
    // An entry that renames the object by id frees its name for another entry's create.
    const renamed = analyse<D, R>('o', [{ id: 't1', title: 'Dev' }, { title: 'Ops' }], remote, spec()).plan;
    expect(renamed.problems).toEqual([]);
    expect(summary(renamed)).toEqual(['update things["Dev"]', 'create things["Ops"]']);
  });

  it('fingerprints what it changes or deletes, and a create as absent', () => {
    const kp = analyse<D, R>('o', [{ title: 'A' }, { id: 't2', title: 'B' }], [{ id: 't2', title: 'b0' }, { id: 't3', title: 'C' }], spec(true)).plan;
    expect(Object.keys(kp.fingerprints).sort()).toEqual(['things["A"]', 'things["B"]', 'things["C"]']);
    expect(kp.remoteCount).toBe(2);
  });
});

describe('analyse: a kind that matches itself (a tree), and a twin note of its own', () => {
  it('takes the kind\'s own matches alone: no id, rename or key is looked at', () => {
    const remote = [{ id: 't1', title: 'Ops' }, { id: 't2', title: 'Dev' }];
    const ownMatch = (d: D) => (d.title === 'Renamed' ? { remote: remote[1], by: 'renamedFrom' as const } : undefined);
    const { pairs, unmatched } = ownPairs<D, R>([{ title: 'Ops' }, { title: 'Renamed' }, { id: 't1', title: 'X' }], remote, spec(false), ownMatch);
    expect(pairs.map((p) => [p.remote?.id, p.matchedBy])).toEqual([[undefined, undefined], ['t2', 'renamedFrom'], [undefined, undefined]]);
    expect(unmatched.map((r) => r.id)).toEqual(['t1']);
  });

  it('still names the twins of what the kind matched, and refuses a rename onto a kept key', () => {
    const remote = [{ id: 't1', title: 'Ops' }, { id: 't2', title: 'Ops' }, { id: 't3', title: 'Old' }, { id: 't4', title: 'New' }];
    const ownMatch = (d: D) => (d.title === 'Ops' ? { remote: remote[0], by: 'key' as const } : d.title === 'New' ? { remote: remote[2], by: 'renamedFrom' as const } : undefined);
    const desired = [{ title: 'Ops' }, { title: 'New' }];
    const kp = analyse<D, R>('o', desired, remote, spec(false), ownPairs(desired, remote, spec(false), ownMatch)).plan;
    expect(kp.duplicates).toEqual(['things["Ops#t2"]']);
    expect(kp.problems.map((p) => p.address)).toEqual(['things["New"]']);
  });

  it('gives a twin the kind\'s note, and a delete where it is kept', () => {
    const remote = [{ id: 't1', title: 'Ops' }, { id: 't2', title: 'Ops' }, { id: 't3', title: 'Gone' }];
    const kp = analyse<D, R>('o', [{ title: 'Ops' }], remote, spec(true, {
      twinNote: (managed, twin) => `${managed} has another: ${twin}`,
      remove: (r) => ({ before: { title: r.title }, requests: [], ...(r.id === 't3' ? { keptAs: 'things["Elsewhere"]' } : {}) }),
    })).plan;
    expect(kp.notes).toEqual(['things["Ops"] has another: things["Ops#t2"]']);
    expect(kp.steps.map((s) => [s.address, s.keptAs])).toEqual([['things["Ops#t2"]', undefined], ['things["Gone"]', 'things["Elsewhere"]']]);
  });
});

describe('analyse from an earlier match (a site structure kind, ordered before its steps)', () => {
  it('plans from the match it is given: an object the kind adopted is updated, not deleted or twinned', () => {
    const desired = [{ title: 'Guides' }, { title: 'Api' }];
    const remote = [{ id: 't1', title: 'Guides' }, { id: 't2', title: 'api-draft' }];
    const matched = matchPairs<D, R>(desired, remote, spec());
    expect(matched.unmatched.map((r) => r.id)).toEqual(['t2']);
    // The kind takes the half-made object as the second entry's (as a site's section cut between its two requests).
    matched.pairs[1].remote = matched.unmatched.pop();
    matched.pairs[1].matchedBy = 'renamedFrom';
    const { plan } = analyse<D, R>('o', desired, remote, spec(true), matched);
    expect(summary(plan)).toEqual(['update things["Api"]']);
    expect(plan.unmanaged).toEqual([]);
    expect(plan.duplicates).toBeUndefined();
  });

  it('still names one object named twice, and plans nothing for the second entry', () => {
    const desired = [{ id: 't1', title: 'Ops' }, { title: 'Ops' }];
    const remote = [{ id: 't1', title: 'Ops' }];
    const matched = matchPairs<D, R>(desired, remote, spec(false, { normalize: undefined }));
    expect(matched.twice.map((t) => t.entry.address)).toEqual(['things["Ops"]']);
    const { plan } = analyse<D, R>('o', desired, remote, spec(false, { normalize: undefined }), matched);
    expect(plan.problems).toHaveLength(1);
    expect(plan.problems[0].message).toContain('name one object (t1, by id and by its key)');
    expect(summary(plan)).toEqual([]);
  });

  it('gives what it would give without the match when the match is its own', () => {
    const desired = [{ title: 'A' }, { title: 'B', renamedFrom: 'old' }];
    const remote = [{ id: 't1', title: 'A' }, { id: 't2', title: 'Old' }, { id: 't3', title: 'a' }, { id: 't4', title: 'Gone' }];
    const own = analyse<D, R>('o', desired, remote, spec(true)).plan;
    const given = analyse<D, R>('o', desired, remote, spec(true), matchPairs<D, R>(desired, remote, spec(true))).plan;
    expect(given).toEqual(own);
    expect(summary(given)).toEqual(['update things["B"]', 'delete things["A#t3"]', 'delete things["Gone"]']);
  });
});
