/**
 * A large config read in pieces (valueInPieces) gives the yaml package's value of the whole file for
 * lists with comments, blank lines, block scalars and nested lists between and in their entries, and
 * a problem in an entry is reported where the whole file's parse reports it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { valueInPieces } from '../../src/source/yaml.js';
import { problemsOf, withFiles } from './helpers.js';

/** Entries enough that the first ones are taken before the parse ends. */
const members = (n: number) => Array.from({ length: n }, (_, i) => `  - user: u${i}@example.com\n    role: read\n`).join('');

const CASES: Record<string, string> = {
  'lists at the key\'s indentation and nested': `version: 1\nteams:\n- title: A\n  members: [a, b]\n- title: B\n  members:\n    - c\n    - d\n- title: C\n- title: D\nspaces:\n  - x\n  - y\n  - z\n  - w\n`,
  'comments between entries, indented deeper and at the entries\' column': `members:\n${members(3)}    # a comment under the third entry\n  # a comment before the fourth\n${members(4).replace(/u(\d)/g, 'v$1')}\n# trailing\n`,
  'empty entries, block scalars, flow entries and quoted strings': `list:\n  -\n  - |\n    two lines\n    here\n  - {a: 1, b: [2, 3]}\n  - "quoted: \\"x\\""\n  - 'single'\n  - >-\n    folded\n    text\n  - null\n  - 3.5\n`,
  'a list of lists and a mapping after it': `grid:\n  - - 1\n    - 2\n  - - 3\n  - []\n  - - 4\norganization:\n  id: org_a\n`,
};

describe('reading a config entry by entry', () => {
  it.each(Object.entries(CASES))('gives the yaml package\'s value of the whole file: %s', (_name, text) => {
    expect(valueInPieces(text)).toEqual(parse(text));
  });

  it('gives the whole file\'s value for generated lists with comments and blank lines between entries', () => {
    const entry = fc.oneof(
      fc.constantFrom('- a', '- 1', '-', '- [x, y]', '- {k: v}', '- key: value\n  other: 2', '- - nested\n  - list', '- |\n  block\n  text'),
    );
    let read = 0;
    const gap = fc.constantFrom('', '\n', '# c\n', '  # c\n', '    # deeper\n');
    fc.assert(
      fc.property(fc.array(fc.tuple(entry, gap), { minLength: 0, maxLength: 12 }), fc.boolean(), (items, indented) => {
        const pad = indented ? '  ' : '';
        const body = items.map(([e, g]) => `${e.split('\n').map((l) => pad + l).join('\n')}\n${g}`).join('');
        const text = `version: 1\nlist:\n${body}after: true\n`;
        const got = valueInPieces(text);
        const whole = parseAllDocuments(text);
        // Read in pieces only what the whole file reads without error, and as it reads it.
        if (got !== undefined) read++;
        if (got !== undefined) expect(Array.isArray(whole) && whole.length === 1 && whole[0].errors.length === 0 ? whole[0].toJS() : 'an error').toEqual(got);
      }),
      { numRuns: 300 },
    );
    // The property holds of files read in pieces, not only of files sent to the whole read.
    expect(read).toBeGreaterThan(100);
  });

  it('reports a YAML error in a late entry of a long list at its line and column', async () => {
    const text = `version: 1\norganization:\n  id: org_a\nmembers:\n${members(50)}  - user: "unclosed\n    role: read\n${members(3)}`;
    await withFiles({ 'docplane.yaml': text }, async (t) => {
      const problems = await problemsOf({ cwd: t.dir, env: {} });
      expect(problems).toEqual([expect.stringMatching(/^docplane\.yaml:105:11: YAML syntax error: this quoted string is not closed/)]);
    });
  });

  it('reports a key written twice inside an entry that is read early, at the second key', async () => {
    const text = `version: 1\norganization:\n  id: org_a\nmembers:\n  - user: a@example.com\n    role: read\n    role: admin\n${members(20)}`;
    await withFiles({ 'docplane.yaml': text }, async (t) => {
      const problems = await problemsOf({ cwd: t.dir, env: {} });
      expect(problems).toEqual(['docplane.yaml:7:5: this key appears twice in the same mapping']);
    });
  });

  it('reports a schema problem in an entry read early at its line and column', async () => {
    const text = `version: 1\norganization:\n  id: org_a\nmembers:\n${members(30)}  - user: b@example.com\n    role: owner\n${members(5).replace(/u(\d)/g, 'w$1')}`;
    await withFiles({ 'docplane.yaml': text }, async (t) => {
      const problems = await problemsOf({ cwd: t.dir, env: {} });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^docplane\.yaml:66:11: /);
    });
  });
});
