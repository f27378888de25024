/**
 * Running the built CLI (dist/bundle: test/cli-run.ts) against an in-process emulator seeded with the demo
 * world, in a scratch copy of the example config (so tests may change it).
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEmulatorState, startEmulator, type EmulatorState, type RunningEmulator, type Exchange, type World } from '../../src/emulator/server.js';
import { runBuiltCli, type CliResult, type CliRunOptions } from '../cli-run.js';

export const ROOT = new URL('../../', import.meta.url).pathname;

export type { CliResult };

/** Fails early with a clear message when the CLI has not been built (`npm test` builds first). */
export function builtCli(): string {
  const bin = join(ROOT, 'bin/run.js');
  if (!existsSync(join(ROOT, 'dist/commands/apply.js'))) {
    throw new Error('dist/ is missing: run `npm run build` (or `npm test`, which builds) before the CLI tests');
  }
  return bin;
}

/** The built CLI in `cwd` with `env` (in this worker, or a child process: test/cli-run.ts). */
export function runCli(args: string[], env: Record<string, string | undefined>, cwd: string, options?: CliRunOptions): Promise<CliResult> {
  builtCli();
  return runBuiltCli(args, env, cwd, options);
}

export function demoState(tokens?: EmulatorState['tokens']): EmulatorState {
  const state = loadEmulatorState(join(ROOT, 'examples/emulator-state.yaml'));
  return tokens ? ({ ...state, tokens } as EmulatorState) : state;
}

export interface Sandbox {
  dir: string;
  config: string;
  emulator: RunningEmulator;
  env: Record<string, string>;
  /** Every exchange the emulator had, in order. */
  exchanges: Exchange[];
  /** The exchanges that were writes (anything but GET), from the `from`th exchange on. */
  writes(from?: number): Exchange[];
  cli(args: string[], env?: Record<string, string | undefined>, options?: CliRunOptions): Promise<CliResult>;
  close(): Promise<void>;
}

/** A scratch folder holding a copy of examples/docplane.yaml (and its certs and scripts), and an emulator. */
export async function sandbox(options: { state?: EmulatorState; token?: string; latencyMs?: number } = {}): Promise<Sandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'docplane-apply-cli-'));
  for (const part of ['docplane.yaml', 'certs', 'integrations']) cpSync(join(ROOT, 'examples', part), join(dir, part), { recursive: true });
  const exchanges: Exchange[] = [];
  const emulator = await startEmulator({ port: 0, state: options.state ?? demoState(), seed: 1, latencyMs: options.latencyMs, onExchange: (e) => exchanges.push(e) });
  const env = { DOCPLANE_API_URL: emulator.url, DOCPLANE_TOKEN: options.token ?? 'dev-token' };
  return {
    dir,
    config: join(dir, 'docplane.yaml'),
    emulator,
    env,
    exchanges,
    writes: (from = 0) => exchanges.slice(from).filter((e) => e.method !== 'GET'),
    cli: (args, extra = {}, runOptions) => runCli(args, { ...env, ...extra }, dir, runOptions),
    close: async () => {
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The `error: …` lines a command printed. */
export function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.startsWith('error:'));
}

/** The values that appear more than once. */
export function duplicates(values: string[]): string[] {
  return values.filter((v, i) => values.indexOf(v) !== i);
}

/** Everything the example config creates in the demo world, by natural key: each must exist once. */
export function naturalKeys(world: World): Record<string, string[]> {
  const org = world.orgs.get('org_acme')!;
  const keys: Record<string, string[]> = {
    teams: [...org.teams.values()].map((t) => t.title),
    collections: [...world.collections.values()].filter((c) => c.org === 'org_acme').map((c) => `${c.parent ?? ''}/${c.title}`),
    saml: [...org.saml.values()].map((s) => s.label),
    translations: [...org.translations.values()].map((t) => `${t.source.space}/${t.language}`),
    sites: [...org.sites.values()].map((s) => s.title),
  };
  for (const site of org.sites.values()) {
    keys[`${site.id} sections`] = [...site.sections.values()].map((s) => s.title);
    keys[`${site.id} groups`] = [...site.groups.values()].map((g) => g.title);
    keys[`${site.id} share links`] = [...site.shareLinks.values()].map((l) => l.name);
    keys[`${site.id} site spaces`] = [...site.siteSpaces.values()].map((s) => `${s.section}/${s.space}`);
  }
  return keys;
}
