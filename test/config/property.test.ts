/**
 * Random and mutated YAML fed to the loader: it either loads or throws a ConfigError (never another
 * error, never a hang). Runs are bounded; the vitest timeout is the guard against a hang.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { loadConfig } from '../../src/config/load.js';
import { tempDir } from './helpers.js';
import type { TempDir } from './helpers.js';

const EXAMPLES = path.resolve(__dirname, '../../examples');
const EXAMPLE = readFileSync(path.join(EXAMPLES, 'docplane.yaml'), 'utf8');
const LINES = EXAMPLE.split('\n');

/** Loads `text` as the config and says how it ended. */
async function outcome(t: TempDir, text: string | Buffer): Promise<'loaded' | 'refused'> {
  writeFileSync(path.join(t.dir, 'docplane.yaml'), text);
  try {
    await loadConfig({ cwd: t.dir, env: {} });
    return 'loaded';
  } catch (e) {
    if (e instanceof ConfigError) {
      // Every problem is positioned inside the file.
      for (const issue of e.issues) {
        expect(issue.line).toBeGreaterThanOrEqual(1);
        expect(issue.column).toBeGreaterThanOrEqual(1);
        expect(issue.message.length).toBeGreaterThan(0);
      }
      return 'refused';
    }
    throw e;
  }
}

/** YAML-ish fragments that trip parsers: indentation, flow, anchors, tags, interpolation. */
const FRAGMENTS = [
  '- ', ': ', '  ', '\t', '{', '}', '[', ']', ',', '&a ', '*a', '!!str ', '!!binary ', '? ', '|', '>', '"', "'", '#', '---\n', '...\n',
  '${env:X}', '${file:../x}', '$${', '${', '~', 'null', 'true', '1e999', '-.inf', '0x1F', '__proto__: 1\n', 'version: 1\n', '%YAML 1.1\n',
  '<<: *a\n', 'organization:\n  id: org_acme\n', '\u0000', '\uFEFF', '\r\n', '😀',
];

type Mutation = { kind: 'delete' | 'duplicate' | 'swap' | 'indent' | 'insert' | 'replace'; line: number; other: number; text: string; depth: number };

function mutate(lines: string[], m: Mutation): string[] {
  const out = [...lines];
  const i = m.line % out.length;
  const j = m.other % out.length;
  switch (m.kind) {
    case 'delete':
      out.splice(i, 1);
      break;
    case 'duplicate':
      out.splice(i, 0, out[i]);
      break;
    case 'swap':
      [out[i], out[j]] = [out[j], out[i]];
      break;
    case 'indent':
      out[i] = m.depth % 2 === 0 ? ' '.repeat(m.depth) + out[i] : out[i].replace(/^ {1,4}/, '');
      break;
    case 'insert': {
      const at = m.other % (out[i].length + 1);
      out[i] = out[i].slice(0, at) + m.text + out[i].slice(at);
      break;
    }
    case 'replace': {
      // Keep the key, change the value.
      const colon = out[i].indexOf(': ');
      out[i] = colon >= 0 ? `${out[i].slice(0, colon + 2)}${m.text}` : m.text;
      break;
    }
  }
  return out;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('delete', 'duplicate', 'swap', 'indent', 'insert', 'replace'),
  line: fc.nat(),
  other: fc.nat(),
  text: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 12 }), fc.integer().map(String)),
  depth: fc.integer({ min: 0, max: 9 }),
});

describe('the loader on random and mutated YAML', () => {
  let t: TempDir;
  beforeAll(() => {
    t = tempDir();
    // The example's ${file:…} references resolve in the copy.
    cpSync(path.join(EXAMPLES, 'certs'), path.join(t.dir, 'certs'), { recursive: true });
    cpSync(path.join(EXAMPLES, 'integrations'), path.join(t.dir, 'integrations'), { recursive: true });
  });
  afterAll(() => t.cleanup());

  it('loads the example itself (the base of the mutations)', async () => {
    expect(await outcome(t, EXAMPLE)).toBe('loaded');
  });

  it('mutations of examples/docplane.yaml load or are refused with a ConfigError', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (ms) => {
        const text = ms.reduce(mutate, LINES).join('\n');
        seen.add(await outcome(t, text));
      }),
      { numRuns: 100 },
    );
    // Both ends are reached: the mutations are neither all harmless nor all fatal.
    expect(seen).toEqual(new Set(['loaded', 'refused']));
  });

  it('arbitrary strings and fragment soups are refused with a ConfigError', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.array(fc.constantFrom(...FRAGMENTS, 'a', 'b', '\n', ' '), { maxLength: 60 }).map((parts) => parts.join('')),
        ),
        async (text) => {
          await outcome(t, text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('arbitrary bytes are refused with a ConfigError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
        expect(await outcome(t, Buffer.from(bytes))).toBe('refused');
      }),
      { numRuns: 200 },
    );
  });

  it('arbitrary JSON-like values under the known keys are refused or loaded, never crash', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom('version', 'organization', 'members', 'teams', 'collections', 'spaces', 'sites', 'saml', 'integrations', 'translations', 'prune', 'safety', 'protect', 'api'),
          fc.jsonValue({ maxDepth: 3 }),
        ),
        async (doc) => {
          await outcome(t, JSON.stringify({ version: 1, organization: { id: 'org_x' }, ...doc }));
        },
      ),
      { numRuns: 300 },
    );
  });
});
