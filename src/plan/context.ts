/**
 * One run of docplane against the organizations: the config loaded once, the client connected once,
 * and every plan of the run made the same way — read, plan, collect the secrets the reads found, run
 * the steps policies. `plan`, `apply` (fresh and saved), a saved plan's check and the convergence
 * check after an apply all plan through here, so that a step is derived one way whoever asks.
 *
 * Opening a run is two phases: `loadRun` reads the config (no request), so that what needs no
 * request — a saved plan's config hash, a `--base` config — is checked before anything is sent;
 * `RunConfig.connect` then opens the client and closes it when the work is done.
 */
import type { ApiClient } from '../api/types.js';
import { loadConfig } from '../config/load.js';
import type { LoadedConfig } from '../config/types.js';
import { formatConfigIssue } from '../core/errors.js';
import { createSecretRegistry, type Secret, type SecretRegistry } from '../core/secrets.js';
import { checkSteps } from '../policy/run.js';
import { baseDifference } from './base.js';
import { loadBaseConfig } from './base-source.js';
import { planOrgs, runSecrets, type PlanOptions } from './run.js';
import type { Plan } from './types.js';

export interface LoadRunOptions {
  /** `-c`: a file or a folder; without it, `./docplane.yaml`, else `./docplane/` (as every command finds it). */
  configPath?: string;
  toolVersion: string;
}

/**
 * A pull request's scope (`--base`): the base config it is compared with, and the targets of the
 * entries the difference touches, or why the plan must be whole. A saved plan records all but the
 * targets' source, so that apply can derive the same scope again.
 */
export interface BaseScope {
  /** `--base` as given: a path, or a git revision. */
  from: string;
  /** The commit a revision named when the scope was derived (a branch moves; a commit does not). */
  commit?: string;
  /** The base config's hash (absent when the base has no config: the pull request adds it). */
  configHash?: string;
  /** `ORG/ADDRESS` targets of the touched entries, sorted. */
  targets: string[];
  /** Why the plan reads everything (a setting of the whole config changed). */
  whole?: string;
}

/** What a run plans with: the options of planOrgs, less what the run knows. */
export type RunPlanOptions = Omit<PlanOptions, 'toolVersion' | 'base'> & {
  /** Add the resource policies' warnings to the plan as notes for the reviewer (`plan`). */
  warnings?: boolean;
  /** A pull request's plan: reads only what the base scope's targets need (or everything, when `whole`). */
  base?: BaseScope;
};

export interface RunPlan {
  plan: Plan;
  /** The config's secret values and those the reads found so far, for masking and placeholders. */
  secrets: Secret[];
}

/** A run with its client open. */
export interface RunContext {
  readonly config: LoadedConfig;
  readonly client: ApiClient;
  readonly toolVersion: string;
  /** Reads and plans (planOrgs), then runs the steps policies over the plan with the run's secrets. */
  plan(options?: RunPlanOptions): Promise<RunPlan>;
  /** The run's secrets now: the config's, and every credential the reads have found. */
  secrets(): Secret[];
}

/** A run whose config is loaded and whose client is not open yet. */
export interface RunConfig {
  readonly config: LoadedConfig;
  readonly toolVersion: string;
  /**
   * Opens the client (`open` builds it from the command's flags, the config's `api.url` and the run's
   * secrets, which the client masks with), runs `use` with the run, and closes the client whatever happens.
   */
  connect<T>(open: (configApiUrl: string | undefined, secrets: SecretRegistry) => Promise<ApiClient>, use: (run: RunContext) => Promise<T>): Promise<T>;
  /**
   * The scope of a pull request's plan against `from` (a path, or a revision of the repository that
   * holds the config): no request is sent, so a base that cannot be read costs nothing.
   */
  baseScope(from: string): Promise<BaseScope>;
}

export async function loadRun(options: LoadRunOptions): Promise<RunConfig> {
  const config = await loadConfig({ path: options.configPath });
  return runFor(config, options.toolVersion, options.configPath);
}

/** A run over a config loaded already (tests, the bench); `configPath` as `-c` gave it, to find a base revision's files. */
export function runFor(config: LoadedConfig, toolVersion: string, configPath?: string): RunConfig {
  return {
    config,
    toolVersion,
    async baseScope(from) {
      const base = await loadBaseConfig({ base: from, configPath });
      const commit = base.commit === undefined ? {} : { commit: base.commit };
      if ('missing' in base) return { from, ...commit, targets: [], whole: `the config (${base.missing}) was added` };
      return { from, ...commit, configHash: base.config.hash, ...baseDifference(base.config, config) };
    },
    async connect(open, use) {
      const client = await open(config.apiUrl, createSecretRegistry(config.secrets));
      try {
        return await use(contextOf(config, client, toolVersion));
      } finally {
        await client.close();
      }
    },
  };
}

function contextOf(config: LoadedConfig, client: ApiClient, toolVersion: string): RunContext {
  const secrets = () => runSecrets(config, client);
  return {
    config,
    client,
    toolVersion,
    secrets,
    async plan(options = {}) {
      const { warnings, base, ...planOptions } = options;
      const narrowed = base === undefined ? {} : { base: { from: base.from, ...(base.whole === undefined ? {} : { whole: base.whole }) }, ...(base.whole === undefined ? { targets: base.targets } : {}) };
      const made = await planOrgs(config, client, { ...planOptions, ...narrowed, toolVersion });
      // The plan records where its base scope came from, so that apply PLANFILE derives it again.
      const planned = base === undefined || made.base === undefined ? made : { ...made, base: { ...made.base, ...(base.commit === undefined ? {} : { commit: base.commit }), ...(base.configHash === undefined ? {} : { configHash: base.configHash }) } };
      // The values the reads found to be secrets are known once the plan is made; the policies never see them.
      const found = secrets();
      const checked = checkSteps(planned, config.policies, found);
      const notes = warnings ? (config.warnings ?? []).map((w) => `warning: ${formatConfigIssue(w)}`) : [];
      return { plan: notes.length === 0 ? checked : { ...checked, notes: [...(checked.notes ?? []), ...notes] }, secrets: found };
    },
  };
}
