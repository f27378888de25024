/**
 * The parts of an update step the agent's planners draft field by field: what the plan shows before
 * and after, the PATCH body, and the field changes (a set or a credential is shown its own way, so
 * the changes are not derived from before and after).
 */
import type { FieldChange, JsonObject, JsonValue } from '../../../model/step.js';

export interface UpdateDraft {
  before: JsonObject;
  after: JsonObject;
  body: JsonObject;
  changes: FieldChange[];
}

export function updateDraft(): UpdateDraft {
  return { before: {}, after: {}, body: {}, changes: [] };
}

/** A top-level field that differs: shown, sent (as `sent`, when the API takes another value for it) and listed as one change. */
export function changeField(draft: UpdateDraft, name: string, was: JsonValue, want: JsonValue, sent: JsonValue = want): void {
  draft.before[name] = was;
  draft.after[name] = want;
  draft.body[name] = sent;
  draft.changes.push({ path: name, kind: 'change', before: was, after: want });
}
