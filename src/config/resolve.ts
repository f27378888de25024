/**
 * From merged documents to OrgConfigs: each kind's unit claims the address of every resource it
 * defines (for duplicates and for `locations`) and checks the cross-references a config can check
 * offline. What the config cannot check (a reference to something the config does not define) is
 * recorded in `deferred` for the planner.
 */
import type { Secret } from '../core/secrets.js';
import { PRUNABLE, UNITS } from '../kinds/index.js';
import type { Identities as KindIdentities, ReferenceCheck, ResolveContext } from '../kinds/kind.js';
import { REFERENCE_TARGETS } from '../kinds/common/references.js';
import { spelledOut, titleSkeleton } from '../kinds/common/text.js';
import { BugError } from '../core/errors.js';
import { suggest } from '../core/text.js';
import { key } from '../model/address.js';
import type { DeferredCheck, OrgConfig, SourceLocation } from '../model/desired.js';
import { child, lazyLocations, locationOf, Problems, where, type Origin } from '../source/origin.js';
import type { LocateMode, RawIssue } from '../source/yaml.js';
import type { OrgDraft } from './merge.js';

/** The addresses of one organization, each with where it was first defined. */
class Registry {
  private readonly places = lazyLocations();
  readonly locations: Record<string, SourceLocation> = this.places.record;
  private readonly seen = new Map<string, { address: string; origin: Origin }>();
  /** Per look of an identity (titleSkeleton): the first claim that looks so. */
  private readonly looks = new Map<string, { identity: string; what: string; origin: Origin }>();

  constructor(
    private readonly problems: Problems,
    /** Warnings: two claims whose keys differ only to the eye. */
    readonly warnings = new Problems(),
  ) {}

  /**
   * Claims a natural key (`identity`, compared as given) for `address`. A second claim is a
   * duplicate, reported at both places, each naming the other. Returns false on a duplicate.
   */
  claim(identity: string, address: string, origin: Origin, what = address): boolean {
    const earlier = this.seen.get(identity);
    if (earlier) {
      this.problems.at(origin, `${what} is defined twice: here and at ${where(earlier.origin)}`);
      this.problems.at(earlier.origin, `${what} is defined twice: here and at ${where(origin)}`);
      return false;
    }
    this.seen.set(identity, { address, origin });
    this.places.add(address, origin, 'value');
    this.compareLook(identity, origin, what);
    return true;
  }

  /**
   * A key that differs from an earlier one of its kind and scope only by invisible or look-alike
   * characters or whitespace (identities start with the kind and scope) is a warning naming both.
   */
  private compareLook(identity: string, origin: Origin, what: string): void {
    const look = titleSkeleton(identity);
    const earlier = this.looks.get(look);
    if (earlier === undefined) {
      this.looks.set(look, { identity, what, origin });
      return;
    }
    if (earlier.identity === identity) return;
    this.warnings.at(
      origin,
      `${spelledOut(what)} looks the same as ${spelledOut(earlier.what)} at ${where(earlier.origin)}: they differ only by invisible or look-alike characters or whitespace; check one is not a copy with a stray character`,
    );
  }

  locate(address: string, origin: Origin, mode: LocateMode = 'value'): void {
    this.places.add(address, origin, mode);
  }

  get(identity: string): { address: string; origin: Origin } | undefined {
    return this.seen.get(identity);
  }

  /** The keys claimed under an identity prefix (`team:`), without it. */
  keys(prefix: string): string[] {
    const out: string[] = [];
    for (const identity of this.seen.keys()) if (identity.startsWith(prefix)) out.push(identity.slice(prefix.length));
    return out;
  }
}

/** Ids and renamedFrom values of one kind within one scope (a site, or the organization). */
class Identities implements KindIdentities {
  private readonly ids = new Map<string, { address: string; origin: Origin }>();
  private readonly renamed = new Map<string, { address: string; origin: Origin }>();

  constructor(
    private readonly problems: Problems,
    /** `teams`, `sites["site_docs"].sections`, … */
    private readonly prefix: string,
    private readonly keyName: string,
  ) {}

  add(own: string, item: { id?: string; renamedFrom?: string }, origin: Origin, keys: ReadonlySet<string>): void {
    const address = `${this.prefix}${key(own)}`;
    if (item.id !== undefined) {
      const earlier = this.ids.get(item.id);
      if (earlier) this.problems.at(child(origin, 'id'), `id "${item.id}" is also given to ${earlier.address} at ${where(earlier.origin)}`);
      else this.ids.set(item.id, { address, origin: child(origin, 'id') });
    }
    const from = item.renamedFrom;
    if (from === undefined) return;
    const at = child(origin, 'renamedFrom');
    if (from === own) {
      this.problems.at(at, `is this resource's own ${this.keyName}; give the ${this.keyName} it had before, or remove renamedFrom`);
    } else if (keys.has(from)) {
      this.problems.at(at, `renamedFrom names ${this.prefix}${key(from)}, which this config also defines; a resource cannot be renamed to two`);
    } else {
      const earlier = this.renamed.get(from);
      if (earlier) this.problems.at(at, `${earlier.address} at ${where(earlier.origin)} is also renamed from "${from}"`);
      else this.renamed.set(from, { address, origin: at });
    }
  }
}

/** Whether the config defines what a reference names. */
function resolves(check: ReferenceCheck, reg: Registry): boolean {
  const target = REFERENCE_TARGETS[check.kind];
  return target !== undefined && reg.get(target.identity(check.key, check.site)) !== undefined;
}

/**
 * One reference, once every unit has claimed what it defines: fine when the config defines the
 * target, an error when the config alone settles it, else left to the plan (OrgConfig.deferred).
 */
function checkReference(check: ReferenceCheck, reg: Registry, problems: Problems, deferred: DeferredCheck[], broken: ReadonlySet<string>, unchecked: ReadonlyMap<string, string>): void {
  const target = REFERENCE_TARGETS[check.kind];
  if (target === undefined) throw new BugError(`a reference names kind ${check.kind}, which has no reference target`);
  if (reg.get(target.identity(check.key, check.site)) !== undefined) return;
  const prefix = target.identity('', check.site);
  // A key built on a part that names nothing carries that typo along: it is not offered.
  const names = reg.keys(prefix).filter((n) => !broken.has(`${prefix}${n}`));
  const near = target.near ? target.near(check.key, names) : suggest(check.key, names);
  const part = near === undefined ? undefined : unchecked.get(`${prefix}${near}`);
  const hint = near === undefined ? '' : ` — did you mean "${near}"?${part === undefined ? '' : ` (its ${part} is not in the config: check it is not the typo)`}`;
  const scope = check.site === undefined ? '' : ` of site ${check.site}`;
  if (check.settled !== undefined) {
    problems.at(check.origin, `${JSON.stringify(check.key)} names no ${target.noun}${scope} in this config: ${check.settled} (${target.naming})${hint}`, check.mode);
    return;
  }
  deferred.push({
    kind: check.kind,
    key: check.key,
    ...(check.site === undefined ? {} : { site: check.site }),
    from: check.from,
    field: check.field,
    location: locationOf(check.origin, check.mode),
    ...(near === undefined ? {} : { near }),
    ...(check.byId ? { byId: true } : {}),
  });
}

export interface ResolveResult {
  org: OrgConfig;
  secrets: Secret[];
  /** Warnings at places of the config: keys that look alike. */
  warnings: RawIssue[];
}

/** The config key whose entries a reference of `kind` names (`sections` are under `sites`). */
function configKeyOf(kind: string): string | undefined {
  return UNITS.find((u) => u.kinds.some((k) => k.kind === kind))?.configKey;
}

/**
 * `leftOut`: top-level keys a document had and the loader left out (they failed their schema, and are
 * reported): a reference to their entries is not checked, so that one mistake is not reported twice.
 */
export function resolveOrg(draft: OrgDraft, problems: Problems, options: { crossReferences: boolean; leftOut?: ReadonlySet<string> }): ResolveResult {
  const reg = new Registry(problems);
  const deferred: DeferredCheck[] = [];
  const secrets: Secret[] = [];
  const references: ReferenceCheck[] = [];
  const ctx: ResolveContext = {
    org: draft.id,
    problems,
    check: options.crossReferences,
    claim: (identity, address, origin, what) => reg.claim(identity, address, origin, what),
    locate: (address, origin, mode) => reg.locate(address, origin, mode),
    identities: (prefix, keyName) => new Identities(problems, prefix, keyName),
    defer: (check) => deferred.push(check),
    reference: (check) => {
      if (options.crossReferences) references.push(check);
    },
    secret: (secret) => secrets.push(secret),
    entries: (configKey) => draft.lists.get(configKey),
    fieldOrigin: (field) => draft.fieldOrigins.get(field),
    organizationOrigin: draft.origin,
    organization: draft.organization,
    prunes: (kind) => draft.prune.has(kind),
  };
  const lists: Record<string, unknown[]> = {};
  for (const unit of UNITS) {
    const entries = unit.list ? draft.lists.get(unit.configKey) : [];
    if (entries === undefined) continue;
    unit.resolve?.(entries, ctx);
    // Lists the config does not have stay absent (not undefined-valued keys), as configs built in code.
    if (unit.list) lists[unit.configKey] = entries.map((i) => i.value);
  }
  const checked = references.filter((check) => !options.leftOut?.has(configKeyOf(check.kind) ?? check.kind));
  const broken = new Set(checked.flatMap((c) => (c.partOf !== undefined && c.settled !== undefined && !resolves(c, reg) ? [c.partOf] : [])));
  // Names built on a part only the plan can check (a collection the config does not list): offered,
  // saying which part is unchecked, since that part may be the typo.
  const unchecked = new Map(checked.flatMap((c) => (c.partOf !== undefined && c.settled === undefined && !resolves(c, reg) ? [[c.partOf, `${REFERENCE_TARGETS[c.kind]?.noun ?? c.kind} ${JSON.stringify(c.key)}`] as const] : [])));
  for (const check of checked) {
    checkReference(check, reg, problems, deferred, broken, unchecked);
  }
  const org: OrgConfig = {
    organization: draft.organization as unknown as OrgConfig['organization'],
    ...lists,
    prune: PRUNABLE.filter((k) => draft.prune.has(k)),
    safety: { ...draft.safety },
    protect: draft.protect.map((p) => p.value),
    locations: reg.locations,
    deferred,
  };
  return { org, secrets, warnings: reg.warnings.issues };
}
