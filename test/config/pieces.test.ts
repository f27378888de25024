/**
 * A large config file read a piece at a time (src/source/yaml.ts valueInPieces): the same value as
 * the whole file's, or no value at all (the whole file is then read, and every problem placed as
 * always) — never another value.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { generate } from '../../src/bench/generate.js';
import { writeConfig } from '../../src/bench/world-io.js';
import { loadConfig } from '../../src/config/load.js';
import { PIECES_FROM_CHARS, valueInPieces } from '../../src/source/yaml.js';

const dir = mkdtempSync(join(tmpdir(), 'docplane-pieces-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The whole file's value, or undefined when the whole file has an error (or is not one document). */
function whole(text: string): unknown {
  const docs = parseAllDocuments(text, { uniqueKeys: false, logLevel: 'silent' });
  if (!Array.isArray(docs) || docs.length !== 1 || docs[0].errors.length > 0) return undefined;
  return docs[0].toJS();
}

describe('reading a large file in pieces', () => {
  it('gives the whole file’s value for a generated config and the example config’s lists', () => {
    const text = readFileSync(writeConfig(generate(1, 7), join(dir, 'gen')), 'utf8');
    expect(whole(text)).toBeDefined();
    expect(valueInPieces(text)).toEqual(whole(text));
    const lists = 'version: 1\norganization:\n  id: org_a # the org\n\nmembers:\n# a comment at column 0\n- alice@a.io\n- {user: bob@a.io, role: admin}\nteams:\n  - title: Eng\n    members:\n      - alice@a.io\n\n  - title: "Ops: on call"\n    members: [bob@a.io]\nsites:\n  - title: Docs\n    agentInstructions: |\n      Be brief.\n\n      - not an entry\n  - title: \'Two\n      lines\'\n';
    expect(whole(lists)).toBeDefined();
    expect(valueInPieces(lists)).toEqual(whole(lists));
  });

  it('gives the whole file’s value, or none, for lists of awkward entries (property, 300 runs)', () => {
    const scalar = fc.oneof(
      fc.constantFrom('plain', 'a: b', '- x', '"q"', "'s'", '#c', 'x # y', '', ' lead', 'multi\nline', 'tab\there', '[1, 2]', '{a: 1}', '|', '>', 'null', '12', 'true', '\r'),
      fc.string({ maxLength: 12 }),
    );
    const entry = fc.tuple(scalar, scalar, fc.constantFrom('plain', 'json', 'block')).map(([a, b, style]) =>
      style === 'json' ? `  - {title: ${JSON.stringify(a)}, note: ${JSON.stringify(b)}}` : style === 'block' ? `  - title: ${JSON.stringify(a)}\n    note: |\n      ${b.replace(/\n/g, '\n      ')}` : `  - title: ${a}\n    note: ${b}`,
    );
    let read = 0;
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), fc.array(entry, { maxLength: 4 }), (teams, sites) => {
        const text = `version: 1\norganization:\n  id: org_a\nteams:\n${teams.join('\n')}\nsites:\n${sites.join('\n')}\n`;
        const got = valueInPieces(text);
        // Read in pieces only what the whole file reads without error, and as it reads it.
        if (got !== undefined) expect(got).toEqual(whole(text));
        if (got !== undefined) read++;
      }),
      { numRuns: 300 },
    );
    // The property holds of files read in pieces, not only of files sent to the whole read.
    expect(read).toBeGreaterThan(30);
  });

  it('gives no value where a piece could read otherwise than the whole file', () => {
    const org = 'version: 1\norganization:\n  id: org_a\n';
    for (const text of [
      `${org}teams:\n  - &t {title: A}\n  - *t\n`, // an anchor and an alias
      `${org}teams:\n  - !!map {title: A}\n`, // a tag
      `${org}---\nversion: 1\n`, // a second document
      `${org}teams:\n  - title: A\nteams:\n  - title: B\n`, // a key written twice
      `${org}teams:\n  - title: A\n    title: B\n`, // a duplicate key inside a piece
      `${org}teams:\n  - title: "A\n - title: B"\n`, // a quoted value over lines, cut by the splitting
      `${org}teams:\n  - title: A\n - title: B\n`, // an entry less indented than the first
      `${org}teams: [\n{title: A}]\n`, // a flow value continued at column 0
      '- version: 1\n', // not a mapping
      '',
    ]) {
      expect(valueInPieces(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('reads only the wanted top-level keys: one not wanted is skipped unread, but still counts once', () => {
    const org = 'version: 1\norganization:\n  id: org_a\n';
    const keep = (key: string) => key !== 'teams';
    // A problem inside a key not wanted is not seen: that key is never parsed.
    expect(valueInPieces(`${org}teams:\n  - title: "A\n - title: B"\nprune: [teams]\n`, keep)).toEqual({ version: 1, organization: { id: 'org_a' }, prune: ['teams'] });
    // Wanted or not, a key written twice sends the file to the whole read.
    expect(valueInPieces(`${org}teams:\n  - title: A\nteams:\n  - title: B\n`, keep)).toBeUndefined();
    expect(valueInPieces(`${org}teams: [a]\nteams:\n  - title: B\n`, keep)).toBeUndefined();
    // A file with none of the wanted keys has an empty value, not none.
    expect(valueInPieces('teams:\n  - title: A\n', keep)).toEqual({});
    // Everything wanted (the default) is the whole value.
    expect(valueInPieces(`${org}teams:\n  - title: A\n`)).toEqual({ version: 1, organization: { id: 'org_a' }, teams: [{ title: 'A' }] });
  });

  it('a large config read in pieces still places a problem found after reading at its line (its text decoded again)', async () => {
    const file = writeConfig(generate(3, 4), join(dir, 'named-twice'));
    const text = readFileSync(file, 'utf8');
    // A second team of an existing title, as the last entry of the teams list.
    const first = text.indexOf('\n  - title: Team 0001\n') + 1;
    expect(first).toBeGreaterThan(0);
    const end = text.indexOf('\ncollections:\n');
    const twice = `${text.slice(0, end)}\n  - title: Team 0001${text.slice(end)}`;
    writeFileSync(file, twice);
    expect(valueInPieces(twice)).toBeDefined();
    const line = (offset: number) => twice.slice(0, offset).split('\n').length;
    const error = await loadConfig({ path: file, env: {} }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    // Both places, each at its own line: the first entry's and the one added at the list's end.
    expect(error?.message).toContain(`docplane.yaml:${line(first)}:5: teams[1]: teams["Team 0001"] is defined twice: here and at`);
    expect(error?.message).toContain(`docplane.yaml:${line(end) + 1}:5`);
  });

  it('a large config with a problem is read whole, and the problem is at its line', async () => {
    const file = writeConfig(generate(3, 2), join(dir, 'big'));
    const text = readFileSync(file, 'utf8');
    expect(text.length).toBeGreaterThanOrEqual(PIECES_FROM_CHARS);
    // A duplicate key in the middle of the members list.
    const at = text.indexOf('\n  - user: ', text.length >> 2) + 1;
    const broken = `${text.slice(0, at)}  - user: dup@bench.example\n    role: read\n    role: edit\n${text.slice(at)}`;
    const line = broken.slice(0, at).split('\n').length + 2;
    writeFileSync(file, broken);
    await expect(loadConfig({ path: file, env: {} })).rejects.toThrow(new RegExp(`docplane\\.yaml:${line}:5: .*(duplicate|twice|more than once)`, 'i'));
  });
});
