/**
 * Sites from nothing, end to end: the built CLI against the emulator creates a site that the config
 * names by title only, with a section and a share link, publishes it, and then plans no changes; a
 * pruned site that the config no longer names is deleted only with --force.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorState, type RunningEmulator } from '../../src/emulator/server.js';
import { ensureBuilt, runCli, type CliResult } from '../import/helpers.js';

const state = {
  tokens: [{ token: 'dev-token', access: 'write' }],
  users: [{ id: 'u_admin', email: 'admin@acme.test', displayName: 'Admin' }],
  organizations: [
    {
      id: 'org_acme',
      title: 'Acme',
      members: [{ user: 'u_admin', role: 'admin' }],
      spaces: [{ id: 'space_guides', title: 'Guides' }],
      sites: [{ id: 'site_old', title: 'Old docs', published: true }],
    },
  ],
} as unknown as EmulatorState;

const CONFIG = `version: 1
organization: { id: org_acme }
sites:
  - title: Developer docs
    visibility: unlisted
    basename: developers
    published: true
    defaultSection: guides
    sections:
      - { path: guides, title: Guides, space: space_guides }
    shareLinks:
      - { name: partner }
    access:
      users: { admin@acme.test: admin }
  - { id: site_old, title: Old docs }
`;

let emulator: RunningEmulator;
let work: string;

function cli(args: string[]): Promise<CliResult> {
  return runCli(args, { DOCPLANE_API_URL: emulator.url, DOCPLANE_TOKEN: 'dev-token' }, work);
}

async function sites(): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(`${emulator.url}/v1/orgs/org_acme/sites?limit=1000`, { headers: { authorization: 'Bearer dev-token' } });
  return ((await res.json()) as { items: Array<Record<string, unknown>> }).items;
}

beforeAll(async () => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'docplane-sites-cli-'));
  emulator = await startEmulator({ port: 0, state, seed: 3 });
});

afterAll(async () => {
  await emulator?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('sites from nothing (built CLI, emulator)', () => {
  it('creates the site with its section and share link, publishes it, and plans nothing afterwards', async () => {
    writeFileSync(join(work, 'docplane.yaml'), CONFIG);
    const applied = await cli(['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);

    const created = (await sites()).find((s) => s.title === 'Developer docs');
    expect(created).toMatchObject({ visibility: 'unlisted', basename: 'developers', published: true });
    const id = created?.id as string;
    const structure = await (await fetch(`${emulator.url}/v1/orgs/org_acme/sites/${id}/structure`, { headers: { authorization: 'Bearer dev-token' } })).json();
    expect(structure).toMatchObject({ type: 'sections', structure: [{ path: 'guides', title: 'Guides', default: true }] });
    const grants = await (await fetch(`${emulator.url}/v1/orgs/org_acme/sites/${id}/permissions/users?limit=1000`, { headers: { authorization: 'Bearer dev-token' } })).json();
    expect((grants as { items: unknown[] }).items).toHaveLength(1);
    expect(JSON.stringify(grants)).toContain('"admin"');

    const again = await cli(['plan', '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });

  it('a site left out of a config that prunes sites is deleted only with --force', async () => {
    writeFileSync(join(work, 'docplane.yaml'), `${CONFIG.replace('  - { id: site_old, title: Old docs }\n', '')}prune: [sites]\n`);
    const planned = await cli(['plan']);
    expect(planned.stdout).toContain('sites["site_old"]');
    expect(planned.stdout).toContain('needsForce');

    const refused = await cli(['apply', '--auto-approve']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/needsForce: org_acme: deleting sites\["site_old"\] needs --force/);
    expect((await sites()).map((s) => s.id)).toContain('site_old');

    const forced = await cli(['apply', '--auto-approve', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect((await sites()).map((s) => s.id)).not.toContain('site_old');
  });
});
