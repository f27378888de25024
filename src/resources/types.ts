/**
 * The shape every resource kind shares (one module per kind, registered in one list). A module reads
 * the current state of its kind by lists, and turns desired + current into draft steps. The plan
 * builder (src/plan/) resolves dependencies, orders, applies --target, safety and fingerprints.
 */
import type { ApiClient } from '../api/types.js';
import type { OrgConfig } from '../config/types.js';
import type { Action, FieldChange, JsonObject, Kind, PlanProblem, RequestSpec } from '../plan/types.js';

export interface ReadContext {
  org: string;
  client: ApiClient;
  desired: OrgConfig;
  /**
   * A read shared between modules: the first call with a key runs `load`, every later call with the
   * same key gets the same promise (teams are read once for teams, team members and SAML).
   */
  shared<T>(key: string, load: () => Promise<T>): Promise<T>;
}

/** A step before the builder has resolved its dependencies. */
export interface DraftStep {
  address: string;
  kind: Kind;
  action: Action;
  before: JsonObject | null;
  after: JsonObject | null;
  changes: FieldChange[];
  requests: RequestSpec[];
  /**
   * Org-relative addresses this step needs done first; the builder makes it depend on every step at
   * those addresses (a parent's create, a child's delete, …). `ADDRESS:ACTION` names one step only
   * (a parent's delete needs its children's deletes, not a create at the same address). Addresses
   * with no step are ignored.
   */
  needs: string[];
  remoteId?: string;
  notes?: string[];
}

export interface KindPlan {
  steps: DraftStep[];
  /** Remote resources of this kind that the config does not mention and does not prune. */
  unmanaged: number;
  /** Remote resources of this kind (for maxDeletePercent). */
  remoteCount: number;
  problems: PlanProblem[];
  /** Address → hash of the normalized remote object read for a step (see fingerprint()). */
  fingerprints: Record<string, string>;
  /** Plan-level notes (what this kind cannot compare, …). */
  notes?: string[];
}

export interface PlanContext {
  org: string;
  desired: OrgConfig;
  /** What each module's read returned, by kind. */
  remote: ReadonlyMap<Kind, unknown>;
  /** Whether the config prunes this kind. */
  prunes(kind: Kind): boolean;
  /** Addresses to update or publish even when nothing comparable differs (`--replace`). */
  replace?: readonly string[];
}

export interface ResourceModule<Remote = unknown> {
  kind: Kind;
  /** Reads the current state of this kind for one organization (lists, limit=1000, concurrently). */
  read(ctx: ReadContext): Promise<Remote>;
  /** Desired vs current → draft steps. Pure: no I/O, no mutation of its inputs. */
  plan(ctx: PlanContext, remote: Remote): KindPlan;
}

/** JSON string quoting for address keys: teams["Engineering"]. */
export function key(value: string): string {
  return `[${JSON.stringify(value)}]`;
}

/** `{{ref:ORG/ADDRESS}}`: the id of what the create step at ADDRESS made; `field` for another field. */
export function ref(org: string, address: string, field?: string): string {
  return `{{ref:${org}/${address}${field ? `#${field}` : ''}}}`;
}

export function stepId(org: string, address: string, action: Action): string {
  return `${org}/${address}:${action}`;
}

/**
 * A memo for `ReadContext.shared`: the first call with a key runs `load`, every later call with the
 * same key gets the same promise. One per organization and plan (or import).
 */
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

/** The read context of one organization, sharing reads between kinds as planOrgs does. */
export function readContextFor(desired: OrgConfig, client: ApiClient, shared: ReadContext['shared'] = sharedReads()): ReadContext {
  return { org: desired.organization.id, client, desired, shared };
}
