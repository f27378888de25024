/**
 * Running the built CLI (dist/bundle, what bin/run.js runs) in the end-to-end tests.
 *
 * By default a run happens in this test worker: the bundle is imported once per worker and its
 * `main(argv, bin)` is called with the test's argv, environment and folder, with everything the run
 * writes to stdout and stderr (directly or through `console`, which oclif uses and vitest replaces)
 * captured, and its exit code taken from `process.exit` or `process.exitCode`. Starting Node and
 * loading the bundle for every command is most of what these tests would otherwise spend. A run
 * changes process-wide state (the environment, the folder, the exit code, listeners), so runs in a
 * worker happen one at a time and everything is put back after each.
 *
 * A run spawns `bin/run.js` as a child process instead when:
 * - DOCPLANE_TEST_NODE names another Node line's binary (the CLI must really run on that Node);
 * - DOCPLANE_TEST_SPAWN is set: every test runs the CLI as users do (docs/testing.md);
 * - the test asks for it (`{ spawn: true }`) because it needs a real process, or to keep the process
 *   path — bin/run.js, the exit code as the OS sees it, stderr, no stack trace — tested end to end
 *   for each command family: test/robustness/cli-errors.test.ts (the tests named "as a process":
 *   unknown and misspelt commands, validate, plan with --verbose and with a refused token, apply
 *   refused by a safety rule, import into a folder that is not empty, and the runs that set
 *   NODE_EXTRA_CA_CERTS, which Node reads when it starts), test/cli/commands.test.ts (help),
 *   test/cli/no-color.test.ts (validate and schema) and test/plan/cli.test.ts (plan's exit code 2);
 *   test/apply/concurrent.test.ts needs two applies at once. Files that start the CLI by themselves
 *   need a process for what they test: signals and kills (test/apply/cli.test.ts's Ctrl+C, kill,
 *   resume), the emulator as a server, a terminal (`script`), the packed tarball, the action.
 *
 * In a worker the run sees no terminal (stdout and stderr are not TTYs, stdin is empty), as under
 * execFile; NO_COLOR=1 as runBuiltCli sets it. The apply command sizes V8's heap for a long run
 * (src/cli/heap.ts): in a worker that sets the same two heap flags on the test worker's V8, which
 * only changes when it collects garbage.
 */
import { execFile } from 'node:child_process';
import { Console } from 'node:console';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { CLI_NODE } from './cli-node.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  /** Run the CLI as a child process even where it would run in this worker. */
  spawn?: boolean;
}

const ROOT = join(import.meta.dirname, '..');
export const BIN = join(ROOT, 'bin/run.js');
const MAIN = join(ROOT, 'dist/bundle/main.js');

/** The worker's PATH and HOME, taken before any run in the worker changes the environment. */
const BASE_ENV = { PATH: process.env.PATH, HOME: process.env.HOME };

/** Whether every run spawns a child process (another Node line, or DOCPLANE_TEST_SPAWN). */
export const SPAWN_ALWAYS = Boolean(process.env.DOCPLANE_TEST_NODE) || Boolean(process.env.DOCPLANE_TEST_SPAWN);

/**
 * Runs `docplane ARGS` in `cwd` with the environment PATH, HOME, NO_COLOR=1 and `env` (a key set to
 * undefined is left out), as a child process would have it.
 */
export function runBuiltCli(args: string[], env: Record<string, string | undefined>, cwd: string, options: CliRunOptions = {}): Promise<CliResult> {
  if (!existsSync(MAIN)) throw new Error('dist/bundle is missing: run `npm run build` (npm test builds first) before the CLI tests');
  const childEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...BASE_ENV, NO_COLOR: '1', ...env })) {
    if (value !== undefined) childEnv[key] = value;
  }
  return options.spawn || SPAWN_ALWAYS ? spawnCli(args, childEnv, cwd) : runInProcess(args, childEnv, cwd);
}

function spawnCli(args: string[], env: Record<string, string>, cwd: string): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(CLI_NODE, [BIN, ...args], { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

type Main = (argv: string[], bin: string) => Promise<void>;

// Loaded by Node itself (require of an ES module, which Node 20.19 and 22.12 on do), not through
// vitest's module runner: the bundle runs as bin/run.js runs it, and the modules oclif imports from it
// (the commands, the hook) are Node's own.
const nodeRequire = createRequire(import.meta.url);
let loaded: { main: Main } | undefined;
let queue: Promise<unknown> = Promise.resolve();

function runInProcess(args: string[], env: Record<string, string>, cwd: string): Promise<CliResult> {
  const run = queue.then(() => runOnce(args, env, cwd));
  queue = run.catch(() => undefined);
  return run;
}

type Emitter = NodeJS.EventEmitter;
type Listeners = Map<string | symbol, Set<unknown>>;

function listenersOf(emitter: Emitter): Listeners {
  return new Map(emitter.eventNames().map((name) => [name, new Set(emitter.rawListeners(name))]));
}

/** Removes the listeners added since `before` was taken. */
function removeAdded(emitter: Emitter, before: Listeners): void {
  for (const name of emitter.eventNames()) {
    const kept = before.get(name);
    for (const listener of emitter.rawListeners(name)) {
      if (!kept?.has(listener)) emitter.removeListener(name, listener as (...a: unknown[]) => void);
    }
  }
}

/** Sets an own property of `target` and returns what puts the previous one back. */
function override(target: object, key: PropertyKey, value: unknown): () => void {
  const previous = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, { value, configurable: true, writable: true, enumerable: previous?.enumerable ?? false });
  return () => {
    if (previous) Object.defineProperty(target, key, previous);
    else delete (target as Record<PropertyKey, unknown>)[key];
  };
}

async function runOnce(args: string[], env: Record<string, string>, cwd: string): Promise<CliResult> {
  const { main } = (loaded ??= nodeRequire(MAIN) as { main: Main });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  /** The code of the first `process.exit`: the process would have ended there, so later output is dropped. */
  let exited: number | undefined;
  const capture =
    (into: Buffer[]) =>
    (chunk: string | Uint8Array, encoding?: BufferEncoding | ((err?: Error) => void), done?: (err?: Error) => void): boolean => {
      const callback = typeof encoding === 'function' ? encoding : done;
      if (exited === undefined) into.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : Buffer.from(chunk));
      if (callback) process.nextTick(callback);
      return true;
    };

  const savedEnv = { ...process.env };
  const savedCwd = process.cwd();
  const savedArgv = process.argv;
  const savedExitCode = process.exitCode;
  const emitters: Emitter[] = [process, process.stdout, process.stderr];
  const savedListeners = emitters.map(listenersOf);
  const stdin = new PassThrough();
  stdin.end();
  const restores = [
    override(process.stdout, 'write', capture(stdout)),
    override(process.stderr, 'write', capture(stderr)),
    override(process.stdout, 'isTTY', false),
    override(process.stderr, 'isTTY', false),
    override(process, 'stdin', stdin),
    override(globalThis, 'console', new Console({ stdout: process.stdout, stderr: process.stderr, colorMode: false })),
    override(process, 'exit', (code?: number | string | null) => {
      exited ??= Number(code ?? process.exitCode ?? 0);
    }),
  ];
  let code: number;
  try {
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, env);
    process.chdir(cwd);
    process.argv = [process.execPath, BIN, ...args];
    process.exitCode = undefined;
    try {
      await main(args, pathToFileURL(BIN).href);
      // What the process would still do before it ends: callbacks of writes and timers already due.
      await new Promise((resolve) => setImmediate(resolve));
      code = exited ?? Number(process.exitCode ?? 0);
    } catch (error) {
      // bin/run.js would end with Node's report of an uncaught error, and exit 1.
      if (exited === undefined) stderr.push(Buffer.from(`${(error as Error)?.stack ?? String(error)}\n`));
      code = exited ?? 1;
    }
  } finally {
    for (const restore of restores.reverse()) restore();
    emitters.forEach((emitter, i) => removeAdded(emitter, savedListeners[i]));
    process.exitCode = savedExitCode;
    process.argv = savedArgv;
    process.chdir(savedCwd);
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, savedEnv);
  }
  return { code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') };
}
