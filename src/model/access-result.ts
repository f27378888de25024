/**
 * Who can do what on an object after a plan: what a reviewer approves when an object's access
 * changes, made by the access unit from the object's direct grants as they are and as the config
 * wants them (src/kinds/access/plan.ts), not from the steps that get there; the markdown rendering
 * draws it as a table (src/render/access-result.ts).
 */

/** One direct grant of the object, as it is and as it will be (null: none). */
export interface AccessGrantRow {
  who: 'team' | 'user';
  /** A team's title; a user's email (else their id). */
  name: string;
  before: string | null;
  after: string | null;
  /**
   * A team's members after the plan, when the config lists them (its `members`): each holds the
   * team's role on the object through the team.
   */
  members?: string[];
  /** A team's member count as the organization's team list gives it, when the config does not list them. */
  memberCount?: number;
}

export interface AccessResult {
  /** The object's address (`collections["Partners"]`). */
  address: string;
  /** A collection's path, a space's or a site's title, when the config or the plan's reads give it. */
  title?: string;
  /** Every direct grant it has or will have, teams first, each by name. */
  rows: AccessGrantRow[];
}

/** An access result in a plan: of which organization's object. */
export interface PlanAccessResult extends AccessResult {
  org: string;
}
