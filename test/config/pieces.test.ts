/**
 * A large config is parsed in pieces (src/source/yaml.ts): the same values as one parse of the
 * whole file, and every position (value, key, parent) the same as the whole file's nodes give, from
 * the positions kept once the pieces' syntax trees are let go.
 */
import { describe, expect, it } from 'vitest';
import { LineCounter, parseAllDocuments, stringify, type Document } from 'yaml';
import { generate } from '../../src/bench/generate.js';
import { forgetParse, locate, locateOffset, parseFile, pieceValue, type DocPath, type SourceFile } from '../../src/source/yaml.js';

function fileOf(text: string): SourceFile {
  return { abs: '/x/docplane.yaml', display: 'docplane.yaml', rel: 'docplane.yaml', raw: Buffer.from(text), text };
}

/** Line and column of an offset, counted from the text. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const lines = new LineCounter();
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines.addNewLine(i + 1);
  const { line, col } = lines.linePos(offset);
  return { line: Math.max(1, line), column: Math.max(1, col) };
}

describe('a large config parsed in pieces', () => {
  const text = stringify(generate(2, 1).config, { lineWidth: 0 });

  it('gives the values and positions of one parse of the whole file', () => {
    expect(text.length).toBeGreaterThan(512 * 1024);
    const file = fileOf(text);
    const parsed = parseFile(file);
    expect(parsed.issues).toEqual([]);
    expect(parsed.documents).toHaveLength(1);
    const source = parsed.documents[0];
    const whole = parseAllDocuments(text, { uniqueKeys: false })[0] as Document.Parsed;
    const value = whole.toJS() as unknown;
    expect(pieceValue(source)?.value).toEqual(value);
    forgetParse(file);
    const paths: DocPath[] = [[], ['nokey'], ['members', 1_000_000], ['teams', 0, 'nokey', 'x']];
    const walk = (v: unknown, path: DocPath): void => {
      paths.push(path);
      if (Array.isArray(v)) v.forEach((x, i) => (i % 53 === 0 || i === v.length - 1) && walk(x, [...path, i]));
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    };
    walk(value, []);
    expect(paths.length).toBeGreaterThan(500);
    const differ = paths.flatMap((path) =>
      (['value', 'key', 'parent'] as const).flatMap((mode) => {
        const kept = locate(source, path, mode);
        const fromNodes = lineColumn(text, locateOffset(whole, path, mode));
        return kept.line === fromNodes.line && kept.column === fromNodes.column ? [] : [`${JSON.stringify(path)} ${mode}`];
      }),
    );
    expect(differ).toEqual([]);
    // The pieces' syntax trees are not kept: a position is read from the kept positions.
    expect(file.documents).toBeUndefined();
  });

  it('is parsed whole when a piece has a problem, which is said at its place', () => {
    // A quote opened in a list item far into the file and never closed.
    const at = text.indexOf('title: ', text.length / 2);
    const broken = `${text.slice(0, at)}title: "${text.slice(at + 'title: '.length)}`;
    const file = fileOf(broken);
    const parsed = parseFile(file);
    expect(file.values).toBeUndefined();
    expect(parsed.issues.length).toBeGreaterThan(0);
    // Said where the whole file's parse says it: in the second half of the file, not at a piece's start.
    expect(parsed.issues[0].message).toMatch(/quoted string is not closed/);
    expect(parsed.issues[0].line).toBeGreaterThanOrEqual(lineColumn(broken, at).line);
  });

  it('is parsed whole when it has an anchor', () => {
    const anchored = text.replace('organization:', 'organization: &org').replace(/\n$/, '\nx: *org\n');
    const file = fileOf(anchored);
    parseFile(file);
    expect(file.values).toBeUndefined();
    expect(file.documents).toHaveLength(1);
  });
});
