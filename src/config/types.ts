/** What the loader hands to the planner: one desired state per organization. */
import type { Secret } from '../core/secrets.js';
import type {
  CollectionT,
  IntegrationT,
  MemberT,
  OrganizationT,
  PrunableKindT,
  SamlProviderT,
  SiteT,
  SpaceT,
  TeamT,
  TranslationT,
} from './schema.js';

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
  kind: 'teams' | 'collections' | 'sections';
  /** Its natural key: a team title, a collection path, a section path (within `site`). */
  key: string;
  /** For sections: the site they belong to. */
  site?: string;
  /** Address of the resource that refers to it, and the field. */
  from: string;
  field: string;
  location?: SourceLocation;
}

/**
 * The desired state of one organization, merged from every document that names it. A list that is
 * undefined was absent from the config (manages nothing); an empty list means "none".
 */
export interface OrgConfig {
  organization: OrganizationT;
  members?: MemberT[];
  teams?: TeamT[];
  collections?: CollectionT[];
  spaces?: SpaceT[];
  sites?: SiteT[];
  saml?: SamlProviderT[];
  integrations?: IntegrationT[];
  translations?: TranslationT[];
  /** Kinds for which this config is the whole truth ('all' expanded). */
  prune: PrunableKindT[];
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
}
