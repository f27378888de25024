import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordExchangeLog } from '../conformance/session.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('npm run demo', () => {
  it.runIf(existsSync(join(ROOT, 'dist', 'emulator', 'server.js')))('imports, plans, applies and converges on the example', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'docplane-demo-')), 'exchanges.jsonl');
    const r = spawnSync(process.execPath, ['scripts/demo.js'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1', DOCPLANE_DEMO_LOG: log } });
    expect(r.stderr).not.toMatch(/demo: `docplane/);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Apply: 47 applied, 0 failed, 0 skipped.');
    expect(r.stdout).toContain('converged: no changes left');
    expect(r.stdout).toMatch(/demo complete/);
    // The demo's exchanges are checked against the live description after this file (docs/conformance.md).
    expect(await recordExchangeLog(log)).toBeGreaterThan(100);
  });
});
