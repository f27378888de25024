/**
 * `docplane apply` as one function: plan (or read a saved plan and check it is the reviewed one),
 * refuse what must be refused, run the steps, then re-plan what was touched and say whether it
 * converged. It returns data and tells the command what happens (notices); the command renders, asks
 * for the confirmation and writes. Every plan here is made through the run context (src/plan/context.ts).
 */
import path from 'node:path';
import type { ApiClient } from '../api/types.js';
import type { LoadedConfig } from '../config/types.js';
import { BugError, DocplaneError } from '../core/errors.js';
import { maskSecrets, type Secret, type SecretRegistry } from '../core/secrets.js';
import { loadRun, type RunContext, type RunPlan, type RunPlanOptions } from '../plan/context.js';
import { readPlanFile } from '../plan/file.js';
import { assertApplicable, assertNoProblems } from '../plan/refusal.js';
import { checkTargets } from '../plan/fingerprint.js';
import type { Plan } from '../plan/types.js';
import { applyPlan, type ApplyResult } from './executor.js';
import { createProgressReporter } from './progress.js';
import { checkFileSteps, checkSaved, configAddresses, refusalError, reviewedScope, type SavedCheck } from './saved.js';
import { narrowToTargets } from './targets.js';
import { stopLine, type Convergence } from './summary.js';

/** What happens during an apply, for the command to show (in this order, each at most once). */
export type ApplyNotice =
  /** The config a saved plan is applied with: its files, and whether `-c` named it (else it was found as plan finds it). */
  | { type: 'config'; files: readonly string[]; given: boolean }
  /** The plan a fresh apply made, to show before asking. */
  | { type: 'plan'; plan: Plan; secrets: Secret[] }
  /** The plan has no step. */
  | { type: 'nothing' }
  /** Every step of the saved plan is done in the organization already. */
  | { type: 'already-applied'; file: string; total: number }
  /** Some of the saved plan's steps are done already (an interrupted apply). */
  | { type: 'resuming'; done: number; total: number; partial: number }
  /** The saved plan's steps left to run; `selected` when apply's --target chose part of the file. */
  | { type: 'applying'; file: string; plan: Plan; selected?: { steps: number; total: number } };

export interface RunApplyOptions {
  /** A plan file saved by `plan --out`; without it, apply plans first. */
  planFile?: string;
  /** `-c`: the config; without it, `./docplane.yaml`, else `./docplane/` (a plan file never chooses it). */
  configPath?: string;
  autoApprove: boolean;
  force: boolean;
  targets: string[];
  /** `--replace`: with a plan file, confirms the forced resends the file was made with. */
  replace?: string[];
  /** `--base`: with a pull request's plan file, the base its scope is derived from (else the one the file records). */
  base?: string;
  toolVersion: string;
  concurrency: number;
  /** Told what happens (the plan, resuming, …); the command renders it. */
  notify: (notice: ApplyNotice) => void;
  /** Progress goes here (stderr). */
  progress: { stream: NodeJS.WritableStream; interactive: boolean; color: boolean };
  /** Whether a person can answer a question (stdin and stdout are terminals). */
  interactive: boolean;
  /** Asks whether to apply the plan's `changes` steps (the plan was shown just before). */
  confirm: (changes: number) => Promise<boolean>;
  /** An API client for the config's `api.url` (the flags decide the rest). */
  connect: (configApiUrl?: string, secrets?: SecretRegistry) => Promise<ApiClient>;
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

async function applyFresh(options: RunApplyOptions): Promise<RunApplyReport> {
  if (options.base !== undefined) {
    throw new DocplaneError('USAGE', '--base is for applying a saved pull-request plan (docplane apply PLANFILE --base BASE)', {
      hint: 'To plan and apply what changed since a base, save the plan first: docplane plan --base BASE --out plan.json, then docplane apply plan.json.',
    });
  }
  const run = await loadRun({ configPath: options.configPath, toolVersion: options.toolVersion });
  return run.connect(options.connect, async (ctx) => {
    let made: RunPlan | undefined = await ctx.plan({ targets: options.targets, warnings: true });
    // Held by `plan` alone, which is let go before the convergence check.
    let plan: Plan | undefined = made.plan;
    const secrets = made.secrets;
    made = undefined;
    // Shown and let go: at scale the text is megabytes, and the apply does not need it.
    options.notify({ type: 'plan', plan, secrets });
    assertApplicable(plan, { force: options.force });
    const report: RunApplyReport = { secrets, multiOrg: plan.orgs.length > 1 };
    if (plan.steps.length === 0) {
      options.notify({ type: 'nothing' });
      return report;
    }
    if (!options.autoApprove) {
      if (!options.interactive) {
        throw new DocplaneError('APPLY_NOT_APPROVED', 'refusing to apply without confirmation: not running in a terminal', {
          hint: 'Pass --auto-approve, or apply a saved plan file: docplane plan --out plan.json, then docplane apply plan.json.',
        });
      }
      if (!(await options.confirm(plan.steps.length))) {
        throw new DocplaneError('APPLY_CANCELLED', 'apply cancelled: nothing was changed', { hint: 'Answer "yes" to apply, or pass --auto-approve.' });
      }
    }
    const applied = await applySteps(plan, ctx.client, options, report);
    // The plan is let go before the check reads the organization again (at scale, both are tens of MiB).
    plan = undefined;
    return await verify(applied, ctx, options);
  });
}

/** The config's files as a person reads them: relative to the working folder when inside it. */
export function shownPaths(files: readonly string[]): string {
  const cwd = process.cwd();
  return files
    .map((f) => {
      const rel = path.relative(cwd, f);
      return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : f;
    })
    .join(', ');
}

async function applySaved(options: RunApplyOptions, file: string): Promise<RunApplyReport> {
  let saved: Plan | undefined = readPlanFile(file);
  if (saved.toolVersion !== options.toolVersion) {
    throw new DocplaneError('PLAN_TOOL_VERSION', `the plan file ${file} was made by docplane ${saved.toolVersion}; this is docplane ${options.toolVersion}`, {
      hint: 'Make the plan again with this version of docplane, or apply it with the version that made it.',
    });
  }
  // The config is -c's, or found as plan finds it: the paths a file records never choose it.
  const run = await loadRun({ configPath: options.configPath, toolVersion: options.toolVersion });
  const config = run.config;
  options.notify({ type: 'config', files: config.files, given: options.configPath !== undefined });
  if (config.hash !== saved.configHash) {
    throw new DocplaneError(
      'PLAN_CONFIG_CHANGED',
      `the plan ${file} was made from the config ${shownPaths(saved.configPaths)}, and the config here, ${shownPaths(config.files)}, is not that one (other files, or other contents); nothing was sent`,
      { hint: 'Apply with the config the plan was made from (-c PATH), or make a new plan from this config, review it, and apply that one.' },
    );
  }
  const shapeRefusal = checkFileSteps(saved, config.orgs.map((o) => o.organization.id));
  if (shapeRefusal) throw refusalError(shapeRefusal, file);
  // The scope to re-derive: the file's whole scope, derived again (never read from the file).
  const scope = await reviewedScope(saved, run, { targets: options.targets, replace: options.replace ?? [], ...(options.base === undefined ? {} : { base: options.base }) }, file);
  if ('kind' in scope) throw refusalError(scope, file);
  // With --target, only the selected steps (and what they need) are checked and applied.
  let selected: Plan | undefined = narrowToTargets(saved, options.targets);
  const selectedSteps = selected.steps.length;
  const whole = selected.steps.length === saved.steps.length;
  const total = saved.steps.length;
  const multiOrg = saved.orgs.length > 1;
  saved = undefined;
  return run.connect(options.connect, async (ctx) => {
    // The file is not trusted: its scope is planned again from the config and the organization, and
    // what runs is that re-derivation, once it is shown to be the file's, step for step
    // (src/apply/saved.ts). The steps policies run again on what will be sent.
    // What runs is held by `plan` alone, which is let go before the convergence check: the file's
    // steps and the re-derivation they were checked against are not kept.
    const { checked, secrets } = await checkAgainstFile(ctx, scope, selected, config, options, file);
    selected = undefined;
    let plan: Plan | undefined = checked.plan;
    assertApplicable(plan, { force: options.force });
    const report: RunApplyReport = { secrets, multiOrg };
    if (checked.total > 0 && checked.done === checked.total) {
      options.notify({ type: 'already-applied', file, total: checked.total });
      return report;
    }
    if (checked.done > 0 || checked.partial > 0) options.notify({ type: 'resuming', done: checked.done, total: checked.total, partial: checked.partial });
    options.notify({ type: 'applying', file, plan, ...(whole ? {} : { selected: { steps: selectedSteps, total } }) });
    if (plan.steps.length === 0) return report;
    const applied = await applySteps(plan, ctx.client, options, report);
    plan = undefined;
    return await verify(applied, ctx, options);
  });
}

/**
 * The saved plan's steps checked against their scope planned again (src/apply/saved.ts); a refusal
 * throws. Only the checked plan is returned: the re-derivation is let go with this call.
 */
async function checkAgainstFile(
  ctx: RunContext,
  scope: RunPlanOptions,
  selected: Plan | undefined,
  config: LoadedConfig,
  options: RunApplyOptions,
  file: string,
): Promise<{ checked: SavedCheck; secrets: Secret[] }> {
  if (selected === undefined) throw new BugError('the saved plan was let go before it was checked');
  const made = await ctx.plan(scope);
  const fresh = narrowToTargets(made.plan, options.targets);
  const secrets = made.secrets;
  assertNoProblems(fresh, { for: 'apply' });
  const checked = checkSaved(selected, fresh, secrets, configAddresses(config.orgs, secrets));
  if ('kind' in checked) throw refusalError(checked, file);
  return { checked, secrets };
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
async function verify(out: RunApplyReport, ctx: RunContext, options: RunApplyOptions): Promise<RunApplyReport> {
  const result = out.result;
  // A stopped run (bad token, Ctrl+C) is not planned again: it is known not to be finished.
  if (result === undefined || result.applied.length === 0 || result.stopped !== undefined || options.verify === false) return out;
  try {
    // With failed or skipped steps, their addresses are planned again too: what is left there counts.
    const touched = [...result.applied, ...result.failed, ...result.skipped];
    const { plan: again, secrets } = await ctx.plan(checkTargets(touched));
    return {
      ...out,
      // What the re-plan read (ids of what the apply created) is masked in the summary too.
      secrets,
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
