import { describe, expect, it } from 'vitest';
import { diffFields, keyCollisions, matchResources, pickManaged } from './match.js';

describe('diffFields', () => {
  it('reports changes, additions and removals by path', () => {
    expect(diffFields({ a: 1, b: 'x' }, { a: 2, b: 'x', c: null })).toEqual([
      { path: 'a', kind: 'change', before: 1, after: 2 },
      { path: 'c', kind: 'add', after: null },
    ]);
  });
  it('compares keyed lists by identity', () => {
    const changes = diffFields(
      { members: [{ user: 'a', role: 'member' }] },
      { members: [{ user: 'a', role: 'owner' }] },
      { members: 'user' },
    );
    expect(changes).toEqual([{ path: 'members["a"].role', kind: 'change', before: 'member', after: 'owner' }]);
  });
  it('folds a type change into one change', () => {
    expect(diffFields({ a: null }, { a: 'x' })).toEqual([{ path: 'a', kind: 'change', before: null, after: 'x' }]);
  });
});

describe('pickManaged', () => {
  it('keeps only managed fields and reads missing ones as null', () => {
    expect(pickManaged({ a: 1, b: 2 }, { a: 3, c: 4, d: undefined })).toEqual({ a: 1, c: null });
  });
});

describe('matchResources', () => {
  type D = { id?: string; title: string; renamedFrom?: string };
  type R = { id: string; title: string };
  const remote: R[] = [{ id: 't1', title: 'Eng' }, { id: 't2', title: 'Ops' }, { id: 't3', title: 'Old' }];
  const opts = {
    desiredKey: (d: D) => d.title,
    remoteKey: (r: R) => r.title,
    remoteId: (r: R) => r.id,
    desiredId: (d: D) => d.id,
    renamedFrom: (d: D) => d.renamedFrom,
  };
  it('matches by id, then renamedFrom, then key', () => {
    const m = matchResources<D, R>([{ id: 't2', title: 'Operations' }, { title: 'New', renamedFrom: 'Old' }, { title: 'Eng' }], remote, opts);
    expect(m.pairs.map((p) => [p.remote?.id, p.matchedBy])).toEqual([['t2', 'id'], ['t3', 'renamedFrom'], ['t1', 'key']]);
    expect(m.unmatched).toEqual([]);
  });
  it('leaves the rest unmatched', () => {
    const m = matchResources<D, R>([{ title: 'Eng' }], remote, opts);
    expect(m.unmatched.map((r) => r.id)).toEqual(['t2', 't3']);
    expect(matchResources<D, R>([{ title: 'Nope' }], remote, opts).pairs[0].remote).toBeUndefined();
  });
});

describe('keyCollisions', () => {
  type T = { id?: string; title: string; renamedFrom?: string };
  const o = { desiredKey: (t: T) => t.title, remoteKey: (t: T) => t.title, remoteId: (t: T) => t.id ?? '', renamedFrom: (t: T) => t.renamedFrom };
  it('finds a rename onto a key an unmatched remote resource holds', () => {
    const m = matchResources<T, T>([{ title: 'Red', renamedFrom: 'Gold' }], [{ id: '1', title: 'Gold' }, { id: '2', title: 'Red' }], o);
    expect(keyCollisions(m, o).map((c) => c.holder.id)).toEqual(['2']);
  });
  it('finds none for matches by key', () => {
    const m = matchResources<T, T>([{ title: 'Red' }], [{ id: '2', title: 'Red' }], o);
    expect(keyCollisions(m, o)).toEqual([]);
  });
});
