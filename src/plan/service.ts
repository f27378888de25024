/**
 * `docplane plan` without the flags: load the config, connect, plan. The command renders the result;
 * apply uses planOrgs directly.
 */
import type { ApiClient } from '../api/types.js';
import { loadConfig } from '../config/load.js';
import type { Secret } from '../core/secrets.js';
import { readPlanFile } from './file.js';
import { planOrgs } from './run.js';
import type { Plan } from './types.js';

export interface RunPlanOptions {
  configPath?: string;
  toolVersion: string;
  targets?: string[];
  replace?: string[];
  /** Makes the client, given the config's `api.url` (the command builds it from its flags). */
  connect(configApiUrl: string | undefined): Promise<ApiClient>;
  /** Told when reading starts (with the count of requests sent so far) and when it ends. */
  progress?: { reading(requests: () => number, waiting?: () => string | undefined): void; done(): void };
}

export interface RunPlanResult {
  plan: Plan;
  /** The config's secret values, for masking and for the plan file's placeholders. */
  secrets: Secret[];
}

export async function runPlan(options: RunPlanOptions): Promise<RunPlanResult> {
  const config = await loadConfig({ path: options.configPath });
  const client = await options.connect(config.apiUrl);
  options.progress?.reading(() => client.stats().requests, () => client.stats().waiting);
  try {
    const plan = await planOrgs(config, client, {
      toolVersion: options.toolVersion,
      targets: options.targets,
      replace: options.replace,
      unmatchedTargets: 'error',
    });
    return { plan, secrets: config.secrets };
  } finally {
    options.progress?.done();
    await client.close();
  }
}

export interface ShowPlanOptions {
  /** A plan file written by `docplane plan --out`. */
  file: string;
}

/**
 * `docplane show PLANFILE`: the saved plan, checked as apply checks it, for rendering. Its secrets
 * are placeholders already, so there is nothing to mask; nothing is read from the config or the API.
 */
export function showPlan(options: ShowPlanOptions): RunPlanResult {
  return { plan: readPlanFile(options.file), secrets: [] };
}
