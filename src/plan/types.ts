/**
 * The plan is plain data: immutable, serialisable steps sorted deterministically. Building a plan
 * has no side effects; rendering and applying happen elsewhere.
 */
import type { HttpMethod } from '../api/types.js';

/** Resource kinds, also the names accepted by `prune`. */
export const KINDS = [
  'organization',
  'agentInstructions',
  'members',
  'teams',
  'teamMembers',
  'collections',
  'spaces',
  'sections',
  'siteSpaces',
  'sectionGroups',
  'shareLinks',
  'saml',
  'integrations',
  'translations',
] as const;
export type Kind = (typeof KINDS)[number];

/**
 * What a step does. `before` and `after` per action:
 * - create:  before null; after the desired fields.
 * - update:  before the remote fields that differ (normalized); after the desired ones.
 * - delete:  before the remote fields; after null.
 * - move:    before `{parent}` or position as now; after as desired.
 * - restore: before `{deletedAt}`; after `{deletedAt: null}` (a deleted space the config names).
 * - sort:    before the remote order `{order: [...]}`; after the desired order.
 * - publish: before what the API returns of the integration; after the desired fields.
 */
export type Action = 'create' | 'update' | 'delete' | 'move' | 'restore' | 'sort' | 'publish';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };
export type JsonObject = { [k: string]: JsonValue };

/**
 * One API request of a step. Paths and bodies may hold tokens that apply resolves just before
 * sending:
 * - `{{ref:ORG/ADDRESS}}`: the `id` of the resource created by the create step at that address
 *   (of this step itself too, once its capturing request has answered);
 * - `{{ref:ORG/ADDRESS#a.b.0.c}}`: another field of that step's captured response;
 * - `{{secret:NAME}}`: a secret value (only in plan files; in memory the real value stands).
 */
export interface RequestSpec {
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | boolean>;
  body?: JsonValue;
  /** The response body is this step's output (the created resource): ids flow from it. */
  capture?: boolean;
  /**
   * For a create: how to find the resource when the outcome is unclear (network error, reset, 5xx,
   * timeout), before any retry, so that nothing is created twice. `path` is a list path; an item
   * matches when every dotted field in `match` equals the given value.
   */
  lookup?: { path: string; match: Record<string, JsonValue> };
}

/** One field-level difference; `path` is dotted (`members.alice@acme.com.role`). */
export interface FieldChange {
  path: string;
  kind: 'add' | 'remove' | 'change';
  before?: JsonValue;
  after?: JsonValue;
}

export interface Step {
  /** Unique in the plan: `ORG/ADDRESS:ACTION`. */
  id: string;
  org: string;
  /** Org-relative address: `teams["Engineering"]`, `sites["site_docs"].sections["guides"]`. */
  address: string;
  kind: Kind;
  action: Action;
  before: JsonObject | null;
  after: JsonObject | null;
  changes: FieldChange[];
  requests: RequestSpec[];
  /** Ids of the steps that must be done first. */
  dependsOn: string[];
  /** The remote id when the resource exists. */
  remoteId?: string;
  /** What a reviewer should know: fields that cannot be compared, forced publishes, … */
  notes?: string[];
}

export interface SafetyViolation {
  rule: 'maxDeletes' | 'maxDeletePercent' | 'protect' | 'lastAdmin';
  message: string;
  /** Steps concerned. */
  steps: string[];
}

/** Something the plan cannot do (a member not in the organization, an unknown site id, …). */
export interface PlanProblem {
  org: string;
  address: string;
  message: string;
}

export interface PlanSummary {
  create: number;
  update: number;
  delete: number;
  /** Moves, sorts, restores and publishes. */
  other: number;
  unmanaged: number;
}

export interface Plan {
  formatVersion: 1;
  toolVersion: string;
  createdAt: string;
  /** sha256 of the config files' contents, in a stable order. */
  configHash: string;
  /** Paths the config was loaded from (apply PLANFILE re-reads them for secret values). */
  configPaths: string[];
  orgs: string[];
  steps: Step[];
  /** Remote resources the config does not mention, per org and kind. */
  unmanaged: Record<string, Partial<Record<Kind, number>>>;
  violations: SafetyViolation[];
  problems: PlanProblem[];
  /** `ORG/ADDRESS` → sha256 of the normalized remote object the plan read for a step. */
  fingerprints: Record<string, string>;
  summary: PlanSummary;
  /** What a reviewer should know about the plan as a whole (fields that cannot be compared, …). */
  notes?: string[];
  /** Set in a plan file once it has been applied (apply refuses a file that has it). */
  appliedAt?: string;
}
