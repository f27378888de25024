/**
 * Numbers and lists the docs state about the program come from the program: request counts from the
 * bench's formulas (src/bench/least.ts over the generated world at scale 1, seed 1), the plan format's
 * kinds from the registry.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/bench/generate.js';
import { leastImportReads, leastReads, leastWritesFromEmpty } from '../../src/bench/least.js';
import { KINDS } from '../../src/kinds/index.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const doc = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/\s+/g, ' ');
const n = (s: string) => Number(s.replaceAll(',', ''));

/** Every number the pattern captures in the file (at least one: a pattern that finds nothing is stale). */
function stated(file: string, pattern: RegExp): number[] {
  const found = [...doc(file).matchAll(new RegExp(pattern.source, 'g'))].map((m) => n(m[1]));
  expect(found.length, `${file}: ${pattern}`).toBeGreaterThan(0);
  return found;
}

describe('request counts in the docs', () => {
  const { counts } = generate(1, 1);
  const plan = leastReads(counts, true).requests.total;
  const fromEmpty = leastReads(counts, false).requests.total;
  const importing = leastImportReads(counts).requests.total;

  it('a whole plan at scale 1 reads what leastReads says, wherever a doc says it', () => {
    const claims = [
      ...stated('README.md', /instead of ([\d,]+) for a 3-entry change/),
      ...stated('docs/pull-request-plans.md', /every list the config needs — ([\d,]+) requests/),
      ...stated('docs/pull-request-plans.md', /\| `docplane plan` \| ([\d,]+) \|/),
      ...stated('docs/benchmarks.md', /the reads of a plan \(([\d,]+) at scale 1\)/),
      ...stated('docs/benchmarks.md', /plan \*\*([\d,]+)\*\* \(no changes/),
      ...stated('docs/benchmarks.md', /\(installations and OpenAPI specs, below\) = \*\*([\d,]+)\*\*/),
      ...stated('docs/benchmarks.md', /([\d,]+) ÷ 16 → \*\*\d+ round trips\*\* \(\d/),
    ];
    expect(new Set(claims)).toEqual(new Set([plan]));
  });

  it('a plan from empty and an import read what the formulas say', () => {
    expect(stated('docs/benchmarks.md', /a plan from empty [^*]* = \*\*([\d,]+)\*\*/)).toEqual([fromEmpty]);
    expect(stated('docs/benchmarks.md', /\), import \*\*([\d,]+)\*\*/)).toEqual([importing]);
  });

  it("benchmarks.md's measured table says its least, and the prose says how they differ from today's", () => {
    const apply = fromEmpty + leastWritesFromEmpty(counts).terms.reduce((a, t) => a + t.n, 0) + plan;
    expect(stated('docs/benchmarks.md', /306 \+ 4,223 \+ 811 = \*\*([\d,]+)\*\*/)).toEqual([apply]);
    const then = doc('docs/benchmarks.md').match(
      /the least of a plan is ([\d,]+) \(the formula now gives ([\d,]+)\), of an apply from empty ([\d,]+) \(now ([\d,]+)\) and of an import ([\d,]+) \(now ([\d,]+)\)/,
    );
    expect(then, 'the sentence before the table').not.toBeNull();
    const [planThen, planNow, applyThen, applyNow, importThen, importNow] = then!.slice(1).map(n);
    expect([planNow, applyNow, importNow]).toEqual([plan, apply, importing]);
    // The table's rows: scenario, requests, least, … (the first table after that sentence).
    const table = readFileSync(join(ROOT, 'docs/benchmarks.md'), 'utf8').split('The table below is that earlier run')[1] ?? '';
    const least = (scenario: string) => {
      const row = table.match(new RegExp(`^${scenario.replace(/[()]/g, '\\$&')} +\\d+ +(\\d+) `, 'm'));
      expect(row, scenario).not.toBeNull();
      return Number(row![1]);
    };
    for (const scenario of ['plan, no changes', 'plan, 5% drift', 'PR: plan --out (1%)']) expect(least(scenario), scenario).toBe(planThen);
    expect(least('apply from empty')).toBe(applyThen);
    expect(least('import')).toBe(importThen);
  });
});

describe('docs/plan-format.md', () => {
  it("lists a step's kinds as the registry has them, in its order", () => {
    const row = doc('docs/plan-format.md').match(/\| `kind` \| string \| One of ([^|]*)\|/);
    expect(row).not.toBeNull();
    expect([...row![1].matchAll(/`([^`]+)`/g)].map((m) => m[1])).toEqual([...KINDS]);
  });
});
