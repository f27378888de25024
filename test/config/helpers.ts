/** Temporary config folders and the formatted problems of a load, for the config tests. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, formatConfigIssue } from '../../src/core/errors.js';
import { loadConfig } from '../../src/config/load.js';
import type { LoadOptions } from '../../src/config/load.js';

export interface TempDir {
  dir: string;
  write(rel: string, content: string | Buffer): string;
  cleanup(): void;
}

export function tempDir(prefix = 'docplane-config-'): TempDir {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return {
    dir,
    write(rel, content) {
      const abs = path.join(dir, rel);
      mkdirSync(path.dirname(abs), { recursive: true });
      writeFileSync(abs, content);
      return abs;
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The problems of a load as `file:line:column: path: message` lines; fails when the load succeeds. */
export async function problemsOf(options: LoadOptions): Promise<string[]> {
  try {
    await loadConfig(options);
  } catch (e) {
    if (e instanceof ConfigError) return e.issues.map(formatConfigIssue);
    throw e;
  }
  throw new Error('expected the config to be refused');
}

/** Loads `files` (relative path → content) from a fresh folder, with `cwd` that folder. */
export async function withFiles<T>(files: Record<string, string | Buffer>, fn: (t: TempDir) => Promise<T>): Promise<T> {
  const t = tempDir();
  try {
    for (const [rel, content] of Object.entries(files)) t.write(rel, content);
    return await fn(t);
  } finally {
    t.cleanup();
  }
}
