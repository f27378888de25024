/**
 * The set-up of a scenario test through the emulator, in process: an emulator seeded with `state`
 * (every exchange recorded), a client of it and a scratch folder for the configs, made before the
 * file's tests and closed after them; `planFor` writes a config there, loads it and plans it;
 * `converge` plans, applies (no step failed or skipped) and plans again (no changes left).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import { applyPlan } from '../../src/apply/executor.js';
import type { LoadedConfig } from '../../src/config/types.js';
import { loadConfig } from '../../src/config/load.js';
import { parseEmulatorState, startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { planOrgs } from '../../src/plan/run.js';
import type { Plan } from '../../src/plan/types.js';
import { createRecorder, type Recorder } from '../conformance/recorder.js';

export interface EmulatorScenario {
  /** Set before the file's tests. */
  emulator: RunningEmulator;
  client: ApiClient;
  dir: string;
  recorder: Recorder;
  planFor(yaml: string): Promise<{ config: LoadedConfig; plan: Plan }>;
  /** The plan that was applied. */
  converge(yaml: string): Promise<Plan>;
}

export function emulatorScenario(state: Parameters<typeof parseEmulatorState>[0], name: string): EmulatorScenario {
  const scenario = { recorder: createRecorder() } as EmulatorScenario;
  beforeAll(async () => {
    scenario.emulator = await startEmulator({ port: 0, state: parseEmulatorState(state), onExchange: scenario.recorder.record });
    scenario.client = createClient({ baseUrl: scenario.emulator.url, token: 'dev-token', backoffBaseMs: 2 });
    scenario.dir = mkdtempSync(join(tmpdir(), `docplane-${name}-`));
  });
  afterAll(async () => {
    await scenario.client.close();
    await scenario.emulator.close();
    rmSync(scenario.dir, { recursive: true, force: true });
  });
  scenario.planFor = async (yaml) => {
    const path = join(scenario.dir, 'docplane.yaml');
    writeFileSync(path, yaml);
    const config = await loadConfig({ path });
    return { config, plan: await planOrgs(config, scenario.client, { toolVersion: 'test' }) };
  };
  scenario.converge = async (yaml) => {
    const { plan } = await scenario.planFor(yaml);
    expect(plan.problems).toEqual([]);
    const result = await applyPlan(plan, scenario.client, { concurrency: 8, backoffBaseMs: 2 });
    expect(result.failed).toEqual([]);
    expect(result.skipped).toEqual([]);
    const again = await scenario.planFor(yaml);
    expect(again.plan.steps.map((s) => `${s.action} ${s.address}`)).toEqual([]);
    return plan;
  };
  return scenario;
}
