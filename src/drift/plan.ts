/**
 * The audit log in a plan: `plan --since` narrows the reads to what the window's events touch, and
 * every plan that read the log (or a full plan with `--attribute WINDOW` that has steps) names who
 * changed each step's object last. The plan service calls `sinceWindow` before planning and
 * `withChangedBy` after.
 */
import type { ApiClient } from '../api/types.js';
import type { LoadedConfig } from '../config/types.js';
import { DocplaneError } from '../core/errors.js';
import type { Plan } from '../plan/types.js';
import { attribute } from './attribute.js';
import { readEvents, selfActor, unreadable, type AuditEvent } from './audit.js';
import { readSince, type SinceRead } from './read.js';
import { parseSince } from './since.js';

export interface DriftOptions {
  /** `--since TIME`. */
  since?: string;
  /** `--attribute WINDOW`: a full plan with steps reads the log this far back to name who changed them. */
  attribute?: string;
  /** Other narrowing flags given (`--target`, `--base`): --since chooses the targets itself. */
  narrowedBy?: string;
  now?: Date;
}

/** Refuses what cannot go together and parses the times, before any request. */
export function checkDriftOptions(options: DriftOptions): { since?: Date; attribute?: Date } {
  const now = options.now ?? new Date();
  if (options.since !== undefined && options.narrowedBy !== undefined) {
    throw new DocplaneError('SINCE_WITH_TARGET', `--since and ${options.narrowedBy} cannot be given together: --since chooses the targets itself`, {
      hint: `Drop ${options.narrowedBy} for a drift check, or drop --since.`,
    });
  }
  return {
    ...(options.since !== undefined ? { since: parseSince(options.since, now) } : {}),
    ...(options.attribute !== undefined ? { attribute: parseSince(options.attribute, now) } : {}),
  };
}

/** The window of `--since`: the targets, or why everything is read. */
export function sinceWindow(config: LoadedConfig, client: ApiClient, from: Date): Promise<SinceRead> {
  return readSince(config, client, from);
}

/** The plan with who changed each step's object, from the events a --since window read. */
export function withSinceChanges(plan: Plan, read: SinceRead): Plan {
  const attributed = attribute(plan, read.events, read.self);
  return attributed.since ? { ...attributed, since: { ...attributed.since, objects: read.objects } } : attributed;
}

/**
 * A full plan's steps with who changed them: only when it has steps, reading each organization's
 * events since `from` (a few pages at most); a log that cannot be read leaves a note, not an error.
 */
export async function withAttribution(plan: Plan, client: ApiClient, from: Date): Promise<Plan> {
  if (plan.steps.length === 0) return plan;
  const orgs = [...new Set(plan.steps.map((s) => s.org))];
  const events = new Map<string, AuditEvent[]>();
  const notes: string[] = [];
  await Promise.all(
    orgs.map(async (org) => {
      try {
        events.set(org, (await readEvents(client, org, from)).events);
      } catch (err) {
        const why = unreadable(err);
        if (why === undefined) throw err;
        notes.push(`who changed what is not shown for ${org}: ${why}`);
      }
    }),
  );
  const viaApi = [...events.values()].some((list) => list.some((e) => e.source === 'api'));
  const self = viaApi ? await selfActor(client).catch(() => undefined) : undefined;
  const attributed = attribute(plan, events, self);
  return notes.length === 0 ? attributed : { ...attributed, notes: [...(attributed.notes ?? []), ...notes.sort()] };
}
