/**
 * Renderings of `docplane validate`: the text summary (src/config/summary.ts) with its warnings, or
 * one JSON document (`--format json`, described in docs/plan-format.md beside the plan's).
 */
import type { ConfigSummary } from '../config/summary.js';
import type { ValidateResult } from '../config/validate.js';
import type { ConfigIssue } from '../core/errors.js';

/** `file:line:column: warning: path: message`, as config errors read, marked as a warning. */
export function warningLine(issue: ConfigIssue): string {
  return `${issue.file}:${issue.line}:${issue.column}: warning: ${issue.path ? `${issue.path}: ` : ''}${issue.message}`;
}

const issueJson = (i: ConfigIssue) => ({ file: i.file, line: i.line, column: i.column, path: i.path, message: i.message });

function summaryJson(summary: ConfigSummary) {
  return { organizations: summary.organizations, resources: summary.resources, perKind: { ...summary.perKind } };
}

/** The result as JSON (2-space indented, no trailing newline): `valid`, the counts, warnings, problems. */
export function renderValidationJson(result: ValidateResult): string {
  const document = result.valid
    ? { formatVersion: 1, valid: true, ...summaryJson(result.summary), warnings: result.warnings.map(issueJson), problems: [] }
    : { formatVersion: 1, valid: false, warnings: result.warnings.map(issueJson), problems: result.error.issues.map(issueJson) };
  return JSON.stringify(document, null, 2);
}
