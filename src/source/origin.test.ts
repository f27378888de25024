/** The locations record: read like a plain record, holding origins until a location is read. */
import { describe, expect, it } from 'vitest';
import { lazyLocations, type Origin } from './origin.js';
import type { SourceDocument } from './yaml.js';

const text = 'teams:\n  - title: Eng\n    members:\n      - a@b.c\n';
const source: SourceDocument = {
  file: { abs: '/c/teams.yaml', display: 'c/teams.yaml', rel: 'teams.yaml', raw: Buffer.from(text), text },
  index: 0,
};
const at = (...path: (string | number)[]): Origin => ({ source, path });

describe('lazyLocations', () => {
  it('answers lookups, `in`, Object.keys and JSON as a plain record would, the first definition winning', () => {
    const { record, add } = lazyLocations();
    add('teams["Eng"]', at('teams', 0), 'value');
    add('teams["Eng"].members["a@b.c"]', at('teams', 0, 'members', 0), 'value');
    add('teams["Eng"]', at('teams', 0, 'members'), 'value');
    expect(Object.keys(record)).toEqual(['teams["Eng"]', 'teams["Eng"].members["a@b.c"]']);
    expect('teams["Eng"]' in record).toBe(true);
    expect('teams["Ops"]' in record).toBe(false);
    expect(record['teams["Ops"]']).toBeUndefined();
    expect(record['teams["Eng"]']).toEqual({ file: 'c/teams.yaml', line: 2, column: 5 });
    expect(record['teams["Eng"].members["a@b.c"]']).toEqual({ file: 'c/teams.yaml', line: 4, column: 9 });
    // The same object each time, and a copy that holds plain values.
    expect(record['teams["Eng"]']).toBe(record['teams["Eng"]']);
    expect(JSON.parse(JSON.stringify(record))).toEqual({
      'teams["Eng"]': { file: 'c/teams.yaml', line: 2, column: 5 },
      'teams["Eng"].members["a@b.c"]': { file: 'c/teams.yaml', line: 4, column: 9 },
    });
    expect({ ...record }['teams["Eng"]']).toEqual({ file: 'c/teams.yaml', line: 2, column: 5 });
  });

  it('is read-only to its readers', () => {
    const { record, add } = lazyLocations();
    add('teams["Eng"]', at('teams', 0), 'value');
    expect(() => {
      (record as Record<string, unknown>)['teams["Eng"]'] = { file: 'x', line: 1, column: 1 };
    }).toThrow(TypeError);
    expect(() => delete (record as Record<string, unknown>)['teams["Eng"]']).toThrow(TypeError);
    expect(record['teams["Eng"]']?.line).toBe(2);
  });

  it('points at a key with the key mode', () => {
    const { record, add } = lazyLocations();
    add('teams["Eng"].members', at('teams', 0, 'members'), 'key');
    expect(record['teams["Eng"].members']).toEqual({ file: 'c/teams.yaml', line: 3, column: 5 });
  });
});
