/** Pieces every rendering shares: the summary line, value and change formatting, grouping. */
import { KINDS } from '../kinds/index.js';
import { type Action, type FieldChange, type JsonValue, type Kind, type Plan, type RequestSpec, type Step } from '../plan/types.js';
import { isMaskText } from './redact.js';
import { shortUtc } from '../drift/since.js';
import { changedByText } from '../drift/words.js';

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Whether any step would change something (what `--detailed-exitcode` answers 2 for). */
function changeCount(plan: Plan): number {
  const s = plan.summary;
  return s.create + s.update + s.delete + s.other;
}

/**
 * `Plan: 3 to create, 2 to update, 1 to delete, 4 other changes; 7 unmanaged.`, or
 * `No changes. 7 unmanaged resources left alone.` The counts are the plan's own summary.
 */
export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  // A plan that found problems is not a plan of "no changes" (a pull-request comment's title says so).
  if (changeCount(plan) === 0 && plan.problems.length > 0) {
    const n = plan.problems.length;
    return `Plan: ${plural(n, 'problem', 'problems')} to fix; nothing to create, update or delete${s.unmanaged > 0 ? `; ${s.unmanaged} unmanaged` : ''}.`;
  }
  // Nor is one with twins of managed resources (two remote resources with one key).
  const twins = plan.duplicates?.length ?? 0;
  if (changeCount(plan) === 0 && twins > 0) {
    return `Plan: ${plural(twins, 'duplicate', 'duplicates')} to resolve (see the notes); nothing to create, update or delete${s.unmanaged > 0 ? `; ${s.unmanaged} unmanaged` : ''}.`;
  }
  if (changeCount(plan) === 0) {
    return s.unmanaged > 0 ? `No changes. ${plural(s.unmanaged, 'unmanaged resource', 'unmanaged resources')} left alone.` : 'No changes.';
  }
  const counts = `${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${plural(s.other, 'other change', 'other changes')}`;
  return `Plan: ${counts}${s.unmanaged > 0 ? `; ${s.unmanaged} unmanaged` : ''}.`;
}

/**
 * `Targeted plan: only teams["Engineering"] and what it depends on (--target).`, for a plan limited by
 * --target; for a pull request's plan (--base), what it did not read, or why it read everything;
 * undefined for a whole plan.
 */
export function targetLine(plan: Plan): string | undefined {
  const since = plan.since;
  if (since !== undefined) return sinceLine(since);
  const base = plan.base;
  if (base?.whole !== undefined) return `Whole plan: ${base.whole} since ${base.from}, and that decides for the whole config: every entry was read (--base).`;
  if (base !== undefined) {
    const n = base.unread ?? 0;
    return `Pull-request plan: only what changed since ${base.from} (--base). ${n} ${n === 1 ? 'entry' : 'entries'} unchanged since ${base.from} ${n === 1 ? 'was' : 'were'} not read; the drift check reads everything.`;
  }
  const targets = plan.targets ?? [];
  if (targets.length === 0) return undefined;
  return `Targeted plan: only ${targets.join(', ')} and what ${targets.length === 1 ? 'it depends' : 'they depend'} on (--target); the rest of the config was not planned.`;
}

/** The text rendering's mark for each action. */
export const ACTION_SYMBOL: Record<Action, string> = {
  create: '+',
  update: '~',
  delete: '-',
  move: '»',
  sort: '»',
  restore: '↻',
  publish: '⇡',
};

/** Actions counted as "other" in the summary; their step lines name the action. */
export function isOtherAction(action: Action): boolean {
  return action !== 'create' && action !== 'update' && action !== 'delete';
}

export const CHANGE_SYMBOL: Record<FieldChange['kind'], string> = { add: '+', remove: '-', change: '~' };

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** A JSON-like one-line value: `"text"`, `{role: "member"}`, `["a", "b"]`; masks unquoted. */
export function formatValue(value: JsonValue | undefined, maxLength = Infinity): string {
  const text = formatInner(value);
  return text.length > maxLength ? `${text.slice(0, Math.max(0, maxLength - 1))}…` : text;
}

function formatInner(value: JsonValue | undefined): string {
  if (value === undefined) return '(absent)';
  if (value === null) return 'null';
  if (typeof value === 'string') return isMaskText(value) ? value : JSON.stringify(value);
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map(formatInner).join(', ')}]`;
  const document = documentSummary(value);
  if (document !== null) return document;
  const entries = Object.entries(value).map(([k, v]) => `${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${formatInner(v)}`);
  return entries.length === 0 ? '{}' : `{${entries.join(', ')}}`;
}

/**
 * A rich-text document reads as its text: the generated block keys and the node tree say nothing to a
 * reviewer, and the planner compares documents by content anyway.
 */
function documentSummary(value: { [k: string]: JsonValue }): string | null {
  if (value.object !== 'document' || !Array.isArray(value.nodes)) return null;
  const textOf = (node: JsonValue): string => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return '';
    if (typeof node.text === 'string') return node.text;
    const children = Array.isArray(node.leaves) ? node.leaves : Array.isArray(node.nodes) ? node.nodes : [];
    return children.map(textOf).join('');
  };
  return `document ${JSON.stringify(value.nodes.map(textOf).join('\n\n'))}`;
}

/**
 * The changes a step shows. Modules fill `changes` for updates; when a step has none (a create, a
 * delete, a sort) the top-level fields of before/after stand in, so no step renders empty.
 */
export function changesOf(step: Step): FieldChange[] {
  if (step.changes.length > 0) return step.changes;
  const before = step.before ?? {};
  const after = step.after ?? {};
  const out: FieldChange[] = [];
  for (const k of Object.keys(before)) {
    if (!(k in after)) out.push({ path: k, kind: 'remove', before: before[k] });
    else if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) out.push({ path: k, kind: 'change', before: before[k], after: after[k] });
  }
  for (const k of Object.keys(after)) if (!(k in before)) out.push({ path: k, kind: 'add', after: after[k] });
  return out;
}

/** `title: "Old" → "New"`, `members["bob@acme.com"]: {role: "member"}` (without the mark). */
export function formatChange(change: FieldChange, maxValueLength = Infinity): string {
  const v = (x: JsonValue | undefined) => formatValue(x, maxValueLength);
  if (change.kind === 'add') return `${change.path}: ${v(change.after)}`;
  if (change.kind === 'remove') return `${change.path}: ${v(change.before)}`;
  return `${change.path}: ${v(change.before)} → ${v(change.after)}`;
}

export function requestCount(step: Step): string {
  const n = step.requests.length;
  return n === 0 ? '(no requests)' : `(${plural(n, 'request', 'requests')})`;
}

/** Orgs in the plan's order, then any org that only a step or problem names (defensive: never drop a step). */
export function orgsOf(plan: Plan): string[] {
  const out = [...plan.orgs];
  for (const o of [...plan.steps.map((s) => s.org), ...plan.problems.map((p) => p.org), ...Object.keys(plan.unmanaged)]) {
    if (!out.includes(o)) out.push(o);
  }
  return out;
}

/** Kinds in the canonical order (KINDS), for tables and unmanaged counts. */
export function kindOrder(a: Kind, b: Kind): number {
  return KINDS.indexOf(a) - KINDS.indexOf(b);
}

/** `members: 3, teams: 2` for one org, in KINDS order; empty when nothing is unmanaged. */
export function unmanagedList(byKind: Partial<Record<Kind, string[]>> | undefined): string {
  if (!byKind) return '';
  return (Object.entries(byKind) as [Kind, string[]][])
    .filter(([, list]) => list.length > 0)
    .sort(([a], [b]) => kindOrder(a, b))
    .map(([k, list]) => `${k}: ${list.length}`)
    .join(', ');
}

/** How many unmanaged addresses a text or markdown plan names (the counts cover the rest). */
export const MAX_UNMANAGED_SHOWN = 50;

/** The addresses of one org's unmanaged resources, in KINDS order then by address. */
export function unmanagedAddresses(byKind: Partial<Record<Kind, string[]>> | undefined): string[] {
  if (!byKind) return [];
  return (Object.entries(byKind) as [Kind, string[]][]).sort(([a], [b]) => kindOrder(a, b)).flatMap(([, list]) => list);
}

/** `PATCH /v1/orgs/o/teams/t?x=1`: a request as a reviewer reads it (method and path, with its query). */
export function requestLine(r: RequestSpec): string {
  const query = r.query ? `?${new URLSearchParams(Object.entries(r.query).map(([k, v]): [string, string] => [k, String(v)])).toString()}` : '';
  return `${r.method} ${r.path}${query}`;
}

/**
 * `3 objects changed since 09:00 UTC were read; everything else was not (--since).`, or why a drift
 * check read everything.
 */
function sinceLine(since: NonNullable<Plan['since']>): string {
  const when = shortUtc(since.from);
  if (since.whole !== undefined) return `Whole plan: ${since.whole}; every entry was read (--since ${when}).`;
  const n = since.objects ?? 0;
  const read = n === 0 ? `Nothing changed since ${when}: nothing was read` : `${n} ${n === 1 ? 'object' : 'objects'} changed since ${when} ${n === 1 ? 'was' : 'were'} read`;
  return `Drift check: ${read}; everything else was not (--since, from the audit log).`;
}

/** `  (changed in the app by Ana Lima, 2026-11-27 10:32 UTC)` after a step's address, when the plan knows. */
export function changedBySuffix(step: Step): string {
  return step.changedBy ? `  (${changedByText(step.changedBy)})` : '';
}
