import { describe, expect, it } from 'vitest';
import { fingerprint } from '../core/json.js';
import { fingerprintEntries } from '../model/fingerprint.js';
import { staleAddresses } from './fingerprint.js';
import type { Plan } from './types.js';

const plan = (fingerprints: Record<string, string>) => ({ fingerprints }) as unknown as Plan;

describe('staleAddresses', () => {
  it('names the addresses whose fingerprint changed or that no longer have a step', () => {
    const saved = plan({ 'o/teams["A"]': '1', 'o/teams["B"]': '2', 'o/teams["C"]': '3' });
    const fresh = plan({ 'o/teams["A"]': '1', 'o/teams["B"]': '9', 'o/teams["D"]': '4' });
    expect(staleAddresses(saved, fresh)).toEqual(['o/teams["B"]', 'o/teams["C"]']);
    expect(staleAddresses(saved, saved)).toEqual([]);
  });
});

describe('fingerprintEntries', () => {
  it('hashes one object per address, and several at one address together in a stable order', () => {
    const a = { id: 'a' };
    const b = { id: 'b' };
    expect(fingerprintEntries([['x', a]])).toEqual({ x: fingerprint(a) });
    expect(fingerprintEntries([['x', null]])).toEqual({ x: fingerprint(null) });
    const ab = fingerprintEntries([['x', a], ['x', b]]);
    expect(ab).toEqual(fingerprintEntries([['x', b], ['x', a]]));
    expect(ab.x).not.toBe(fingerprint(a));
    // The same object read for two steps at one address (an update and a move) counts once.
    expect(fingerprintEntries([['x', a], ['x', { id: 'a' }]])).toEqual({ x: fingerprint(a) });
  });
});

describe('staleAddresses of creates', () => {
  it('names a create the fresh plan no longer makes (its key was taken meanwhile)', () => {
    const create = { id: 'o/teams["N"]:create', org: 'o', address: 'teams["N"]', action: 'create' };
    const saved = { fingerprints: {}, steps: [create] } as unknown as Plan;
    expect(staleAddresses(saved, saved)).toEqual([]);
    const taken = { fingerprints: { 'o/teams["N"]': 'x' }, steps: [{ ...create, id: 'o/teams["N"]:update', action: 'update' }] } as unknown as Plan;
    expect(staleAddresses(saved, taken)).toEqual(['o/teams["N"]']);
  });
});
