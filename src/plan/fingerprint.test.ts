import { describe, expect, it } from 'vitest';
import { fingerprint } from '../core/json.js';
import { fingerprintEntries } from '../model/fingerprint.js';

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
