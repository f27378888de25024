import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI_NODE, requireBuiltCli } from '../cli-node.js';
import { recordExchangeLog } from '../conformance/session.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('npm run demo', () => {
  beforeAll(requireBuiltCli);

  it('imports, plans, applies and converges on the example', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'docplane-demo-')), 'exchanges.jsonl');
    // The demo runs the emulator and the CLI with the node that runs it.
    const r = spawnSync(CLI_NODE, ['scripts/demo.js'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1', DOCPLANE_DEMO_LOG: log } });
    expect(r.stderr).not.toMatch(/demo: `docplane/);
    expect(r.status).toBe(0);
    // Nothing but the commands' own output: no warning of node's ("(node:PID) …") or V8's, on any line of Node.
    expect(r.stderr).not.toMatch(/^\(node:\d+\)|unrecognized flag|Try --help for options/m);
    expect(r.stdout).toContain('Apply: 64 applied, 0 failed, 0 skipped.');
    expect(r.stdout).toContain('converged: no changes left');
    expect(r.stdout).toMatch(/demo complete/);
    // The demo's exchanges are checked against the live description after this file (docs/conformance.md).
    expect(await recordExchangeLog(log)).toBeGreaterThan(100);
  });
});
