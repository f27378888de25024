// vitest globalSetup (vitest.config.ts), once per project: a folder where each test file's conformance summary is
// written (test/conformance/setup.ts), and at the end one line for the whole run
// (docs/conformance.md, "Over the whole suite").
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    conformanceDir: string;
  }
}

interface FileLine {
  file: string;
  exchanges: number;
  checked: number;
  operations: string[];
  unknown: number;
  allowed: number;
  problems: number;
}

/** One folder for every project of the run (vitest.config.ts), so that the run ends with one line. */
interface Shared {
  dir: string;
  projects: number;
}
const SHARED = Symbol.for('docplane.conformance');

export default function setup(project: TestProject): () => void {
  const global = globalThis as { [SHARED]?: Shared };
  const shared = (global[SHARED] ??= { dir: mkdtempSync(join(tmpdir(), 'docplane-conformance-')), projects: 0 });
  shared.projects++;
  const dir = shared.dir;
  project.provide('conformanceDir', dir);
  return () => {
    if (--shared.projects > 0) return;
    delete global[SHARED];
    const lines: FileLine[] = [];
    for (const name of readdirSync(dir)) {
      for (const text of readFileSync(join(dir, name), 'utf8').split('\n')) if (text.trim()) lines.push(JSON.parse(text) as FileLine);
    }
    rmSync(dir, { recursive: true, force: true });
    if (lines.length === 0) return;
    const operations = new Set(lines.flatMap((l) => l.operations));
    // The operations the suite exercised, for docs/live-surface.md's table of what docplane uses.
    const out = process.env.DOCPLANE_CONFORMANCE_OPERATIONS;
    if (out) writeFileSync(out, `${JSON.stringify([...operations].sort(), null, 2)}\n`);
    const sum = (k: 'exchanges' | 'checked' | 'unknown' | 'allowed' | 'problems') => lines.reduce((n, l) => n + l[k], 0);
    process.stdout.write(
      `conformance: ${sum('exchanges')} exchanges (${sum('checked')} checked) in ${lines.length} test files, ` +
        `${operations.size} operations, ${sum('unknown')} outside the description, ` +
        `${sum('allowed')} with an allowed difference, ${sum('problems')} problems\n`,
    );
  };
}
