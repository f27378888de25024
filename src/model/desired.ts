/**
 * The desired state of one organization, as the loader hands it to the planner. Each kind adds its
 * own list (and the organization kind its settings) to these interfaces by declaration merging, in
 * its own folder under src/kinds/, so that this layer names no kind.
 */

/** Where a value came from, for messages that point back into the config. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/**
 * A reference the loader could not check offline because the config does not hold its target: the
 * planner checks it against the remote state (and reports a PlanProblem when nothing matches).
 */
export interface DeferredCheck {
  /** The kind of the referenced resource. */
  kind: string;
  /** Its natural key: a team title, a collection path, a section path (within `site`). */
  key: string;
  /** For resources inside a site: the site they belong to. */
  site?: string;
  /** Address of the resource that refers to it, and the field. */
  from: string;
  field: string;
  location?: SourceLocation;
  /** The config's closest name of that kind, when one is close (a likely typo). */
  near?: string;
  /** The key is an id: the plan checks it against the organization's list; validate says nothing. */
  byId?: boolean;
}

/** The organization's own settings; the organization kind adds the fields it manages. */
export interface DesiredOrganization {
  id: string;
}

/**
 * The lists of an organization's desired state, one per kind's config key (`members`, `teams`, …),
 * each added by its kind. A list that is undefined was absent from the config (manages nothing); an
 * empty list means "none".
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DesiredLists {}

export interface OrgConfig extends DesiredLists {
  organization: DesiredOrganization;
  /** Kinds for which this config is the whole truth ('all' expanded), in the registry's order. */
  prune: string[];
  safety: { maxDeletes: number; maxDeletePercent: number; keepSsoMembers: boolean };
  protect: string[];
  /**
   * Location of resources by their org-relative address (`teams["Engineering"]`), for messages.
   * May be empty for configs built in code.
   */
  locations: Record<string, SourceLocation>;
  /** References to resources the config does not define, to be checked at plan time. */
  deferred?: DeferredCheck[];
}
