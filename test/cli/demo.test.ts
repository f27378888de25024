import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

describe('npm run demo', () => {
  it.runIf(existsSync(join(ROOT, 'dist', 'emulator', 'server.js')))('imports, plans, applies and converges on the example', () => {
    const r = spawnSync(process.execPath, ['scripts/demo.js'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } });
    expect(r.stderr).not.toMatch(/demo: `docplane/);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Apply: 28 applied, 0 failed, 0 skipped.');
    expect(r.stdout).toContain('converged: no changes left');
    expect(r.stdout).toMatch(/demo complete/);
  });
});
