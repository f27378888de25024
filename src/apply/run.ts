/**
 * `docplane apply` as one function: plan (or read a saved plan and check it is still good), refuse
 * what must be refused, run the steps, then re-plan what was touched and say whether it converged.
 * The command only parses flags and supplies the terminal (writers, the confirmation prompt).
 */
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ApiClient } from '../api/types.js';
import { loadConfig } from '../config/load.js';
import type { LoadedConfig } from '../config/types.js';
import { DocplaneError } from '../core/errors.js';
import { fromSecretPlaceholders, maskSecrets, type Secret } from '../core/secrets.js';
import { readPlanFile } from '../plan/file.js';
import { assertApplicable, assertNoProblems } from '../plan/refusal.js';
import { checkTargets } from '../plan/fingerprint.js';
import { planOrgs, runSecrets } from '../plan/run.js';
import { checkSteps } from '../policy/run.js';
import type { Plan } from '../plan/types.js';
import { renderPlan, summaryLine } from '../render/index.js';
import { applyPlan, type ApplyResult } from './executor.js';
import { createProgressReporter } from './progress.js';
import { checkSaved, refusalError } from './saved.js';
import { observeDoneCreates } from './done.js';
import { narrowToTargets } from './targets.js';
import { stopLine, type Convergence } from './summary.js';

export interface RunApplyOptions {
  /** A plan file saved by `plan --out`; without it, apply plans first. */
  planFile?: string;
  /** `-c`: the config (with a plan file: overrides the paths kept in the plan). */
  configPath?: string;
  autoApprove: boolean;
  force: boolean;
  targets: string[];
  toolVersion: string;
  concurrency: number;
  /** Where the plan and the notes go (stdout in text mode, stderr in JSON mode). */
  write: (text: string) => void;
  /** Progress goes here (stderr). */
  progress: { stream: NodeJS.WritableStream; interactive: boolean; color: boolean };
  /** Colours in the plan rendering. */
  color: boolean;
  /** Whether a person can answer a question (stdin and stdout are terminals). */
  interactive: boolean;
  confirm: (question: string) => Promise<boolean>;
  /** An API client for the config's `api.url` (the flags decide the rest). */
  connect: (configApiUrl?: string) => Promise<ApiClient>;
  /** Stops the run (no new requests) when aborted, e.g. on Ctrl+C. */
  signal?: AbortSignal;
  /** Whether to plan the touched resources again after applying, to say whether it converged (default true). */
  verify?: boolean;
}

export interface RunApplyReport {
  /** Undefined when there was nothing to apply. */
  result?: ApplyResult;
  convergence?: Convergence;
  /** Why the convergence could not be checked. */
  convergenceError?: string;
  secrets: Secret[];
  multiOrg: boolean;
}

/** The error after the summary: what makes the exit code 1 (or undefined: success). */
export function outcomeError(report: RunApplyReport): DocplaneError | undefined {
  const { result, convergence } = report;
  if (!result) return undefined;
  if (result.stopped !== undefined) {
    const reason = result.stopped.reason;
    const hint =
      reason === 'unauthorized'
        ? 'Check DOCPLANE_TOKEN or --token-file: the API did not accept the token. Then run apply again; it picks up from the remote state.'
        : reason === 'forbidden'
          ? 'The token may not make changes; use a token with write access, then run apply again.'
          : 'Run apply again: it picks up from the remote state.';
    return new DocplaneError('APPLY_STOPPED', maskSecrets(stopLine(result.stopped), report.secrets), { hint });
  }
  if (result.failed.length > 0) {
    return new DocplaneError('APPLY_FAILED', `${plural(result.failed.length, 'step')} failed and ${plural(result.skipped.length, 'step')} skipped; the rest was applied`, {
      hint: 'Fix the causes listed above, then run apply again: it picks up from the remote state.',
    });
  }
  if (report.convergenceError !== undefined) {
    return new DocplaneError('APPLY_CONVERGENCE_UNKNOWN', `the apply finished, but planning again failed: ${report.convergenceError}`, {
      hint: 'Run `docplane plan` to see what is left.',
    });
  }
  if (convergence && !convergence.converged && !convergence.waiting) {
    if (convergence.duplicates?.length) {
      return new DocplaneError('APPLY_DUPLICATES', `the apply finished, but ${plural(convergence.duplicates.length, 'resource')} it manages now ${convergence.duplicates.length === 1 ? 'has a twin' : 'have twins'} with the same key: ${convergence.duplicates.slice(0, 5).join(', ')}`, {
        hint: 'Another apply ran at the same time. Run `docplane plan`: its notes say which one the config manages and how to resolve each; run applies one at a time.',
      });
    }
    return new DocplaneError('APPLY_NOT_CONVERGED', `the apply finished, but planning again still finds ${plural(convergence.remaining, 'change')}`, {
      hint: 'Run `docplane plan` to see them; a setting the API does not keep as sent is a bug worth reporting.',
    });
  }
  return undefined;
}

export async function runApply(options: RunApplyOptions): Promise<RunApplyReport> {
  return options.planFile === undefined ? applyFresh(options) : applySaved(options, options.planFile);
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

async function applyFresh(options: RunApplyOptions): Promise<RunApplyReport> {
  const config = await loadConfig({ path: options.configPath });
  const client = await options.connect(config.apiUrl);
  try {
    const planned = await planOrgs(config, client, { toolVersion: options.toolVersion, targets: options.targets });
    const secrets = runSecrets(config, client);
    let plan: Plan | undefined = checkSteps(planned, config.policies, secrets);
    // Written and let go: at scale the text is megabytes, and the apply does not need it.
    options.write(withNewline(renderPlan(plan, { format: 'text', color: options.color, secrets })));
    assertApplicable(plan, { force: options.force });
    const report: RunApplyReport = { secrets, multiOrg: plan.orgs.length > 1 };
    if (plan.steps.length === 0) {
      options.write('Nothing to apply.\n');
      return report;
    }
    if (!options.autoApprove) {
      if (!options.interactive) {
        throw new DocplaneError('APPLY_NOT_APPROVED', 'refusing to apply without confirmation: not running in a terminal', {
          hint: 'Pass --auto-approve, or apply a saved plan file: docplane plan --out plan.json, then docplane apply plan.json.',
        });
      }
      const n = plan.steps.length;
      if (!(await options.confirm(`Apply ${n === 1 ? 'this change' : `these ${n} changes`}? (yes/no) `))) {
        throw new DocplaneError('APPLY_CANCELLED', 'apply cancelled: nothing was changed', { hint: 'Answer "yes" to apply, or pass --auto-approve.' });
      }
    }
    const applied = await applySteps(plan, client, options, report);
    // The plan is let go before the check reads the organization again (at scale, both are tens of MiB).
    plan = undefined;
    return await verify(applied, config, client, options);
  } finally {
    await client.close();
  }
}

async function applySaved(options: RunApplyOptions, file: string): Promise<RunApplyReport> {
  let saved: Plan | undefined = readPlanFile(file);
  if (saved.toolVersion !== options.toolVersion) {
    throw new DocplaneError('PLAN_TOOL_VERSION', `the plan file ${file} was made by docplane ${saved.toolVersion}; this is docplane ${options.toolVersion}`, {
      hint: 'Make the plan again with this version of docplane, or apply it with the version that made it.',
    });
  }
  const config = await loadConfig({ path: options.configPath ?? configPathOf(saved, file) });
  if (config.hash !== saved.configHash) {
    throw new DocplaneError('PLAN_CONFIG_CHANGED', `the config changed since the plan ${file} was made (read from ${config.files.join(', ')})`, {
      hint: 'Make a new plan from the config as it is now, or apply with the config the plan was made from (-c).',
    });
  }
  // With --target, only the selected steps (and what they need) are checked and applied.
  const selected = narrowToTargets(saved, options.targets);
  const whole = selected.steps.length === saved.steps.length;
  const total = saved.steps.length;
  const multiOrg = saved.orgs.length > 1;
  saved = undefined;
  const client = await options.connect(config.apiUrl);
  try {
    // The file is not trusted: its steps are planned again from the config and the remote objects
    // they touch (read anyway to see whether the plan is stale), with the plan's own --replace, and
    // what runs is that re-derivation, once it is shown to be the file's (src/apply/saved.ts).
    // The steps policies run again on what will be sent: a saved plan is not trusted to have passed them.
    const replanned = await planOrgs(config, client, { toolVersion: options.toolVersion, replace: selected.replace ?? [], ...checkTargets(addressesOf(selected, config.secrets, file)) });
    // The values the reads found to be secrets stand as placeholders in the file as well: the
    // re-derivation read them again, so the file's placeholders are compared with their values.
    const secrets = runSecrets(config, client);
    // A create found done is held to what it sets, read by every kind of its unit (src/apply/done.ts).
    const fresh = await observeDoneCreates(selected, checkSteps(replanned, config.policies, secrets), (narrow) => planOrgs(config, client, { toolVersion: options.toolVersion, replace: selected.replace ?? [], ...narrow }));
    assertNoProblems(fresh, { for: 'apply' });
    const checked = checkSaved(selected, fresh, secrets);
    if ('kind' in checked) throw refusalError(checked, file);
    let plan: Plan | undefined = checked.plan;
    assertApplicable(plan, { force: options.force });
    const report: RunApplyReport = { secrets, multiOrg };
    const part = whole ? '' : ` (${plural(selected.steps.length, 'step')} of ${total}, selected by --target)`;
    if (checked.total > 0 && checked.done === checked.total) {
      options.write(`The plan ${file} is already applied: ${checked.total === 1 ? 'its step is' : `all ${checked.total} of its steps are`} done in the organization. Nothing to apply.\n`);
      return report;
    }
    if (checked.done > 0 || checked.partial > 0) {
      const cut = checked.partial > 0 ? `; ${plural(checked.partial, 'step')} cut short, finished now` : '';
      options.write(`resuming: ${checked.done} of ${checked.total} steps were already applied${cut}\n`);
    }
    options.write(`Applying ${file}${part}: ${summaryLine(plan)}\n`);
    if (plan.steps.length === 0) return report;
    const applied = await applySteps(plan, client, options, report);
    plan = undefined;
    return await verify(applied, config, client, options);
  } finally {
    await client.close();
  }
}

/**
 * The file's steps with the secrets in their addresses filled in from the config (a secret may name
 * a resource: `teams["{{secret:env:TEAM}}"]`), so that the check reads the resources they name. A
 * placeholder of a secret the config does not have is a file that is not the reviewed plan.
 */
function addressesOf(plan: Plan, secrets: readonly Secret[], file: string): Plan['steps'] {
  try {
    return plan.steps.map((s) => ({ ...s, address: fromSecretPlaceholders(s.address, secrets) }));
  } catch (err) {
    throw new DocplaneError('PLAN_MISMATCH', `the plan ${file} does not match the config: ${(err as Error).message}; nothing was sent`, {
      hint: 'Make a new plan (docplane plan --out FILE), review it, and apply that one.',
    });
  }
}

/**
 * The config the plan was made from: its one file, or the folder holding its files. Files from
 * several folders cannot be loaded again as one: then -c must say.
 */
function configPathOf(plan: Plan, file: string): string | undefined {
  const paths = plan.configPaths;
  if (paths.length === 0) return undefined;
  const dirs = [...new Set(paths.map((p) => (isDirectory(p) ? p : dirname(p))))];
  const path = paths.length === 1 ? paths[0] : dirs.length === 1 ? dirs[0] : undefined;
  if (path === undefined) {
    throw new DocplaneError('PLAN_CONFIG_PATHS', `the plan ${file} was made from files in several folders (${paths.join(', ')})`, {
      hint: 'Pass the config with -c.',
    });
  }
  // A plan made on another machine (a CI job) names paths that do not exist here.
  if (!existsSync(path)) {
    throw new DocplaneError('PLAN_CONFIG_MISSING', `the config the plan ${file} was made from is not at ${path}`, {
      hint: 'Pass the config with -c (the same files the plan was made from).',
    });
  }
  return path;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Runs the plan's steps, with progress; the report holds their outcomes, not the plan. */
async function applySteps(
  plan: Plan,
  client: ApiClient,
  options: RunApplyOptions,
  report: RunApplyReport,
  afterApply?: () => void,
): Promise<RunApplyReport> {
  if (options.signal?.aborted) {
    throw new DocplaneError('APPLY_CANCELLED', 'interrupted before anything was sent: nothing was changed', { hint: 'Run apply again when ready.' });
  }
  const reporter = createProgressReporter({ ...options.progress, secrets: report.secrets, multiOrg: report.multiOrg });
  let result: ApplyResult;
  try {
    result = await applyPlan(plan, client, {
      concurrency: options.concurrency,
      onEvent: (e) => reporter.onEvent(e),
      signal: options.signal,
    });
  } finally {
    reporter.done();
  }
  if (result.applied.length > 0) afterApply?.();
  return { ...report, result };
}

/** Plans again what the steps touched (reading only that), to say whether the apply converged. */
async function verify(out: RunApplyReport, config: LoadedConfig, client: ApiClient, options: RunApplyOptions): Promise<RunApplyReport> {
  const result = out.result;
  // A stopped run (bad token, Ctrl+C) is not planned again: it is known not to be finished.
  if (result === undefined || result.applied.length === 0 || result.stopped !== undefined || options.verify === false) return out;
  try {
    // With failed or skipped steps, their addresses are planned again too: what is left there counts.
    const touched = [...result.applied, ...result.failed, ...result.skipped];
    const again = await planOrgs(config, client, { toolVersion: options.toolVersion, ...checkTargets(touched) });
    return {
      ...out,
      // What the re-plan read (ids of what the apply created) is masked in the summary too.
      secrets: runSecrets(config, client),
      convergence: {
        // A step that failed is never "converged", whatever the organization looks like now; nor is a
        // resource that has a twin (another apply at the same time created it too).
        converged: again.steps.length === 0 && result.failed.length === 0 && (again.duplicates?.length ?? 0) === 0,
        remaining: again.steps.length,
        addresses: [...new Set(again.steps.map((s) => `${s.org}/${s.address}`))],
        ...(result.failed.length > 0 ? { failed: result.failed.length } : {}),
        ...(again.duplicates?.length ? { duplicates: again.duplicates } : {}),
        ...(waitsOnInvitations(result, again) ? { waiting: true as const } : {}),
      },
    };
  } catch (err) {
    return { ...out, convergenceError: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Whether all that a re-plan finds left waits on invitations the API left pending: the steps skipped
 * for one, and the invites they waited for (the invited are not members until they accept).
 */
function waitsOnInvitations(result: ApplyResult, again: Pick<Plan, 'steps' | 'duplicates'>): boolean {
  const waiting = new Set(result.skipped.flatMap((s) => (s.waitsFor === undefined ? [] : [`${s.org}/${s.address}`, s.waitsFor])));
  return waiting.size > 0 && result.failed.length === 0 && (again.duplicates?.length ?? 0) === 0 && again.steps.every((s) => waiting.has(`${s.org}/${s.address}`));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
