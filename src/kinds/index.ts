/**
 * The registry of kinds: one unit per folder of src/kinds/, in execution order (a kind's creates and
 * updates run in this order, its deletes in the reverse). Every list of kinds elsewhere (the config's
 * keys and schema, prune, the address grammar, the plan's order, import, summaries, secret fields) is
 * derived from this one list. Adding a kind: docs/adding-a-kind.md.
 */
import { type AddressVocabulary, addressSyntaxProblem } from '../model/address.js';
import type { OrgConfig } from '../model/desired.js';
import type { Kind } from '../model/step.js';
import { collectionAccess, siteAccess, spaceAccess, withAccess } from './access/index.js';
import { collectionsUnit } from './collections/index.js';
import { siteGitSync, spaceGitSync, withGitSync } from './git-sync/index.js';
import { fontsUnit } from './fonts/index.js';
import { glossaryUnit } from './translations/glossary/index.js';
import { installationsUnit } from './installations/index.js';
import { integrationsUnit } from './integrations/index.js';
import { siteAdsUnit } from './site-ads/index.js';
import { inviteLinksUnit } from './invite-links/index.js';
import type { AuditTarget, KindSpec, KindUnit } from './kind.js';
import { membersUnit } from './members/index.js';
import { openapiSpecsUnit } from './openapi-specs/index.js';
import { organizationUnit } from './organization/index.js';
import { samlUnit } from './saml/index.js';
import { sitesUnit } from './sites/index.js';
import { withSiteAgent } from './sites/agent/index.js';
import { withSiteHosting } from './sites/hosting/index.js';
import { withSiteVariants } from './sites/variants/index.js';
import { spacesUnit } from './spaces/index.js';
import { teamsUnit } from './teams/index.js';
import { translationsUnit } from './translations/index.js';

/**
 * What code outside src/kinds/ may use of a unit beyond its KindUnit: the organization read (a plan
 * checks the organization exists before it reads anything else) and the effective access read and
 * its shape (`docplane access`).
 */
export { readOrganization } from './organization/index.js';
export { readOrgAccess, type ObjectAccess, type Origin } from './access/index.js';

export const UNITS: readonly KindUnit[] = [
  organizationUnit,
  membersUnit,
  teamsUnit,
  // Access (`access` on a collection, a space, a site) joins the unit of its objects: src/kinds/access/.
  withAccess(collectionsUnit, collectionAccess),
  // Git Sync (`gitSync` on a space, a site) joins them the same way: src/kinds/git-sync/.
  withGitSync(withAccess(spacesUnit, spaceAccess), spaceGitSync),
  // Before sites: a site customization's font may name a font this plan creates.
  fontsUnit,
  // The site agent's channels, connections and topics, the site's hosting and its variants'
  // customization join the sites: src/kinds/sites/agent/, site-hosting/, site-variants/.
  withSiteVariants(withSiteHosting(withSiteAgent(withGitSync(withAccess(sitesUnit, siteAccess), siteGitSync)))),
  samlUnit,
  integrationsUnit,
  installationsUnit,
  translationsUnit,
  glossaryUnit,
  openapiSpecsUnit,
  // After spaces and collections: a link may name one this plan creates (its deletes run first).
  inviteLinksUnit,
  siteAdsUnit,
];

/** Every kind the planner plans, in execution order. */
export const KIND_SPECS: readonly KindSpec[] = UNITS.flatMap((u) => u.kinds);

/** Kind names, in execution order. */
export const KINDS: readonly Kind[] = KIND_SPECS.map((k) => k.kind);

/** Kinds that `prune` accepts, in execution order. */
export const PRUNABLE: readonly Kind[] = KIND_SPECS.filter((k) => k.prunable).map((k) => k.kind);

/** Kinds whose resources `--replace` may force. */
export const REPLACEABLE: readonly Kind[] = KIND_SPECS.filter((k) => k.replaceable).map((k) => k.kind);

/** Kinds a config counts (`docplane validate`). */
export const COUNTED: readonly KindSpec[] = KIND_SPECS.filter((k) => k.count !== undefined);

/** The names an address may hold. */
export const ADDRESS_NAMES: AddressVocabulary = {
  top: [...new Set(UNITS.flatMap((u) => u.addressNames.top))],
  inner: [...new Set(UNITS.flatMap((u) => u.addressNames.inner ?? []))],
};

/** Why a pattern is not an address or glob of a config, or undefined when it is one. */
export function addressProblem(pattern: string): string | undefined {
  return addressSyntaxProblem(pattern, ADDRESS_NAMES);
}

/** The unit of a top-level config key. */
export function unitOf(configKey: string): KindUnit | undefined {
  return UNITS.find((u) => u.configKey === configKey);
}

/** What `docplane validate` warns of in an organization's config: every unit's warnings, in the units' order. */
export function configWarnings(org: OrgConfig): Array<{ address: string; message: string }> {
  return UNITS.flatMap((u) => u.warnings?.(org) ?? []);
}

/** The audit log's target types, each with the unit whose objects it names and what it narrows a read to. */
export const AUDIT_TARGETS: ReadonlyMap<string, { unit: string; target: AuditTarget }> = new Map(
  UNITS.flatMap((u) => Object.entries(u.audit?.targets ?? {}).map(([type, target]) => [type, { unit: u.configKey, target }] as const)),
);

/** The API's path words and the audit target type of their items (`teams` → `team`). */
export const AUDIT_PATH_TYPES: ReadonlyMap<string, string> = new Map(UNITS.flatMap((u) => Object.entries(u.audit?.paths ?? {})));

/** The kind spec of a kind name. */
export function kindSpec(kind: Kind): KindSpec | undefined {
  return KIND_SPECS.find((k) => k.kind === kind);
}
