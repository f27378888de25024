/**
 * Runs the built CLI (bin/run.js) as a child process, as a user would, and measures it: wall time
 * from spawn to exit, peak resident memory, CPU time and when its requests ran (reported by preload.js
 * from inside the process, at exit).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Timeline } from './types.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** Peak resident set size of the CLI process, in MiB (undefined when the process did not report it). */
  maxRssMiB?: number;
  /** User + system CPU time of the CLI process, in milliseconds. */
  cpuMs?: number;
  /** When the run's first request left and its last answer came in (ms from the process's start), when it began to exit. */
  timeline?: Timeline;
}

export interface CliOptions {
  /** The repository root (holding bin/run.js and dist/). */
  root: string;
  env: Record<string, string>;
  cwd?: string;
  /** Write a CPU profile of the run into this folder (`node --cpu-prof`). */
  profileDir?: string;
}

export function runCli(args: readonly string[], options: CliOptions): Promise<CliRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'docplane-bench-usage-'));
  const usageFile = join(scratch, 'usage.json');
  // The compiled preload, also when this module runs from its TypeScript source (the tests).
  const preload = join(options.root, 'dist/bench/preload.js');
  const nodeArgs = ['--import', preload, ...(options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', options.profileDir] : []), join(options.root, 'bin/run.js'), ...args];
  const began = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs, {
      cwd: options.cwd ?? options.root,
      // A clean environment: only what the CLI needs, so that a developer's settings do not leak in.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...options.env, DOCPLANE_BENCH_USAGE: usageFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const wallMs = performance.now() - began;
      let usage: { maxRssKiB: number; userMs: number; systemMs: number; timeline?: Timeline } | undefined;
      try {
        usage = JSON.parse(readFileSync(usageFile, 'utf8'));
      } catch {
        usage = undefined;
      }
      rmSync(scratch, { recursive: true, force: true });
      resolve({
        code: code ?? (signal ? 128 : 1),
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        wallMs,
        ...(usage ? { maxRssMiB: usage.maxRssKiB / 1024, cpuMs: usage.userMs + usage.systemMs } : {}),
        ...(usage?.timeline ? { timeline: usage.timeline } : {}),
      });
    });
  });
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
