/**
 * A generated world on disk and in memory: the config written as YAML (what the CLI reads), and the
 * config loaded back as the planner sees it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadConfig } from '../config/load.js';
import type { LoadedConfig } from '../config/types.js';
import type { BenchWorld } from './generate.js';

/** Writes `docplane.yaml` in `dir` and gives its path. */
export function writeConfig(world: BenchWorld, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'docplane.yaml');
  // lineWidth 0: long strings stay on one line, so the file reads like one a person would write.
  writeFileSync(file, stringify(world.config, { lineWidth: 0 }), 'utf8');
  return file;
}

/** The config of the world as loadConfig gives it (written to `dir` first). */
export async function loadWorldConfig(world: BenchWorld, dir: string): Promise<LoadedConfig> {
  const file = writeConfig(world, dir);
  return loadConfig({ path: file, cwd: dir, env: {} });
}
