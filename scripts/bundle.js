#!/usr/bin/env node
// Bundles the compiled CLI (dist/, from tsc) into dist/bundle/ with rolldown: the entry
// (src/cli/main.ts), each command and the hook, their shared code in a few chunks. A plan then opens
// 17 files of code instead of ~450 (docplane's modules, @oclif/core, zod, …): a cold plan at
// scale 1 took 1.62 s of CPU against 1.83 s (docs/benchmarks.md, "CPU"). package.json's `oclif`
// section points at the bundled commands and hook; bin/run.js runs the bundled entry.
//
// Left out of the bundle: Node's own modules; the packages docplane loads only when needed, through
// createRequire (the yaml package, for a problem's position; js-yaml, for a config the block read
// declines; ora, on a terminal); and TypeScript,
// which @oclif/core asks for only to run commands from .ts sources.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'rolldown';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const out = join(dist, 'bundle');
rmSync(out, { recursive: true, force: true });

const input = { main: join(dist, 'cli/main.js'), 'hooks/not-found': join(dist, 'cli/not-found.js') };
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

// The bundle is ASCII: non-ASCII characters in strings, templates and regular expressions are
// escaped (`charset`), doc comments are left out (the source maps lead to src/), and the one kind of
// comment kept, a license's (`/*! … */`), has its non-ASCII characters written as \u escapes. Node
// decodes an ASCII file as such and V8 scans it as one-byte source: a plan's modules load ~10 ms
// sooner than from the same code with its comments' and messages' typography (docs/benchmarks.md).
await build({
  input,
  platform: 'node',
  external: [/^node:/, 'typescript'],
  plugins: [tscMaps],
  output: {
    dir: out,
    format: 'esm',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: true,
    sourcemapExcludeSources: true,
    charset: 'ascii',
    comments: { legal: true, annotation: true, jsdoc: false },
  },
  logLevel: 'warn',
});
const NON_ASCII = /[\u0080-\uffff]/;
const escaped = (text) => text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
for (const file of readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'))) {
  const path = join(out, file);
  const code = readFileSync(path, 'utf8');
  if (!NON_ASCII.test(code)) continue;
  const ascii = code.replace(/\/\*![\s\S]*?\*\//g, escaped);
  writeFileSync(path, ascii);
  // What is left (a tagged template's raw text) would change meaning if escaped: said, not touched.
  if (NON_ASCII.test(ascii)) console.warn(`dist/bundle/${file}: non-ASCII characters left outside license comments (its modules load a little slower)`);
}
console.log(`dist/bundle: ${Object.keys(input).length} entries`);
