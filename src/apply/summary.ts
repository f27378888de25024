/**
 * The end of an apply, for people (text) and for programs (JSON): what was applied, what failed
 * and why, what was skipped because of what, whether the run stopped, and whether it converged.
 */
import pc from 'picocolors';
import { maskSecrets, type Secret } from '../core/secrets.js';
import { terminalText as t } from '../render/escape.js';
import type { ApplyResult, StepOutcome, StopReason } from './types.js';

/** What the re-plan of the touched addresses found after the last step. */
export interface Convergence {
  converged: boolean;
  /** Steps the re-plan still finds. */
  remaining: number;
  /** `ORG/ADDRESS` of what is left, in plan order. */
  addresses: string[];
  /** Steps that failed (the apply is not converged while one did). */
  failed?: number;
  /** `ORG/KEY#ID` of twins of the touched resources (two remote resources with one key). */
  duplicates?: string[];
  /**
   * What is left only waits for invitations to be accepted (the steps skipped for a pending
   * invitation, and the invites): a note, not a failure; the next apply completes them.
   */
  waiting?: true;
}

export interface SummaryOptions {
  format: 'text' | 'json';
  secrets: readonly Secret[];
  color: boolean;
  /** Show addresses under their organization (`org_acme/teams["A"]`). */
  multiOrg?: boolean;
  convergence?: Convergence;
}

/** `create teams["Engineering"]`, or with the organization when the plan has several. */
export function describeOutcome(outcome: Pick<StepOutcome, 'org' | 'address' | 'action'>, multiOrg = false): string {
  return `${outcome.action} ${multiOrg ? `${outcome.org}/` : ''}${outcome.address}`;
}

export function countsLine(result: ApplyResult): string {
  return `Apply: ${result.applied.length} applied, ${result.failed.length} failed, ${result.skipped.length} skipped.`;
}

/** Why a run stopped, as one line: `stopped: PATCH /v1/orgs/o → 403: …` or `interrupted: …`. */
export function stopLine(stop: StopReason): string {
  return `${stop.reason === 'interrupted' ? 'interrupted' : 'stopped'}: ${stop.message}`;
}

/**
 * Why a run stopped, without the API's answer when the token was refused: the command's error
 * line says that answer, once.
 */
function stopNote(stop: StopReason): string {
  if (stop.reason === 'unauthorized') return 'stopped: the API did not accept the token (401)';
  if (stop.reason === 'forbidden') return 'stopped: the token may not make changes (403)';
  return stopLine(stop);
}

/**
 * What a failed step met. A refused token (401, 403) stops the run, and every request in flight
 * then meets the same refusal: its line says so in short, and the command's error line says the
 * API's answer once.
 */
export function failureNote(outcome: Pick<StepOutcome, 'message' | 'status'>): string {
  if (outcome.status === 401 || outcome.status === 403) return `denied (${outcome.status})`;
  return outcome.message ?? 'failed';
}

export function convergenceLine(c: Convergence): string {
  if (c.converged) return 'converged: no changes left';
  if (c.waiting) return `${c.remaining} ${c.remaining === 1 ? 'change waits' : 'changes wait'} for invitations to be accepted: the next apply after that completes ${c.remaining === 1 ? 'it' : 'them'}`;
  const parts = [`${c.remaining} ${c.remaining === 1 ? 'change' : 'changes'} left`];
  if (c.failed) parts.push(`${c.failed} ${c.failed === 1 ? 'step' : 'steps'} failed`);
  const twins = c.duplicates?.length ?? 0;
  if (twins > 0) parts.push(`${twins} ${twins === 1 ? 'duplicate' : 'duplicates'} (another resource with the key of one this apply manages: two applies at once?)`);
  return `not converged: ${parts.join(', ')}`;
}

export function renderApplySummary(result: ApplyResult, options: SummaryOptions): string {
  const masked = maskSecrets(result, options.secrets);
  const convergence = options.convergence ? maskSecrets(options.convergence, options.secrets) : undefined;
  return options.format === 'json' ? renderJson(masked, convergence) : renderText(masked, convergence, options);
}

function renderJson(result: ApplyResult, convergence: Convergence | undefined): string {
  const outcome = (o: StepOutcome) => ({
    step: o.step,
    org: o.org,
    address: o.address,
    kind: o.kind,
    action: o.action,
    requests: o.requests,
    ...(o.message !== undefined ? { message: o.message } : {}),
    ...(o.cause !== undefined ? { cause: o.cause } : {}),
    ...(o.accepted ? { accepted: true } : {}),
  });
  const doc = {
    formatVersion: 1,
    summary: { applied: result.applied.length, failed: result.failed.length, skipped: result.skipped.length },
    applied: result.applied.map(outcome),
    failed: result.failed.map(outcome),
    skipped: result.skipped.map(outcome),
    stopped: result.stopped ? stopLine(result.stopped) : null,
    durationMs: result.durationMs,
    convergence: convergence ?? null,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function renderText(result: ApplyResult, convergence: Convergence | undefined, options: SummaryOptions): string {
  const paint = (f: (s: string) => string) => (s: string) => (options.color ? f(s) : s);
  const red = paint(pc.red);
  const yellow = paint(pc.yellow);
  const green = paint(pc.green);
  const bold = paint(pc.bold);
  const lines: string[] = [];
  const bad = result.failed.length > 0 || result.stopped !== undefined;
  lines.push(bold(bad ? red(countsLine(result)) : countsLine(result)));
  const accepted = result.applied.filter((o) => o.accepted);
  if (accepted.length > 0) {
    lines.push('Requested, not done yet (the API accepted them for approval, 202):');
    for (const o of accepted) lines.push(yellow(`  … ${t(describeOutcome(o, options.multiOrg))}`));
  }
  if (result.failed.length > 0) {
    lines.push('Failed:');
    for (const o of result.failed) lines.push(red(`  ✗ ${t(`${describeOutcome(o, options.multiOrg)}: ${failureNote(o)}`)}`));
  }
  if (result.skipped.length > 0) {
    lines.push('Skipped:');
    for (const o of result.skipped) {
      const why = o.cause !== undefined ? `needs ${o.cause}, which failed` : (o.message ?? 'not run').replace(/^not run: /, '');
      lines.push(yellow(`  - ${t(`${describeOutcome(o, options.multiOrg)} (${why})`)}`));
    }
  }
  if (result.stopped !== undefined) lines.push(red(`Run ${t(stopNote(result.stopped))}`));
  if (convergence) {
    lines.push(convergence.converged ? green(convergenceLine(convergence)) : yellow(convergenceLine(convergence)));
    for (const address of convergence.addresses.slice(0, 10)) lines.push(yellow(`  ~ ${t(address)}`));
    if (convergence.addresses.length > 10) lines.push(yellow(`  … and ${convergence.addresses.length - 10} more`));
    const twins = convergence.duplicates ?? [];
    for (const address of twins.slice(0, 10)) lines.push(yellow(`  ! ${t(address)} (duplicate)`));
    if (twins.length > 10) lines.push(yellow(`  … and ${twins.length - 10} more duplicates`));
  }
  return `${lines.join('\n')}\n`;
}
