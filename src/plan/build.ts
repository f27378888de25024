/**
 * From the draft steps of every kind to the plan: protect, dependencies, --target, order, safety
 * thresholds, fingerprints and counts. Pure: same input, same plan; nothing is read or sent.
 */
import type { PlanPicture } from '../model/picture.js';
import type { PlanAccessResult } from '../model/access-result.js';
import { BugError } from '../core/errors.js';
import { priorityQueue } from '../core/priority-queue.js';
import type { DraftStep, KindPlan } from '../kinds/kind.js';
import { compareAddresses, isUnder, stepId, parsePattern, patternMatches } from '../model/address.js';
import { selectTargets } from './targets.js';
import type { Action, JsonObject, Kind, Plan, PlanProblem, PlanSummary, SafetyViolation, Step } from './types.js';
import { KINDS, KIND_SPECS } from '../kinds/index.js';

export interface OrgDraft {
  org: string;
  /** The plan of each kind the organization's config manages. */
  kinds: Record<Kind, KindPlan>;
  safety: { maxDeletes: number; maxDeletePercent: number };
  /** Addresses or globs whose deletes are left out. */
  protect: readonly string[];
  /** Problems found outside the kinds (an unknown --replace address, …). */
  problems?: PlanProblem[];
  /** What a reviewer should know of the organization's plan outside the kinds (a protect entry that selects nothing, …). */
  notes?: string[];
}

export interface BuildPlanInput {
  toolVersion: string;
  createdAt: string;
  configHash: string;
  configPaths: string[];
  orgs: OrgDraft[];
  /** `--target`: keep the steps at these addresses (or under them, or matching the globs) and what they need. */
  targets?: readonly string[];
}

const ACTIONS: readonly Action[] = ['create', 'update', 'delete', 'move', 'restore', 'sort', 'publish'];
const QUALIFIED_NEED = new RegExp(`:(${ACTIONS.join('|')})$`);

/**
 * The first ordering layer, a fixed rank per (action, kind). Restores come first (a deleted space
 * must be back before anything touches it); creates, updates, moves and publishes go in kind order
 * (organization before teams before what names a team, sections before site spaces); sorts
 * after them (they order what was created); deletes last, children kinds first (site spaces
 * before their sections, what names a team before teams).
 */
export function rank(action: Action, kind: Kind): number {
  const i = KINDS.indexOf(kind);
  switch (action) {
    case 'restore':
      return i;
    case 'sort':
      return 200 + i;
    case 'delete':
      return 300 + (KINDS.length - i);
    default:
      return 100 + i;
  }
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Node {
  step: Step;
  orgIndex: number;
  rank: number;
}

function compareNodes(a: Node, b: Node): number {
  return (
    a.orgIndex - b.orgIndex ||
    a.rank - b.rank ||
    compareAddresses(a.step.address, b.step.address) ||
    compareStrings(a.step.action, b.step.action) ||
    compareStrings(a.step.id, b.step.id)
  );
}

/** Splits `ADDRESS:ACTION` (one step) from a plain address (every step there). */
function parseNeed(need: string): { address: string; action?: Action } {
  const m = QUALIFIED_NEED.exec(need);
  return m ? { address: need.slice(0, -m[0].length), action: m[1] as Action } : { address: need };
}

/**
 * Deletes of protected addresses are left out, and so are deletes that need one of them (a parent
 * collection whose deletion would take a protected child with it). Each is reported as a `protect`
 * violation, for information: nothing is left to refuse. A kept delete that made way for another
 * step (at its address, or one it needs deleted first) is a plan problem, and so is a kept resource
 * whose address the plan changes to one that protect does not name.
 */
function applyProtect(org: string, drafts: DraftStep[], protect: readonly string[]): { kept: DraftStep[]; violations: SafetyViolation[]; problems: PlanProblem[] } {
  if (protect.length === 0) return { kept: drafts, violations: [], problems: [] };
  const patterns = protect.map(parsePattern);
  const removed = new Map<string, string>(); // delete address → why
  for (const d of drafts) {
    const named = d.action === 'delete' ? [d.address, ...withoutId(d)] : [];
    if (named.some((address) => patterns.some((p) => patternMatches(p, org, address)))) {
      removed.set(d.address, `${d.address} is protected: its delete was left out of the plan (kept)`);
    }
  }
  // Deletes needing a kept delete are kept too, until nothing changes.
  for (let changed = removed.size > 0; changed; ) {
    changed = false;
    for (const d of drafts) {
      if (d.action !== 'delete' || removed.has(d.address)) continue;
      const blocker = d.needs.map(parseNeed).find((n) => (n.action === undefined || n.action === 'delete') && removed.has(n.address));
      if (blocker) {
        removed.set(d.address, `${d.address} was kept: deleting it would also delete the protected ${blocker.address}`);
        changed = true;
      }
    }
  }
  const violations: SafetyViolation[] = [...removed.entries()]
    .sort((a, b) => compareAddresses(a[0], b[0]))
    .map(([address, message]) => ({ rule: 'protect', message: `${org}: ${message}`, steps: [stepId(org, address, 'delete')] }));
  // A kept delete that another step waits for (a rename onto a pruned team's title, a site space
  // taking a pruned one's path, a structure sort that counts on a group's sections at the top level):
  // that step would collide with what stays, or find it otherwise than planned.
  const problems: PlanProblem[] = [];
  const reported = new Set<string>();
  for (const d of drafts) {
    if (d.action === 'delete' || reported.has(d.address)) continue;
    const needed = d.needs.map(parseNeed).filter((n) => n.action === undefined || n.action === 'delete').map((n) => n.address);
    const blocker = [d.address, ...needed].find((address) => removed.has(address));
    if (blocker === undefined) continue;
    reported.add(d.address);
    problems.push({
      org,
      address: d.address,
      message: `needs ${blocker} deleted first, but that one is protected and stays: remove the protect entry, or change the config so that it need not go`,
    });
  }
  // A kept resource whose address the plan changes (a parent renamed): the next plan would no longer
  // find it protected, and would delete it.
  for (const d of drafts) {
    if (d.action !== 'delete' || d.keptAs === undefined || !removed.has(d.address)) continue;
    if (patterns.some((p) => patternMatches(p, org, d.keptAs as string))) continue;
    problems.push({
      org,
      address: d.address,
      message: `is kept (protect), but this plan renames or moves what holds it: it becomes ${d.keptAs}, which protect does not name, so the next plan would delete it; protect ${d.keptAs} too, or add it to the config`,
    });
  }
  return { kept: drafts.filter((d) => !(d.action === 'delete' && removed.has(d.address))), violations, problems };
}

/**
 * The address a delete at `KEY#ID` has without its id (a remote resource that shares its key with
 * another, or whose path a resource elsewhere takes): a pattern naming the key protects it too.
 */
function withoutId(d: DraftStep): string[] {
  const end = `#${d.remoteId}"]`;
  return d.remoteId !== undefined && d.address.endsWith(end) ? [`${d.address.slice(0, -end.length)}"]`] : [];
}

function toSteps(org: string, drafts: DraftStep[]): Step[] {
  const steps: Step[] = drafts.map((d) => ({
    id: stepId(org, d.address, d.action),
    org,
    address: d.address,
    kind: d.kind,
    action: d.action,
    before: d.before,
    after: d.after,
    changes: d.changes,
    requests: d.requests,
    dependsOn: [],
    ...(d.remoteId === undefined ? {} : { remoteId: d.remoteId }),
    ...(d.notes && d.notes.length > 0 ? { notes: d.notes } : {}),
  }));
  const seen = new Set<string>();
  for (const s of steps) {
    if (seen.has(s.id)) throw new BugError(`two steps of the plan have the id ${s.id}`);
    seen.add(s.id);
  }
  const byAddress = new Map<string, Step[]>();
  for (const s of steps) byAddress.set(s.address, [...(byAddress.get(s.address) ?? []), s]);
  drafts.forEach((d, i) => {
    const step = steps[i];
    const deps = new Set<string>();
    for (const need of d.needs) {
      const { address, action } = parseNeed(need);
      for (const t of byAddress.get(address) ?? []) if (t !== step && (action === undefined || t.action === action)) deps.add(t.id);
    }
    // The old occupant of an address goes before what takes its place (a pruned team whose title a
    // renamed team takes), so that titles and paths stay unique at every moment.
    if (step.action !== 'delete') for (const t of byAddress.get(step.address) ?? []) if (t.action === 'delete') deps.add(t.id);
    step.dependsOn = [...deps].sort();
  });
  return steps;
}

/** The steps at the targeted addresses plus, transitively, every step they depend on. */
/** A cycle among the steps left when no step is ready, for the error message. */
function findCycle(left: Map<string, Node>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  // A depth-first walk with its own stack (a chain of steps as long as the config would overflow the call stack).
  for (const start of [...left.keys()].sort()) {
    if (state.has(start)) continue;
    const path: string[] = [start];
    const next: number[] = [0];
    state.set(start, 'open');
    while (path.length > 0) {
      const id = path[path.length - 1];
      const deps = left.get(id)?.step.dependsOn ?? [];
      const i = next[next.length - 1]++;
      if (i >= deps.length) {
        path.pop();
        next.pop();
        state.set(id, 'done');
        continue;
      }
      const dep = deps[i];
      if (!left.has(dep)) continue;
      if (state.get(dep) === 'open') return [...path.slice(path.indexOf(dep)), dep];
      if (!state.has(dep)) {
        state.set(dep, 'open');
        path.push(dep);
        next.push(0);
      }
    }
  }
  return [...left.keys()].sort();
}

/** Topological order with the (rank, address, action) tie-break; a cycle is a BugError naming its steps. */
function order(nodes: Node[]): Step[] {
  const byId = new Map(nodes.map((n) => [n.step.id, n]));
  const waiting = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const n of nodes) {
    const deps = n.step.dependsOn.filter((d) => byId.has(d));
    waiting.set(n.step.id, deps.length);
    for (const d of deps) {
      const list = dependents.get(d);
      if (list) list.push(n.step.id);
      else dependents.set(d, [n.step.id]);
    }
  }
  const ready = priorityQueue<Node>((a, b) => compareNodes(a, b) < 0);
  for (const n of nodes) if (waiting.get(n.step.id) === 0) ready.push(n);
  const out: Step[] = [];
  while (ready.size > 0) {
    const n = ready.pop() as Node;
    out.push(n.step);
    for (const d of dependents.get(n.step.id) ?? []) {
      const w = (waiting.get(d) as number) - 1;
      waiting.set(d, w);
      if (w === 0) ready.push(byId.get(d) as Node);
    }
  }
  if (out.length < nodes.length) {
    const done = new Set(out.map((s) => s.id));
    const left = new Map(nodes.filter((n) => !done.has(n.step.id)).map((n) => [n.step.id, n]));
    throw new BugError(`the plan's steps depend on each other in a cycle: ${findCycle(left).join(' → ')}`);
  }
  return out;
}

function thresholdViolations(org: OrgDraft, steps: Step[]): SafetyViolation[] {
  const out: SafetyViolation[] = [];
  const deletes = steps.filter((s) => s.org === org.org && s.action === 'delete');
  if (deletes.length > org.safety.maxDeletes) {
    out.push({
      rule: 'maxDeletes',
      message: `${org.org}: ${deletes.length} deletes exceed safety.maxDeletes (${org.safety.maxDeletes})`,
      steps: deletes.map((s) => s.id),
    });
  }
  for (const spec of KIND_SPECS) {
    const ofKind = deletes.filter((s) => s.kind === spec.kind);
    if (spec.deleteNeedsForce === undefined || ofKind.length === 0) continue;
    out.push({
      rule: 'needsForce',
      message: `${org.org}: deleting ${ofKind.map((s) => s.address).join(', ')} needs --force (${spec.deleteNeedsForce})`,
      steps: ofKind.map((s) => s.id),
    });
  }
  for (const kind of KINDS) {
    const kp = org.kinds[kind];
    if (!kp || kp.remoteCount < 10) continue;
    const ofKind = deletes.filter((s) => s.kind === kind);
    const percent = (ofKind.length / kp.remoteCount) * 100;
    if (percent > org.safety.maxDeletePercent) {
      out.push({
        rule: 'maxDeletePercent',
        message: `${org.org}: ${ofKind.length} of ${kp.remoteCount} ${kind} (${Math.round(percent)}%) would be deleted, above safety.maxDeletePercent (${org.safety.maxDeletePercent}%)`,
        steps: ofKind.map((s) => s.id),
      });
    }
  }
  return out;
}

function summarize(steps: Step[], unmanaged: Plan['unmanaged']): PlanSummary {
  const summary: PlanSummary = { create: 0, update: 0, delete: 0, other: 0, unmanaged: 0 };
  for (const s of steps) {
    if (s.action === 'create' || s.action === 'update' || s.action === 'delete') summary[s.action]++;
    else summary.other++;
  }
  for (const perKind of Object.values(unmanaged)) for (const list of Object.values(perKind)) summary.unmanaged += list?.length ?? 0;
  return summary;
}

/** The pictures of the sites the plan's steps touch (a `--target` plan draws only what it selects). */
function picturesOf(pictures: PlanPicture[], steps: readonly Step[]): { pictures?: PlanPicture[] } {
  const kept = pictures.filter((p) => {
    const site = parsePattern(p.address);
    return steps.some((s) => s.org === p.org && patternMatches(site, s.org, s.address));
  });
  return kept.length > 0 ? { pictures: kept } : {};
}

/** The access results of the objects whose grants the plan's steps change (a `--target` plan keeps what it selects). */
function accessOf(results: PlanAccessResult[], steps: readonly Step[]): { access?: PlanAccessResult[] } {
  const kept = results.filter((r) => steps.some((s) => s.org === r.org && isUnder(s.address, `${r.address}.access`)));
  return kept.length > 0 ? { access: kept } : {};
}

export function buildPlan(input: BuildPlanInput): Plan {
  const orgs = [...input.orgs].sort((a, b) => compareStrings(a.org, b.org));
  const violations: SafetyViolation[] = [];
  const problems: PlanProblem[] = [];
  const notes: string[] = [];
  const duplicates: string[] = [];
  const pictures: PlanPicture[] = [];
  const access: PlanAccessResult[] = [];
  const unmanaged: Plan['unmanaged'] = {};
  const fingerprintsByOrg = new Map<string, Record<string, string>>();
  const observed: Record<string, JsonObject> = {};
  let steps: Step[] = [];

  orgs.forEach((o) => {
    const drafts: DraftStep[] = [];
    const fingerprints: Record<string, string> = {};
    const counts: Partial<Record<Kind, string[]>> = {};
    for (const kind of KINDS) {
      const kp = o.kinds[kind];
      if (!kp) continue;
      // Loops, not push(...list): an argument list as long as the config overflows the stack.
      for (const d of kp.steps) drafts.push(d);
      for (const p of kp.problems) problems.push(p);
      for (const n of kp.notes ?? []) notes.push(`${o.org}: ${n}`);
      for (const d of kp.duplicates ?? []) duplicates.push(`${o.org}/${d}`);
      for (const p of kp.pictures ?? []) pictures.push({ org: o.org, ...p });
      for (const a of kp.access ?? []) access.push({ org: o.org, ...a });
      for (const [address, hash] of Object.entries(kp.fingerprints)) if (!(address in fingerprints)) fingerprints[address] = hash;
      for (const [address, fields] of Object.entries(kp.observed ?? {})) observed[`${o.org}/${address}`] = { ...observed[`${o.org}/${address}`], ...fields };
      if (kp.unmanaged.length > 0) counts[kind] = [...kp.unmanaged].sort(compareAddresses);
    }
    for (const p of o.problems ?? []) problems.push(p);
    for (const n of o.notes ?? []) notes.push(`${o.org}: ${n}`);
    unmanaged[o.org] = counts;
    fingerprintsByOrg.set(o.org, fingerprints);
    const protectedOut = applyProtect(o.org, drafts, o.protect);
    for (const v of protectedOut.violations) violations.push(v);
    for (const p of protectedOut.problems) problems.push(p);
    for (const s of toSteps(o.org, protectedOut.kept)) steps.push(s);
  });

  if (input.targets && input.targets.length > 0) steps = selectTargets(steps, input.targets);

  const orgIndex = new Map(orgs.map((o, i) => [o.org, i]));
  steps = order(steps.map((step) => ({ step, orgIndex: orgIndex.get(step.org) as number, rank: rank(step.action, step.kind) })));

  for (const o of orgs) for (const v of thresholdViolations(o, steps)) violations.push(v);

  const fingerprints: Record<string, string> = {};
  for (const s of steps) {
    const hash = fingerprintsByOrg.get(s.org)?.[s.address];
    if (hash !== undefined) fingerprints[`${s.org}/${s.address}`] = hash;
  }

  return {
    formatVersion: 1,
    toolVersion: input.toolVersion,
    createdAt: input.createdAt,
    configHash: input.configHash,
    configPaths: [...input.configPaths],
    orgs: orgs.map((o) => o.org),
    steps,
    unmanaged,
    violations,
    problems: problems.sort((a, b) => compareStrings(a.org, b.org) || compareAddresses(a.address, b.address) || compareStrings(a.message, b.message)),
    fingerprints,
    summary: summarize(steps, unmanaged),
    ...(notes.length > 0 ? { notes } : {}),
    ...(duplicates.length > 0 ? { duplicates: [...new Set(duplicates)].sort(compareAddresses) } : {}),
    ...picturesOf(pictures, steps),
    ...accessOf(access, steps),
    ...(Object.keys(observed).length > 0 ? { observed } : {}),
  };
}

