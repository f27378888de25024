/**
 * `plan --since TIME`: what the organizations' audit logs say changed in the window, as the targets a
 * plan is narrowed to (src/plan/narrow.ts, as `--target` and `--base` are), or why everything must be
 * read. Every organization of the config is asked at once; each costs one page of events (100) and a
 * one-event probe of whether the log reaches back to TIME, sent together.
 *
 * Everything is read, with the reason, when a log cannot be read (403: not on an Enterprise plan;
 * 404), when it holds nothing at or before TIME (it may not reach back that far), when an event's
 * target maps to nothing docplane knows, or when the window holds more events than `MAX_AUDIT_PAGES`
 * pages or more objects than `MAX_SINCE_OBJECTS` (reading them costs about what a full read does).
 */
import type { ApiClient } from '../api/types.js';
import type { LoadedConfig } from '../config/types.js';
import { MAX_AUDIT_PAGES, AUDIT_PAGE, reachesBack, readEvents, selfActor, unreadable, type AuditEvent } from './audit.js';
import { shortUtc } from './since.js';
import { mapTarget } from './targets.js';

/** Changed objects at most for a narrowed read: past it, a full read costs about as much. */
export const MAX_SINCE_OBJECTS = 50;

export interface SinceRead {
  from: Date;
  /** `ORG/ADDRESS` targets of the narrowed plan; undefined when everything is read. */
  targets?: string[];
  /** Why everything is read (one line). */
  whole?: string;
  /** Distinct objects the events touched. */
  objects: number;
  /** Per organization, the events read (newest first), for who changed what. */
  events: Map<string, AuditEvent[]>;
  /** The token's user, when an event came through the API (docplane's own changes are this actor's). */
  self?: string;
}

interface OrgWindow {
  org: string;
  events: AuditEvent[];
  whole?: string;
}

async function readOrg(client: ApiClient, org: string, from: Date): Promise<OrgWindow> {
  try {
    const [read, back] = await Promise.all([readEvents(client, org, from), reachesBack(client, org, from)]);
    if (!read.complete) return { org, events: read.events, whole: `more than ${MAX_AUDIT_PAGES * AUDIT_PAGE} events since ${shortUtc(from.toISOString())} in ${org}: reading what they touch costs about what a full read does` };
    if (!back) return { org, events: read.events, whole: `the audit log of ${org} holds nothing at or before ${shortUtc(from.toISOString())}: it may not reach back that far` };
    return { org, events: read.events };
  } catch (err) {
    const why = unreadable(err);
    if (why === undefined) throw err;
    return { org, events: [], whole: why };
  }
}

export async function readSince(config: LoadedConfig, client: ApiClient, from: Date): Promise<SinceRead> {
  const windows = await Promise.all(config.orgs.map((o) => readOrg(client, o.organization.id, from)));
  const events = new Map(windows.map((w) => [w.org, w.events]));
  const self = windows.some((w) => w.events.some((e) => e.source === 'api')) ? await selfActor(client).catch(() => undefined) : undefined;
  const objects = new Set(windows.flatMap((w) => w.events.map((e) => `${w.org}/${e.target.type}/${e.target.id}`))).size;
  const base = { from, objects, events, ...(self !== undefined ? { self } : {}) };
  const refused = windows.find((w) => w.whole !== undefined);
  if (refused) return { ...base, whole: refused.whole };
  if (objects > MAX_SINCE_OBJECTS) return { ...base, whole: `${objects} objects changed since ${shortUtc(from.toISOString())}: reading them costs about what a full read does` };
  const targets = new Set<string>();
  for (const w of windows) {
    const desired = config.orgs.find((o) => o.organization.id === w.org)!;
    for (const e of w.events) {
      const mapped = mapTarget(desired, e.target);
      if ('unknown' in mapped) return { ...base, whole: mapped.unknown };
      for (const a of mapped.addresses) targets.add(`${w.org}/${a}`);
    }
  }
  return { ...base, targets: [...targets].sort() };
}
