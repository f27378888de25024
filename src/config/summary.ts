/** Counts of what a config manages, for `docplane validate`. */
import { COUNTED } from '../kinds/index.js';
import type { LoadedConfig } from './types.js';

export interface ConfigSummary {
  organizations: number;
  resources: number;
  /** Resources per counted kind, in the registry's order. */
  perKind: Record<string, number>;
}

export function summarizeConfig(config: LoadedConfig): ConfigSummary {
  const perKind: Record<string, number> = {};
  for (const spec of COUNTED) perKind[spec.kind] = config.orgs.reduce((n, org) => n + (spec.count?.(org) ?? 0), 0);
  const resources = Object.values(perKind).reduce((a, b) => a + b, 0);
  return { organizations: config.orgs.length, resources, perKind };
}

/** `✓ 1 organization, 31 resources: valid` and a line of counts per kind. */
export function renderSummary(summary: ConfigSummary): string {
  const orgs = `${summary.organizations} organization${summary.organizations === 1 ? '' : 's'}`;
  const resources = `${summary.resources} resource${summary.resources === 1 ? '' : 's'}`;
  const kinds = COUNTED.filter((k) => (summary.perKind[k.kind] ?? 0) > 0).map((k) => `${k.kind} ${summary.perKind[k.kind]}`);
  return `✓ ${orgs}, ${resources}: valid\n${kinds.length ? `  ${kinds.join(', ')}` : '  (no resources: organization settings only)'}\n`;
}
