/**
 * `docplane validate` as a service: load and check the config (no network), count what it manages,
 * and list the references that name nothing in the config — the planner checks those against the
 * organization (OrgConfig.deferred), so they are warnings here, not errors. People named in teams,
 * access or rules but not under `members:` are normal (members may be left unmanaged): they make one
 * warning per organization that names them all, not one each; a likely typo keeps its own line.
 */
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { configWarnings, kindSpec } from '../kinds/index.js';
import type { OrgConfig } from '../model/desired.js';
import { InvalidConfig, loadConfig } from './load.js';
import { summarizeConfig, type ConfigSummary } from './summary.js';

export interface ValidateOptions {
  /** `-c`: a file or a folder; the default places otherwise. */
  path?: string;
}

/** With errors, the warnings of what could be read are shown beside them: one round. */
export type ValidateResult =
  | { valid: true; summary: ConfigSummary; warnings: ConfigIssue[] }
  | { valid: false; error: ConfigError; warnings: ConfigIssue[] };

export async function runValidate(options: ValidateOptions): Promise<ValidateResult> {
  let config;
  try {
    config = await loadConfig({ path: options.path });
  } catch (err) {
    if (err instanceof InvalidConfig) return { valid: false, error: err, warnings: warningsOf(err.orgs, err.files, err.warnings) };
    if (err instanceof ConfigError) return { valid: false, error: err, warnings: [] };
    throw err;
  }
  return { valid: true, summary: summarizeConfig(config), warnings: warningsOf(config.orgs, config.files, config.warnings ?? []) };
}

/** The loader's warnings, then references the organization settles and deprecated fields, per organization. */
function warningsOf(orgs: readonly OrgConfig[], files: readonly string[], loaded: readonly ConfigIssue[]): ConfigIssue[] {
  const config = { files };
  const warnings: ConfigIssue[] = [...loaded];
  for (const org of orgs) {
    const people = new Map<string, { at: ConfigIssue; path: string }>();
    for (const check of org.deferred ?? []) {
      // An id is how a config names what it does not manage: only the organization can say it is wrong.
      if (check.byId) continue;
      const at = check.location ?? org.locations[check.from] ?? { file: config.files[0] ?? '', line: 1, column: 1 };
      if (check.kind === 'members' && check.near === undefined) {
        if (!people.has(check.key)) people.set(check.key, { at: { ...at, path: '', message: '' }, path: check.from });
        continue;
      }
      const scope = check.site ? ` of site ${check.site}` : '';
      warnings.push({
        file: at.file,
        line: at.line,
        column: at.column,
        path: check.from.endsWith(`.${check.field}`) ? check.from : `${check.from}.${check.field}`,
        message: `${JSON.stringify(check.key)} names no ${kindSpec(check.kind)?.label.one ?? check.kind}${scope} of the config; plan checks it against organization ${org.organization.id}${check.near === undefined ? '' : ` — did you mean "${check.near}"?`}`,
      });
    }
    if (people.size > 0) {
      const [first] = people.values();
      const names = [...people.keys()].map((k) => JSON.stringify(k)).join(', ');
      const count = people.size === 1 ? '1 person' : `${people.size} people`;
      warnings.push({
        file: first.at.file,
        line: first.at.line,
        column: first.at.column,
        path: first.path,
        message: `${count} named in the config but not under members (their roles stay unmanaged; plan checks they are members of organization ${org.organization.id}): ${names}`,
      });
    }
    for (const { address, message } of configWarnings(org)) {
      const at = org.locations[address] ?? { file: config.files[0] ?? '', line: 1, column: 1 };
      warnings.push({ file: at.file, line: at.line, column: at.column, path: address, message });
    }
  }
  return warnings;
}
