/**
 * The bottom layer of the emulator: the records every kind shares (tokens, users, the world and an
 * organization's identity) and the events one kind's change sends to the others. It imports nothing
 * of the emulator. Each kind adds its own fields to `World` and `OrgRec` from its own module (an
 * interface merge in `declare module`), so that a kind's records live with the kind.
 */

export type Role = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';
export type Level = Role | 'inherit';
export type TokenAccess = 'read' | 'write';

export interface TokenRec {
  token: string;
  access: TokenAccess;
  user?: string;
  /** Where the token's changes come from in the audit log (`ui`: a person in the app); default `api`. */
  source?: 'ui' | 'api' | 'integration' | 'webhook' | 'workflow' | 'script' | 'support';
}

export interface UserRec {
  id: string;
  email: string;
  displayName: string;
  photoURL?: string;
}

export interface RichTextDoc {
  object: 'document';
  data?: Record<string, unknown>;
  nodes: unknown[];
  [k: string]: unknown;
}

/** An organization; the kinds add their fields (title, members, teams, sites, …). */
export interface OrgRec {
  id: string;
}

/** The in-memory world; the kinds add their stores (spaces, collections, integrations, …). */
export interface World {
  tokens: Map<string, TokenRec>;
  users: Map<string, UserRec>;
  orgs: Map<string, OrgRec>;
  /** A fresh opaque id with a kind prefix. */
  newId(prefix: string): string;
  now(): Date;
  /** Where the emulator listens, for `urls.location`; set once the server is up. */
  baseUrl: string;
}

/**
 * A change one kind made that others may have to follow (the API's consistent effects): a kind
 * sends it, every kind's `on` hears it. Sent after the change itself.
 */
export type DomainEvent =
  /** A member left the organization. */
  | { type: 'member-removed'; org: OrgRec; userId: string }
  /** A team was deleted. */
  | { type: 'team-deleted'; org: OrgRec; teamId: string }
  /** Collections were deleted (a collection and its descendants). */
  | { type: 'collections-deleted'; ids: ReadonlySet<string> }
  /** Collections moved from one organization to another (a collection and its descendants). */
  | { type: 'collections-transferred'; ids: ReadonlySet<string>; from: OrgRec; to: OrgRec };
