#!/usr/bin/env node
// Fails when schemas/docplane.schema.json is not what `docplane schema` prints now.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const fresh = execFileSync(process.execPath, ['bin/run.js', 'schema'], { encoding: 'utf8' });
let committed = '';
try {
  committed = readFileSync('schemas/docplane.schema.json', 'utf8');
} catch {
  // missing counts as stale
}
if (fresh.trim() !== committed.trim()) {
  console.error('schemas/docplane.schema.json is stale: run `npm run schema` and commit the result.');
  process.exit(1);
}
console.log('schemas/docplane.schema.json is fresh');
