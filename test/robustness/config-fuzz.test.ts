/**
 * A fuzz test of the config loader: whatever the bytes of a config file — random bytes, YAML-ish
 * token soup, mutations of a real config, deep nesting, huge strings, alias bombs, mappings with a
 * great many keys — loadConfig either loads it or throws a ConfigError whose problems each point at
 * a place of the file; never another exception, never a crash, and within bounds of time and memory
 * (safety bounds, not performance goals). fast-check prints the seed on failure; rerun one with
 * DOCPLANE_FC_SEED=<seed>.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/core/errors.js';

const ROOT = new URL('../../', import.meta.url).pathname;

// A copy of the example config with the files it references, so that mutations keep their ${file:…}.
const dir = mkdtempSync(join(tmpdir(), 'docplane-fuzz-'));
for (const part of ['docplane.yaml', 'certs', 'integrations']) cpSync(join(ROOT, 'examples', part), join(dir, part), { recursive: true });
const EXAMPLE = readFileSync(join(dir, 'docplane.yaml'), 'utf8');
const FILE = join(dir, 'fuzz.yaml');
const ENV = { ANALYTICS_KEY: 'fuzz-secret' };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Outcome = { kind: 'loaded' } | { kind: 'config-error'; error: ConfigError } | { kind: 'other'; error: unknown };

async function load(content: string | Uint8Array): Promise<Outcome> {
  writeFileSync(FILE, content);
  try {
    await loadConfig({ path: FILE, cwd: dir, env: ENV });
    return { kind: 'loaded' };
  } catch (error) {
    return error instanceof ConfigError ? { kind: 'config-error', error } : { kind: 'other', error };
  }
}

/** Loaded, or a ConfigError whose every problem has a file and a position: nothing else. */
function expectClean(outcome: Outcome): void {
  if (outcome.kind === 'other') {
    const e = outcome.error as Error;
    throw new Error(`loadConfig threw ${e?.constructor?.name ?? typeof e} instead of a ConfigError: ${e?.message ?? String(e)}`);
  }
  if (outcome.kind === 'config-error') {
    expect(outcome.error.issues.length).toBeGreaterThan(0);
    for (const issue of outcome.error.issues) {
      expect(issue.file).toBe('fuzz.yaml');
      expect(issue.line).toBeGreaterThanOrEqual(1);
      expect(issue.column).toBeGreaterThanOrEqual(1);
      expect(issue.message.length).toBeGreaterThan(0);
      // Messages name the problem; they do not echo a huge value back.
      expect(issue.message.length).toBeLessThan(2000);
    }
  }
}

/** Peak memory (resident set) of this process, in MiB. */
function peakMiB(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/**
 * Loads `content`, expecting a ConfigError; fails when the load takes more than `seconds` of this
 * process's CPU (not of the wall: other processes on a loaded machine do not count) or raises its
 * peak memory by more than `mib`.
 */
async function expectBoundedError(content: string, bounds: { seconds: number; mib: number }): Promise<ConfigError> {
  const peakBefore = peakMiB();
  const began = process.cpuUsage();
  const outcome = await load(content);
  const used = process.cpuUsage(began);
  const seconds = (used.user + used.system) / 1e6;
  expectClean(outcome);
  expect(outcome.kind).toBe('config-error');
  expect(seconds, 'seconds of CPU to load').toBeLessThan(bounds.seconds);
  expect(peakMiB() - peakBefore, 'MiB of memory above the peak before').toBeLessThan(bounds.mib);
  return (outcome as { error: ConfigError }).error;
}

const BOUNDS = { seconds: 15, mib: 768 };

describe('the config loader on hostile input', () => {
  // The heavy cases first, while this process's peak memory is low, so that a new peak is seen.
  it('an anchored list of 2,000 items aliased 900 times (under the alias count limit): a clean error, not 1.8 million items', async () => {
    const big = Array.from({ length: 2_000 }, (_, i) => `{user: u${i}@x.example, role: read}`).join(', ');
    const teams = Array.from({ length: 900 }, (_, i) => `{title: t${i}, members: *big}`).join(', ');
    const error = await expectBoundedError(`version: 1\norganization: {id: org_x}\nmembers: &big [${big}]\nteams: [${teams}]\n`, BOUNDS);
    expect(error.issues.map((i) => i.message).join('\n')).toMatch(/alias/);
  });

  it('the same list aliased into an unknown key 900 times: a clean error', async () => {
    const big = Array.from({ length: 2_000 }, (_, i) => `{user: u${i}@x.example, role: read}`).join(', ');
    await expectBoundedError(`version: 1\norganization: {id: org_x}\nx: &big [${big}]\nmembers: [${Array(900).fill('*big').join(', ')}]\n`, BOUNDS);
  });

  it('a billion laughs: a clean error naming the aliases', async () => {
    const levels = 'abcdefghi'.split('');
    let bomb = 'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n';
    for (let i = 1; i < levels.length; i++) bomb += `${levels[i]}: &${levels[i]} [${Array(9).fill(`*${levels[i - 1]}`).join(', ')}]\n`;
    const error = await expectBoundedError(`version: 1\norganization: {id: org_x}\n${bomb}`, BOUNDS);
    expect(error.issues[0].message).toMatch(/alias/);
  });

  it('a mapping with 200,000 keys: a clean error in bounded time (no quadratic duplicate-key or position search)', async () => {
    const keys = Array.from({ length: 200_000 }, (_, i) => `k${i}: ${i}`).join('\n');
    const error = await expectBoundedError(`version: 1\norganization: {id: org_x}\n${keys}\n`, BOUNDS);
    expect(error.issues[0].message).toMatch(/unknown key/);
  });

  it('5,000 bad members: a clean error listing a bounded number of problems', async () => {
    const members = Array.from({ length: 5_000 }, () => '{user: 1, role: nope}').join(', ');
    const error = await expectBoundedError(`version: 1\norganization: {id: org_x}\nmembers: [${members}]\n`, BOUNDS);
    expect(error.issues[0]).toMatchObject({ line: 3 });
    expect(error.issues.length).toBeLessThanOrEqual(1000);
  });

  it('a duplicate key among many is still reported, at the second one', async () => {
    const keys = Array.from({ length: 5_000 }, (_, i) => `  k${i}: v`).join('\n');
    const error = await expectBoundedError(`version: 1\norganization:\n  id: org_x\n${keys}\n  k17: again\n`, BOUNDS);
    expect(error.issues.some((i) => i.line === 5004 && /twice/.test(i.message))).toBe(true);
  });

  it('a string of 2 MB: a clean error that does not echo the value', async () => {
    const error = await expectBoundedError(`version: 1\norganization: {id: org_x, title: "${'x'.repeat(2_000_000)}"}\n`, BOUNDS);
    expect(error.issues[0].message).toMatch(/at most 255/);
  });

  it('a key of 2 MB: a clean error', async () => {
    await expectBoundedError(`version: 1\norganization: {id: org_x}\n${'k'.repeat(2_000_000)}: 1\n`, BOUNDS);
  });

  it('a file of 40 MB: refused as too large for a config, without parsing it', async () => {
    const filler = `# ${'padding '.repeat(12)}\n`.repeat(Math.ceil(40_000_000 / 100));
    const error = await expectBoundedError(`version: 1\norganization: {id: org_x}\n${filler}`, { seconds: 5, mib: 256 });
    expect(error.issues[0].message).toMatch(/too large/);
  });

  for (const [name, text] of [
    ['flow sequences nested 100,000 deep, unclosed', '['.repeat(100_000)],
    ['flow sequences nested 20,000 deep', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
    ['flow mappings nested 20,000 deep', `${'{a: '.repeat(20_000)}1${'}'.repeat(20_000)}`],
    ['block sequences nested 3,000 deep', Array.from({ length: 3_000 }, (_, i) => `${' '.repeat(i)}- `).join('\n')],
    [
      'collections nested 2,000 deep',
      `version: 1\norganization: {id: org_x}\ncollections:\n${Array.from({ length: 2_000 }, (_, i) => `${'    '.repeat(i)}  - title: c${i}\n${'    '.repeat(i)}    collections:`).join('\n')}\n`,
    ],
  ] as const) {
    it(`${name}: a clean error (no stack overflow)`, async () => {
      await expectBoundedError(text, BOUNDS);
    });
  }

  it('random bytes: a ConfigError, never another exception (200 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), async (bytes) => {
        const outcome = await load(bytes);
        expectClean(outcome);
        expect(outcome.kind).toBe('config-error');
      }),
      { numRuns: 200 },
    );
  });

  const TOKENS = [
    'version: 1\n', 'organization:\n', '  id: org_x\n', 'teams:\n', '  - title: T\n', '    members: [a@x.example]\n', 'members:\n',
    '  - { user: a@x.example, role: admin }\n', 'collections:\n', '  - title: C\n', '    collections:\n', 'sites:\n', '  - id: s\n',
    '    sections:\n', '      - { path: p, title: Pp, space: sp }\n', 'prune: all\n', 'safety: { maxDeletes: -1 }\n', 'protect: ["teams[\\"x\\"]"]\n',
    '&a ', '*a ', '!!str ', '!!binary ', '!custom ', '<<: ', '? ', ': ', '- ', '[', ']', '{', '}', ',', '"', "'", '|\n', '>-\n', '#', '\t', '\r\n',
    '\n', '  ', '---\n', '...\n', '${env:X}', '${file:../x}', '${file:certs/okta.pem}', '${', '\u0000', '\uFEFF', '😀', '\\u00e9', 'null', '~', '0x1F',
    '1e309', '-.inf', '.nan', 'yes', 'on', '2024-01-01', '%YAML 1.1\n', '%TAG ! tag:x:\n', '@', '`',
  ];

  it('YAML-ish token soup: loaded or a ConfigError (300 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }), async (tokens) => {
        expectClean(await load(tokens.join('')));
      }),
      { numRuns: 300 },
    );
  });

  it('mutations of the example config: loaded or a ConfigError (100 runs; each commit draws others)', async () => {
    const edit = fc.record({
      at: fc.nat(EXAMPLE.length),
      remove: fc.nat(40),
      insert: fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 12 }), fc.constant('')),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 6 }), async (edits) => {
        let text = EXAMPLE;
        for (const e of edits) {
          const at = Math.min(e.at, text.length);
          text = text.slice(0, at) + e.insert + text.slice(at + e.remove);
        }
        expectClean(await load(text));
      }),
      { numRuns: 100 },
    );
  });

  it('the example config itself loads (the mutations start from a valid config)', async () => {
    expect((await load(EXAMPLE)).kind).toBe('loaded');
  });
});
