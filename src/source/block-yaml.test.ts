/**
 * The block read gives exactly what the yaml package gives, or declines; and it does not decline the
 * configs it is for (the examples, what `docplane import` writes, block YAML as the yaml package
 * writes it), so that a cold plan does not pay for js-yaml.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { blockValues } from './block-yaml.js';
import { agreesWithSlowRead, EXAMPLE_FILES, RUNS } from './quick-read.test-support.js';

/** The property: the block read declines, or gives what the yaml package gives. Says whether it answered. */
const agrees = (text: string): boolean => agreesWithSlowRead(blockValues, text);

const KEYS = ['a', 'b', 'title', 'b c', '-x', ':x', 'x:y', 'a#b', 'é', '1', 'true', 'null', '~', 'constructor', 'k-1', 'http://x', "it's", 'a"b'];
const STRINGS = [
  '', ' ', 'plain', 'two words', ' lead', 'trail ', 'a: b', 'a:b', 'a #b', 'a#b', '#x', '- x', '-x', '? x', ':x', '[x]', '{x}', 'a, b', 'x]', '"q"', "'q'",
  "it's", 'back\\slash', 'line\nbreak', 'two\n\nlines\n', 'end\n', '\n', 'tab\t', 'é😀', '@at', '`tick', '%pct', '&amp', '*star', '!bang', '|pipe', '>gt',
  'true', 'False', 'null', '~', '1', '-0', '0x1F', '0o17', '1e3', '.inf', '.nan', '1_000', 'yes', '2024-01-01', 'null ', 'a  b',
];
const scalar = fc.oneof(
  fc.constantFrom(...STRINGS),
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
);
const { value: document } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, tie('list'), tie('map')),
  list: fc.array(tie('value'), { maxLength: 4 }),
  map: fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 4 })), tie('value'), { maxKeys: 4 }),
}));
const writeOptions = fc.record({
  indent: fc.constantFrom(2, 4),
  indentSeq: fc.boolean(),
  flowLevel: fc.constantFrom(undefined, 1, 2),
  defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_SINGLE', 'QUOTE_DOUBLE'),
  flowCollectionPadding: fc.boolean(),
});

const noise = fc.array(fc.record({ at: fc.nat(), line: fc.constantFrom('', '# c', '    # indented', '  ') }), { maxLength: 3 });

/**
 * Comments and blank lines put between a text's lines, not inside a literal block (where they would
 * be its text, or end it).
 */
function withNoise(text: string, noise: ReadonlyArray<{ at: number; line: string }>): string {
  const lines = text.split('\n');
  const indent = (line: string) => line.length - line.trimStart().length;
  const outside: number[] = [];
  let header = -1;
  lines.forEach((line, i) => {
    if (header >= 0 && (line.trim() === '' || indent(line) > header)) return;
    header = /(?:^|[\s:-])\|[-+]?$/.test(line) ? indent(line) : -1;
    outside.push(i);
  });
  if (header < 0) outside.push(lines.length);
  for (const n of [...noise].map((x) => ({ ...x, at: outside[x.at % outside.length] })).sort((a, b) => b.at - a.at)) lines.splice(n.at, 0, n.line);
  return lines.join('\n');
}

describe('blockValues', () => {
  it.each(EXAMPLE_FILES)('reads the example $name as the yaml package does', ({ text }) => {
    expect(agrees(text)).toBe(true);
  });

  it.each([
    ['nested mappings and lists', 'a:\n  b:\n    - 1\n    - x: y\n      z: [1, two]\n  c: {}\n', { a: { b: [1, { x: 'y', z: [1, 'two'] }], c: {} } }],
    ['a list at its key’s column', 'a:\n- 1\n- b\n', { a: [1, 'b'] }],
    ['lists in lists', 'a:\n  - - 1\n    - - x\n      - y: z\n  - - \'q\'\n', { a: [[1, ['x', { y: 'z' }]], ['q']] }],
    ['comments and blank lines anywhere', '# top\na: 1 # one\n\n  # indented\nb: "#x" # two\nc: a#b\nd: #\n', { a: 1, b: '#x', c: 'a#b', d: null }],
    ['a literal block, clipped', 'a: |\n  one\n\n   two\n\nb: 1\n', { a: 'one\n\n two\n', b: 1 }],
    ['a literal block, stripped', 'a: |-\n  one\n  two\n\nb: 1\n', { a: 'one\ntwo', b: 1 }],
    ['a literal block, kept', 'a: |+\n  one\n\n\nb: 1\n', { a: 'one\n\n\n', b: 1 }],
    ['a literal block that starts with blank lines', 'a: |\n\n \n  x\nb: 1\n', { a: '\n\nx\n', b: 1 }],
    ['a literal block in a list', 'a:\n  - |\n    x\n  - y\n', { a: ['x\n', 'y'] }],
    ['quoted strings', `a: 'it''s'\nb: "say 'hi'"\nc: ''\n`, { a: "it's", b: "say 'hi'", c: '' }],
    ['quoted keys', `'a': 1\n"b c": 2\n'1':\n  - 'x y': { 'k': v }\n`, { a: 1, 'b c': 2, '1': [{ 'x y': { k: 'v' } }] }],
    ['one-line flow collections', 'a: [ x, "y z", 1, [], {} ]\nb: { k: v, url: https://x.example/p, n: [a, b] }\n', { a: ['x', 'y z', 1, [], {}], b: { k: 'v', url: 'https://x.example/p', n: ['a', 'b'] } }],
    ['plain scalars of every kind', 'a: ~\nb: True\nc: 0x1F\nd: -.5e3\ne: 2024-01-01\nf: -x\n', { a: null, b: true, c: 31, d: -500, e: '2024-01-01', f: '-x' }],
  ])('reads %s', (_name, text, values) => {
    expect(blockValues(text)).toStrictEqual([values]);
    expect(agrees(text)).toBe(true);
  });

  it.each([
    ['a tab', 'a:\tb\n'],
    ['a CR', 'a: b\r\n'],
    ['a character YAML does not allow', 'a: b\u0007\n'],
    ['a line separator', 'a: b\u2028c\n'],
    ['a list at the top', '- a\n'],
    ['an indented top mapping', '  a: 1\n'],
    ['several documents', 'a: 1\n---\nb: 2\n'],
    ['a document start', '---\na: 1\n'],
    ['an empty file', ''],
    ['only comments', '# nothing\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a key read as a number', '1: a\n'],
    ['a key read as null', 'null: a\n'],
    ['a quoted key with an escape', '"a\\tb": 1\n'],
    ['a key over 1024 characters', `${'k'.repeat(1025)}: 1\n`],
    ['an anchor', 'a: &x 1\n'],
    ['an alias', 'a: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['an explicit key', '? a\n: 1\n'],
    ['a folded block', 'a: >\n  x\n'],
    ['a block header with an indentation digit', 'a: |2\n   x\n'],
    ['a literal block whose first blank line has more spaces than its text', 'a: |\n    \n  x\n'],
    ['a literal block on the last line without a line break', 'a: |\n  x'],
    ['an empty literal block', 'a: |\nb: 1\n'],
    ['an escape in a double-quoted string', 'a: "x\\ny"\n'],
    ['a quoted string that goes on past its line', 'a: "x\n  y"\n'],
    ['a plain scalar that goes on past its line', 'a: x\n  y\n'],
    ['a mapping on the line of its key', 'a: b: c\n'],
    ['a list on the line of its key', 'a: - b\n'],
    ['a list entry with nothing on its line', 'a:\n  -\n    b\n'],
    ['a list entry with nothing after a list entry', 'a:\n  - -\n'],
    ['a flow collection over two lines', 'a: [x,\n  y]\n'],
    ['a flow collection as a key', '[a]: 1\n'],
    ['a trailing comma', 'a: [x, ]\n'],
    ['an empty flow entry', 'a: [x, , y]\n'],
    ['a pair in a flow list', 'a: [x: y]\n'],
    ['a flow key with no value', 'a: { x }\n'],
    ['a comment right after a flow collection', 'a: [x]#c\n'],
    ['a bad indentation', 'a:\n    b: 1\n  c: 2\n'],
  ])('declines %s', (_name, text) => {
    expect(blockValues(text)).toBeUndefined();
  });

  it('agrees on YAML as the yaml package writes it, with comments and blank lines', () => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...KEYS), document, { minKeys: 1, maxKeys: 5 }), writeOptions, noise, (value, options, lines) => {
        runs++;
        if (agrees(withNoise(stringify(value, { ...options, lineWidth: 0, minContentWidth: 0 }), lines))) answered++;
      }),
      RUNS(1500),
    );
    // Most of these are meant to be declined (escapes, tabs, keys that are not strings); enough must
    // be read for the comparison to mean something.
    expect(answered / runs).toBeGreaterThan(0.05);
  });

  it('takes every config-like file the yaml package writes', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9é][\w.@/:#é-]{0,10}(?: [\w.@/:#é-]{1,8}){0,2}$/);
    const key = fc.stringMatching(/^[a-z][A-Za-z0-9]{0,8}$/);
    // Strings of more than one line: in literal blocks when plain is the default, not when quotes are.
    const configLike = (lines: boolean) =>
      fc.letrec((tie) => ({
        value: fc.oneof({ depthSize: 'small' }, word, fc.integer(), fc.boolean(), fc.constant(null), lines ? fc.constantFrom('line one\nline two\n', 'no end\nline') : word, tie('list'), tie('map')),
        list: fc.array(tie('value'), { maxLength: 4 }),
        map: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
      })).value;
    const file = fc.oneof(
      fc.record({ stringType: fc.constant('PLAIN' as const), config: fc.dictionary(key, configLike(true), { minKeys: 1, maxKeys: 5 }) }),
      fc.record({ stringType: fc.constant('QUOTE_SINGLE' as const), config: fc.dictionary(key, configLike(false), { minKeys: 1, maxKeys: 5 }) }),
    );
    const keyType = fc.constantFrom(null, 'PLAIN' as const, 'QUOTE_SINGLE' as const, 'QUOTE_DOUBLE' as const);
    fc.assert(
      fc.property(file, keyType, writeOptions, noise, ({ stringType, config }, defaultKeyType, options, lines) => {
        const text = withNoise(stringify(config, { ...options, defaultStringType: stringType, defaultKeyType, lineWidth: 0, minContentWidth: 0 }), lines);
        expect(agrees(text), `declined:\n${text}`).toBe(true);
      }),
      RUNS(1000),
    );
  });

  it('agrees on edits of block YAML', () => {
    const example = EXAMPLE_FILES.find((f) => f.name === 'docplane.yaml')!.text;
    const FRAGMENTS = ['- ', ': ', '  ', '\n', '#', ' #', '|', '|-', '|+', '>', '"', "'", '[', ']', '{', '}', ',', 'x', '\n  ', '\n- ', 'a: b\n', '~', '1', '&a', '*a', '!', '? ', '---\n'];
    fc.assert(
      fc.property(fc.array(fc.record({ at: fc.nat(example.length), remove: fc.nat(20), insert: fc.constantFrom(...FRAGMENTS) }), { minLength: 1, maxLength: 4 }), (edits) => {
        let text = example;
        for (const e of edits) {
          const at = e.at % (text.length + 1);
          text = text.slice(0, at) + e.insert + text.slice(at + e.remove);
        }
        agrees(text);
      }),
      RUNS(1500),
    );
  });
});
