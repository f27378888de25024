/**
 * Entry of the child process that measures the CPU of validate + diff (see cpu.ts): a fresh process,
 * so that the first load and the first plan are as cold as in a CLI run. Prints the measure as JSON.
 * Run as `node dist/bench/cpu-child.js SCALE SEED`; it does its work only when run that way.
 */
import { pathToFileURL } from 'node:url';
import { measurePlannerCpu } from './cpu.js';

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [scale, seed] = process.argv.slice(2).map(Number);
  const result = await measurePlannerCpu(scale, seed);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
