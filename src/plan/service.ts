/**
 * `docplane plan` and `docplane show`: the plan as data, for the command to render. The run context
 * (src/plan/context.ts) loads the config, connects, plans and runs the policies.
 */
import type { ApiClient } from '../api/types.js';
import { DocplaneError } from '../core/errors.js';
import type { Secret, SecretRegistry } from '../core/secrets.js';
import { checkDriftOptions, sinceWindow, withAttribution, withSinceChanges } from '../drift/plan.js';
import { loadRun, type BaseScope } from './context.js';
import { readPlanFile } from './file.js';
import type { Plan } from './types.js';
import type { SourceLocation } from '../model/desired.js';

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
  connect(configApiUrl: string | undefined, secrets?: SecretRegistry): Promise<ApiClient>;
  /** Told when reading starts (with the count of requests sent so far) and when it ends. */
  progress?: { reading(requests: () => number, waiting?: () => string | undefined): void; done(): void };
}

export interface RunPlanResult {
  plan: Plan;
  /** The config's secret values and those the reads found, for masking and for the plan file's placeholders. */
  secrets: Secret[];
  /** Where the config writes each address, per organization (absent for a saved plan). */
  locations?: Record<string, Record<string, SourceLocation>>;
}

export async function runPlan(options: RunPlanOptions): Promise<RunPlanResult> {
  if (options.base !== undefined && options.targets && options.targets.length > 0) {
    throw new DocplaneError('BASE_WITH_TARGET', '--base and --target cannot be given together: --base chooses the targets itself', {
      hint: 'Drop --target to plan what changed since the base, or drop --base to plan the targets.',
    });
  }
  const drift = checkDriftOptions({
    since: options.since,
    attribute: options.attribute,
    ...(options.since !== undefined && options.targets?.length ? { narrowedBy: '--target' } : options.since !== undefined && options.base !== undefined ? { narrowedBy: '--base' } : {}),
  });
  const run = await loadRun({ configPath: options.configPath, toolVersion: options.toolVersion });
  // The base is read before any request: a base that cannot be read costs nothing.
  const base: BaseScope | undefined = options.base === undefined ? undefined : await run.baseScope(options.base);
  const locations = Object.fromEntries(run.config.orgs.map((o) => [o.organization.id, o.locations]));
  const result = await run.connect(options.connect, async (ctx) => {
    options.progress?.reading(() => ctx.client.stats().requests, () => ctx.client.stats().waiting);
    try {
      // A drift check's window: the targets its events touch, or why everything is read (src/drift/).
      const window = drift.since ? await sinceWindow(run.config, ctx.client, drift.since) : undefined;
      const since = window ? { from: window.from.toISOString(), ...(window.whole !== undefined ? { whole: window.whole } : {}) } : undefined;
      // The steps policies, and the resource policies' warnings as notes for the reviewer.
      const made = await ctx.plan({
        targets: window?.targets ?? options.targets,
        replace: options.replace,
        unmatchedTargets: 'error',
        warnings: true,
        ...(base ? { base } : {}),
        ...(since ? { since } : {}),
      });
      // Who changed what: the window's events, or a full plan's own read of the log (--attribute).
      if (window) return { ...made, plan: withSinceChanges(made.plan, window) };
      if (drift.attribute) return { ...made, plan: await withAttribution(made.plan, ctx.client, drift.attribute) };
      return made;
    } finally {
      options.progress?.done();
    }
  });
  return { ...result, locations };
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
