/**
 * Planning: read the current state of every organization the config names (all organizations at
 * once, every kind's read at once; the client bounds requests in flight), let each kind turn desired
 * + current into draft steps, and build the plan.
 */
import type { ApiClient } from '../api/types.js';
import type { DeferredCheck, LoadedConfig, OrgConfig } from '../config/types.js';
import { ApiError, BugError, DocplaneError } from '../core/errors.js';
import type { Secret } from '../core/secrets.js';
import { didYouMean, suggest } from '../core/text.js';
import { addressProblem, KIND_SPECS, kindSpec, readOrganization, REPLACEABLE, unitOf } from '../kinds/index.js';
import { readContextFor, sharedPlans, sharedReads, type KindPlan, type KindSpec, type KindUnit, type PlanContext, type ReadContext, type Reader } from '../kinds/kind.js';
import { isQualified, matchesAny, parsePattern, patternMatches, topLevelName } from '../model/address.js';
import { buildPlan, type OrgDraft } from './build.js';
import { createNarrowing, unitOfModule } from './narrow.js';
import { readOnce } from './reads.js';
import type { Kind, Plan, PlanProblem } from './types.js';

export interface PlanOptions {
  toolVersion: string;
  /** `--target`: addresses, globs or prefixes (optionally `ORG/`-qualified). */
  targets?: string[];
  /**
   * A target that names nothing the config defines and no step: an error (`docplane plan`: the user
   * mistyped it), or a note (the default: apply's re-plan of what it touched names deleted resources).
   */
  unmatchedTargets?: 'error' | 'note';
  /** `--replace`: resources of the replaceable kinds to publish or update even when nothing comparable differs. */
  replace?: string[];
  /** The plan's `createdAt` (tests fix it). */
  now?: Date;
  /**
   * A check of known steps (apply's staleness and convergence checks): the kinds of its steps. Only
   * these kinds are read at the targets, and not what the steps depend on (src/plan/narrow.ts).
   */
  checkKinds?: readonly Kind[];
  /** The kinds to plan; every registered kind by default. */
  modules?: readonly KindSpec[];
  /**
   * `plan --base`: the base the targets were drawn from (src/plan/base.ts). The plan reads only
   * what the targets need, even none; a target that selects no step is no news (a removed entry
   * left unmanaged); the plan counts the entries it did not read.
   */
  base?: { from: string; whole?: string };
  /**
   * `plan --since`: the window's start (src/drift/read.ts drew the targets from the audit log), or why
   * everything is read; as with `base`, the plan reads only what the targets need, even none.
   */
  since?: { from: string; whole?: string };
}

/** Addresses `--replace` can name: of the kinds whose resources it can force. */
const REPLACEABLE_LABELS = KIND_SPECS.filter((k) => k.replaceable)
  .map((k) => k.label.one)
  .sort((a, b) => a.localeCompare(b))
  .join(' or ');
/** Whether a pattern starts with a replaceable kind's name and one of its keys. */
function namesReplaceable(pattern: string): boolean {
  const [first, second] = parsePattern(pattern).segments;
  return first !== undefined && 'name' in first && (REPLACEABLE as readonly string[]).includes(first.name) && second !== undefined && 'key' in second;
}

function mergeKindPlans(a: KindPlan, b: KindPlan): KindPlan {
  return {
    steps: [...a.steps, ...b.steps],
    unmanaged: [...a.unmanaged, ...b.unmanaged],
    remoteCount: a.remoteCount + b.remoteCount,
    problems: [...a.problems, ...b.problems],
    fingerprints: { ...a.fingerprints, ...b.fingerprints },
    notes: [...(a.notes ?? []), ...(b.notes ?? [])],
    duplicates: [...(a.duplicates ?? []), ...(b.duplicates ?? [])],
    pictures: [...(a.pictures ?? []), ...(b.pictures ?? [])],
    access: [...(a.access ?? []), ...(b.access ?? [])],
    observed: { ...a.observed, ...b.observed },
  };
}

/**
 * The shared reads of one organization, remembering what each key loaded: a reference that names
 * nothing is then told the closest name among what was read anyway (no request is added for it).
 */
function recordingReads(): { shared: ReadContext['shared']; loaded: Map<string, unknown> } {
  const inner = sharedReads();
  const loaded = new Map<string, unknown>();
  const shared = <T>(key: string, load: () => Promise<T>): Promise<T> =>
    inner(key, async () => {
      const value = await load();
      loaded.set(key, value);
      return value;
    });
  return { shared, loaded };
}

/** The names among the remote resources read under `key`: the string fields of each listed object and of the objects in it (a member's `user.email`). */
function namesRead(loaded: ReadonlyMap<string, unknown>, key: string): string[] {
  const value = loaded.get(key);
  if (!Array.isArray(value)) return [];
  const names = new Set<string>();
  const add = (item: unknown, depth: number): void => {
    if (!item || typeof item !== 'object') return;
    for (const field of Object.values(item as Record<string, unknown>)) {
      if (typeof field === 'string' && field.length <= 64) names.add(field);
      else if (depth === 0 && field && typeof field === 'object' && !Array.isArray(field)) add(field, 1);
    }
  };
  for (const item of value) add(item, 0);
  return [...names];
}

/** The deferred check a problem is about, when it names one: the same resource, field and name. */
function deferredOf(problem: PlanProblem, deferred: readonly DeferredCheck[]): DeferredCheck | undefined {
  const about = problem.reference;
  if (about === undefined) return undefined;
  return deferred.find((d) => d.from === problem.address && d.field === about.field && d.key === about.key);
}

/**
 * A problem as a config error reads: where in the config (the field's position for a reference the
 * loader left to the planner, else the resource's), the field, and the closest name that exists.
 */
function locateProblem(about: PlanProblem, desired: OrgConfig, loaded: ReadonlyMap<string, unknown>): PlanProblem {
  // The reference is what the problem is matched by; a plan carries the field and place instead.
  const { reference: _, ...problem } = about;
  if (problem.location) return problem;
  const check = deferredOf(about, desired.deferred ?? []);
  if (check) {
    const rest = problem.message.startsWith(`${check.field} `) ? problem.message.slice(check.field.length + 1) : problem.message;
    const names = [...namesRead(loaded, check.kind), ...(check.near === undefined ? [] : [check.near])];
    const hint = rest.includes('did you mean') ? '' : didYouMean(check.key, names.filter((n) => n !== check.key));
    const location = check.location ?? desired.locations[problem.address];
    return { ...problem, message: `${rest}${hint}`, field: check.field, ...(location ? { location } : {}) };
  }
  const location = desired.locations[problem.address];
  return location ? { ...problem, location } : problem;
}

/**
 * The references by id to what the config does not list (a site section's `space: space_xyz`, an
 * installation's site), checked against the organization's list of the target's unit (a shared read:
 * nothing more when a kind reads that list anyway, nothing at all when every id is the config's). One
 * that names nothing is a problem at its place, with the closest id among the config's and the
 * organization's, so that apply never sends it.
 */
async function idReferenceProblems(desired: OrgConfig, ctx: Reader, wanted: (check: DeferredCheck) => boolean = () => true): Promise<PlanProblem[]> {
  const checks = (desired.deferred ?? []).filter((d) => d.byId === true && wanted(d));
  if (checks.length === 0) return [];
  const kinds = [...new Set(checks.map((c) => c.kind))];
  const lists = new Map(
    await Promise.all(
      kinds.map(async (kind) => {
        const existing = unitOf(kind)?.existing;
        if (existing === undefined) throw new BugError(`a reference names ${kind} by id, and its unit lists no existing ids`);
        return [kind, await existing(ctx)] as const;
      }),
    ),
  );
  const org = desired.organization.id;
  const problems: PlanProblem[] = [];
  for (const check of checks) {
    const list = lists.get(check.kind) ?? [];
    if (list.some((r) => r.id === check.key)) continue;
    const noun = kindSpec(check.kind)?.label.one ?? check.kind;
    const titled = list.find((r) => r.title === check.key);
    const near = suggest(check.key, [...list.map((r) => r.id), ...(check.near === undefined ? [] : [check.near])]);
    const nearTitle = list.find((r) => r.id === near)?.title;
    const hint = titled
      ? ` — it is the title of ${noun} ${titled.id}; name it by id`
      : near === undefined
        ? ''
        : ` — did you mean "${near}"${nearTitle ? ` (${nearTitle})` : ''}?`;
    problems.push({
      org,
      address: check.from,
      field: check.field,
      message: `"${check.key}" names no ${noun}, neither in the config nor in organization ${org}${hint}`,
      ...(check.location ? { location: check.location } : desired.locations[check.from] ? { location: desired.locations[check.from] } : {}),
    });
  }
  return problems;
}

/** Refuses an organization that does not exist (or that the token cannot see), naming it and where the config names it. */
function missingOrganization(desired: OrgConfig, err: ApiError): DocplaneError {
  const org = desired.organization.id;
  const at = desired.locations.organization;
  const where = at ? ` (${at.file}:${at.line}:${at.column})` : '';
  return new DocplaneError('ORG_NOT_FOUND', `organization ${org}${where} does not exist, or the token cannot see it: ${err.method} ${err.path} → ${err.status}`, {
    hint: 'Check organization.id in the config, and that the token belongs to a member of that organization.',
    cause: err,
  });
}

/** Rounds of widening a targeted plan's reads at most (each round adds what the last one's steps need). */
const MAX_NARROW_ROUNDS = 8;

/**
 * A targeted organization's plan: only the units and entries the targets and their dependencies
 * need are read (src/plan/narrow.ts); what the kinds say under anything not read is left out.
 */
async function planOrgNarrowed(desired: OrgConfig, client: ApiClient, modules: readonly KindSpec[], replace: readonly string[], targets: readonly string[], checkKinds?: readonly Kind[]): Promise<PlannedOrg> {
  const org = desired.organization.id;
  const narrowing = createNarrowing(desired, targets, checkKinds);
  const pruned = new Set<string>(desired.prune);
  /** Per module: the read made and the scope of its unit it was made for. */
  const cache = new Map<KindSpec, { signature: string; remote: Promise<unknown> }>();
  const signature = (unit: KindUnit | undefined): string => {
    const read = unit ? narrowing.scope.get(unit) : 'all';
    const entries = read === undefined ? 'none' : read === 'all' ? 'all' : [...read].sort((a, b) => a - b).join(',');
    const kinds = narrowing.kindsOf(unit);
    return kinds === undefined ? entries : `${entries} of ${[...kinds].sort().join(',')}`;
  };
  for (let round = 1; ; round++) {
    const shared = sharedReads();
    const chosen = modules.filter((m) => {
      const unit = unitOfModule(m);
      const kinds = narrowing.kindsOf(unit);
      return (unit === undefined || narrowing.scope.has(unit)) && (kinds === undefined || kinds.has(m.kind));
    });
    const remotes = await Promise.all(
      chosen.map((m) => {
        const unit = unitOfModule(m);
        const sig = signature(unit);
        const hit = cache.get(m);
        if (hit && hit.signature === sig) return hit.remote;
        const remote = m.read(readContextFor(unit ? narrowing.readView(unit) : desired, client, shared, narrowing.kindsOf(unit)));
        cache.set(m, { signature: sig, remote });
        return remote;
      }),
    );
    const planCtx: PlanContext = { org, desired, prunes: (kind) => pruned.has(kind), replace, shared: sharedPlans() };
    const kinds: Record<Kind, KindPlan> = {};
    chosen.forEach((m, i) => {
      const read = keepRead(m.plan(planCtx, remotes[i]), narrowing.isRead);
      // Problems say where the config names what they are about, as in a whole plan.
      const kp = read.problems.length > 0 ? { ...read, problems: read.problems.map((p) => locateProblem(p, desired, new Map())) } : read;
      const prev = kinds[m.kind];
      kinds[m.kind] = prev ? mergeKindPlans(prev, kp) : kp;
    });
    const drafts = Object.values(kinds).flatMap((kp) => kp.steps);
    if (round >= MAX_NARROW_ROUNDS || !narrowing.widenForNeeds(drafts)) {
      // A check of known steps (checkKinds) re-plans what a plan already checked: its ids are not read again.
      const problems = checkKinds === undefined ? await idReferenceProblems(desired, readContextFor(desired, client, shared), (c) => narrowing.isRead(c.from)) : [];
      return { draft: { org, kinds, safety: desired.safety, protect: desired.protect, ...(problems.length > 0 ? { problems } : {}) }, unread: narrowing.unread() };
    }
  }
}

/** A kind's plan without what it says under addresses whose reads were not made. */
function keepRead(kp: KindPlan, isRead: (address: string) => boolean): KindPlan {
  return {
    ...kp,
    steps: kp.steps.filter((s) => isRead(s.address)),
    problems: kp.problems.filter((p) => isRead(p.address)),
    fingerprints: Object.fromEntries(Object.entries(kp.fingerprints).filter(([address]) => isRead(address))),
  };
}

/** One organization's drafts, and how many of its config's entries were not read. */
interface PlannedOrg {
  draft: OrgDraft;
  unread: number;
}

async function planOrg(desired: OrgConfig, client: ApiClient, modules: readonly KindSpec[], replace: readonly string[], targets: readonly string[] | undefined, checkKinds?: readonly Kind[]): Promise<PlannedOrg> {
  if (targets !== undefined) return planOrgNarrowed(desired, client, modules, replace, targets, checkKinds);
  const org = desired.organization.id;
  // Reads shared between kinds (the teams list, the members list, …) run once per organization.
  const { shared, loaded } = recordingReads();
  const readCtx = readContextFor(desired, client, shared);
  // The organization itself, read beside the kinds' reads (and shared with the organization kind's
  // own read, so no request is added when it is read anyway): a config that names an organization
  // that exists nowhere must not plan "No changes".
  const exists = readOrganization(readCtx);
  const reads = Promise.all(modules.map((m) => m.read(readCtx)));
  reads.catch(() => undefined);
  const idChecks = checkKinds === undefined ? idReferenceProblems(desired, readCtx) : Promise.resolve([]);
  idChecks.catch(() => undefined);
  try {
    await exists;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 403)) throw missingOrganization(desired, err);
    throw err;
  }
  const remotes = await reads;
  const problems = await idChecks;

  const pruned = new Set<string>(desired.prune);
  const planCtx: PlanContext = { org, desired, prunes: (kind) => pruned.has(kind), replace, shared: sharedPlans() };
  const kinds: Record<Kind, KindPlan> = {};
  modules.forEach((m, i) => {
    const planned = m.plan(planCtx, remotes[i]);
    const kp = planned.problems.length > 0 ? { ...planned, problems: planned.problems.map((p) => locateProblem(p, desired, loaded)) } : planned;
    const prev = kinds[m.kind];
    kinds[m.kind] = prev ? mergeKindPlans(prev, kp) : kp;
  });
  const notes = protectSelectingNothing(desired, kinds);
  return {
    draft: { org, kinds, safety: desired.safety, protect: desired.protect, ...(notes.length > 0 ? { notes } : {}), ...(problems.length > 0 ? { problems } : {}) },
    unread: 0,
  };
}

/**
 * The protect entries of a whole plan that select nothing: no address the config defines, and none
 * of the organization's resources as the plan leaves them (a step's, or an unmanaged one's). A
 * mistyped entry protects nothing, and the resource it meant could be deleted without a word: the
 * plan says so. It is a note, not a problem: an entry may protect what does not exist yet. Only
 * entries for a top-level resource of a kind the config names are judged: the plan read all of
 * those, and may not have read what lies elsewhere (a kind the config leaves out, a team's members).
 */
function protectSelectingNothing(desired: OrgConfig, kinds: Record<Kind, KindPlan>): string[] {
  if (desired.protect.length === 0) return [];
  const org = desired.organization.id;
  const read = desired as unknown as Record<string, unknown>;
  const judged = desired.protect.filter((entry) => {
    // An entry for a resource of the organization's top level (`teams["Red"]`, `teams["Re*"]`,
    // `ORG/collections["A/B"]`, `organization`): every top-level kind the config names is read whole;
    // what lies under a resource (its members, access, a site's parts) is read only where the config
    // manages it.
    const name = topLevelName(entry);
    return name !== undefined && read[name] !== undefined;
  });
  if (judged.length === 0) return [];
  const addresses = ['organization', ...Object.keys(desired.locations)];
  for (const kp of Object.values(kinds)) {
    for (const s of kp.steps) addresses.push(s.address);
    for (const u of kp.unmanaged) addresses.push(u);
  }
  return judged
    .filter((entry) => {
      const pattern = parsePattern(entry);
      return !addresses.some((address) => patternMatches(pattern, org, address));
    })
    .map((entry) => `protect ${entry} selects nothing: no address of the config, and no resource of the organization as this plan leaves it; a mistyped entry protects nothing`);
}

/**
 * Whether a target selects one of `entries`, as matchesAny says, answered for a target without a
 * glob by a lookup: such a target selects an address equal to it or going on after it with `.` or
 * `[`, so every address's prefixes ending there are indexed once. The convergence check of an apply
 * targets every address it applied (thousands), each against every step: compared one by one, with
 * a pattern compiled per comparison, that was minutes at 5,000 steps.
 */
function targetIndex(entries: readonly { org: string; address: string }[]): (target: string) => boolean {
  const anyOrg = new Set<string>();
  const inOrg = new Set<string>();
  for (const { org, address } of entries) {
    for (let i = 1; i <= address.length; i++) {
      if (i < address.length && address[i] !== '.' && address[i] !== '[') continue;
      const prefix = address.slice(0, i);
      anyOrg.add(prefix);
      inOrg.add(`${org}/${prefix}`);
    }
  }
  return (target) => {
    if (target.includes('*')) {
      const pattern = parsePattern(target);
      return entries.some((e) => patternMatches(pattern, e.org, e.address));
    }
    return isQualified(target) ? inOrg.has(target) : anyOrg.has(target);
  };
}

/** Config addresses that `--replace` may name: the resources of the replaceable kinds in each organization. */
function replaceProblems(config: LoadedConfig, replace: readonly string[]): PlanProblem[] {
  const problems: PlanProblem[] = [];
  for (const pattern of replace) {
    const known = config.orgs.some((o) =>
      KIND_SPECS.filter((k) => k.replaceable).some((k) => (k.addresses?.(o) ?? []).some((a) => matchesAny([pattern], o.organization.id, a))),
    );
    if (!known || !namesReplaceable(pattern)) {
      problems.push({
        org: config.orgs[0]?.organization.id ?? '',
        address: pattern,
        message: `--replace ${pattern} names no ${REPLACEABLE_LABELS} of the config (only those can be forced)`,
      });
    }
  }
  return problems;
}

/**
 * The secrets of a run: the config's, and the values the reads found to be credentials (the client's
 * `concealed`). Taken after the plan is made: what it read is known only then.
 */
export function runSecrets(config: Pick<LoadedConfig, 'secrets'>, client: ApiClient): Secret[] {
  const found = client.concealed?.() ?? [];
  return found.length === 0 ? config.secrets : [...config.secrets, ...found];
}

export async function planOrgs(config: LoadedConfig, client: ApiClient, options: PlanOptions): Promise<Plan> {
  // A malformed --target or --replace would select nothing and read as "no changes": refuse it first.
  for (const [flag, patterns] of [['--target', options.targets ?? []], ['--replace', options.replace ?? []]] as const) {
    for (const pattern of patterns) {
      const problem = addressProblem(pattern);
      if (problem) throw new DocplaneError('BAD_ADDRESS', `${flag} ${pattern}: ${problem}`, { hint: 'Addresses look like teams["Engineering"] or sites["site_docs"].sections["guides"]; quote them in the shell.' });
    }
  }
  const modules = options.modules ?? KIND_SPECS;
  const replace = options.replace ?? [];
  // A plan is narrowed by its targets; a pull request's plan (--base) even when they are none.
  const base = options.base;
  const partial = base ?? options.since;
  const narrowTo = partial !== undefined && partial.whole === undefined ? (options.targets ?? []) : options.targets?.length ? options.targets : undefined;
  // Every GET of this plan is sent once (src/plan/reads.ts): the narrowing's rounds, the kinds and the
  // reference checks share the answers.
  const reads = readOnce(client).client;
  const planned = await Promise.all(config.orgs.map((o) => planOrg(o, reads, modules, replace, narrowTo, options.checkKinds)));
  const orgs = planned.map((p) => p.draft);
  const extra = replaceProblems(config, replace);
  if (extra.length > 0 && orgs.length > 0) orgs[0] = { ...orgs[0], problems: [...(orgs[0].problems ?? []), ...extra] };
  const built = buildPlan({
    toolVersion: options.toolVersion,
    createdAt: (options.now ?? new Date()).toISOString(),
    configHash: config.hash,
    configPaths: config.files,
    orgs,
    targets: options.targets,
  });
  // A saved plan keeps its --replace: apply PLANFILE plans again with it.
  const plan = replace.length > 0 ? { ...built, replace: [...replace] } : built;
  const targets = options.targets ?? [];
  if (base !== undefined) {
    const unread = planned.reduce((n, p) => n + p.unread, 0);
    return { ...plan, ...(narrowTo !== undefined ? { targets: [...targets] } : {}), base: { from: base.from, ...(base.whole !== undefined ? { whole: base.whole } : { unread }) } };
  }
  const since = options.since;
  if (since !== undefined) {
    const unread = planned.reduce((n, p) => n + p.unread, 0);
    return { ...plan, ...(narrowTo !== undefined ? { targets: [...targets] } : {}), since: { from: since.from, ...(since.whole !== undefined ? { whole: since.whole } : { unread }) } };
  }
  if (targets.length === 0) return plan;
  const selectsStep = targetIndex(plan.steps);
  const unmatched = targets.filter((t) => !selectsStep(t));
  // A target that names nothing the config defines (and no step) is a mistake, not a plan of nothing.
  if (unmatched.length === 0) return { ...plan, targets: [...targets] };
  const defined = config.orgs.flatMap((o) => ['organization', ...Object.keys(o.locations)].map((a) => ({ org: o.organization.id, address: a })));
  const selectsDefined = targetIndex(defined);
  const unknown = unmatched.filter((t) => !selectsDefined(t));
  if (unknown.length > 0 && options.unmatchedTargets === 'error') {
    const t = unknown[0];
    const stepAddresses = orgs.flatMap((o) => Object.values(o.kinds).flatMap((k) => k.steps.map((s) => s.address)));
    const known = [...new Set([...defined.map((d) => d.address), ...stepAddresses])];
    throw new DocplaneError('TARGET_UNMATCHED', `--target ${t} matches nothing in the config or the plan${didYouMean(t, known)}`, {
      hint: 'Name an address the config defines, or a prefix or glob of one (docs/config.md, "Addresses"); quote it in the shell.',
    });
  }
  return { ...plan, targets: [...targets], notes: [...(plan.notes ?? []), ...unmatched.map((t) => `--target ${t} selects no step: nothing there would change`)] };
}
