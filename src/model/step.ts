/**
 * The bottom model layer: what a plan is made of (steps, their requests and field changes, JSON
 * values). It imports nothing from the layers above it.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The name of a resource kind (`teams`, `sections`, …): what `prune` accepts and what the plan counts
 * by. The kinds themselves, and their order, are the registry's (src/kinds/index.ts).
 */
export type Kind = string;

/**
 * What a step does. `before` and `after` per action:
 * - create:  before null; after the desired fields.
 * - update:  before the remote fields that differ (normalized); after the desired ones.
 * - delete:  before the remote fields; after null.
 * - move:    before `{parent}` or position as now; after as desired.
 * - restore: before `{deletedAt}`; after `{deletedAt: null}` (a deleted space the config names).
 * - sort:    before the remote order `{order: [...]}`; after the desired order.
 * - publish: before what the API returns of the integration, or a site's `{published}`; after the
 *   desired fields (a site's `{published}`: true publishes, false unpublishes).
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
   * timeout), before any retry, so that nothing is created twice. It is described by what it reads:
   * `path` and its shape (`reads`); an item matches when every dotted field in `match` equals the
   * given value.
   */
  lookup?: {
    path: string;
    /**
     * What `path` answers: `pages` of a list (the default: `items`, page after page), `one` answer
     * holding the whole list in its `items` (no paging), or a `tree` (a site's structure: every
     * object in `structure` and their `children`).
     */
    reads?: 'pages' | 'one' | 'tree';
    match: Record<string, JsonValue>;
    /**
     * Fields of `match` that refer to another object: the answer gives its id, or the object with its
     * `id` (a description's `oneOf [string, Space]`). Either form matches the id; any other is the
     * API's mismatch.
     */
    refs?: string[];
    /**
     * Fields of what it finds that are credentials (an invite link's `id`: whoever holds it joins):
     * they join the run's secrets as they are read, and are never shown.
     */
    secrets?: string[];
  };
  /**
   * Sent once, never retried, whatever its method: a PUT whose body is not idempotent (a batch that
   * inserts). After an unclear outcome the step fails, and the next plan reads what is left to do.
   */
  once?: boolean;
  /**
   * For a request sent `once`: how to tell, after an unclear outcome, whether it was acted on. `path`
   * is a list; each item is taken as its `fields`. The list equal (in any order) to `after` means it
   * went through (the step is done); equal to `before`, it did not (it is sent again); anything else
   * fails the step, as a `once` request without `verify` does.
   */
  verify?: { path: string; fields: string[]; before: JsonValue[]; after: JsonValue[] };
}

/** One field-level difference; `path` is dotted (`members.alice@acme.com.role`). */
export interface FieldChange {
  path: string;
  kind: 'add' | 'remove' | 'change';
  before?: JsonValue;
  after?: JsonValue;
}

/** Something the plan cannot do (a member not in the organization, an unknown site id, …). */
export interface PlanProblem {
  org: string;
  address: string;
  message: string;
  /**
   * Where in the config the problem is (the planner adds it from the config's positions), and the
   * field of the resource at `address` it concerns, so that it reads as a config error does:
   * `file:line:column: address.field: message`.
   */
  location?: { file: string; line: number; column: number };
  field?: string;
  /**
   * The reference of the config it is about (the field of the resource at `address`, and the name
   * it gives), which the planner matches to where the config writes it (OrgConfig.deferred).
   */
  reference?: { field: string; key: string };
}

/** What a step is, whether drafted by a kind or placed in a plan. */
export interface StepBody {
  /** Org-relative address: `teams["Engineering"]`, `sites["site_docs"].sections["guides"]`. */
  address: string;
  kind: Kind;
  action: Action;
  before: JsonObject | null;
  after: JsonObject | null;
  changes: FieldChange[];
  requests: RequestSpec[];
  /** The remote id when the resource exists. */
  remoteId?: string;
  /** What a reviewer should know: fields that cannot be compared, forced publishes, … */
  notes?: string[];
}
