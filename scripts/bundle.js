#!/usr/bin/env node
// Bundles the compiled CLI (dist/, from tsc) into dist/bundle/ with rolldown: the entry
// (src/cli/main.ts), each command and the hook, their shared code in a few chunks, so that a command
// opens a few files of code instead of hundreds (docplane's modules, @oclif/core, zod, yaml, …) and
// starts sooner (docs/benchmarks.md). package.json's `oclif` section points at the bundled commands
// and hook; bin/run.js runs the bundled entry.
//
// Left out of the bundle: Node's own modules; undici, the HTTP client, which stays a dependency
// resolved from node_modules so that its fixes reach users without a docplane release; the packages
// docplane loads only when needed, through createRequire (ora, on a terminal); and TypeScript, which
// @oclif/core asks for only to run commands from .ts sources.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'rolldown';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const out = join(dist, 'bundle');
rmSync(out, { recursive: true, force: true });

// The library entry (package.json `main`) is bundled too: the package ships dist/bundle/ and the
// declarations, not tsc's JavaScript.
const input = { main: join(dist, 'cli/main.js'), index: join(dist, 'index.js'), 'hooks/not-found': join(dist, 'cli/not-found.js') };
// The commands are those of src/: tsc leaves the output of a removed or renamed source in dist/,
// which would otherwise be bundled as a command of its own.
for (const file of readdirSync(join(root, 'src', 'commands'))) {
  if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.endsWith('.d.ts')) continue;
  const name = file.slice(0, -3);
  input[`commands/${name}`] = join(dist, 'commands', `${name}.js`);
}

// tsc's source maps (dist/**/*.js.map) are carried into the bundle's own, so that with --verbose
// (bin/run.js turns source maps on) a stack trace names src/**/*.ts and their lines.
const tscMaps = {
  name: 'tsc-source-maps',
  load(id) {
    if (!id.startsWith(`${dist}/`) || id.startsWith(`${out}/`) || !id.endsWith('.js') || !existsSync(`${id}.map`)) return null;
    const code = readFileSync(id, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
    return { code, map: readFileSync(`${id}.map`, 'utf8') };
  },
};

// Doc comments are left out (the source maps lead to src/); licenses' comments are kept.
await build({
  input,
  platform: 'node',
  external: [/^node:/, /^undici(\/|$)/, 'typescript'],
  plugins: [tscMaps],
  output: {
    dir: out,
    format: 'esm',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: true,
    sourcemapExcludeSources: true,
    comments: { legal: true, annotation: true, jsdoc: false },
  },
  logLevel: 'warn',
});
console.log(`dist/bundle: ${Object.keys(input).length} entries`);
