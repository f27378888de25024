/**
 * Loaded with `node --import` into the CLI process the benchmark measures: at exit it writes the
 * process's peak resident memory and CPU time to the file named by DOCPLANE_BENCH_USAGE. Its work
 * at import time (one exit listener) is its whole purpose: it is never imported by docplane itself.
 */
import { writeFileSync } from 'node:fs';

const target = process.env.DOCPLANE_BENCH_USAGE;
if (target) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    // maxRSS is in kibibytes; CPU times in microseconds.
    writeFileSync(target, JSON.stringify({ maxRssKiB: usage.maxRSS, userMs: usage.userCPUTime / 1000, systemMs: usage.systemCPUTime / 1000 }));
  });
}
