/**
 * The contract of a kind. A kind is one unit in one folder of src/kinds/, registered in one list
 * (src/kinds/index.ts): its config key and schema, the resources it plans (each with its prune rule,
 * its place in the execution order and its count), the cross-references and secrets the loader checks,
 * the read and the plan, and the conversion of the remote state back to config for import. Every list
 * of kinds elsewhere is derived from the registry.
 */
import type { z } from 'zod';
import type { ApiClient } from '../api/types.js';
import type { Secret } from '../core/secrets.js';
import type { DeferredCheck, OrgConfig } from '../model/desired.js';
import type { SitePicture } from '../model/picture.js';
import type { AccessResult } from '../model/access-result.js';
import type { JsonObject, Kind, PlanProblem, StepBody } from '../model/step.js';
import type { Item, Origin, Problems } from '../source/origin.js';
import type { LocateMode } from '../source/yaml.js';
import type { ImportSink } from './common/import.js';
import type { ReferenceField } from './common/references.js';

export interface ReadContext {
  org: string;
  client: ApiClient;
  desired: OrgConfig;
  /**
   * A read shared between kinds: the first call with a key runs `load`, every later call with the
   * same key gets the same promise (the teams list is read once, whichever kinds need it).
   */
  shared<T>(key: string, load: () => Promise<T>): Promise<T>;
  /**
   * The kinds a check of known steps reads (src/plan/narrow.ts); every kind when absent. A read
   * shared by several kinds reads only the parts of the state these kinds plan from.
   */
  kinds?: ReadonlySet<Kind>;
}

/** A step before the builder has resolved its dependencies. */
export interface DraftStep extends StepBody {
  /**
   * Org-relative addresses this step needs done first; the builder makes it depend on every step at
   * those addresses (a parent's create, a child's delete, …). `ADDRESS:ACTION` names one step only
   * (a parent's delete needs its children's deletes, not a create at the same address). Addresses
   * with no step are ignored.
   */
  needs: string[];
  /**
   * A delete's address after this plan if `protect` leaves it out, where the plan's other steps change
   * it (a parent collection renamed): protect must name that address too, or the next plan deletes it.
   */
  keptAs?: string;
}

export interface KindPlan {
  steps: DraftStep[];
  /**
   * Addresses of the remote resources of this kind that the config does not mention and does not
   * prune (a second resource with the same key as another takes `KEY#ID`).
   */
  unmanaged: string[];
  /** Remote resources of this kind (for maxDeletePercent). */
  remoteCount: number;
  problems: PlanProblem[];
  /** Address → hash of the normalized remote object read for a step (see fingerprintEntries()). */
  fingerprints: Record<string, string>;
  /**
   * Address → the matched remote object as a create's `after` shows it: what a saved plan's create,
   * found done, is held against (src/apply/done.ts). Several kinds may observe parts of one address.
   */
  observed?: Record<string, JsonObject>;
  /** Plan-level notes (what this kind cannot compare, …). */
  notes?: string[];
  /**
   * Addresses (`KEY#ID`) of remote resources that share the natural key of a resource the config
   * manages: twins, as two applies at once can make. Each also has a note saying how to resolve it.
   */
  duplicates?: string[];
  /** Pictures of the structures this kind changes, as they are and as they will be (the sites' sections). */
  pictures?: SitePicture[];
  /** Who can do what after the plan on each object whose access this kind changes. */
  access?: AccessResult[];
}

export interface PlanContext {
  org: string;
  desired: OrgConfig;
  /** Whether the config prunes this kind. */
  prunes(kind: Kind): boolean;
  /** Addresses to update or publish even when nothing comparable differs (`--replace`). */
  replace?: readonly string[];
  /**
   * Work shared between the kinds of one unit within one plan: the first call with a key runs
   * `compute`, later calls get its result (the four site kinds plan each site once).
   */
  shared<T>(key: string, compute: () => T): T;
}

/** One kind of resource the planner plans: what `prune` names, what the plan counts by. */
export interface KindSpec<Remote = unknown> {
  kind: Kind;
  /** Singular and plural, for summaries (`team`, `teams`). */
  label: { one: string; many: string };
  /** Whether `prune` may name it (remote resources the config does not mention are then deleted). */
  prunable?: boolean;
  /**
   * Why a delete of this kind is refused without `--force`, whatever the safety thresholds (a site
   * carries published content); absent for kinds whose deletes only the thresholds limit.
   */
  deleteNeedsForce?: string;
  /** Whether `--replace` may force its resources (their state cannot be read back). */
  replaceable?: boolean;
  /** The addresses of this kind's resources in a config (those `--replace` may name). */
  addresses?(org: OrgConfig): string[];
  /** How many resources of this kind a config manages (`docplane validate`); absent: not counted. */
  count?(org: OrgConfig): number;
  /** Reads the current state for one organization: lists, limit=1000, only what the config needs. */
  read(ctx: ReadContext): Promise<Remote>;
  /** Desired vs current → draft steps. Pure: no I/O, no mutation of its inputs. */
  plan(ctx: PlanContext, remote: Remote): KindPlan;
}

/** What a unit's `resolve` gets from the loader for one organization. */
export interface ResolveContext {
  org: string;
  problems: Problems;
  /** Whether cross-references are checked (when every document could be read; a key that failed its schema is left out). */
  check: boolean;
  /** Claims a natural key for an address: a second claim is a duplicate, reported there. False on a duplicate. */
  claim(identity: string, address: string, origin: Origin, what?: string): boolean;
  /** Records where an address is defined (for plan messages), unless already known. */
  locate(address: string, origin: Origin, mode?: LocateMode): void;
  /** Ids and renamedFrom values within one scope (`teams`, `sites["x"].sections`): duplicates are problems. */
  identities(prefix: string, keyName: string): Identities;
  /** A reference to check against the remote state at plan time. */
  defer(check: DeferredCheck): void;
  /**
   * A reference to another resource (src/kinds/common/references.ts): fine when the config defines
   * the target; else an error at `origin` when `settled` says why the config alone decides (with the
   * config's closest name), else left to the plan (a validate warning). Checked once every unit has
   * resolved, so a reference may name what any unit defines.
   */
  reference(check: ReferenceCheck): void;
  secret(secret: Secret): void;
  /** The entries of another unit's config key (undefined when absent), for cross-references. */
  entries(configKey: string): readonly Item<unknown>[] | undefined;
  /** The organization mapping's field origins (`agentInstructions`, …). */
  fieldOrigin(field: string): Origin | undefined;
  /** The organization mapping's values (`mergeRules`, …), when the loader has them. */
  organization?: Readonly<Record<string, unknown>>;
  /** Where the `organization` mapping is. */
  organizationOrigin: Origin;
  prunes(kind: Kind): boolean;
}

export interface ReferenceCheck {
  /** The kind it names: a key of REFERENCE_TARGETS (`teams`, `members`, `spaces`, `collections`, `sections`). */
  kind: Kind;
  key: string;
  /** For sections: the site they belong to. */
  site?: string;
  /** Address of the resource that holds the reference, and the field. */
  from: string;
  field: string;
  /** Where the reference is written (a mapping key with `mode: 'key'`). */
  origin: Origin;
  mode?: LocateMode;
  /** Why the config alone settles it (`teams are pruned`): then a name the config lacks is an error. */
  settled?: string;
  /**
   * The key is the target's id (a site section's `space: space_xyz`): one the config does not list
   * is checked by the plan against the target unit's `existing` list, and validate says nothing of it.
   */
  byId?: boolean;
  /**
   * The identity of the claim whose key this reference's key is part of (a space's collection, in
   * `space:Collection/Title`): when the reference names nothing, that key is no name to suggest.
   */
  partOf?: string;
}

export interface Identities {
  add(own: string, item: { id?: string; renamedFrom?: string }, origin: Origin, keys: ReadonlySet<string>): void;
}

/** How import writes a unit: read all of it, then write its part of the config document. */
export interface Importer<State = unknown> {
  /** Reads everything of the unit for one organization (shared reads with the other units). */
  read(ctx: ImportReadContext): Promise<State>;
  /** Read before the other units: its failure says the organization cannot be reached at all. */
  first?: boolean;
  /** Ids asked for (`--site`) that the organization does not have. */
  notFound?(state: State): string[];
  /** The value written under the unit's config key (undefined: nothing written), and its warnings, files, counts. */
  write(state: State, sink: ImportSink): unknown;
}

/** What a read needs: the organization, the client and the shared reads (plans and imports both have it). */
export type Reader = Pick<ReadContext, 'org' | 'client' | 'shared'>;

export interface ImportReadContext extends Reader {
  /** Sites asked for with `--site` (every site of the organization when empty). */
  sites: readonly string[];
}

/** A folder of src/kinds/: one config key, the kinds it plans, the loader's checks, the import. */
export interface KindUnit {
  /** The top-level config key (`teams`, `sites`, `organization`). */
  configKey: string;
  /** A list of entries (every key but `organization`, which is one mapping). */
  list: boolean;
  /** The zod schema of one entry (of the mapping for `organization`). */
  schema: z.ZodType;
  /**
   * Check the list with zod's compiled parser (`z.compile`), for a list that may hold thousands of
   * small entries, where the compile costs less than it saves on a cold check. Not for a large schema
   * (compiling the sites' would cost more than it saves) nor a recursive one (zod does not compile
   * those).
   */
  compiled?: boolean;
  /** The kinds it plans, in execution order. */
  kinds: readonly KindSpec[];
  /** Names the unit adds to the address grammar: first segments and names after a key. */
  addressNames: { top: readonly string[]; inner?: readonly string[] };
  /** Fields of an entry whose values are secrets (masked everywhere, never written). */
  secretFields?: readonly string[];
  /** Paths in the written config (with `*` for any list index) that import writes on one line. */
  flowMaps?: readonly string[];
  /** Comments import writes before a key (path with `*` for any list index, the key last). */
  keyComments?: readonly { path: string; comment: string }[];
  /** The reference fields of an entry (src/kinds/common/references.ts), for docs and the generated scenario test. */
  references?: readonly ReferenceField[];
  /**
   * The ids (and titles) of the organization's resources of the unit, for the references that name
   * one by id (a shared read: nothing more when the plan reads the list anyway).
   */
  existing?(ctx: Reader): Promise<readonly { id: string; title?: string }[]>;
  /** Addresses, duplicates, cross-references and secrets of the unit's entries. */
  resolve?(entries: readonly Item<unknown>[], ctx: ResolveContext): void;
  /**
   * What `docplane validate` warns of in a resolved organization's entries of the unit (a field the
   * API deprecates): the address of each (located by `resolve`) and why.
   */
  warnings?(org: OrgConfig): Array<{ address: string; message: string }>;
  /**
   * How the organization's audit log names the unit's objects, for a drift check that reads only what
   * changed: `targets` maps an event target's type (`team`, `site-section`) to what it narrows the
   * read to, `paths` maps the API's path words (`teams`) to the type of their items (a request's
   * object). A type no unit claims maps to nothing: the drift check then reads everything.
   */
  audit?: { targets: Readonly<Record<string, AuditTarget>>; paths: Readonly<Record<string, string>> };
  /**
   * Lists inside an entry whose items a narrowed plan reads and plans one by one (a site's
   * sections), by their name in the entry and in addresses (`sites["a"].sections["b"]`): the kinds
   * whose steps lie at or under such an item, and the item's fields whose change moves or reorders
   * other items (a group's `sections`), which make a change there the whole entry's.
   */
  parts?: Readonly<Record<string, { kinds: readonly Kind[]; moves: readonly string[] }>>;
  importer: Importer;
}

/**
 * What an audit event's target narrows a read to: `id` — the entry keyed by the target's id
 * (`spaces["ID"]`); `entry` — the entry whose id, `field` or `renamedFrom` is the target's id or
 * label, else the whole unit (a new or renamed one); `unit` — the whole unit.
 */
export type AuditTarget = { by: 'id' } | { by: 'entry'; field: string } | { by: 'unit' };

/** A memo for `ReadContext.shared` and `ImportReadContext.shared`: one per organization and plan (or import). */
export function sharedReads(): ReadContext['shared'] {
  const cache = new Map<string, Promise<unknown>>();
  return <T>(key: string, load: () => Promise<T>): Promise<T> => {
    let p = cache.get(key);
    if (!p) {
      p = load();
      cache.set(key, p);
    }
    return p as Promise<T>;
  };
}

/** A memo for `PlanContext.shared`: one per organization and plan. */
export function sharedPlans(): PlanContext['shared'] {
  const cache = new Map<string, unknown>();
  return <T>(key: string, compute: () => T): T => {
    if (!cache.has(key)) cache.set(key, compute());
    return cache.get(key) as T;
  };
}

/** The read context of one organization, sharing reads between kinds as planOrgs does. */
export function readContextFor(desired: OrgConfig, client: ApiClient, shared: ReadContext['shared'] = sharedReads(), kinds?: ReadonlySet<Kind>): ReadContext {
  return { org: desired.organization.id, client, desired, shared, ...(kinds ? { kinds } : {}) };
}

/** A KindPlan with nothing in it (the config does not manage the kind). */
export function emptyKindPlan(): KindPlan {
  return { steps: [], unmanaged: [], remoteCount: 0, problems: [], fingerprints: {} };
}
