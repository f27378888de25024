#!/usr/bin/env node
// `npm run bench [-- --scale N --seed N --latency MS --concurrency N --cpu-scale N --rate-limit N[/Ss] --fault-seeds N
//   --memory-scale N --out FILE --profile DIR --formulas]`:
// a thin runner of the benchmark compiled to dist/bench (see docs/benchmarks.md).
import { parseArgs } from 'node:util';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const USAGE = `npm run bench [-- OPTIONS]: request counts against the least formulas, wall time, CPU and peak memory
of every workflow against the emulator (docs/benchmarks.md). Options, each with its default:
  --scale N           the world's size (1)                 --seed N             the world's seed (1)
  --latency MS        the emulator's latency (20)          --concurrency N      the CLI's (16)
  --cpu-scale N       the CPU run's scale (5, or less)     --rate-limit N[/Ss]  the rate-limited apply (500/10s; 0: none)
  --fault-seeds N     fault-injection runs (3)             --memory-scale N     the memory run's scale (4; 0: none)
  --out FILE          the JSON report (bench-results/latest.json)
  --profile DIR       CPU profiles of the CLI's runs       --formulas           print the least formulas
  --help              this text`;
let values;
try {
  ({ values } = parseArgs({
    options: {
      help: { type: 'boolean', short: 'h', default: false },
      scale: { type: 'string', default: '1' },
      seed: { type: 'string', default: '1' },
      latency: { type: 'string', default: '20' },
      concurrency: { type: 'string', default: '16' },
      // The CPU target is for a scale-5 config; a quick run (scale below 1) measures a smaller one.
      'cpu-scale': { type: 'string' },
      out: { type: 'string', default: join(root, 'bench-results/latest.json') },
      profile: { type: 'string' },
      formulas: { type: 'boolean', default: false },
      // The rate-limited apply: N per second, or N/Ss (a window; an emulator without windows gets N ÷ S per second); 0 leaves it out.
      'rate-limit': { type: 'string', default: '500/10s' },
      'fault-seeds': { type: 'string', default: '3' },
      // The memory scenario's scale (an apply from empty, no latency); 0 leaves it out.
      'memory-scale': { type: 'string', default: '4' },
    },
  }));
} catch (err) {
  // An unknown or malformed option: one line, the usage, exit 1.
  console.error(`bench: ${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
  process.exit(1);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const number = (name) => {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`bench: --${name} must be a number, not ${values[name]}`);
    process.exit(1);
  }
  return n;
};

const { runBench } = await import('../dist/bench/run.js');
const { formatFormulas } = await import('../dist/bench/report.js');
try {
  const report = await runBench({
    root,
    scale: number('scale'),
    seed: number('seed'),
    latencyMs: number('latency'),
    concurrency: number('concurrency'),
    cpuScale: values['cpu-scale'] === undefined ? Math.min(5, 5 * number('scale')) : number('cpu-scale'),
    outFile: values.out,
    profileDir: values.profile,
    rateLimit: values['rate-limit'],
    faultSeeds: number('fault-seeds'),
    memoryScale: number('memory-scale'),
    log: (line) => console.log(line),
  });
  if (values.formulas) console.log(`\n${formatFormulas(report)}`);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
