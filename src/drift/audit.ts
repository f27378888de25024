/**
 * Reading an organization's audit log (`listOrganizationAuditEvents`): events newest first, at most
 * 100 a page, and never more than `maxPages` pages; whether the log reaches back to a time; and the
 * token's own user (`getAuthenticatedUser`), to tell docplane's own changes from other people's.
 */
import { z } from 'zod';
import type { ApiClient } from '../api/types.js';
import { ApiError } from '../core/errors.js';
import { orgPath } from '../kinds/common/paths.js';

export const AuditEventAnswer = z.looseObject({
  id: z.string(),
  occurredAt: z.string(),
  action: z.string(),
  actor: z.looseObject({ type: z.string(), id: z.string(), label: z.string().optional() }),
  source: z.string(),
  target: z.looseObject({ type: z.string(), id: z.string(), label: z.string().optional() }),
});
export type AuditEvent = z.infer<typeof AuditEventAnswer>;

const PageAnswer = z.looseObject({
  items: z.array(AuditEventAnswer),
  next: z.looseObject({ page: z.string() }).nullish(),
});

const UserAnswer = z.looseObject({ id: z.string(), displayName: z.string().optional() });

/** The page size of the audit list: the most the description allows. */
export const AUDIT_PAGE = 100;
/** Pages of events read at most for one window: past that, the events are more than a full read costs. */
export const MAX_AUDIT_PAGES = 5;

export interface EventsRead {
  events: AuditEvent[];
  /** False when more events were left than `maxPages` allowed reading. */
  complete: boolean;
}

/** The events from `from` on, newest first; throws ApiError (403 without an Enterprise plan, 404). */
export async function readEvents(client: ApiClient, org: string, from: Date, maxPages = MAX_AUDIT_PAGES): Promise<EventsRead> {
  const events: AuditEvent[] = [];
  let page: string | undefined;
  for (let n = 0; n < maxPages; n++) {
    const res = await client.request('GET', `${orgPath(org)}/audit-events`, {
      query: { limit: AUDIT_PAGE, from: from.toISOString(), ...(page === undefined ? {} : { page }) },
      schema: PageAnswer,
    });
    const body = res.body as z.infer<typeof PageAnswer>;
    events.push(...body.items);
    page = body.next?.page;
    if (page === undefined) return { events, complete: true };
  }
  return { events, complete: false };
}

/** Whether the log holds an event at or before `at`: if none, it may not reach back that far. */
export async function reachesBack(client: ApiClient, org: string, at: Date): Promise<boolean> {
  const res = await client.request('GET', `${orgPath(org)}/audit-events`, { query: { limit: 1, to: at.toISOString() }, schema: PageAnswer });
  return (res.body as z.infer<typeof PageAnswer>).items.length > 0;
}

/** The id of the token's user: docplane's own changes are this actor's, through the API. */
export async function selfActor(client: ApiClient): Promise<string> {
  const res = await client.request('GET', '/v1/user', { schema: UserAnswer });
  return (res.body as z.infer<typeof UserAnswer>).id;
}

/** Why the log cannot be read, in a few words; undefined for an error that is not about the log. */
export function unreadable(err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  if (err.status === 403) return `the audit log cannot be read (${err.method} ${err.path} → 403: it needs an Enterprise plan and an administrator's token)`;
  if (err.status === 404) return `the audit log cannot be read (${err.method} ${err.path} → 404)`;
  if (err.status === 400) return `the audit log refused the window (${err.method} ${err.path} → 400: ${err.apiMessage})`;
  return undefined;
}
