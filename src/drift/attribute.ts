/**
 * Who changed what: each step of a plan carries the latest audit event that touched its object
 * (`changedBy`), told apart as docplane's own apply (the token's user, through the API), a person's
 * (a user's change from the app or elsewhere), or an integration's or another tool's.
 */
import type { ChangedBy, Plan, Step } from '../plan/types.js';
import type { AuditEvent } from './audit.js';
import { touches } from './targets.js';

/** Who an event is: docplane's own, a person's, or an integration's. */
export function byWhom(event: AuditEvent, self: string | undefined): ChangedBy['by'] {
  if (event.source === 'api' && self !== undefined && event.actor.id === self) return 'docplane';
  // A person works in the app or with a token of their own; integrations, webhooks, workflows and scripts are tools.
  return event.actor.type === 'user' && (event.source === 'ui' || event.source === 'api' || event.source === 'support') ? 'person' : 'integration';
}

/** The steps with `changedBy`, from each organization's events (newest first): the first that touches the step. */
export function attribute(plan: Plan, events: ReadonlyMap<string, readonly AuditEvent[]>, self: string | undefined): Plan {
  let any = false;
  const steps = plan.steps.map((s): Step => {
    const event = (events.get(s.org) ?? []).find((e) => touches(s, e.target));
    if (event === undefined) return s;
    any = true;
    return {
      ...s,
      changedBy: {
        at: event.occurredAt,
        action: event.action,
        source: event.source,
        actor: { type: event.actor.type, id: event.actor.id, ...(event.actor.label !== undefined ? { label: event.actor.label } : {}) },
        by: byWhom(event, self),
      },
    };
  });
  return any ? { ...plan, steps } : plan;
}
