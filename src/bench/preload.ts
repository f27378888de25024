/**
 * Loaded with `node --import` into the CLI process the benchmark measures: at exit it writes the
 * process's peak resident memory and CPU time to the file named by DOCPLANE_BENCH_USAGE, and when its
 * requests went out and came back (undici's diagnostics channels), so that the report can say where
 * a run's wall time went. Its work at import time (two subscriptions, one exit listener) is its whole
 * purpose: it is never imported by docplane itself.
 */
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';

const target = process.env.DOCPLANE_BENCH_USAGE;
if (target) {
  // Milliseconds since the process began (performance's time origin).
  let firstRequestMs: number | undefined;
  let lastAnswerMs: number | undefined;
  subscribe('undici:client:sendHeaders', () => {
    firstRequestMs ??= performance.now();
  });
  subscribe('undici:request:trailers', () => {
    lastAnswerMs = performance.now();
  });
  process.on('exit', () => {
    const usage = process.resourceUsage();
    const timeline = firstRequestMs === undefined || lastAnswerMs === undefined ? undefined : { firstRequestMs, lastAnswerMs, exitEventMs: performance.now() };
    // maxRSS is in kibibytes; CPU times in microseconds.
    writeFileSync(target, JSON.stringify({ maxRssKiB: usage.maxRSS, userMs: usage.userCPUTime / 1000, systemMs: usage.systemCPUTime / 1000, timeline }));
  });
}
