// vitest globalSetup (vitest.config.ts): a folder where each test file's conformance summary is
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

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'docplane-conformance-'));
  project.provide('conformanceDir', dir);
  return () => {
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
