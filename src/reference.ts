/**
 * Gathers what docs/reference.md shows beside the schema: the first entry of each top-level key in
 * examples/docplane.yaml, and in what `docplane import` writes for the demo world (imported from an
 * emulator on loopback, port 0). Used by scripts/reference.js and test/docs/reference.test.ts; no
 * command imports it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { createClient } from './api/client.js';
import { configJsonSchema } from './config/json-schema.js';
import { referenceMarkdown } from './config/reference.js';
import { loadEmulatorState, startEmulator } from './emulator/server.js';
import { runImport } from './import/run.js';

/** The first entry of a list, or the value itself. */
const firstOf = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);

function firsts(document: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(document).map(([k, v]) => [k, firstOf(v)]).filter(([, v]) => v !== undefined));
}

/** The markdown of docs/reference.md, for the package at `root`. */
export async function buildReference(root: string): Promise<string> {
  const example = firsts(parse(readFileSync(join(root, 'examples/docplane.yaml'), 'utf8')) as Record<string, unknown>);
  const emulator = await startEmulator({ port: 0, state: loadEmulatorState(join(root, 'examples/emulator-state.yaml')), seed: 1 });
  let imported: Record<string, unknown>;
  try {
    const result = await runImport({ orgs: ['org_acme'], out: '-', connect: () => Promise.resolve(createClient({ baseUrl: emulator.url, token: 'dev-token' })) });
    imported = firsts((parseAllDocuments(result.stream ?? '')[0]?.toJS() ?? {}) as Record<string, unknown>);
  } finally {
    await emulator.close();
  }
  return referenceMarkdown({ schema: configJsonSchema(), example, imported });
}
