#!/usr/bin/env node
// Writes docs/reference.md (one section per top-level config key) from the built code: the kinds
// registry, the JSON Schema, examples/docplane.yaml and an import of the demo world
// (src/reference.ts). `--check` exits 1 when the file is stale instead (test/docs/reference.test.ts
// checks the same from the sources).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildReference } from '../dist/reference.js';

const root = new URL('..', import.meta.url).pathname;
const file = join(root, 'docs/reference.md');
const markdown = await buildReference(root);
if (process.argv.includes('--check')) {
  if (readFileSync(file, 'utf8') !== markdown) {
    console.error('docs/reference.md is stale: run npm run reference');
    process.exit(1);
  }
  console.log('docs/reference.md is up to date');
} else {
  writeFileSync(file, markdown);
  console.log(`wrote ${file}`);
}
