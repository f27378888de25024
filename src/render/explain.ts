/**
 * `docplane explain ADDRESS`: for each step at or under the address, why it exists — the config entry
 * that asks for it (file:line:column), the remote value it replaces, and the safety rules and policy
 * warnings that weigh on it. Plain text, secrets masked as every rendering masks them.
 */
import { key, parsePattern, patternMatches } from '../model/address.js';
import type { SourceLocation } from '../model/desired.js';
import type { Plan, Step } from '../plan/types.js';
import type { Secret } from '../core/secrets.js';
import { changesOf, formatChange, requestLine } from './format.js';
import { segmentsOf } from './mermaid.js';
import { maskPlan } from './redact.js';

/** A longer value is shortened: the full one is in `docplane plan --format json`. */
const MAX_VALUE = 200;

/** The address's own location, else its nearest parent's (a site's structure is written in the site's entry). */
function locationOf(address: string, locations: Record<string, SourceLocation> | undefined): { at: SourceLocation; of: string } | undefined {
  if (!locations) return undefined;
  const segments = segmentsOf(address) ?? [];
  for (let n = segments.length; n > 0; n--) {
    const a = segments
      .slice(0, n)
      .map((s, i) => `${i > 0 ? '.' : ''}${s.name}${s.key !== undefined ? key(s.key) : ''}`)
      .join('');
    if (locations[a]) return { at: locations[a], of: a };
  }
  return undefined;
}

const WHY: Record<Step['action'], string> = {
  create: 'the config has it and the remote does not',
  update: 'the config and the remote differ',
  delete: 'the remote has it and the config does not (its kind is pruned, or the config moved it)',
  move: 'the config places it elsewhere',
  sort: 'the config orders the items otherwise',
  restore: 'the remote has it archived and the config wants it live',
  publish: 'the config changes what the remote cannot read back',
};

/** Where the config asks for the step: its entry's file:line:column, or why there is none. */
function configOf(step: Step, locations: Record<string, SourceLocation> | undefined): string {
  const where = locationOf(step.address, locations);
  return where
    ? `${where.at.file}:${where.at.line}:${where.at.column}${where.of !== step.address ? ` (in ${where.of})` : ''}`
    : `no entry${step.action === 'delete' ? ' (the config does not mention it)' : ''}`;
}

/** The safety rules and policy warnings that weigh on a step, one line each. */
function weighing(plan: Plan, step: Step): string[] {
  const rules = plan.violations.filter((v) => v.steps.includes(step.id)).map((v) => `safety rule ${v.rule}: ${v.message}`);
  const warnings = (plan.notes ?? []).filter((n) => /^(?:[^\s:]+: )?warning: /.test(n) && n.includes(step.address)).map((n) => `policy ${n.replace(/^(?:[^\s:]+: )?(?=warning: )/, '')}`);
  return [...rules, ...warnings];
}

/**
 * Why a step exists, in the lines a plan shows under it with `--verbose`: the reason and the config
 * entry, then each safety rule or policy warning on it (what `docplane explain` says, shorter).
 */
export function whyLines(plan: Plan, step: Step, locations: Record<string, SourceLocation> | undefined): string[] {
  return [`why: ${WHY[step.action]}; config: ${configOf(step, locations)}`, ...weighing(plan, step)];
}

function explainStep(plan: Plan, step: Step, locations: Record<string, SourceLocation> | undefined, several: boolean): string[] {
  const name = `${several ? `${step.org}/` : ''}${step.address}`;
  const lines = [`${name} (${step.action}): ${WHY[step.action]}`, `  config: ${configOf(step, locations)}`];
  const changes = changesOf(step);
  if (step.action === 'create') lines.push('  replaces: nothing (the remote has none)');
  else if (changes.length === 0) lines.push('  replaces: nothing the plan compares');
  else for (const c of changes) lines.push(`  ${c.kind === 'add' ? 'sets' : c.kind === 'remove' ? 'removes' : 'replaces'}: ${formatChange(c, MAX_VALUE)}`);
  for (const note of step.notes ?? []) lines.push(`  note: ${note.replace(/\r?\n/g, ' ')}`);
  const weighs = weighing(plan, step);
  for (const w of weighs) lines.push(`  ${w}`);
  for (const p of plan.problems) if (p.org === step.org && p.address === step.address) lines.push(`  problem: ${p.message}`);
  if (weighs.length === 0) lines.push('  rules: no safety rule or policy weighs on it');
  for (const d of step.dependsOn) lines.push(`  after: ${d}`);
  for (const r of step.requests) lines.push(`  sends: ${requestLine(r)}`);
  return lines;
}

/** The explanation of every step at or under `address` (an address, a glob, or `ORG/ADDRESS`), or why there is none. */
export function renderExplain(plan: Plan, address: string, locations: Record<string, Record<string, SourceLocation>>, secrets: Secret[]): string {
  const masked = maskPlan(plan, secrets);
  const pattern = parsePattern(address);
  const steps = masked.steps.filter((s) => patternMatches(pattern, s.org, s.address));
  const several = masked.orgs.length > 1;
  if (steps.length === 0) {
    const problems = masked.problems.filter((p) => patternMatches(pattern, p.org, p.address));
    if (problems.length > 0) return problems.map((p) => `${p.address}: no step, because of a problem: ${p.message}`).join('\n');
    return `${address}: no step; the plan changes nothing there (it is as the config says, or the config does not manage it)`;
  }
  return steps.map((s) => explainStep(masked, s, locations[s.org], several).join('\n')).join('\n\n');
}
