// Prints the conformance report of an emulator log. Runs only when asked:
//   CONFORMANCE_LOG=/tmp/conf.log npx vitest run test/conformance/report.test.ts
// Array indices in pointers are collapsed to `*` unless CONFORMANCE_EXACT=1.
// With CONFORMANCE_STRICT=1 it fails on any problem the allow-list does not cover.
import { describe, expect, it } from 'vitest';
import { createRecorder, readExchangeLog } from './recorder.js';
import { renderReport } from './report.js';

const file = process.env.CONFORMANCE_LOG;

describe.skipIf(!file)('conformance report of CONFORMANCE_LOG', () => {
  it('reads the log, checks every exchange and prints the problems by operation', async () => {
    const recorder = createRecorder();
    for (const exchange of await readExchangeLog(file!)) recorder.record(exchange);
    const summary = recorder.summary();
    const counts = recorder.problemCounts({ collapseIndices: process.env.CONFORMANCE_EXACT !== '1' });
    console.log(renderReport(counts, summary));
    expect(summary.exchanges).toBeGreaterThan(0);
    expect(summary.operations).toBeGreaterThan(0);
    if (process.env.CONFORMANCE_STRICT === '1') expect(counts.map((c) => c.problem)).toEqual([]);
  });
});
