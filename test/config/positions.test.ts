/**
 * Positions kept from the one parse (src/source/yaml.ts): once a file's values are taken and its
 * syntax tree let go, every position (value, key, parent) is the one the nodes gave, and asking for
 * one parses nothing again.
 */
import { describe, expect, it } from 'vitest';
import { LineCounter, parseAllDocuments, stringify, type Document } from 'yaml';
import { generate } from '../../src/bench/generate.js';
import { forgetParse, locate, locateOffset, parseFile, type DocPath, type SourceFile } from '../../src/source/yaml.js';

function fileOf(text: string): SourceFile {
  return { abs: '/x/docplane.yaml', display: 'docplane.yaml', rel: 'docplane.yaml', raw: Buffer.from(text), text };
}

/** Line and column of an offset, counted from the text. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const lines = new LineCounter();
  lines.addNewLine(0);
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines.addNewLine(i + 1);
  const { line, col } = lines.linePos(offset);
  return { line: Math.max(1, line), column: Math.max(1, col) };
}

describe('positions kept from the one parse', () => {
  const cases: Array<[string, string]> = [
    ['a generated config', stringify(generate(0.2, 1).config, { lineWidth: 0 })],
    ['anchors, empty values, flow collections', 'version: 1\norganization: &o\n  id: org_a\n  title:\nteams:\n  - title: A\n    members: [a@x.io, b@x.io]\n  - *o\n  -\nx: { y: 1, z: }\n'],
  ];
  for (const [name, text] of cases) {
    it(`${name}: every position is the nodes' one, and none parses the file again`, () => {
      const file = fileOf(text);
      const parsed = parseFile(file);
      expect(parsed.issues).toEqual([]);
      const source = parsed.documents[0];
      const whole = parseAllDocuments(text, { uniqueKeys: false })[0] as Document.Parsed;
      forgetParse(file);
      expect(file.documents).toBeUndefined();
      const paths: DocPath[] = [[], ['nokey'], ['teams', 1_000], ['teams', 0, 'nokey', 'x'], ['teams', 'x'], ['teams', 1, 'id'], ['teams', 2, 'x'], ['organization', 'title', 'x']];
      const walk = (v: unknown, path: DocPath): void => {
        paths.push(path);
        if (Array.isArray(v)) v.forEach((x, i) => (i % 7 === 0 || i === v.length - 1) && walk(x, [...path, i]));
        else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
      };
      walk(whole.toJS(), []);
      const differ = paths.flatMap((path) =>
        (['value', 'key', 'parent'] as const).flatMap((mode) => {
          const kept = locate(source, path, mode);
          const fromNodes = lineColumn(text, locateOffset(whole, path, mode));
          return kept.line === fromNodes.line && kept.column === fromNodes.column ? [] : [`${JSON.stringify(path)} ${mode}`];
        }),
      );
      expect(differ).toEqual([]);
      expect(paths.length).toBeGreaterThan(10);
      expect(file.documents).toBeUndefined();
    });
  }
});
