/**
 * What an apply takes and gives back: its options, the outcome of each step, why a run stopped, and
 * the events a progress display listens to. Types only, so that the scheduler, the request runner
 * and the renderers share them without importing one another.
 */
import type { Clock } from '../api/clock.js';
import type { Action, Step } from '../plan/types.js';

export interface ApplyOptions {
  /** Requests in flight at most, over all steps. */
  concurrency: number;
  onEvent?: (event: ApplyEvent) => void;
  /**
   * Aborting stops the run: no new request is sent; requests in flight are left to finish, so that
   * what they did is known and reported (a cancelled create would leave its outcome unclear).
   */
  signal?: AbortSignal;
  /** Attempts of a create (or an idempotent POST) in all, the first included (default: the retry policy's, src/api/policy.ts). */
  maxGuardedAttempts?: number;
  /** Base of the backoff between attempts of a create, in milliseconds (default: the retry policy's). */
  backoffBaseMs?: number;
  /** Longest single wait (backoff, or what a 429 asks for), in milliseconds (default: the retry policy's). */
  maxWaitMs?: number;
  /** Source of jitter, for reproducible tests (default Math.random). */
  random?: () => number;
  /** What the waits of a create's resends are measured in (default the system's clock): the client's, in tests that give it one. */
  clock?: Clock;
}

/** What happened to one step. */
export interface StepOutcome {
  /** The step id, `ORG/ADDRESS:ACTION`. */
  step: string;
  org: string;
  address: string;
  kind: Step['kind'];
  action: Action;
  /** Requests sent for this step (lookups and repeated attempts included). */
  requests: number;
  /** Failed: what went wrong (method, path, status and the API's message). Skipped: why. */
  message?: string;
  /** Failed: the status the API answered with, when it answered (absent for a network failure or a bug). */
  status?: number;
  /** Skipped: the failed step that caused it (absent when the run stopped). */
  cause?: string;
  /**
   * Skipped: `ORG/ADDRESS` of the step whose answer left a reference pending (an invitation not
   * accepted yet): not a failure; the next apply, once it is accepted, completes the step.
   */
  waitsFor?: string;
  /**
   * Applied, but only accepted: the API answered 202 (a member's removal sent to the admins for
   * approval), so the change is requested, not done; a later plan still shows it until it is.
   */
  accepted?: true;
}

/**
 * Why a run stopped before every step got its chance:
 * - unauthorized / forbidden: the API answered 401 / 403; `message` is that answer as one line
 *   (`PATCH /v1/orgs/o → 403: …`), `method` and `path` the request it answered;
 * - interrupted: the caller aborted the run (Ctrl+C).
 */
export type StopReason =
  | { reason: 'unauthorized' | 'forbidden'; message: string; method: string; path: string }
  | { reason: 'interrupted'; message: string };

export interface ApplyResult {
  applied: StepOutcome[];
  failed: StepOutcome[];
  skipped: StepOutcome[];
  /** Why the run stopped early; absent when every step got its chance. */
  stopped?: StopReason;
  durationMs: number;
}

export type ApplyEvent =
  | { type: 'step-start'; step: Step; started: number; total: number }
  | { type: 'step-done'; step: Step; outcome: StepOutcome; finished: number; total: number }
  | { type: 'step-failed'; step: Step; outcome: StepOutcome; error: unknown; finished: number; total: number }
  | { type: 'step-skipped'; step: Step; outcome: StepOutcome; finished: number; total: number }
  | { type: 'retry'; step: Step; method: string; path: string; attempt: number; reason: string; waitMs: number }
  | { type: 'lookup-found'; step: Step; method: string; path: string; id?: string }
  /** A resent idempotent POST refused after a lost first attempt: the first did it. */
  | { type: 'taken-as-done'; step: Step; method: string; path: string; message: string };
