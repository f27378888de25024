/** Counts of what a config manages, for `docplane validate`. */
import { KINDS, type Kind } from '../plan/types.js';
import type { CollectionT } from './schema.js';
import type { LoadedConfig } from './types.js';

/** Every kind but the organization's own settings and the memberships counted with their teams. */
export type CountedKind = Exclude<Kind, 'organization' | 'agentInstructions' | 'teamMembers'>;
export const COUNTED_KINDS = KINDS.filter(
  (k): k is CountedKind => k !== 'organization' && k !== 'agentInstructions' && k !== 'teamMembers',
);

export interface ConfigSummary {
  organizations: number;
  resources: number;
  perKind: Record<CountedKind, number>;
}

function countCollections(list: readonly CollectionT[] | undefined): number {
  return (list ?? []).reduce((n, c) => n + 1 + countCollections(c.collections), 0);
}

export function summarizeConfig(config: LoadedConfig): ConfigSummary {
  const perKind = Object.fromEntries(COUNTED_KINDS.map((k) => [k, 0])) as Record<CountedKind, number>;
  for (const org of config.orgs) {
    perKind.members += org.members?.length ?? 0;
    perKind.teams += org.teams?.length ?? 0;
    perKind.collections += countCollections(org.collections);
    perKind.spaces += org.spaces?.length ?? 0;
    for (const site of org.sites ?? []) {
      perKind.sections += site.sections?.length ?? 0;
      perKind.sectionGroups += site.sectionGroups?.length ?? 0;
      perKind.shareLinks += site.shareLinks?.length ?? 0;
      for (const section of site.sections ?? []) {
        // The section's own space is one of its site spaces, listed or not.
        const listed = section.siteSpaces ?? [];
        perKind.siteSpaces += listed.length + (listed.some((s) => s.space === section.space) ? 0 : 1);
      }
    }
    perKind.saml += org.saml?.length ?? 0;
    perKind.integrations += org.integrations?.length ?? 0;
    perKind.translations += org.translations?.length ?? 0;
  }
  const resources = Object.values(perKind).reduce((a, b) => a + b, 0);
  return { organizations: config.orgs.length, resources, perKind };
}

/** `✓ 1 organization, 31 resources: valid` and a line of counts per kind. */
export function renderSummary(summary: ConfigSummary): string {
  const orgs = `${summary.organizations} organization${summary.organizations === 1 ? '' : 's'}`;
  const resources = `${summary.resources} resource${summary.resources === 1 ? '' : 's'}`;
  const kinds = COUNTED_KINDS.filter((k) => summary.perKind[k] > 0).map((k) => `${k} ${summary.perKind[k]}`);
  return `✓ ${orgs}, ${resources}: valid\n${kinds.length ? `  ${kinds.join(', ')}` : '  (no resources: organization settings only)'}\n`;
}
