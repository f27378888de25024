/**
 * The plan is plain data: immutable, serialisable steps sorted deterministically. Building a plan
 * has no side effects; rendering and applying happen elsewhere.
 */
import type { PlanPicture } from '../model/picture.js';
import type { PlanAccessResult } from '../model/access-result.js';
import type { JsonObject, Kind, PlanProblem, StepBody } from '../model/step.js';

export type { Action, FieldChange, JsonObject, JsonValue, Kind, PlanProblem, RequestSpec } from '../model/step.js';

export interface Step extends StepBody {
  /** Unique in the plan: `ORG/ADDRESS:ACTION`. */
  id: string;
  org: string;
  /** Ids of the steps that must be done first. */
  dependsOn: string[];
  /** The latest audit event that touched the step's object, when the plan read the audit log (src/drift/). */
  changedBy?: ChangedBy;
}

/** Who changed an object last, from the organization's audit log. */
export interface ChangedBy {
  /** The event's `occurredAt`. */
  at: string;
  action: string;
  /** Where it came from: `ui` (the app), `api`, `integration`, … */
  source: string;
  actor: { type: string; id: string; label?: string };
  /** docplane's own apply (the token's user, through the API), a person, or an integration or other tool. */
  by: 'docplane' | 'person' | 'integration';
}

export interface SafetyViolation {
  rule: 'maxDeletes' | 'maxDeletePercent' | 'protect' | 'lastAdmin' | 'needsForce';
  message: string;
  /** Steps concerned. */
  steps: string[];
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
  /** Addresses of the remote resources the config does not mention, per org and kind (sorted). */
  unmanaged: Record<string, Partial<Record<Kind, string[]>>>;
  violations: SafetyViolation[];
  problems: PlanProblem[];
  /** `ORG/ADDRESS` → sha256 of the normalized remote object the plan read for a step. */
  fingerprints: Record<string, string>;
  summary: PlanSummary;
  /** What a reviewer should know about the plan as a whole (fields that cannot be compared, …). */
  notes?: string[];
  /**
   * `ORG/KEY#ID` of every remote twin of a managed resource (two remote resources with one natural
   * key): a plan that has one never reads "No changes" (absent when there is none).
   */
  duplicates?: string[];
  /**
   * `ORG/ADDRESS` → the matched remote object as a create's `after` shows it, merged over the kinds
   * that observe it: what a saved plan's done create is held against (src/apply/done.ts). In memory
   * only: a plan file leaves it out.
   */
  observed?: Record<string, JsonObject>;
  /** The `--target` patterns a partial plan was limited to (absent for a whole plan). */
  targets?: string[];
  /**
   * A pull request's plan (`plan --base`): the base its targets were drawn from, and how many entries
   * of the config it did not read; or why it read everything (`whole`: a setting of the whole config changed).
   * `commit` (the revision `from` named) and `configHash` (the base config's) let apply PLANFILE load
   * the same base and derive the same targets again.
   */
  base?: { from: string; unread?: number; whole?: string; commit?: string; configHash?: string };
  /**
   * A drift check's window (`plan --since`): when it starts, how many changed objects were read and
   * how many config entries were not; or why everything was read (`whole`).
   */
  since?: { from: string; objects?: number; unread?: number; whole?: string };
  /**
   * The `--replace` patterns the plan was made with: apply PLANFILE plans again with them, so that
   * the forced publishes and resends the plan shows are derived again (absent when none).
   */
  replace?: string[];
  /**
   * Each site whose structure the plan changes, as it is and as it will be (the markdown draws them);
   * absent when none changes, and in plans saved before pictures existed.
   */
  pictures?: PlanPicture[];
  /**
   * Each object whose access the plan changes, with who can do what after it (the markdown's
   * access tables); absent when no access changes, and in plans saved before it existed.
   */
  access?: PlanAccessResult[];
}
