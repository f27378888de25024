/**
 * The quick read gives exactly what the yaml package gives, or declines: on random and mutated YAML,
 * whenever quickValues answers, the yaml package reads the same text without a problem and its toJS
 * gives equal values (numbers, nulls, keys, strings alike).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quickValues } from './fast-yaml.js';
import { agreesWithSlowRead, EXAMPLE_FILES, RUNS } from './quick-read.test-support.js';

const EXAMPLE = readFileSync(path.resolve(__dirname, '../../examples/docplane.yaml'), 'utf8');

/** The property: the quick read declines, or agrees with the slow one (a pass either way). */
function agrees(text: string): boolean {
  agreesWithSlowRead(quickValues, text);
  return true;
}

const FRAGMENTS = [
  '- ', ': ', '  ', '    ', '\t', '{', '}', '[', ']', ',', '&a ', '*a', '!!str ', '? ', '|', '|-', '>', '>+', '"', "'", '#', ' #', '---\n',
  '...\n', '\n', '\r\n', '~', 'null', 'Null', 'true', 'False', 'yes', '1e3', '1e999', '-.inf', '.NaN', '0x1F', '0o17', '017', '+12', '-0', '1_000',
  '0b101', '1.50', '.5', '5.', '2024-01-01', '12:30', '__proto__', 'constructor', 'version: 1\n', 'a: b\n', 'key:', 'x: y: z', '\\n', '"\\u00e9"',
  "'it''s'", '😀', 'é', '\u00a0', '@', '`', '%', '<<: ', '=', '-1', '- - a', '[a, b]', '{a: 1}', 'a:\n  - 1\n  - 2\n', '|\n  text\n', '>\n  folded\n\n  more\n',
];

/** Plain scalars that a schema could read as numbers, booleans or nulls. */
const SCALAR_CHARS = [...'0123456789+-._eEoxXabcdfinINFtTrRuUlLsS~ '];

describe('quickValues', () => {
  it('reads every example config as the yaml package does', () => {
    expect(EXAMPLE_FILES.length).toBeGreaterThan(0);
    for (const { text } of EXAMPLE_FILES) agrees(text);
    expect(quickValues(EXAMPLE)).toBeDefined();
  });

  it.each([
    ['an alias', 'a: &x 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a directive', '%YAML 1.1\n---\na: yes\n'],
    ['an explicit key', '? a\n: 1\n'],
    ['a flow collection as a key', '[a, b]: 1\n'],
    ['a flow collection as a key in a flow mapping, on the last line with no line end', 'a: 1\nb: {x: 1, [c]}'],
    ['a quoted string that goes on past the first line', "a: 'x\n  y'\n"],
    ['a comment right after a flow indicator (js-yaml reads on past the closing bracket)', 'a: {#x }\n  b: 1 }\n'],
    ['a comment inside a flow collection that hides its closing bracket', 'a:\n  - { # x }\n b: 1 }\n'],
    ['a null key', '~: 1\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a list at the top', '- a\n'],
    ['an empty document', 'a: 1\n---\n'],
    ['an empty file', ''],
    ['a syntax error', 'a: "open\n'],
    ['a key over 1024 characters', `${'k'.repeat(1025)}: 1\n`],
  ])('declines %s', (_name, text) => {
    expect(quickValues(text)).toBeUndefined();
  });

  it.each([
    ['0o17', 15],
    ['0x1F', 31],
    ['017', 17],
    ['+12', 12],
    ['-0', -0],
    ['1_000', '1_000'],
    ['0b101', '0b101'],
    ['1.50', 1.5],
    ['.inf', Number.POSITIVE_INFINITY],
    ['yes', 'yes'],
    ['~', null],
    ['2024-01-01', '2024-01-01'],
  ])('reads the plain scalar %s as the YAML 1.2 core schema does', (scalar, value) => {
    expect(quickValues(`a: ${scalar}\n`)).toStrictEqual([{ a: value }]);
    agrees(`a: ${scalar}\n`);
  });

  it('agrees on random plain scalars', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...SCALAR_CHARS), { minLength: 1, maxLength: 8 }), (chars) => agrees(`k: ${chars.join('')}\n${chars.join('')}: v\n`)),
      RUNS(2000),
    );
  });

  it('agrees on fragment soups', () => {
    fc.assert(fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }), (parts) => agrees(parts.join(''))), RUNS(3000));
  });

  it('agrees on edits of the example config', () => {
    const edit = fc.record({
      at: fc.nat(EXAMPLE.length),
      remove: fc.nat(30),
      insert: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 10 })),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 5 }), (edits) => {
        let text = EXAMPLE;
        for (const e of edits) {
          const at = e.at % (text.length + 1);
          text = text.slice(0, at) + e.insert + text.slice(at + e.remove);
        }
        return agrees(text);
      }),
      RUNS(1500),
    );
  });
});
