/**
 * The json rendering of `plan --format json` (documented in docs/plan-format.md). It is for reading
 * by programs, not for `apply`: the saved plan file (--out) is another document, with secret
 * placeholders, the config hash and fingerprints.
 */
import { KINDS } from '../kinds/index.js';
import { type FieldChange, type JsonValue, type RequestSpec, type Step } from '../plan/types.js';
import { orgsOf } from './format.js';
import type { MaskedPlan } from './redact.js';

/** Object keys sorted at every level, so the output does not depend on how a module built a value. */
function sorted(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    const out: { [k: string]: JsonValue } = {};
    for (const k of Object.keys(value).sort()) if (value[k] !== undefined) out[k] = sorted(value[k]);
    return out;
  }
  return value;
}

function sortedOrNull<T extends JsonValue>(value: T | null): JsonValue {
  return value === null ? null : sorted(value);
}

function change(c: FieldChange): Record<string, unknown> {
  return {
    path: c.path,
    kind: c.kind,
    ...(c.before !== undefined ? { before: sorted(c.before) } : {}),
    ...(c.after !== undefined ? { after: sorted(c.after) } : {}),
  };
}

function request(r: RequestSpec): Record<string, unknown> {
  return {
    method: r.method,
    path: r.path,
    ...(r.query !== undefined ? { query: sorted(r.query) } : {}),
    ...(r.body !== undefined ? { body: sorted(r.body) } : {}),
  };
}

function step(s: Step): Record<string, unknown> {
  return {
    id: s.id,
    org: s.org,
    address: s.address,
    kind: s.kind,
    action: s.action,
    ...(s.remoteId !== undefined ? { remoteId: s.remoteId } : {}),
    before: sortedOrNull(s.before),
    after: sortedOrNull(s.after),
    changes: s.changes.map(change),
    requests: s.requests.map(request),
    dependsOn: [...s.dependsOn],
    ...(s.notes && s.notes.length > 0 ? { notes: [...s.notes] } : {}),
    ...(s.changedBy ? { changedBy: { ...s.changedBy, actor: { ...s.changedBy.actor } } } : {}),
  };
}

/** Renders a masked plan as JSON, 2-space indented (no trailing newline). */
export function renderJson(plan: MaskedPlan): string {
  const unmanaged: Record<string, Record<string, number>> = {};
  const unmanagedResources: Record<string, Record<string, string[]>> = {};
  for (const org of orgsOf(plan)) {
    const byKind = plan.unmanaged[org] ?? {};
    const counts: Record<string, number> = {};
    const names: Record<string, string[]> = {};
    for (const kind of KINDS) {
      const list = byKind[kind];
      if (!list || list.length === 0) continue;
      counts[kind] = list.length;
      names[kind] = [...list];
    }
    unmanaged[org] = counts;
    unmanagedResources[org] = names;
  }
  const s = plan.summary;
  const document = {
    formatVersion: 1,
    toolVersion: plan.toolVersion,
    createdAt: plan.createdAt,
    orgs: [...plan.orgs],
    summary: { create: s.create, update: s.update, delete: s.delete, other: s.other, unmanaged: s.unmanaged },
    steps: plan.steps.map(step),
    unmanaged,
    unmanagedResources,
    violations: plan.violations.map((v) => ({ rule: v.rule, message: v.message, steps: [...v.steps] })),
    problems: plan.problems.map((p) => ({
      org: p.org,
      address: p.address,
      message: p.message,
      ...(p.field ? { field: p.field } : {}),
      ...(p.location ? { location: { file: p.location.file, line: p.location.line, column: p.location.column } } : {}),
    })),
    notes: [...(plan.notes ?? [])],
    ...(plan.targets && plan.targets.length > 0 ? { targets: [...plan.targets] } : {}),
    ...(plan.base ? { base: { ...plan.base } } : {}),
    ...(plan.since ? { since: { ...plan.since } } : {}),
    ...(plan.duplicates && plan.duplicates.length > 0 ? { duplicates: [...plan.duplicates] } : {}),
  };
  return JSON.stringify(document, null, 2);
}
