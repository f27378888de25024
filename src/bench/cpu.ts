/**
 * The CPU cost of docplane's own work on a large config: validate (load, interpolate, schema,
 * cross-references) and diff (every kind's plan, then the plan's build), on a remote state read
 * beforehand. The reads are recorded once from the emulator and replayed from memory, so that only
 * the pure part is timed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LineCounter, parseAllDocuments } from 'yaml';
import { createClient } from '../api/client.js';
import type { ApiClient, ApiResponse, HttpMethod, Query, RequestOptions } from '../api/types.js';
import { loadConfig } from '../config/load.js';
import { ApiError } from '../core/errors.js';
import { startEmulator } from '../emulator/server.js';
import type { LoadedConfig } from '../config/types.js';
import { planOrgs } from '../plan/run.js';
import { KIND_SPECS } from '../kinds/index.js';
import { readContextFor } from '../kinds/kind.js';
import { makeDrift } from './drift.js';
import { generate } from './generate.js';
import { perResourceReads } from './least.js';
import { writeConfig } from './world-io.js';

export interface CpuMeasure {
  scale: number;
  /** Resources the config manages. */
  resources: number;
  /** CPU of the first run in a fresh process (cold, as in a CLI run), milliseconds. */
  coldMs: number;
  /** The least CPU of the next runs in the same process (warm), milliseconds. */
  warmMs: number;
  /** The YAML parse alone (the yaml package, as the loader calls it), measured after the cold run, milliseconds. */
  yamlMs: number;
  /** Split of the cold run. */
  validateMs: number;
  diffMs: number;
  steps: number;
}

function keyOf(method: string, path: string, query?: Query): string {
  const q = Object.entries(query ?? {})
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join('&');
  return `${method} ${path}${q ? `?${q}` : ''}`;
}

/** A client that records what a real one answers. */
function recording(inner: ApiClient, tape: Map<string, unknown>): ApiClient {
  return {
    async request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<ApiResponse<T>> {
      try {
        const res = await inner.request<T>(method, path, options);
        tape.set(keyOf(method, path, options?.query), res);
        return res;
      } catch (err) {
        tape.set(keyOf(method, path, options?.query), err);
        throw err;
      }
    },
    paginate: (path, query) => inner.paginate(path, query),
    async listAll<T>(path: string, query?: Query): Promise<T[]> {
      const items = await inner.listAll<T>(path, query);
      tape.set(keyOf('LIST', path, query), items);
      return items;
    },
    stats: () => inner.stats(),
    close: () => inner.close(),
  };
}

/** A client that answers from a tape, and fails on anything not on it. */
function replaying(tape: ReadonlyMap<string, unknown>): ApiClient {
  const answer = (key: string): unknown => {
    if (!tape.has(key)) throw new ApiError('GET', key, 404, 'not on the tape');
    const value = tape.get(key);
    if (value instanceof Error) throw value;
    return value;
  };
  const client: ApiClient = {
    async request<T>(method: HttpMethod, path: string, options?: RequestOptions) {
      return answer(keyOf(method, path, options?.query)) as ApiResponse<T>;
    },
    async *paginate<T>(path: string, query?: Query): AsyncIterable<T> {
      for (const item of answer(keyOf('LIST', path, query)) as T[]) yield item;
    },
    async listAll<T>(path: string, query?: Query) {
      return answer(keyOf('LIST', path, query)) as T[];
    },
    stats: () => ({ requests: 0, retries: 0, byMethod: {} }),
    close: async () => {},
  };
  return client;
}

/** Every kind's read of every organization of the config, as planOrgs does them (shared reads once). */
async function recordReads(config: LoadedConfig, client: ApiClient): Promise<void> {
  for (const desired of config.orgs) {
    const ctx = readContextFor(desired, client);
    await Promise.all(KIND_SPECS.map((m) => m.read(ctx)));
  }
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/**
 * Validate + diff of the generated config at `scale` against its applied world with 5% drift (so
 * the diff has work to show), cold and then warm.
 */
export async function measurePlannerCpu(scale: number, seed: number, warmRuns = 2): Promise<CpuMeasure> {
  const world = generate(scale, seed);
  const dir = mkdtempSync(join(tmpdir(), 'docplane-bench-cpu-'));
  const emulator = await startEmulator({ port: 0, state: world.fullState, seed });
  const client = createClient({ baseUrl: emulator.url, token: 'dev-token', connections: 16 });
  try {
    const file = writeConfig(world, dir);
    await makeDrift(world, client);

    // Cold: the first load and the first plan in this process, as in a CLI run. The plan's reads are
    // recorded first by the modules' read() alone, so that no plan() code has run before it is timed.
    const t0 = process.cpuUsage();
    const config = await loadConfig({ path: file, cwd: dir, env: {} });
    const validateMs = cpuMs(t0);
    const tape = new Map<string, unknown>();
    await recordReads(config, recording(client, tape));
    const replay = replaying(tape);
    const t1 = process.cpuUsage();
    const plan = await planOrgs(config, replay, { toolVersion: 'bench' });
    const diffMs = cpuMs(t1);

    // The YAML parse alone, as the loader calls it (after the cold run: its JIT is warm, so this is
    // a floor of what the parse costs within the cold run).
    const text = readFileSync(file, 'utf8');
    const t2 = process.cpuUsage();
    parseAllDocuments(text, { lineCounter: new LineCounter(), uniqueKeys: false, prettyErrors: false });
    const yamlMs = cpuMs(t2);

    const warm: number[] = [];
    for (let i = 0; i < warmRuns; i++) {
      const t = process.cpuUsage();
      await planOrgs(await loadConfig({ path: file, cwd: dir, env: {} }), replay, { toolVersion: 'bench' });
      warm.push(cpuMs(t));
    }
    return {
      scale,
      resources: perResourceReads(world.counts),
      coldMs: validateMs + diffMs,
      warmMs: Math.min(...warm),
      validateMs,
      diffMs,
      yamlMs,
      steps: plan.steps.length,
    };
  } finally {
    await client.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** measurePlannerCpu in a fresh node process (cpu-child.js), so that the cold run is really cold. */
export function measurePlannerCpuInChild(scale: number, seed: number): Promise<CpuMeasure> {
  const entry = fileURLToPath(new URL('./cpu-child.js', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, String(scale), String(seed)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`bench: the CPU measure failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' ')}`));
      else resolve(JSON.parse(out) as CpuMeasure);
    });
  });
}
