/**
 * The walk over a plan's dependency graph: a step starts as soon as the steps it depends on are
 * done; when one fails, every step that needs it (transitively) is skipped and the others go on;
 * once the run has stopped, nothing new starts. Requests go through one concurrency limit that
 * serves the longest remaining chain first. What a step sends is the runner's business (`run`).
 */
import { BugError } from '../core/errors.js';
import { priorityQueue } from '../core/priority-queue.js';
import type { Step } from '../plan/types.js';
import { priorityLimit } from './priority-limit.js';
import type { ApplyEvent, StepOutcome } from './types.js';

/** Passes one request of `step` through the concurrency limit. */
export type Limit = <T>(step: Step, fn: () => Promise<T>) => Promise<T>;

/** How a step that threw settles: skipped when nothing of it happened, else failed. */
export type Settled = { state: 'skipped'; message: string; waitsFor?: string } | { state: 'failed'; message: string; status?: number };

export interface ScheduleHooks {
  /** Requests in flight at most, over all steps. */
  concurrency: number;
  /** Sends a step's requests, each through `limit`. */
  run(step: Step, limit: Limit): Promise<void>;
  /** Whether the run has stopped: then no further step starts. */
  isStopped(): boolean;
  settleError(step: Step, err: unknown): Settled;
  /** Requests sent for a step so far. */
  requestsOf(step: Step): number;
  /** Whether the API only accepted the step (202), not carried it out yet. */
  acceptedOnly?(step: Step): boolean;
  emit(event: ApplyEvent): void;
}

export interface ScheduleResult {
  applied: StepOutcome[];
  failed: StepOutcome[];
  skipped: StepOutcome[];
}

/** `ready`: its dependencies are done, and it waits for room to start. */
type State = 'pending' | 'ready' | 'running' | 'done' | 'failed' | 'skipped';

/** Steps running at most per request slot: a step between two requests leaves its slot to another. */
const STEPS_PER_REQUEST_SLOT = 2;

export function runSchedule(steps: readonly Step[], hooks: ScheduleHooks): Promise<ScheduleResult> {
  const total = steps.length;
  const order = new Map(steps.map((s, i) => [s.id, i]));
  const state = new Map<string, State>(steps.map((s) => [s.id, 'pending']));
  const outcomes = new Map<string, StepOutcome>();
  const limiter = priorityLimit(hooks.concurrency);
  const priority = criticalPaths(steps);
  // Ready steps wait in a queue as references, longest chain first, and start while fewer than a few
  // per request slot run: a started run waits holding its prepared requests, and at 15,000 steps
  // the runs queued behind the limit were most of apply's memory.
  const maxRunning = Math.max(1, Math.floor(hooks.concurrency)) * STEPS_PER_REQUEST_SLOT;
  const ready = priorityQueue<Step>((a, b) => {
    const pa = priority.get(a.id) ?? 0;
    const pb = priority.get(b.id) ?? 0;
    return pa > pb || (pa === pb && (order.get(a.id) ?? 0) < (order.get(b.id) ?? 0));
  });
  const limit: Limit = (step, fn) => limiter(fn, priority.get(step.id) ?? 0);
  const emit = hooks.emit;
  let started = 0;
  let finished = 0;

  const outcomeOf = (step: Step, extra: Partial<StepOutcome> = {}): StepOutcome => ({
    step: step.id,
    org: step.org,
    address: step.address,
    kind: step.kind,
    action: step.action,
    requests: hooks.requestsOf(step),
    ...extra,
  });

  // The plan is checked before anything is sent: an unknown dependency is a broken plan.
  for (const step of steps) {
    const unknown = step.dependsOn.filter((d) => !order.has(d));
    if (unknown.length > 0) {
      const error = new BugError(`step ${step.id} depends on ${unknown.join(', ')}, which the plan does not hold`);
      const outcome = outcomeOf(step, { message: error.message });
      state.set(step.id, 'failed');
      outcomes.set(step.id, outcome);
      finished += 1;
      emit({ type: 'step-failed', step, outcome, error, finished, total });
    }
  }

  // Who waits on whom, so that a settled step looks at its own dependents only: the run costs
  // O(steps + dependencies), not a pass over every step each time one settles.
  const dependents = new Map<string, Step[]>();
  const waiting = new Map<string, number>();
  for (const step of steps) {
    const deps = [...new Set(step.dependsOn)].filter((d) => order.has(d));
    waiting.set(step.id, deps.length);
    for (const d of deps) {
      const list = dependents.get(d);
      if (list) list.push(step);
      else dependents.set(d, [step]);
    }
  }
  const byPlanOrder = (a: Step, b: Step) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0);

  return new Promise<ScheduleResult>((resolve) => {
    let running = 0;

    const finish = () => {
      const byOrder = (a: StepOutcome, b: StepOutcome) => (order.get(a.step) ?? 0) - (order.get(b.step) ?? 0);
      const pick = (s: State) => steps.filter((st) => state.get(st.id) === s).map((st) => outcomes.get(st.id)!).sort(byOrder);
      resolve({ applied: pick('done'), failed: pick('failed'), skipped: pick('skipped') });
    };

    /** Skips every pending step that needs `root` (failed or skipped), transitively, in plan order. */
    const propagate = (root: Step) => {
      const reached = new Set<Step>();
      const stack = [root];
      while (stack.length > 0) {
        for (const d of dependents.get((stack.pop() as Step).id) ?? []) {
          if (state.get(d.id) !== 'pending' || reached.has(d)) continue;
          reached.add(d);
          stack.push(d);
        }
      }
      // Plan order puts a step's dependencies first: each blocker below is already failed or skipped.
      for (const step of [...reached].sort(byPlanOrder)) {
        const blocker = step.dependsOn.find((d) => state.get(d) === 'failed' || state.get(d) === 'skipped');
        if (blocker === undefined) continue;
        const cause = state.get(blocker) === 'failed' ? blocker : (outcomes.get(blocker)?.cause ?? blocker);
        const outcome = outcomeOf(step, { cause, message: `not run: it needs ${cause}, which failed` });
        state.set(step.id, 'skipped');
        outcomes.set(step.id, outcome);
        finished += 1;
        emit({ type: 'step-skipped', step, outcome, finished, total });
      }
    };

    const skipPending = () => {
      for (const step of steps) {
        const now = state.get(step.id);
        if (now !== 'pending' && now !== 'ready') continue;
        const outcome = outcomeOf(step, { message: 'not run: the run stopped' });
        state.set(step.id, 'skipped');
        outcomes.set(step.id, outcome);
        finished += 1;
        emit({ type: 'step-skipped', step, outcome, finished, total });
      }
    };

    /**
     * Queues the given steps whose dependencies are done, then starts queued steps while there is
     * room: the longest remaining chain first, then in plan order, so that runs of the same plan
     * start alike.
     */
    const start = (candidates: Step[]) => {
      if (hooks.isStopped()) {
        skipPending();
        return;
      }
      for (const step of candidates) {
        if (state.get(step.id) !== 'pending' || waiting.get(step.id) !== 0) continue;
        state.set(step.id, 'ready');
        ready.push(step);
      }
      while (running < maxRunning && ready.size > 0) {
        const step = ready.pop() as Step;
        if (state.get(step.id) !== 'ready') continue;
        state.set(step.id, 'running');
        running += 1;
        started += 1;
        emit({ type: 'step-start', step, started, total });
        void hooks.run(step, limit).then(
          () => settle(step, undefined),
          (err: unknown) => settle(step, err),
        );
      }
    };

    const finishIfIdle = () => {
      if (running > 0) return;
      // Nothing in flight and nothing startable: whatever is still pending waits on a cycle.
      for (const step of steps) {
        if (state.get(step.id) !== 'pending') continue;
        const outcome = outcomeOf(step, { message: new BugError(`step ${step.id} waits on a dependency cycle`).message });
        state.set(step.id, 'failed');
        outcomes.set(step.id, outcome);
        finished += 1;
        emit({ type: 'step-failed', step, outcome, error: undefined, finished, total });
      }
      finish();
    };

    const settle = (step: Step, err: unknown) => {
      running -= 1;
      finished += 1;
      if (err === undefined) {
        const outcome = outcomeOf(step, hooks.acceptedOnly?.(step) ? { accepted: true } : {});
        state.set(step.id, 'done');
        outcomes.set(step.id, outcome);
        emit({ type: 'step-done', step, outcome, finished, total });
      } else {
        const settled = hooks.settleError(step, err);
        const { state: to, ...extra } = settled;
        const outcome = outcomeOf(step, extra);
        state.set(step.id, to);
        outcomes.set(step.id, outcome);
        if (to === 'skipped') emit({ type: 'step-skipped', step, outcome, finished, total });
        else emit({ type: 'step-failed', step, outcome, error: err, finished, total });
      }
      if (state.get(step.id) === 'done') {
        const ready: Step[] = [];
        for (const d of dependents.get(step.id) ?? []) {
          const left = (waiting.get(d.id) as number) - 1;
          waiting.set(d.id, left);
          if (left === 0) ready.push(d);
        }
        start(ready);
      } else {
        propagate(step);
        // The slot it leaves goes to the next ready step (or, once stopped, the rest is skipped).
        start([]);
      }
      finishIfIdle();
    };

    // Steps failed before the start (unknown dependencies) take their dependents with them.
    for (const step of steps) if (state.get(step.id) === 'failed') propagate(step);
    start(steps.filter((s) => waiting.get(s.id) === 0));
    finishIfIdle();
  });
}

/**
 * Each step's remaining critical path: its own requests plus the longest chain of requests among
 * the steps that wait on it, transitively. The limiter sends requests of the longest chains first.
 */
export function criticalPaths(steps: readonly Step[]): Map<string, number> {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const dependents = new Map<string, string[]>();
  for (const s of steps) {
    for (const d of s.dependsOn) {
      const list = dependents.get(d);
      if (list) list.push(s.id);
      else dependents.set(d, [s.id]);
    }
  }
  const memo = new Map<string, number>();
  const visiting = new Set<string>();
  const chain = (id: string): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    // A cycle (reported when the run reaches it) must not loop here.
    if (visiting.has(id)) return 0;
    visiting.add(id);
    const after = (dependents.get(id) ?? []).reduce((m, d) => Math.max(m, chain(d)), 0);
    visiting.delete(id);
    const total = (byId.get(id)?.requests.length ?? 0) + after;
    memo.set(id, total);
    return total;
  };
  // From the last step back: its dependents come later in plan order, so the recursion stays shallow.
  for (let i = steps.length - 1; i >= 0; i--) chain(steps[i].id);
  return memo;
}
