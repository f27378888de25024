import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Flags } from '@oclif/core';
import { BaseCommand, commonFlags } from '../cli/base.js';
import { DocplaneError } from '../core/errors.js';
import { startEmulator } from '../emulator/server.js';

/** A fraction between 0 and 1 (fault and reset rates); checked here so that a bad value is one clear line. */
function fraction(flag: string, input: string | undefined): number | undefined {
  if (input === undefined) return undefined;
  const value = Number(input);
  if (input.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new DocplaneError('EMULATOR_OPTIONS', `--${flag} must be a fraction between 0 and 1, not ${input}`, {
      hint: 'For example --fault-rate 0.1 strikes one request in ten.',
    });
  }
  return value;
}

/**
 * `--rate-limit`: `N` requests per second, or `N/Ss` (also `N/S`, `N/Mm`) requests per window of S
 * seconds (M minutes), as the live service documents its limit (60 per window in its documentation).
 */
function rateLimit(input: string | undefined): { limit: number; windowSeconds: number } | undefined {
  if (input === undefined) return undefined;
  const m = /^\s*(\d+)\s*(?:\/\s*(\d+)\s*(s|m)?\s*)?$/.exec(input);
  const limit = m ? Number(m[1]) : NaN;
  const windowSeconds = m?.[2] === undefined ? 1 : Number(m[2]) * (m[3] === 'm' ? 60 : 1);
  if (!m || limit < 1 || windowSeconds < 1) {
    throw new DocplaneError('EMULATOR_OPTIONS', `--rate-limit must be N (requests per second) or N/Ss (requests per window of S seconds), not ${input}`, {
      hint: 'For example --rate-limit 60/60s, as the live service, or --rate-limit 50 for 50 a second.',
    });
  }
  return { limit, windowSeconds };
}

/** The demo world, shipped in the npm package ("files" in package.json) under its root. */
function demoStateFile(root: string): string {
  return join(root, 'examples', 'emulator-state.yaml');
}

/**
 * --state FILE, else the demo world: required with --demo (a missing file is an error, never an empty
 * world that looks like a working demo), used when present without either flag.
 */
function stateFile(state: string | undefined, demo: boolean, root: string): string | undefined {
  if (state !== undefined) return state;
  const file = demoStateFile(root);
  if (existsSync(file)) return file;
  if (!demo) return undefined;
  throw new DocplaneError('EMULATOR_OPTIONS', `--demo: the demo world ${file} is missing from this installation`, {
    hint: 'Reinstall docplane (npm i -g docplane), or pass --state FILE.',
  });
}

export default class Emulator extends BaseCommand {
  static override summary = 'Serve the platform API in memory on 127.0.0.1, for trying configs and for tests';
  static override description =
    'Seeded from --state (YAML or JSON) or, with --demo, from the built-in demo world (organization org_acme; write token dev-token, read token read-token; the file examples/emulator-state.yaml of the package). Without either flag it serves the demo world as well. Prints `listening on http://127.0.0.1:PORT` and serves until interrupted.';
  static override examples = [
    '<%= config.bin %> emulator --demo',
    '<%= config.bin %> emulator --port 4010 --state my-world.yaml',
    '<%= config.bin %> emulator --port 0 --fault-rate 0.1 --reset-rate 0.05 --seed 7',
    '<%= config.bin %> emulator --latency 50 --rate-limit 20 --log emulator.jsonl',
    '<%= config.bin %> emulator --rate-limit 60/60s',
  ];

  static override flags = {
    verbose: commonFlags.verbose,
    'no-color': commonFlags['no-color'],
    port: Flags.integer({ description: 'Port to listen on (0 picks a free one)', default: 4010, min: 0, max: 65535 }),
    state: Flags.string({ description: 'State file seeding the world (YAML or JSON)', exclusive: ['demo'] }),
    demo: Flags.boolean({ description: 'Serve the built-in demo world (org_acme; tokens dev-token and read-token)', default: false, exclusive: ['state'] }),
    latency: Flags.integer({ description: 'Milliseconds from a request\'s arrival to its answer (its work is done on arrival, within that time)', default: 0, min: 0 }),
    'fault-rate': Flags.string({ description: 'Fraction (0-1) of requests answered 500/502/503, before or after the change' }),
    'reset-rate': Flags.string({ description: 'Fraction (0-1) of requests whose connection is reset, before or after the change' }),
    'rate-limit': Flags.string({
      description: 'N requests per second, or N/Ss per window of S seconds (e.g. 60/60s); over it, 429 with Retry-After; X-RateLimit-* on every answer',
    }),
    log: Flags.string({ description: 'Write one JSON line per exchange to this file' }),
    seed: Flags.integer({ description: 'Seed of the random faults and ids (reproducible runs)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Emulator);
    const emulator = await startEmulator({
      port: flags.port,
      stateFile: stateFile(flags.state, flags.demo, this.config.root),
      latencyMs: flags.latency,
      faultRate: fraction('fault-rate', flags['fault-rate']),
      resetRate: fraction('reset-rate', flags['reset-rate']),
      rateLimit: rateLimit(flags['rate-limit']),
      logFile: flags.log,
      seed: flags.seed,
    });
    this.log(`listening on ${emulator.url}`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    await emulator.close();
  }
}
