/** What the loader hands to the planner: one desired state per organization. */
import type { Secret } from '../core/secrets.js';
import type { ConfigIssue } from '../core/errors.js';
import type { OrgConfig } from '../model/desired.js';
import type { PolicySet } from '../policy/compile.js';

export type { DeferredCheck, OrgConfig, SourceLocation } from '../model/desired.js';

export interface LoadedConfig {
  orgs: OrgConfig[];
  /** Every secret value the config holds, for masking and plan-file placeholders. */
  secrets: Secret[];
  /** sha256 over the files' paths and contents, in a stable order. */
  hash: string;
  /** Absolute paths of the files read. */
  files: string[];
  /** `api.url` from the config, if any. */
  apiUrl?: string;
  /** The compiled `policies` (the steps policies run in plan and apply). */
  policies?: PolicySet;
  /** Violations of warning-severity resource policies, at their entries. */
  warnings?: ConfigIssue[];
}
