/**
 * A saved plan is never executed as written. `apply PLANFILE` plans again from the config and the
 * remote objects the plan's steps touch (with the plan's own `--replace`), and this module holds the
 * file against that re-derivation: every step the re-derivation gives must be one the file shows —
 * the same address, action, fields, requests (method, path, query, body, secret placements), notes
 * and dependencies — and the safety rules it breaks must be those the file lists. What runs is the
 * re-derived steps, never the file's requests.
 *
 * The re-derivation covers the file's whole scope, derived again rather than read from the file
 * (reviewedScope): the whole organization, the targets of a `--base` plan (from its base and the
 * config), or the targets and `--replace` patterns apply's own command line confirms. So a step the
 * scope gives that the file lacks refuses it as surely as a step the file adds.
 *
 * After an interrupted apply, the re-derivation has fewer steps: a file step with no counterpart, at
 * an address whose remote object has changed since the plan, is done (the remote already is as the
 * config wants it); a step that was cut between its requests is re-derived as what is left of it, and
 * is accepted when each request left is one of the file's step. Ids of resources the earlier run
 * created stand where the file has `{{ref:…}}` tokens of their creates.
 */
import { DocplaneError } from '../core/errors.js';
import { stableStringify } from '../core/json.js';
import { toSecretPlaceholders, type Secret } from '../core/secrets.js';
import { stepId } from '../model/address.js';
import type { RunConfig, RunPlanOptions } from '../plan/context.js';
import type { JsonValue, Plan, RequestSpec, SafetyViolation, Step } from '../plan/types.js';
import { preEmptedCreates, preEmptedLine } from './done.js';

export interface SavedCheck {
  /** The re-derived steps left to run, in plan order, with what the plan needs around them. */
  plan: Plan;
  /** File steps found already applied (a resumed apply). */
  done: number;
  /** File steps cut between their requests by an earlier run, whose remainder runs now. */
  partial: number;
  /** Steps of the file (after --target). */
  total: number;
}

/**
 * Why a file is refused: it shows something the re-derivation does not give, or lacks a step it gives
 * (edited); the organization moved (stale; `reasons` say how where a line can: a create someone
 * else made with other values); or its scope is not the one apply derives (scope).
 */
export type SavedRefusal =
  | { kind: 'mismatch'; step: string; field: string }
  | { kind: 'stale'; addresses: string[]; reasons?: string[] }
  | { kind: 'scope'; why: string; hint: string };

/** The field of a mismatch that says a step the re-derivation gives is not in the file. */
const MISSING = '(missing from the file)';
/** The field of a mismatch that says a file step is not one the re-derivation gives. */
const WHOLE_STEP = '(the whole step)';

/** What apply's own command line says of the scope: the only scope a file cannot choose. */
export interface ConfirmedScope {
  /** `apply --target`: the part of the plan to apply. */
  targets: readonly string[];
  /** `apply --replace`: the forced publishes and resends the file may hold. */
  replace: readonly string[];
  /**
   * `apply --base`: the base a pull request's plan was compared with, as the applying side knows it
   * (in CI, the merge's first parent); its scope is then derived from this base, not the one the file
   * records, and the file's recorded base config must be this one.
   */
  base?: string;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}

function quoted(patterns: readonly string[], flag: string): string {
  return patterns.map((p) => `${flag} '${p}'`).join(' ');
}

/**
 * The scope the file's steps are re-derived in, derived again from what the file records, the config
 * and apply's own command line — never taken from the file:
 *
 * - `--replace` widens what is sent (a resend nothing else asks for): the file's patterns must be
 *   exactly those apply's command line gives.
 * - `--target` makes a partial plan: a file made with targets is applied only when apply's command
 *   line gives targets too; those are the scope, and a step they give that the file lacks refuses it.
 * - a `--base` plan's targets are derived again from its base (the commit and config hash it
 *   records, or apply's own `--base`) and the config; targets other than those refuse the file.
 * - else the scope is the whole organization, read whole (as a fresh plan reads it).
 */
export async function reviewedScope(file: Plan, run: Pick<RunConfig, 'baseScope'>, confirmed: ConfirmedScope, name: string): Promise<RunPlanOptions | SavedRefusal> {
  const replace = file.replace ?? [];
  if (!sameSet(replace, confirmed.replace)) {
    const extra = confirmed.replace.filter((p) => !replace.includes(p));
    return extra.length > 0
      ? { kind: 'scope', why: `apply's --replace ${extra[0]} is not in the plan`, hint: `Apply the plan with the --replace patterns it was made with${replace.length > 0 ? ` (${quoted(replace, '--replace')})` : ' (none)'}, or make a new plan with the ones wanted.` }
      : {
          kind: 'scope',
          why: `it was made with --replace ${replace.join(', ')}, which apply's own command line does not confirm`,
          hint: `A forced resend is applied only when apply asks for it too: docplane apply ${name} ${quoted(replace, '--replace')} (after reviewing the plan), or make a new plan without --replace.`,
        };
  }
  const selection = confirmed.targets.length > 0 ? { targets: [...confirmed.targets] } : {};
  if (confirmed.base !== undefined && file.base === undefined) {
    return { kind: 'scope', why: `apply's --base ${confirmed.base} is for a pull request's plan, and this one was made without --base`, hint: `Apply it without --base (docplane apply ${name}), or make the plan with --base.` };
  }
  if (file.base !== undefined) {
    const recorded = file.base;
    const source = confirmed.base ?? recorded.commit ?? recorded.from;
    let derived;
    try {
      derived = await run.baseScope(source);
    } catch (err) {
      return { kind: 'scope', why: `its scope is what changed since the base ${source}, which cannot be read here (${(err as Error).message})`, hint: 'Apply where the base can be read (in a shallow clone, fetch the base commit first), or make a whole plan (without --base).' };
    }
    if (recorded.configHash !== derived.configHash) {
      return confirmed.base === undefined
        ? { kind: 'scope', why: `its base ${recorded.from} is not the config the plan was compared with (its config hash differs)`, hint: 'Make a new plan, review it, and apply that one.' }
        : { kind: 'scope', why: `it was compared with the base ${recorded.from}, whose config is not that of apply's --base ${confirmed.base}`, hint: 'Make a new plan with --base the base this apply names, review it, and apply that one.' };
    }
    const targets = recorded.whole === undefined ? [...(file.targets ?? [])].sort() : [];
    if ((recorded.whole === undefined) !== (derived.whole === undefined) || !sameSet(targets, derived.targets)) {
      const lost = derived.targets.find((t) => !targets.includes(t));
      const added = targets.find((t) => !derived.targets.includes(t));
      const what = derived.whole !== undefined && recorded.whole === undefined ? `the whole organization (${derived.whole})` : lost !== undefined ? `${lost}, which the plan leaves out` : added !== undefined ? `not ${added}, which the plan adds` : 'another scope';
      return { kind: 'scope', why: `its scope is not what its base ${confirmed.base ?? recorded.from} and the config give: they give ${what}`, hint: 'Make a new plan (docplane plan --base BASE --out FILE), review it, and apply that one.' };
    }
    return { base: derived, ...(replace.length > 0 ? { replace: [...replace] } : {}), ...selection };
  }
  const fileTargets = file.targets ?? [];
  if (fileTargets.length > 0 && confirmed.targets.length === 0) {
    return {
      kind: 'scope',
      why: `it was made with --target ${fileTargets.join(', ')}, which apply's own command line does not confirm`,
      hint: `A partial plan is applied only with its targets given to apply too: docplane apply ${name} ${quoted(fileTargets, '--target')}`,
    };
  }
  return { ...(replace.length > 0 ? { replace: [...replace] } : {}), ...selection };
}

/**
 * Whether the config defines an address of an organization, or a resource it lies under (a grant of
 * a collection the config lists): each address's prefixes that end before a `.` or `[` are looked up
 * among the config's addresses, with secret values as the file holds them (placeholders).
 */
export function configAddresses(orgs: readonly { organization: { id: string }; locations: Record<string, unknown> }[], secrets: readonly Secret[]): (org: string, address: string) => boolean {
  const defined = new Set<string>();
  for (const o of orgs) {
    defined.add(`${o.organization.id}/organization`);
    for (const a of Object.keys(o.locations)) defined.add(`${o.organization.id}/${toSecretPlaceholders(a, secrets)}`);
  }
  return (org, address) => {
    for (let i = 1; i <= address.length; i++) {
      if (i < address.length && address[i] !== '.' && address[i] !== '[') continue;
      if (defined.has(`${org}/${address.slice(0, i)}`)) return true;
    }
    return false;
  };
}

/**
 * What the file must be before anything is compared: every step for an organization the config
 * manages, and its id what its organization, address and action make (ids key the comparison).
 */
export function checkFileSteps(file: Pick<Plan, 'steps'>, orgs: readonly string[]): SavedRefusal | undefined {
  const managed = new Set(orgs);
  for (const s of file.steps) {
    if (!managed.has(s.org)) return { kind: 'mismatch', step: s.id, field: `org (${s.org} is not an organization of the config)` };
    if (s.id !== stepId(s.org, s.address, s.action)) return { kind: 'mismatch', step: s.id, field: 'id' };
  }
  return undefined;
}

const REF_OPEN = '{{ref:';

/**
 * Unifies the file's value with the re-derived one: equal JSON, except that a `{{ref:ORG/ADDRESS}}`
 * (or `…#field`) token in a file string may stand for the value the re-derivation has there, when the
 * create at that address is done; one token stands for one value throughout the plan. Returns the
 * path of the first difference, or undefined.
 */
class Unifier {
  private readonly bound = new Map<string, string>();
  private readonly boundValues = new Map<string, string>();
  constructor(private readonly doneCreates: ReadonlySet<string>) {}

  diff(file: unknown, now: unknown, path: string): string | undefined {
    if (typeof file === 'string' && typeof now === 'string') return file === now || this.matchRefs(file, now) ? undefined : path;
    // A whole token may stand for a field of the create's answer that is not a string (`…#fontFaces`).
    if (typeof file === 'string' && now !== undefined && file.startsWith(REF_OPEN) && this.tokenAt(file, 0) === file) return this.bindValue(file, now) ? undefined : path;
    if (Array.isArray(file) && Array.isArray(now)) {
      if (file.length !== now.length) return `${path}.length`;
      for (let i = 0; i < file.length; i++) {
        const d = this.diff(file[i], now[i], `${path}[${i}]`);
        if (d !== undefined) return d;
      }
      return undefined;
    }
    if (isObject(file) && isObject(now)) {
      const keys = [...new Set([...Object.keys(file), ...Object.keys(now)])].sort();
      for (const k of keys) {
        if (file[k] === undefined && now[k] === undefined) continue;
        const d = this.diff(file[k], now[k], path === '' ? k : `${path}.${k}`);
        if (d !== undefined) return d;
      }
      return undefined;
    }
    return Object.is(file, now) ? undefined : path;
  }

  /** Binds a whole token to a JSON value: the same token stands for the same value throughout. */
  private bindValue(token: string, now: unknown): boolean {
    const value = stableStringify(now);
    const prior = this.boundValues.get(token);
    if (prior !== undefined && prior !== value) return false;
    this.boundValues.set(token, value);
    return true;
  }

  /** Whether `now` is `file` with each ref token of a done create replaced by an id (consistently). */
  private matchRefs(file: string, now: string): boolean {
    if (!file.includes(REF_OPEN)) return false;
    const parts: string[] = [];
    const tokens: string[] = [];
    let at = 0;
    // Tokens of creates still to run stay as they are, in both.
    for (let start = file.indexOf(REF_OPEN); start !== -1; start = file.indexOf(REF_OPEN, start + 1)) {
      const token = this.tokenAt(file, start);
      if (token === undefined) continue;
      parts.push(file.slice(at, start));
      tokens.push(token);
      at = start + token.length;
      start = at - 1;
    }
    if (tokens.length === 0) return false;
    parts.push(file.slice(at));
    const pattern = new RegExp(`^${parts.map(escapeRegExp).join('(.+?)')}$`, 's');
    const m = pattern.exec(now);
    if (!m) return false;
    const seen = new Map<string, string>();
    for (let i = 0; i < tokens.length; i++) {
      const value = m[i + 1];
      const prior = this.bound.get(tokens[i]) ?? seen.get(tokens[i]);
      if (prior !== undefined && prior !== value) return false;
      seen.set(tokens[i], value);
    }
    for (const [k, v] of seen) this.bound.set(k, v);
    return true;
  }

  /** The whole token starting at `start` when it names a done create (`{{ref:ADDR}}` or `{{ref:ADDR#a.b}}`). */
  private tokenAt(text: string, start: number): string | undefined {
    const body = start + REF_OPEN.length;
    for (let end = text.indexOf('}}', body); end !== -1; end = text.indexOf('}}', end + 1)) {
      const inner = text.slice(body, end);
      const hash = inner.lastIndexOf('#');
      const target = this.doneCreates.has(inner) ? inner : hash !== -1 && this.doneCreates.has(inner.slice(0, hash)) ? inner.slice(0, hash) : undefined;
      if (target !== undefined) return text.slice(start, end + 2);
    }
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What is compared of a step (its id and dependencies are compared apart). */
function shape(step: Step): Record<string, unknown> {
  return {
    address: step.address,
    kind: step.kind,
    action: step.action,
    before: step.before,
    after: step.after,
    changes: step.changes,
    requests: step.requests.map(requestShape),
    remoteId: step.remoteId,
    notes: step.notes ?? [],
  };
}

function requestShape(r: RequestSpec): Record<string, unknown> {
  return { method: r.method, path: r.path, query: r.query, body: r.body as JsonValue | undefined, capture: r.capture, lookup: r.lookup };
}

function violationKey(v: SafetyViolation): string {
  return JSON.stringify([v.rule, v.message, [...v.steps].sort()]);
}

/**
 * Holds the saved plan `file` (as read, secrets as placeholders, after --target) against `fresh`,
 * planned again at its steps' addresses, and gives the steps to run, or the refusal.
 */
export function checkSaved(file: Plan, fresh: Plan, secrets: readonly Secret[], defines: (org: string, address: string) => boolean = () => true): SavedCheck | SavedRefusal {
  // Compared as the file holds them: secret values as their placeholders.
  const now = toSecretPlaceholders(fresh, secrets);
  const at = (s: Pick<Step, 'org' | 'address'>) => `${s.org}/${s.address}`;
  const group = (steps: readonly Step[]) => {
    const out = new Map<string, Step[]>();
    for (const s of steps) out.set(at(s), [...(out.get(at(s)) ?? []), s]);
    return out;
  };
  const fileAt = group(file.steps);
  const nowAt = group(now.steps);
  const changed = (address: string) => file.fingerprints[address] === undefined || now.fingerprints[address] !== file.fingerprints[address];
  // Where a create is judged done: the re-derivation creates nothing at its address any more.
  const createDone = (f: Step) => !(nowAt.get(at(f)) ?? []).some((n) => n.action === 'create');
  /**
   * Whether a file step with nothing left of it in the re-derivation is done: a create whose resource
   * exists now, or a change at an address whose object the file fingerprinted and that has moved
   * since (a step without a fingerprint cannot be shown done); either at an address the config has.
   */
  const isDone = (f: Step) =>
    // What is done is what the config asks for: a step elsewhere (but a delete of what it prunes) is not the reviewed plan's.
    (f.action === 'delete' || defines(f.org, f.address)) && (f.action === 'create' ? createDone(f) : file.fingerprints[at(f)] !== undefined && changed(at(f)));
  // A create is done only when the object is as the create leaves it (src/apply/done.ts).
  const preEmpted = preEmptedCreates(file, now);
  if (preEmpted.length > 0) return { kind: 'stale', addresses: [...new Set(preEmpted.map((p) => p.address))].sort(), reasons: preEmpted.map(preEmptedLine) };

  const doneCreates = new Set<string>();
  for (const s of file.steps) if (s.action === 'create' && createDone(s)) doneCreates.add(at(s));
  const unify = new Unifier(doneCreates);

  /** Re-derived step id → the file step it is (whole, or what is left of it). */
  const matched = new Map<string, Step>();
  const stale = new Set<string>();
  let partial = 0;
  let mismatch: { step: string; field: string } | undefined;
  for (const [address, fileSteps] of fileAt) {
    const nowSteps = nowAt.get(address) ?? [];
    for (const n of nowSteps) {
      const same = fileSteps.find((f) => f.id === n.id);
      const field = same ? unify.diff(shape(same), shape(n), '') : 'action';
      if (same && field === undefined) {
        matched.set(n.id, same);
        continue;
      }
      // What an earlier run left of a step cut between its requests: only where the remote moved.
      const whole = changed(address) ? fileSteps.find((f) => isRemainder(unify, f, n) && onTheWay(f, n)) : undefined;
      if (whole) {
        matched.set(n.id, whole);
        partial++;
        continue;
      }
      if (changed(address)) stale.add(address);
      else mismatch ??= { step: (same ?? fileSteps[0]).id, field: field ?? 'action' };
    }
    // A file step with nothing left of it: done, when the remote moved; else the file shows a step
    // that the config and the organization do not give.
    for (const f of fileSteps) {
      if ([...matched.values()].includes(f)) continue;
      if (!isDone(f)) mismatch ??= { step: f.id, field: WHOLE_STEP };
    }
  }
  // A step the reviewed scope gives at an address the file has no step for: left out of the file,
  // unless the file fingerprinted the object there and it has moved since (stale).
  for (const [address, nowSteps] of nowAt) {
    if (fileAt.has(address)) continue;
    if (file.fingerprints[address] !== undefined && changed(address)) stale.add(address);
    else mismatch ??= { step: nowSteps[0].id, field: MISSING };
  }
  if (mismatch) return { kind: 'mismatch', ...mismatch };

  // Dependencies: a step left to run waits for the steps the file says, less those done; the
  // re-derivation may drop a wait that no longer matters (a publish of a site that exists now), never
  // add one. A re-derived step it would wait for that the file does not show makes the plan stale.
  const pending = new Set([...matched.values()].map((f) => f.id));
  const firstRun = partial === 0 && pending.size === file.steps.length && matched.size === now.steps.length;
  for (const n of now.steps) {
    const f = matched.get(n.id);
    if (!f) continue;
    const deps = n.dependsOn.map((d) => matched.get(d)?.id);
    if (deps.some((d) => d === undefined)) {
      stale.add(at(n));
      continue;
    }
    const want = new Set(f.dependsOn.filter((d) => pending.has(d)));
    const have = new Set(deps as string[]);
    if ([...have].some((d) => !want.has(d)) || (firstRun && want.size !== have.size)) return { kind: 'mismatch', step: f.id, field: 'dependsOn' };
  }
  if (stale.size > 0) return { kind: 'stale', addresses: [...stale].sort() };

  // `now` is `fresh` with secrets as placeholders, step for step: the ids matched are `now`'s, and a
  // step whose address holds a secret has another id in `fresh`.
  const steps = fresh.steps.filter((_s, i) => matched.has(now.steps[i].id));
  const keep = new Set(steps.map((s) => s.id));
  const keepNow = new Set(now.steps.filter((s) => matched.has(s.id)).map((s) => s.id));
  const done = file.steps.length - pending.size;
  // The safety rules: those the re-derived steps break, and on a first run exactly those the file lists.
  const nowViolations = now.violations.filter((v) => v.rule !== 'protect' && v.steps.some((id) => keepNow.has(id)));
  const fileViolations = file.violations.filter((v) => v.rule !== 'protect');
  if (firstRun) {
    const a = new Set(nowViolations.map(violationKey));
    const b = new Set(fileViolations.map(violationKey));
    const differs = [...a].find((k) => !b.has(k)) ?? [...b].find((k) => !a.has(k));
    if (differs !== undefined) return { kind: 'mismatch', step: '(the plan)', field: `violations: ${JSON.parse(differs)[0]}` };
  } else {
    const missing = nowViolations.find((v) => !fileViolations.some((w) => w.rule === v.rule));
    if (missing) return { kind: 'mismatch', step: '(the plan)', field: `violations: ${missing.rule}` };
  }
  const violations = fresh.violations.filter((v) => v.steps.some((id) => keep.has(id)));
  const summary = { create: 0, update: 0, delete: 0, other: 0, unmanaged: file.summary.unmanaged };
  for (const s of steps) {
    if (s.action === 'create' || s.action === 'update' || s.action === 'delete') summary[s.action]++;
    else summary.other++;
  }
  return {
    plan: { ...fresh, steps, violations, summary, fingerprints: {} },
    done,
    partial,
    total: file.steps.length,
  };
}

/**
 * Whether the object the re-derived step `n` starts from lies on the way of the file's update `f`:
 * each field as `f` found it or as `f` sets it. A field at a third value was changed by someone else,
 * and the reviewed step no longer says what happens to it. A create's object is new: its fields are
 * checked by the requests left to send.
 */
function onTheWay(f: Step, n: Step): boolean {
  if (f.before === null || n.before === null) return true;
  const same = (a: unknown, b: unknown) => stableStringify(a) === stableStringify(b);
  return Object.entries(n.before).every(
    ([k, v]) => !(k in f.before!) || same(v, f.before![k]) || (f.after !== null && k in f.after && same(v, f.after[k])),
  );
}

/**
 * Whether the re-derived step `n` is what is left of the file's step `f` after some of its requests
 * were sent: the same resource, and each of its requests one of `f`'s, in `f`'s order — or, for a
 * PATCH, that request with fewer of its fields (those that already are as it sets them left out).
 */
function isRemainder(unify: Unifier, f: Step, n: Step): boolean {
  if (f.kind !== n.kind || n.requests.length === 0 || n.requests.length > f.requests.length) return false;
  let from = 0;
  for (const r of n.requests) {
    let i = from;
    while (i < f.requests.length && !partOf(unify, f.requests[i], r)) i++;
    if (i === f.requests.length) return false;
    from = i + 1;
  }
  return true;
}

function partOf(unify: Unifier, whole: RequestSpec, part: RequestSpec): boolean {
  if (unify.diff(requestShape(whole), requestShape(part), '') === undefined) return true;
  if (part.method !== 'PATCH' || whole.method !== 'PATCH' || !isObject(whole.body) || !isObject(part.body)) return false;
  const fewer = { ...requestShape(whole), body: Object.fromEntries(Object.keys(part.body).map((k) => [k, (whole.body as Record<string, unknown>)[k]])) };
  return Object.keys(part.body).every((k) => k in (whole.body as object)) && unify.diff(fewer, requestShape(part), '') === undefined;
}

/** The refusal as the error apply exits with. */
export function refusalError(refusal: SavedRefusal, file: string): DocplaneError {
  if (refusal.kind === 'scope') {
    return new DocplaneError('PLAN_SCOPE', `the plan ${file} is not applied: ${refusal.why}; nothing was sent`, { hint: refusal.hint });
  }
  if (refusal.kind === 'mismatch') {
    const where =
      refusal.field === WHOLE_STEP
        ? `the step ${refusal.step} is not one they give`
        : refusal.field === MISSING
          ? `the step ${refusal.step}, which they give, is missing from it`
          : refusal.field.startsWith('org (')
            ? `the step ${refusal.step}: ${refusal.field.slice(5, -1)}`
            : `${refusal.step}: ${refusal.field} differs`;
    return new DocplaneError('PLAN_MISMATCH', `the plan ${file} does not match what the config and the organization give now (${where}); nothing was sent`, {
      hint: 'The file was edited after it was made, or the organization changed where the plan has no step. Make a new plan (docplane plan --out FILE), review it, and apply that one.',
    });
  }
  const shown = refusal.addresses.slice(0, 10).join(', ');
  const more = refusal.addresses.length > 10 ? ` and ${refusal.addresses.length - 10} more` : '';
  const n = refusal.addresses.length;
  const why = refusal.reasons?.length ? ` (${refusal.reasons.slice(0, 3).join('; ')}${refusal.reasons.length > 3 ? '; …' : ''}); nothing was sent` : '';
  return new DocplaneError('PLAN_STALE', `the plan ${file} is stale: ${n} remote ${n === 1 ? 'object' : 'objects'} changed since it was made: ${shown}${more}${why}`, {
    hint: 'Make a new plan (docplane plan --out FILE), review it, and apply that one.',
  });
}
