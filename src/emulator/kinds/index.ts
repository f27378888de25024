/**
 * The emulator's kinds, listed once. The list's order is the seeding order (a kind comes after the
 * kinds its seeds refer to) and the order of an organization's fields in the state file. The
 * router, the state schema, the seeding of the world and the masking of the exchange log are
 * derived from this list: adding a kind means adding its module and one line here.
 */
import { siteAdsKind } from './site-ads.js';
import type { EmulatorKind } from '../kind.js';
import { accessKind } from './access.js';
import { auditKind } from './audit.js';
import { collectionsKind } from './collections.js';
import { gitSyncKind } from './git-sync.js';
import { glossaryKind } from './translations/glossary.js';
import { installationsKind } from './installations.js';
import { fontsKind } from './fonts.js';
import { integrationsKind } from './integrations.js';
import { inviteLinksKind } from './invite-links.js';
import { membersKind } from './members.js';
import { openapiSpecsKind } from './openapi-specs.js';
import { agentInstructionsKind, organizationKind } from './organization.js';
import { samlKind } from './saml.js';
import { sitesKind } from './sites/index.js';
import { siteAgentKind } from './site-agent/index.js';
import { customHostnamesKind } from './custom-hostnames.js';
import { siteVariantsKind } from './site-variants.js';
import { spacesKind } from './spaces.js';
import { teamsKind } from './teams.js';
import { translationsKind } from './translations.js';

export const EMULATOR_KINDS = [
  organizationKind,
  membersKind,
  collectionsKind,
  spacesKind,
  sitesKind,
  siteAgentKind,
  customHostnamesKind,
  siteVariantsKind,
  siteAdsKind,
  gitSyncKind,
  teamsKind,
  samlKind,
  translationsKind,
  glossaryKind,
  integrationsKind,
  installationsKind,
  fontsKind,
  openapiSpecsKind,
  inviteLinksKind,
  agentInstructionsKind,
  accessKind,
  auditKind,
] as const;

/** The seed fields of every kind, merged: the fields of an organization in the state file. */
export type OrganizationSeedShape = UnionToIntersection<(typeof EMULATOR_KINDS)[number]['orgSeed']>;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The list as its common shape, for the code that derives from it. */
export function emulatorKinds(): readonly EmulatorKind[] {
  return EMULATOR_KINDS as readonly EmulatorKind[];
}

/** Every kind's path words and the audit object type of their items (`teams` → `team`). */
export const AUDIT_OBJECT_TYPES: ReadonlyMap<string, string> = new Map(emulatorKinds().flatMap((k) => Object.entries(k.auditObjects ?? {})));
