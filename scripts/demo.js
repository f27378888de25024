#!/usr/bin/env node
// The whole cycle against the embedded emulator, on the example config:
// import the organization as it is, validate the example, plan, apply, and plan again (no changes).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEmulatorState, startEmulator } from '../dist/emulator/server.js';

const root = new URL('..', import.meta.url).pathname;
const bold = (s) => (process.stdout.isTTY && !process.env.NO_COLOR ? `\x1b[1m${s}\x1b[22m` : s);

// DOCPLANE_DEMO_LOG: the emulator's exchange log, for the conformance check (docs/conformance.md).
const emulator = await startEmulator({ port: 0, state: loadEmulatorState(join(root, 'examples/emulator-state.yaml')), logFile: process.env.DOCPLANE_DEMO_LOG });
const env = { ...process.env, DOCPLANE_API_URL: emulator.url, DOCPLANE_TOKEN: 'dev-token' };
const importDir = mkdtempSync(join(tmpdir(), 'docplane-demo-'));

// The emulator runs in this process, so the CLI must run beside it, not block it (no spawnSync).
async function docplane(title, args, okCodes = [0]) {
  console.log(`\n${bold(`── ${title}`)}\n$ docplane ${args.join(' ')}`);
  const child = spawn(process.execPath, [join(root, 'bin/run.js'), ...args], { env, stdio: 'inherit', cwd: root });
  const status = await new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  if (!okCodes.includes(status)) {
    console.error(`\ndemo: \`docplane ${args[0]}\` exited with ${status}`);
    throw new Error('demo step failed');
  }
  return status;
}

let failed = false;
try {
  console.log(`emulator listening on ${emulator.url} (seeded from examples/emulator-state.yaml)`);
  await docplane('1. import the organization as it is today', ['import', '--org', 'org_acme', '--out', importDir, '--force']);
  console.log(`(wrote ${readdirSync(importDir).join(', ')} to ${importDir})`);
  await docplane('2. the imported config plans to no changes', ['plan', '-c', importDir, '--detailed-exitcode']);
  await docplane('3. validate the example config', ['validate', '-c', 'examples/docplane.yaml']);
  await docplane('4. plan it (exit 2: there are changes)', ['plan', '-c', 'examples/docplane.yaml', '--detailed-exitcode'], [2]);
  await docplane('5. apply it', ['apply', '-c', 'examples/docplane.yaml', '--auto-approve']);
  await docplane('6. plan again: nothing left to do', ['plan', '-c', 'examples/docplane.yaml', '--detailed-exitcode']);
  console.log(`\n${bold('demo complete')}: import, plan, apply, plan again — converged.`);
} catch {
  failed = true;
} finally {
  rmSync(importDir, { recursive: true, force: true });
  await emulator.close();
}
process.exit(failed ? 1 : 0);
