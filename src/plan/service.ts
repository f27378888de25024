/**
 * `docplane plan` without the flags: load the config, connect, plan. The command renders the result;
 * apply uses planOrgs directly.
 */
import type { ApiClient } from '../api/types.js';
import { loadConfig } from '../config/load.js';
import type { LoadedConfig } from '../config/types.js';
import { DocplaneError } from '../core/errors.js';
import type { Secret } from '../core/secrets.js';
import { baseDifference } from './base.js';
import { loadBaseConfig } from './base-source.js';
import { formatConfigIssue } from '../core/errors.js';
import { checkSteps } from '../policy/run.js';
import { checkDriftOptions, sinceWindow, withAttribution, withSinceChanges } from '../drift/plan.js';
import { readPlanFile } from './file.js';
import { planOrgs, runSecrets } from './run.js';
import type { Plan } from './types.js';

export interface RunPlanOptions {
  configPath?: string;
  toolVersion: string;
  targets?: string[];
  replace?: string[];
  /**
   * `--base`: the config as the pull request's base has it (a path, or a git revision); the plan
   * reads only what the difference touches (src/plan/base.ts).
   */
  base?: string;
  /**
   * `--since`: a drift check that reads the audit log from this time (RFC 3339 or a duration such as
   * `70m`) and only what its events touch (src/drift/).
   */
  since?: string;
  /** `--attribute`: a full plan with steps names who changed them, from the audit log this far back. */
  attribute?: string;
  /** Makes the client, given the config's `api.url` (the command builds it from its flags). */
  connect(configApiUrl: string | undefined): Promise<ApiClient>;
  /** Told when reading starts (with the count of requests sent so far) and when it ends. */
  progress?: { reading(requests: () => number, waiting?: () => string | undefined): void; done(): void };
}

export interface RunPlanResult {
  plan: Plan;
  /** The config's secret values and those the reads found, for masking and for the plan file's placeholders. */
  secrets: Secret[];
}

/** What `--base` asks of the plan: the touched entries' targets, or a whole plan and why. */
async function baseNarrowing(config: LoadedConfig, options: RunPlanOptions): Promise<{ from: string; targets: string[]; whole?: string } | undefined> {
  const from = options.base;
  if (from === undefined) return undefined;
  if (options.targets && options.targets.length > 0) {
    throw new DocplaneError('BASE_WITH_TARGET', '--base and --target cannot be given together: --base chooses the targets itself', {
      hint: 'Drop --target to plan what changed since the base, or drop --base to plan the targets.',
    });
  }
  const base = await loadBaseConfig({ base: from, configPath: options.configPath });
  if ('missing' in base) return { from, targets: [], whole: `the config (${base.missing}) was added` };
  const difference = baseDifference(base.config, config);
  return { from, ...difference };
}

export async function runPlan(options: RunPlanOptions): Promise<RunPlanResult> {
  const config = await loadConfig({ path: options.configPath });
  // The base is read before any request: a base that cannot be read costs nothing.
  const drift = checkDriftOptions({
    since: options.since,
    attribute: options.attribute,
    ...(options.since !== undefined && options.targets?.length ? { narrowedBy: '--target' } : options.since !== undefined && options.base !== undefined ? { narrowedBy: '--base' } : {}),
  });
  const base = await baseNarrowing(config, options);
  const client = await options.connect(config.apiUrl);
  options.progress?.reading(() => client.stats().requests, () => client.stats().waiting);
  try {
    const window = drift.since ? await sinceWindow(config, client, drift.since) : undefined;
    const since = window ? { from: window.from.toISOString(), ...(window.whole !== undefined ? { whole: window.whole } : {}) } : undefined;
    let planned = await planOrgs(config, client, {
      toolVersion: options.toolVersion,
      targets: base && base.whole === undefined ? base.targets : window?.targets ?? options.targets,
      replace: options.replace,
      unmatchedTargets: 'error',
      ...(base ? { base: { from: base.from, ...(base.whole !== undefined ? { whole: base.whole } : {}) } } : {}),
      ...(since ? { since } : {}),
    });
    // Who changed what: the window's events, or a full plan's own read of the log (--attribute).
    if (window) planned = withSinceChanges(planned, window);
    else if (drift.attribute) planned = await withAttribution(planned, client, drift.attribute);
    // The steps policies (DESIGN §11), and the resource policies' warnings as notes for the reviewer.
    const secrets = runSecrets(config, client);
    const plan = withNotes(checkSteps(planned, config.policies, secrets), (config.warnings ?? []).map((w) => `warning: ${formatConfigIssue(w)}`));
    return { plan, secrets };
  } finally {
    options.progress?.done();
    await client.close();
  }
}

function withNotes(plan: Plan, notes: string[]): Plan {
  return notes.length === 0 ? plan : { ...plan, notes: [...(plan.notes ?? []), ...notes] };
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
