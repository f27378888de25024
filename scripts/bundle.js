#!/usr/bin/env node
// Bundles the compiled CLI (dist/, from tsc) into dist/bundle/ with rolldown: the entry
// (src/cli/main.ts), each command and the hook, their shared code in a few chunks. A plan then opens
// 17 files of code instead of ~450 (docplane's modules, @oclif/core, zod, js-yaml, …): a cold plan at
// scale 1 took 1.62 s of CPU against 1.83 s (docs/benchmarks.md, "CPU"). package.json's `oclif`
// section points at the bundled commands and hook; bin/run.js runs the bundled entry.
//
// Left out of the bundle: Node's own modules; the packages docplane loads only when needed, through
// createRequire (the yaml package, for a problem's position; ora, on a terminal); and TypeScript,
// which @oclif/core asks for only to run commands from .ts sources.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'rolldown';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const out = join(dist, 'bundle');
rmSync(out, { recursive: true, force: true });

const input = { main: join(dist, 'cli/main.js'), 'hooks/not-found': join(dist, 'cli/not-found.js') };
for (const file of readdirSync(join(dist, 'commands'))) {
  if (file.endsWith('.js')) input[`commands/${file.slice(0, -3)}`] = join(dist, 'commands', file);
}

await build({
  input,
  platform: 'node',
  external: [/^node:/, 'typescript'],
  output: { dir: out, format: 'esm', chunkFileNames: 'chunks/[name]-[hash].js' },
  logLevel: 'warn',
});
console.log(`dist/bundle: ${Object.keys(input).length} entries`);
