/**
 * Runs a plan's steps against the API: the scheduler (scheduler.ts) starts a step as soon as the
 * steps it depends on are done, with at most `concurrency` requests in flight overall; the step
 * runner (step-runner.ts) sends a step's own requests one after the other, ids of created resources
 * flowing into later requests through `{{ref:…}}` tokens; the resend policy (resend.ts) decides
 * what may be sent again after an unclear outcome, so that nothing is created twice.
 */
import type { ApiClient } from '../api/types.js';
import { ApiError, DocplaneError } from '../core/errors.js';
import type { Plan, Step } from '../plan/types.js';
import { runSchedule, type Settled } from './scheduler.js';
import { createStepRunner, StoppedError, type StopState } from './step-runner.js';
import { PendingRefError } from './tokens.js';
import type { ApplyOptions, ApplyResult } from './types.js';

export type { ApplyEvent, ApplyOptions, ApplyResult, StepOutcome, StopReason } from './types.js';

export async function applyPlan(plan: Plan, client: ApiClient, options: ApplyOptions): Promise<ApplyResult> {
  const began = performance.now();
  const stop: StopState = {};
  const runner = createStepRunner(client, plan.steps, options, stop);

  const onAbort = () => {
    stop.reason ??= { reason: 'interrupted', message: 'the apply was cancelled' };
  };
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const settleError = (step: Step, err: unknown): Settled => {
    const sent = runner.requestsOf(step);
    // Stopped before its first request: nothing of it happened.
    if (err instanceof StoppedError && sent === 0) return { state: 'skipped', message: 'not run: the run stopped' };
    // A reference the API left pending (an invitation not accepted yet): the next apply completes the step.
    if (err instanceof PendingRefError && sent === 0) return { state: 'skipped', message: err.message, waitsFor: err.target };
    if (err instanceof StoppedError) return { state: 'failed', message: `interrupted after ${sent} of its ${step.requests.length} requests: the run stopped` };
    return { state: 'failed', message: errorMessage(err), ...(err instanceof ApiError && err.status > 0 ? { status: err.status } : {}) };
  };

  try {
    const outcomes = await runSchedule(plan.steps, {
      concurrency: options.concurrency,
      run: (step, limit) => runner.run(step, limit),
      isStopped: () => stop.reason !== undefined,
      settleError,
      requestsOf: (step) => runner.requestsOf(step),
      acceptedOnly: (step) => runner.acceptedOnly(step),
      emit: (event) => options.onEvent?.(event),
    });
    return {
      ...outcomes,
      ...(stop.reason ? { stopped: stop.reason } : {}),
      durationMs: Math.round(performance.now() - began),
    };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

function errorMessage(err: unknown): string {
  if (err instanceof DocplaneError) return err.message;
  if (err instanceof Error) return `unexpected failure: ${err.message}`;
  return `unexpected failure: ${String(err)}`;
}
