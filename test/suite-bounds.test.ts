/**
 * A test's verdict must not depend on the machine's load: these checks keep the suite's bounds where
 * load cannot reach them. Property tests are bounded by runs (and their inputs by size), never by
 * time; no test or hook lowers vitest's timeout below what a machine 4× slower meets; the property
 * seed is printed on any failure, a timeout included (test/seed.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config.js';

const ROOT = new URL('..', import.meta.url).pathname;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const abs = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : testFiles(abs);
    return /\.(test|test-support)\.ts$|^(universe|scenario|helpers)\.ts$/.test(e.name) ? [abs] : [];
  });
}

const files = [...testFiles(join(ROOT, 'src')), ...testFiles(join(ROOT, 'test'))]
  .filter((f) => !f.endsWith('suite-bounds.test.ts')).map((f) => ({ file: relative(ROOT, f), text: readFileSync(f, 'utf8') }));

describe('the suite is bounded by work, not by the clock', () => {
  it('vitest gives every test and hook at least 4 minutes', () => {
    expect(config.test?.testTimeout).toBeGreaterThanOrEqual(240_000);
    expect(config.test?.hookTimeout).toBeGreaterThanOrEqual(240_000);
  });

  it('no test or hook sets a timeout of its own below that', () => {
    const lowered = files.flatMap(({ file, text }) =>
      [...text.matchAll(/^\s*\}, (\d[\d_]*)\);$/gm)].filter((m) => Number(m[1].replaceAll('_', '')) >= 1000).map((m) => `${file}: ${m[0].trim()}`),
    );
    expect(lowered).toEqual([]);
  });

  it('no property is bounded by time (fast-check interruptAfterTimeLimit, timeout, skipAllAfterTimeLimit)', () => {
    const timed = files.filter(({ text }) => /interruptAfterTimeLimit|skipAllAfterTimeLimit|fc\.assert\([^;]*\btimeout\s*:/s.test(text)).map((f) => f.file);
    expect(timed).toEqual([]);
  });

  it('every property file draws from the seed test/seed.ts sets and prints on failure', () => {
    expect(config.test?.setupFiles).toContain('test/seed.ts');
    const seedFile = readFileSync(join(ROOT, 'test/seed.ts'), 'utf8');
    expect(seedFile).toContain('onTestFailed');
    expect(seedFile).toContain('DOCPLANE_FC_SEED=${seed}');
  });
});
