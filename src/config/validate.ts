/**
 * `docplane validate` as a service: load and check the config (no network), count what it manages,
 * and list the references that name nothing in the config — the planner checks those against the
 * organization (OrgConfig.deferred), so they are warnings here, not errors.
 */
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { configWarnings, kindSpec } from '../kinds/index.js';
import { loadConfig } from './load.js';
import { summarizeConfig, type ConfigSummary } from './summary.js';

export interface ValidateOptions {
  /** `-c`: a file or a folder; the default places otherwise. */
  path?: string;
}

export type ValidateResult =
  | { valid: true; summary: ConfigSummary; warnings: ConfigIssue[] }
  | { valid: false; error: ConfigError };

export async function runValidate(options: ValidateOptions): Promise<ValidateResult> {
  let config;
  try {
    config = await loadConfig({ path: options.path });
  } catch (err) {
    if (err instanceof ConfigError) return { valid: false, error: err };
    throw err;
  }
  const warnings: ConfigIssue[] = [...(config.warnings ?? [])];
  for (const org of config.orgs) {
    for (const check of org.deferred ?? []) {
      // An id is how a config names what it does not manage: only the organization can say it is wrong.
      if (check.byId) continue;
      const at = check.location ?? org.locations[check.from] ?? { file: config.files[0] ?? '', line: 1, column: 1 };
      const scope = check.site ? ` of site ${check.site}` : '';
      warnings.push({
        file: at.file,
        line: at.line,
        column: at.column,
        path: check.from.endsWith(`.${check.field}`) ? check.from : `${check.from}.${check.field}`,
        message: `${JSON.stringify(check.key)} names no ${kindSpec(check.kind)?.label.one ?? check.kind}${scope} of the config; plan checks it against organization ${org.organization.id}${check.near === undefined ? '' : ` — did you mean "${check.near}"?`}`,
      });
    }
    for (const { address, message } of configWarnings(org)) {
      const at = org.locations[address] ?? { file: config.files[0] ?? '', line: 1, column: 1 };
      warnings.push({ file: at.file, line: at.line, column: at.column, path: address, message });
    }
  }
  return { valid: true, summary: summarizeConfig(config), warnings };
}
