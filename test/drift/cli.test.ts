/**
 * `docplane plan --since` and `--attribute` through the built CLI (`npm run build` first): the flags
 * reach the plan, the markdown names who changed what, and --since refuses --target in one line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { ensureBuilt } from '../import/helpers.js';
import { runBuiltCli } from '../cli-run.js';

let emulator: RunningEmulator;
let dir: string;
let clock = Date.parse('2026-11-20T08:00:00Z');

const cli = (args: string[]) => runBuiltCli(args, { DOCPLANE_API_URL: emulator.url, DOCPLANE_TOKEN: 'dev-token' }, dir);
const patch = (token: string, path: string, body: unknown) =>
  fetch(`${emulator.url}${path}`, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'docplane-drift-cli-'));
  writeFileSync(join(dir, 'docplane.yaml'), 'version: 1\norganization: { id: org_acme }\nspaces:\n  - { id: space_api, title: API reference }\n  - { id: space_guides, title: Guides }\n');
  emulator = await startEmulator({
    port: 0,
    seed: 2,
    now: () => new Date(clock),
    state: {
      tokens: [
        { token: 'dev-token', access: 'write', user: 'u_alice' },
        { token: 'ana-app', access: 'write', user: 'u_ana', source: 'ui' },
      ],
      users: [
        { id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice Admin' },
        { id: 'u_ana', email: 'ana@acme.com', displayName: 'Ana Lima' },
      ],
      organizations: [{ id: 'org_acme', title: 'Acme', members: [{ user: 'u_alice', role: 'admin' }, { user: 'u_ana', role: 'admin' }], spaces: [{ id: 'space_api', title: 'API reference' }, { id: 'space_guides', title: 'Guides' }] }],
    },
  });
  // History before the window, then Ana's change in the app inside it.
  expect((await patch('dev-token', '/v1/spaces/space_guides', { title: 'Guides' })).status).toBe(200);
  clock = Date.parse('2026-11-20T10:32:00Z');
  expect((await patch('ana-app', '/v1/spaces/space_api', { title: 'API' })).status).toBe(200);
});

afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('docplane plan --since (built CLI)', () => {
  it('reads what changed since TIME and names who changed it, in markdown', async () => {
    const r = await cli(['plan', '--since', '2026-11-20T09:00:00Z', '--format', 'markdown', '--detailed-exitcode']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain('Drift check: 1 object changed since 2026-11-20 09:00 UTC was read; everything else was not');
    expect(r.stdout).toContain('spaces["space_api"]  (changed in the app by Ana Lima, 2026-11-20 10:32 UTC)');
    expect(r.stdout).not.toContain('space_guides');
  });

  it('names them in a full plan with --attribute, and refuses --since with --target', async () => {
    const full = await cli(['plan', '--attribute', '2026-11-20T00:00:00Z', '--format', 'json']);
    expect(full.code, full.stderr).toBe(0);
    const plan = JSON.parse(full.stdout) as { steps: Array<{ address: string; changedBy?: { by: string; actor: { label: string } } }>; since?: unknown };
    expect(plan.since).toBeUndefined();
    expect(plan.steps.find((s) => s.address === 'spaces["space_api"]')?.changedBy).toMatchObject({ by: 'person', actor: { label: 'Ana Lima' } });
    const both = await cli(['plan', '--since', '1h', '--target', 'spaces["space_api"]']);
    expect(both.code).toBe(1);
    expect(both.stderr.split('\n')[0]).toMatch(/--target.*--since|--since.*--target/);
  });
});
