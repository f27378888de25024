import { describe, expect, it } from 'vitest';
import { step } from './step.js';

const base = { address: 'teams["Docs"]', kind: 'teams', requests: [] };

describe('step', () => {
  it('shows a create as every field added, and needs nothing unless told', () => {
    const s = step({ ...base, action: 'create', before: null, after: { title: 'Docs' } });
    expect(s.changes).toEqual([{ path: 'title', kind: 'add', after: 'Docs' }]);
    expect(s.needs).toEqual([]);
  });

  it('shows an update as the fields that differ, lists by their key when given one', () => {
    const s = step({
      ...base,
      action: 'update',
      before: { title: 'Docs', members: [{ user: 'a', role: 'member' }] },
      after: { title: 'Docs', members: [{ user: 'a', role: 'owner' }] },
      keys: { members: 'user' },
      needs: ['teams["Docs"]:create'],
    });
    expect(s.changes).toEqual([{ path: 'members["a"].role', kind: 'change', before: 'member', after: 'owner' }]);
    expect(s.needs).toEqual(['teams["Docs"]:create']);
    expect(s).not.toHaveProperty('keys');
  });

  it('keeps the changes a kind gives, and the fields beyond the common ones', () => {
    const s = step({ ...base, action: 'delete', before: { title: 'Docs' }, after: null, changes: [], remoteId: 't1', notes: ['n'] });
    expect(s.changes).toEqual([]);
    expect(s.remoteId).toBe('t1');
    expect(s.notes).toEqual(['n']);
  });

  it('writes the fields in the order of a saved plan', () => {
    const s = step({ remoteId: 't1', needs: [], requests: [], after: null, before: {}, action: 'delete', kind: 'teams', address: 'a' });
    expect(Object.keys(s)).toEqual(['address', 'kind', 'action', 'before', 'after', 'changes', 'requests', 'needs', 'remoteId']);
  });
});
