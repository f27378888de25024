/**
 * The node that runs the built CLI in the end-to-end tests: this one, or another Node line's binary
 * named by DOCPLANE_TEST_NODE (.ci/run runs a subset of these tests on Node 24 so).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const CLI_NODE = process.env.DOCPLANE_TEST_NODE || process.execPath;

const ROOT = join(import.meta.dirname, '..');

/** Fails with what to do when the built CLI (dist/) is missing, instead of letting its tests skip. */
export function requireBuiltCli(): void {
  for (const file of ['dist/bundle/main.js', 'dist/emulator/server.js']) {
    if (!existsSync(join(ROOT, file))) throw new Error(`${file} is missing: run \`npm run build\` (npm test builds first) before the end-to-end tests`);
  }
}
