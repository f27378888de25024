/**
 * Every error path of the CLI prints one clear line first — `error: …`, or `file:line:column: …` for
 * problems of a config — and no stack trace, and exits with the documented code (1, or 3 when a
 * safety rule refuses an apply). Runs the built CLI (dist/bundle; in the test worker, or as a process
 * for the tests that say so) against the emulator on loopback, or against a closed port.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEmulatorState, startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { runBuiltCli, type CliResult, type CliRunOptions } from '../cli-run.js';

const ROOT = new URL('../../', import.meta.url).pathname;
/** A token value that must never be printed. */
const BAD_TOKEN = 'not-a-real-token-5f1d';

type Result = CliResult;

/**
 * The built CLI, in this worker (test/cli-run.ts); `{ spawn: true }` runs bin/run.js as a process: the
 * tests that say "as a process" keep that path tested (exit codes as the OS sees them, stderr).
 */
function cli(args: string[], env: Record<string, string> = {}, cwd = ROOT, options?: CliRunOptions): Promise<Result> {
  if (!existsSync(join(ROOT, 'dist/commands/plan.js'))) throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
  return runBuiltCli(args, env, cwd, options);
}

const PROCESS = { spawn: true };

const STACK_LINE = /^\s+at \S/m;
const CONFIG_LINE = /^[^\s:][^:]*:\d+:\d+: \S/;

/**
 * Progress lines of an apply that got under way (`✓ …`, `✗ …`, `- skipped …`), and of a plan that
 * reads for longer than a few seconds (`reading the current state: …`): they come before any failure
 * is known.
 */
const PROGRESS_LINE = /^(?:[✓✗↻⋯…»] |- skipped |reading the current state: \d+ requests?(?:; waiting .*)? \(\d+ s\)$)/;

/**
 * One clear first line (after the progress lines of an apply that started), no stack anywhere, the
 * expected exit code, no secret in the output.
 */
function expectCleanFailure(r: Result, code: number, first?: RegExp): void {
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '' && !PROGRESS_LINE.test(l));
  const shown = `exit ${r.code}\nstderr:\n${r.stderr}\nstdout:\n${r.stdout.slice(0, 2000)}`;
  expect(r.code, shown).toBe(code);
  expect(lines.length, shown).toBeGreaterThan(0);
  expect(lines[0].startsWith('error: ') || CONFIG_LINE.test(lines[0]), `first line: ${lines[0]}`).toBe(true);
  if (first) expect(lines[0], shown).toMatch(first);
  expect(r.stderr, shown).not.toMatch(STACK_LINE);
  expect(r.stdout, shown).not.toMatch(STACK_LINE);
  expect(`${r.stdout}${r.stderr}`).not.toContain(BAD_TOKEN);
  // One clear line: what went wrong is said once, not once per layer.
  expect(lines.filter((l) => l.startsWith('error: ')).length, shown).toBeLessThanOrEqual(1);
}

let dir: string;
let emulator: RunningEmulator;
let env: Record<string, string>;
let closedPort: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docplane-cli-errors-'));
  for (const part of ['docplane.yaml', 'certs', 'integrations']) cpSync(join(ROOT, 'examples', part), join(dir, part), { recursive: true });
  writeFileSync(join(dir, 'bad-schema.yaml'), 'version: 1\norganization:\n  id: org_acme\nteams:\n  - title: ""\n    colour: red\n');
  writeFileSync(join(dir, 'bad-yaml.yaml'), 'version: 1\norganization: {id: org_acme\nteams: [\n');
  writeFileSync(join(dir, 'small.yaml'), 'version: 1\norganization:\n  id: org_acme\n  title: Acme Renamed\n');
  writeFileSync(join(dir, 'prune-all-teams.yaml'), 'version: 1\norganization: {id: org_acme}\nteams: []\nprune: [teams]\nsafety: {maxDeletes: 0}\n');
  writeFileSync(join(dir, 'not-a-plan.json'), '{"formatVersion": 1, "steps": "nope"');
  writeFileSync(join(dir, 'org-nope.yaml'), 'version: 1\norganization: {id: org_nope}\n');
  writeFileSync(
    join(dir, 'saml-typo.yaml'),
    'version: 1\norganization: {id: org_acme}\nsaml:\n  - label: Okta\n    ssoURL: https://okta.example/sso\n    defaultTeam: Legac\n',
  );
  mkdirSync(join(dir, 'full'));
  writeFileSync(join(dir, 'full', 'keep.txt'), 'something already here\n');
  emulator = await startEmulator({ port: 0, state: loadEmulatorState(join(ROOT, 'examples/emulator-state.yaml')), seed: 3 });
  env = { DOCPLANE_API_URL: emulator.url, DOCPLANE_TOKEN: 'dev-token', ANALYTICS_KEY: 'k-analytics' };
  // A port that was just free: nothing listens there.
  closedPort = await new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
});

afterAll(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('every error path prints one clear line and no stack trace', () => {
  it('an unknown command, as a process', async () => {
    expectCleanFailure(await cli(['frobnicate'], {}, ROOT, PROCESS), 1, /frobnicate/);
  });

  it('a misspelt command off a terminal: one error line with the closest command, exit 1 (not oclif\'s 2), as a process', async () => {
    const r = await cli(['plna'], {}, ROOT, PROCESS);
    expectCleanFailure(r, 1, /^error: plna is not a docplane command — did you mean "docplane plan"\?$/);
    expect(r.stderr).not.toMatch(/Warning/);
    expect(r.stderr).toContain('docplane help');
  });

  it('a misspelt flag: one error line with the closest flag of the command, exit 1', async () => {
    expectCleanFailure(await cli(['validate', '--fromat', 'json']), 1, /^error: Nonexistent flag: --fromat — did you mean "--format"\?$/);
  });

  it('help for a command that does not exist', async () => {
    expectCleanFailure(await cli(['help', 'frobnicate']), 1, /frobnicate/);
  });

  it('show without a plan file, and with one that does not exist', async () => {
    expectCleanFailure(await cli(['show'], {}, dir), 1, /planfile/);
    expectCleanFailure(await cli(['show', 'missing-plan.json'], {}, dir), 1, /missing-plan\.json/);
  });

  it('an organization that exists nowhere: an error naming it, not "No changes"', async () => {
    const r = await cli(['plan', '-c', 'org-nope.yaml'], env, dir);
    expectCleanFailure(r, 1, /^error: organization org_nope \(org-nope\.yaml:2:\d+\) does not exist.*GET \/v1\/orgs\/org_nope → 404/);
    expect(r.stdout).not.toContain('No changes');
    expectCleanFailure(await cli(['apply', '-c', 'org-nope.yaml', '--auto-approve'], env, dir), 1, /org_nope/);
  });

  it('a plan problem: where the config says it, the field, and the closest name', async () => {
    const r = await cli(['plan', '-c', 'saml-typo.yaml'], env, dir);
    expectCleanFailure(r, 1, /^error: the plan has 1 problem; first: saml-typo\.yaml:6:18: saml\["Okta"\]\.defaultTeam: "Legac" names no team.* — did you mean "Legacy"\?$/);
  });

  it('a --target that matches nothing', async () => {
    expectCleanFailure(await cli(['plan', '-c', 'small.yaml', '--target', 'teams["Nope"]'], env, dir), 1, /^error: --target teams\["Nope"\] matches nothing/);
  });

  it('an unknown flag', async () => {
    expectCleanFailure(await cli(['plan', '--no-such-flag']), 1, /--no-such-flag/);
  });

  it('a flag value of the wrong type, saying which flag and what was expected', async () => {
    expectCleanFailure(await cli(['plan', '--concurrency', 'abc']), 1, /concurrency.*(integer|number)/i);
  });

  it('a flag value outside its choices', async () => {
    expectCleanFailure(await cli(['plan', '--format', 'xml']), 1, /format/);
  });

  it('a missing config', async () => {
    expectCleanFailure(await cli(['plan', '-c', 'nope.yaml'], env, dir), 1, /nope\.yaml/);
  });

  // As a process: bin/run.js turns Node's source maps on for --verbose, which a worker's Node has not.
  it('a missing config with --verbose: the same first line, then a stack naming the TypeScript sources, as a process', async () => {
    const r = await cli(['plan', '-c', 'nope.yaml', '--verbose'], env, dir, PROCESS);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: .*nope\.yaml/);
    // The bundle's source maps (scripts/bundle.js) carry a frame back to src/, not to a chunk.
    expect(r.stderr).toMatch(/^\s+at .*\bsrc\/config\/load\.ts:\d+:\d+\)?$/m);
    expect(r.stderr).not.toMatch(/dist\/bundle\/chunks\//);
  });

  it('a config that breaks the schema: file:line:column lines first, as a process', async () => {
    const r = await cli(['validate', '-c', 'bad-schema.yaml'], {}, dir, PROCESS);
    expectCleanFailure(r, 1, /^bad-schema\.yaml:5:/);
    expect(r.stderr).toMatch(/bad-schema\.yaml:6:\d+: .*colour/);
  });

  it('a config that is not valid YAML, on plan', async () => {
    expectCleanFailure(await cli(['plan', '-c', 'bad-yaml.yaml'], env, dir), 1, /^bad-yaml\.yaml:\d+:\d+: /);
  });

  it('no API URL', async () => {
    expectCleanFailure(await cli(['plan', '-c', 'small.yaml'], { DOCPLANE_TOKEN: 'dev-token' }, dir), 1, /API URL/i);
  });

  it('plain http to a host that is not loopback, refused before any request', async () => {
    expectCleanFailure(await cli(['plan', '-c', 'small.yaml', '--api-url', 'http://docs.example.com'], { DOCPLANE_TOKEN: 'dev-token' }, dir), 1, /http/);
  });

  it('no token', async () => {
    expectCleanFailure(await cli(['plan', '-c', 'small.yaml'], { DOCPLANE_API_URL: emulator.url }, dir), 1, /token/i);
  });

  it('a token file that does not exist', async () => {
    expectCleanFailure(await cli(['plan', '-c', 'small.yaml', '--token-file', 'no-such-token'], { DOCPLANE_API_URL: emulator.url }, dir), 1, /token file/);
  });

  it('an unreachable API (a closed port on 127.0.0.1)', async () => {
    const r = await cli(['plan', '-c', 'small.yaml', '--timeout', '2', '--max-wait', '1'], { DOCPLANE_API_URL: `http://127.0.0.1:${closedPort}`, DOCPLANE_TOKEN: 'dev-token' }, dir);
    expectCleanFailure(r, 1, /GET \/v1\/orgs\/org_acme.*(no answer|refused)/);
  });

  it('a token the API does not accept (401), never printed, as a process', async () => {
    expectCleanFailure(await cli(['plan', '-c', 'small.yaml'], { ...env, DOCPLANE_TOKEN: BAD_TOKEN }, dir, PROCESS), 1, /401/);
  });

  it('a read-only token on apply (403)', async () => {
    expectCleanFailure(await cli(['apply', '-c', 'small.yaml', '--auto-approve'], { ...env, DOCPLANE_TOKEN: 'read-token' }, dir), 1, /403/);
  });

  it('a read-only token on an apply of many steps: the API\'s answer printed once, in the error line', async () => {
    const r = await cli(['apply', '-c', 'docplane.yaml', '--auto-approve'], { ...env, DOCPLANE_TOKEN: 'read-token' }, dir);
    expectCleanFailure(r, 1, /^error: stopped: (PATCH|PUT|POST|DELETE) \/v1\/\S+ → 403: /);
    expect(`${r.stdout}${r.stderr}`.split('the token has read-only access')).toHaveLength(2);
  });

  it('apply without --auto-approve and not in a terminal', async () => {
    expectCleanFailure(await cli(['apply', '-c', 'small.yaml'], env, dir), 1, /confirmation|auto-approve/);
  });

  it('a safety rule refusing an apply: exit 3, as a process', async () => {
    expectCleanFailure(await cli(['apply', '-c', 'prune-all-teams.yaml', '--auto-approve'], env, dir, PROCESS), 3, /safety|maxDeletes/);
  });

  it('a plan file that does not exist, and one that is not a plan', async () => {
    expectCleanFailure(await cli(['apply', 'missing-plan.json'], env, dir), 1, /missing-plan\.json/);
    expectCleanFailure(await cli(['apply', 'not-a-plan.json'], env, dir), 1, /not-a-plan\.json/);
  });

  it('a folder given as plan file: says what to pass instead', async () => {
    const r = await cli(['apply', 'full'], env, dir);
    expectCleanFailure(r, 1, /^error: full is a folder; pass a plan file written by `docplane plan --out`, or -c full to plan from a config folder$/);
    expect(r.stderr).not.toContain('EISDIR');
  });

  it('a stale plan file: the remote state moved since the plan', async () => {
    const own = await startEmulator({ port: 0, state: loadEmulatorState(join(ROOT, 'examples/emulator-state.yaml')), seed: 4 });
    try {
      const ownEnv = { ...env, DOCPLANE_API_URL: own.url };
      const planned = await cli(['plan', '-c', 'small.yaml', '--out', 'stale-plan.json'], ownEnv, dir);
      expect(planned.code, planned.stderr).toBe(0);
      expect(readFileSync(join(dir, 'stale-plan.json'), 'utf8')).toContain('Acme Renamed');
      // Someone renames the organization behind docplane's back.
      const res = await fetch(`${own.url}/v1/orgs/org_acme`, {
        method: 'PATCH',
        headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Acme by hand' }),
      });
      expect(res.ok).toBe(true);
      expectCleanFailure(await cli(['apply', 'stale-plan.json', '-c', 'small.yaml'], ownEnv, dir), 1, /stale/);
    } finally {
      await own.close();
    }
  });

  it('import into a folder that is not empty, as a process', async () => {
    expectCleanFailure(await cli(['import', '--org', 'org_acme', '--out', 'full'], env, dir, PROCESS), 1, /full/);
  });

  it('an import of an organization that does not exist', async () => {
    expectCleanFailure(await cli(['import', '--org', 'org_nope', '--out', '-'], env, dir), 1, /org_nope|404/);
  });

  it('the emulator with a state file that does not exist', async () => {
    expectCleanFailure(await cli(['emulator', '--port', '0', '--state', 'no-such-state.yaml'], {}, dir), 1, /no-such-state\.yaml/);
  });
});

/** A self-signed certificate (its own CA) for `subjectAltName`, made with openssl at test time. */
function makeCert(folder: string, name: string, subjectAltName: string): { key: string; cert: string; certFile: string } {
  const keyFile = join(folder, `${name}.key`);
  const certFile = join(folder, `${name}.pem`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', `/CN=${name}`, '-addext', `subjectAltName=${subjectAltName}`], { stdio: 'ignore' });
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

function listen<T extends NetServer | HttpsServer>(server: T): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

const HAS_OPENSSL = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;

/**
 * A failure to reach the API, of each class, on each command that reads it: one error line naming
 * the request and what happened, exit 1 — never Node's silent exit 13 of a promise left unsettled
 * (undici leaves the requests queued behind a TLS host-name failure without an answer). plan and
 * apply read the example config (many reads at once), import one organization and its site.
 */
describe('a failure to reach the API: one error line and exit 1, on plan, apply and import', () => {
  const servers: (NetServer | HttpsServer)[] = [];
  const sockets = new Set<Socket>();
  const urls: Record<string, string> = {};
  let tlsDir: string;
  let trustedCaFile = '';

  beforeAll(async () => {
    tlsDir = mkdtempSync(join(tmpdir(), 'docplane-tls-'));
    // Reset: every connection is torn down with a TCP RST as soon as it is made.
    const reset = createServer((socket) => socket.resetAndDestroy());
    // Timeout: connections are accepted and never answered.
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    servers.push(reset, silent);
    urls.refused = `http://127.0.0.1:${closedPort}`;
    urls.reset = `http://127.0.0.1:${await listen(reset)}`;
    urls.timeout = `http://127.0.0.1:${await listen(silent)}`;
    // DNS: a name under .invalid never resolves (RFC 2606), so nothing is sent anywhere.
    urls.dns = 'https://docplane-test.invalid';
    if (HAS_OPENSSL) {
      // TLS name: a certificate from a trusted CA (NODE_EXTRA_CA_CERTS) for another host name.
      const other = makeCert(tlsDir, 'other.example', 'DNS:other.example');
      trustedCaFile = other.certFile;
      const wrongName = createHttpsServer({ key: other.key, cert: other.cert }, (_req, res) => res.end('{}'));
      // Untrusted TLS: a certificate for 127.0.0.1 that no trusted CA signed.
      const self = makeCert(tlsDir, 'loopback', 'IP:127.0.0.1');
      const untrusted = createHttpsServer({ key: self.key, cert: self.cert }, (_req, res) => res.end('{}'));
      servers.push(wrongName, untrusted);
      urls.tlsName = `https://127.0.0.1:${await listen(wrongName)}`;
      urls.tlsUntrusted = `https://127.0.0.1:${await listen(untrusted)}`;
    }
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    rmSync(tlsDir, { recursive: true, force: true });
  });

  // --max-wait 1: the backoff between retries is at most 1 s, so the retries are over sooner.
  // Node reads NODE_EXTRA_CA_CERTS when it starts: a run that sets it is a process of its own, which
  // also shows that no promise is left unsettled (Node's exit 13) where undici used to leave one.
  async function everyCommand(url: string, extraEnv: Record<string, string>, first: RegExp): Promise<void> {
    const runEnv = { ...env, ...extraEnv, DOCPLANE_API_URL: url };
    const bounds = ['--timeout', '1', '--max-wait', '1'];
    const options = { spawn: 'NODE_EXTRA_CA_CERTS' in extraEnv };
    const [plan, apply, imported] = await Promise.all([
      cli(['plan', '-c', 'docplane.yaml', ...bounds], runEnv, dir, options),
      cli(['apply', '-c', 'docplane.yaml', '--auto-approve', ...bounds], runEnv, dir, options),
      cli(['import', '--org', 'org_acme', '--site', 'site_docs', '--out', '-', ...bounds], runEnv, dir, options),
    ]);
    expectCleanFailure(plan, 1, first);
    expectCleanFailure(apply, 1, first);
    expectCleanFailure(imported, 1, first);
  }

  const request = String.raw`^error: GET /v1/orgs/org_acme\S* → no answer: `;

  it('connection refused', async () => {
    await everyCommand(urls.refused, {}, new RegExp(`${request}connection refused`));
  });

  it('connection reset', async () => {
    await everyCommand(urls.reset, {}, new RegExp(`${request}connection (reset|closed by the server)`));
  });

  // A host that answers nothing is given up on after 1.5 timeouts of silence (1 s each here), or
  // three timeouts in a row (docs/bounds.md); the test allows for a loaded machine.
  it('timeout', async () => {
    await everyCommand(urls.timeout, {}, new RegExp(`${request}127\\.0\\.0\\.1:\\d+ answered nothing for \\d+ s \\(\\d+ requests? timed out\\); giving up on it`));
  });

  it('a host name that does not resolve', async () => {
    await everyCommand(urls.dns, {}, new RegExp(`${request}host (not found|name lookup failed)`));
  });

  it.skipIf(!HAS_OPENSSL)('a TLS certificate for another host name, from a trusted CA', async () => {
    await everyCommand(urls.tlsName, { NODE_EXTRA_CA_CERTS: trustedCaFile }, new RegExp(`${request}TLS failure \\(ERR_TLS_CERT_ALTNAME_INVALID\\)`));
  });

  it.skipIf(!HAS_OPENSSL)('a TLS certificate that no trusted CA signed', async () => {
    await everyCommand(urls.tlsUntrusted, {}, new RegExp(`${request}TLS failure \\((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\\)`));
  });
});
