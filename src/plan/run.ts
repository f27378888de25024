/**
 * Planning: read the current state of every organization the config names (all organizations at
 * once, every kind's read at once; the client bounds requests in flight), let each kind turn desired
 * + current into draft steps, and build the plan.
 */
import type { ApiClient } from '../api/types.js';
import type { LoadedConfig, OrgConfig } from '../config/types.js';
import { DocplaneError } from '../core/errors.js';
import { addressProblem, KIND_SPECS, REPLACEABLE } from '../kinds/index.js';
import { readContextFor, sharedPlans, sharedReads, type KindPlan, type KindSpec, type KindUnit, type PlanContext } from '../kinds/kind.js';
import { matchesAny } from '../model/address.js';
import { buildPlan, type OrgDraft } from './build.js';
import { createNarrowing, unitOfModule } from './narrow.js';
import type { Kind, Plan, PlanProblem } from './types.js';

export interface PlanOptions {
  toolVersion: string;
  /** `--target`: addresses, globs or prefixes (optionally `ORG/`-qualified). */
  targets?: string[];
  /** `--replace`: resources of the replaceable kinds to publish or update even when nothing comparable differs. */
  replace?: string[];
  /** The plan's `createdAt` (tests fix it). */
  now?: Date;
  /** The kinds to plan; every registered kind by default. */
  modules?: readonly KindSpec[];
}

/** Addresses `--replace` can name: of the kinds whose resources it can force. */
const REPLACEABLE_LABELS = KIND_SPECS.filter((k) => k.replaceable)
  .map((k) => k.label.one)
  .sort((a, b) => a.localeCompare(b))
  .join(' or ');
const REPLACEABLE_ADDRESS = new RegExp(`^(?:[^[\\]"./]+/)?(?:${REPLACEABLE.join('|')})\\[`);

function mergeKindPlans(a: KindPlan, b: KindPlan): KindPlan {
  return {
    steps: [...a.steps, ...b.steps],
    unmanaged: a.unmanaged + b.unmanaged,
    remoteCount: a.remoteCount + b.remoteCount,
    problems: [...a.problems, ...b.problems],
    fingerprints: { ...a.fingerprints, ...b.fingerprints },
    notes: [...(a.notes ?? []), ...(b.notes ?? [])],
  };
}

/** Rounds of widening a targeted plan's reads at most (each round adds what the last one's steps need). */
const MAX_NARROW_ROUNDS = 8;

/**
 * A targeted organization's plan: only the units and entries the targets and their dependencies
 * need are read (src/plan/narrow.ts); what the kinds say under anything not read is left out.
 */
async function planOrgNarrowed(desired: OrgConfig, client: ApiClient, modules: readonly KindSpec[], replace: readonly string[], targets: readonly string[]): Promise<OrgDraft> {
  const org = desired.organization.id;
  const narrowing = createNarrowing(desired, targets);
  const pruned = new Set<string>(desired.prune);
  /** Per module: the read made and the scope of its unit it was made for. */
  const cache = new Map<KindSpec, { signature: string; remote: Promise<unknown> }>();
  const signature = (unit: KindUnit | undefined): string => {
    const read = unit ? narrowing.scope.get(unit) : 'all';
    return read === undefined ? 'none' : read === 'all' ? 'all' : [...read].sort((a, b) => a - b).join(',');
  };
  for (let round = 1; ; round++) {
    const shared = sharedReads();
    const chosen = modules.filter((m) => {
      const unit = unitOfModule(m);
      return unit === undefined || narrowing.scope.has(unit);
    });
    const remotes = await Promise.all(
      chosen.map((m) => {
        const unit = unitOfModule(m);
        const sig = signature(unit);
        const hit = cache.get(m);
        if (hit && hit.signature === sig) return hit.remote;
        const remote = m.read(readContextFor(unit ? narrowing.readView(unit) : desired, client, shared));
        cache.set(m, { signature: sig, remote });
        return remote;
      }),
    );
    const planCtx: PlanContext = { org, desired, prunes: (kind) => pruned.has(kind), replace, shared: sharedPlans() };
    const kinds: Record<Kind, KindPlan> = {};
    chosen.forEach((m, i) => {
      const kp = keepRead(m.plan(planCtx, remotes[i]), narrowing.isRead);
      const prev = kinds[m.kind];
      kinds[m.kind] = prev ? mergeKindPlans(prev, kp) : kp;
    });
    const drafts = Object.values(kinds).flatMap((kp) => kp.steps);
    if (round >= MAX_NARROW_ROUNDS || !narrowing.widenForNeeds(drafts)) {
      return { org, kinds, safety: desired.safety, protect: desired.protect };
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

async function planOrg(desired: OrgConfig, client: ApiClient, modules: readonly KindSpec[], replace: readonly string[], targets: readonly string[]): Promise<OrgDraft> {
  if (targets.length > 0) return planOrgNarrowed(desired, client, modules, replace, targets);
  const org = desired.organization.id;
  // Reads shared between kinds (the teams list, the members list, …) run once per organization.
  const readCtx = readContextFor(desired, client);
  const remotes = await Promise.all(modules.map((m) => m.read(readCtx)));

  const pruned = new Set<string>(desired.prune);
  const planCtx: PlanContext = { org, desired, prunes: (kind) => pruned.has(kind), replace, shared: sharedPlans() };
  const kinds: Record<Kind, KindPlan> = {};
  modules.forEach((m, i) => {
    const kp = m.plan(planCtx, remotes[i]);
    const prev = kinds[m.kind];
    kinds[m.kind] = prev ? mergeKindPlans(prev, kp) : kp;
  });
  return { org, kinds, safety: desired.safety, protect: desired.protect };
}

/** Config addresses that `--replace` may name: the resources of the replaceable kinds in each organization. */
function replaceProblems(config: LoadedConfig, replace: readonly string[]): PlanProblem[] {
  const problems: PlanProblem[] = [];
  for (const pattern of replace) {
    const known = config.orgs.some((o) =>
      KIND_SPECS.filter((k) => k.replaceable).some((k) => (k.addresses?.(o) ?? []).some((a) => matchesAny([pattern], o.organization.id, a))),
    );
    if (!known || !REPLACEABLE_ADDRESS.test(pattern)) {
      problems.push({
        org: config.orgs[0]?.organization.id ?? '',
        address: pattern,
        message: `--replace ${pattern} names no ${REPLACEABLE_LABELS} of the config (only those can be forced)`,
      });
    }
  }
  return problems;
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
  const orgs = await Promise.all(config.orgs.map((o) => planOrg(o, client, modules, replace, options.targets ?? [])));
  const extra = replaceProblems(config, replace);
  if (extra.length > 0 && orgs.length > 0) orgs[0] = { ...orgs[0], problems: [...(orgs[0].problems ?? []), ...extra] };
  const plan = buildPlan({
    toolVersion: options.toolVersion,
    createdAt: (options.now ?? new Date()).toISOString(),
    configHash: config.hash,
    configPaths: config.files,
    orgs,
    targets: options.targets,
  });
  const unmatched = (options.targets ?? []).filter((t) => !plan.steps.some((s) => matchesAny([t], s.org, s.address)));
  if (unmatched.length === 0) return plan;
  return { ...plan, notes: [...(plan.notes ?? []), ...unmatched.map((t) => `--target ${t} selects no step: nothing there would change`)] };
}
