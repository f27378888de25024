/** publishSite answering with a checkout session: the apply says a purchase is needed, and the step is not done. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import { applyPlan } from '../../src/apply/executor.js';
import { loadConfig } from '../../src/config/load.js';
import { startEmulator, type EmulatorState, type RunningEmulator } from '../../src/emulator/server.js';
import { planOrgs } from '../../src/plan/run.js';
import { demoState } from '../apply/cli-helpers.js';

let emulator: RunningEmulator;
let client: ApiClient;
let dir: string;

beforeAll(async () => {
  const state = structuredClone(demoState()) as { organizations: Array<{ id: string; sites?: Array<Record<string, unknown>> }> };
  const site = state.organizations.find((o) => o.id === 'org_acme')!.sites!.find((s) => s.id === 'site_status')!;
  site.publishNeedsPurchase = true;
  emulator = await startEmulator({ port: 0, state: state as unknown as EmulatorState, seed: 5 });
  client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 2, maxAttempts: 2 });
  dir = mkdtempSync(join(tmpdir(), 'docplane-checkout-'));
});

afterAll(async () => {
  await client?.close();
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('a publish answered with a checkout session fails with why, and the next plan still publishes', async () => {
  const path = join(dir, 'docplane.yaml');
  writeFileSync(path, 'version: 1\norganization:\n  id: org_acme\nsites:\n  - id: site_status\n    published: true\n');
  const config = await loadConfig({ path });
  const plan = await planOrgs(config, client, { toolVersion: 'test' });
  expect(plan.steps.map((s) => `${s.action} ${s.address}`)).toEqual(['publish sites["site_status"]']);
  const result = await applyPlan(plan, client, { concurrency: 2, backoffBaseMs: 2 });
  expect(result.failed.map((f) => f.message)).toEqual([
    expect.stringMatching(/^POST \/v1\/orgs\/org_acme\/sites\/site_status\/publish: publishing this site needs a purchase \(the API answered with checkout session cs_\w+\); the site is not published/),
  ]);
  expect(emulator.world.orgs.get('org_acme')!.sites.get('site_status')!.settings.published).toBe(false);
  const again = await planOrgs(config, client, { toolVersion: 'test' });
  expect(again.steps.map((s) => `${s.action} ${s.address}`)).toEqual(['publish sites["site_status"]']);
});
