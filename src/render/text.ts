/**
 * The text rendering: Terraform-like, one block per step in plan order, grouped by organization.
 * Colours only when asked (the command decides from the TTY, NO_COLOR and --no-color).
 */
import pc from 'picocolors';
import { problemText } from '../plan/refusal.js';
import type { Action, FieldChange, Step } from '../plan/types.js';
import { terminalText as t } from './escape.js';
import { ACTION_SYMBOL, CHANGE_SYMBOL, changedBySuffix, changesOf, formatChange, isOtherAction, MAX_UNMANAGED_SHOWN, orgsOf, requestCount, requestLine, summaryLine, targetLine, unmanagedAddresses, unmanagedList } from './format.js';
import type { MaskedPlan } from './redact.js';

export interface TextOptions {
  color: boolean;
  /** List each step's requests (method and path) under it (`show --verbose`). */
  requests?: boolean;
  /** Why each step exists, in lines under it (`plan --verbose`: src/render/explain.ts). */
  why?: (step: Step) => string[];
}

type Colors = ReturnType<typeof pc.createColors>;

/** Steps listed under one safety violation at most; the json rendering has them all. */
const MAX_VIOLATION_STEPS = 10;

function actionColor(c: Colors, action: Action): (s: string) => string {
  switch (action) {
    case 'create':
    case 'restore':
      return c.green;
    case 'update':
      return c.yellow;
    case 'delete':
      return c.red;
    case 'move':
    case 'sort':
      return c.cyan;
    case 'publish':
      return c.magenta;
  }
}

function changeColor(c: Colors, kind: FieldChange['kind']): (s: string) => string {
  return kind === 'add' ? c.green : kind === 'remove' ? c.red : c.yellow;
}

function stepBlock(step: Step, c: Colors, requests = false, why?: (step: Step) => string[]): string[] {
  const color = actionColor(c, step.action);
  const suffix = isOtherAction(step.action) ? c.dim(` (${step.action})`) : '';
  const who = changedBySuffix(step);
  const lines = [`${color(`${ACTION_SYMBOL[step.action]} ${t(step.address)}`)}${suffix}${who === '' ? '' : c.dim(t(who))}`];
  for (const change of changesOf(step)) {
    lines.push(`  ${changeColor(c, change.kind)(`${CHANGE_SYMBOL[change.kind]} ${t(formatChange(change))}`)}`);
  }
  // A note of several lines keeps every line under the step, marked as a note.
  for (const note of step.notes ?? []) for (const line of note.split(/\r?\n/)) lines.push(`  ${c.dim(`# ${t(line)}`)}`);
  for (const line of why?.(step) ?? []) lines.push(`  ${c.dim(`# ${t(line)}`)}`);
  lines.push(`  ${c.dim(requestCount(step))}`);
  if (requests) for (const r of step.requests) lines.push(`    ${c.dim(t(requestLine(r)))}`);
  return lines;
}

/** Renders a masked plan as text (no trailing newline). */
export function renderText(plan: MaskedPlan, options: TextOptions): string {
  const c = pc.createColors(options.color);
  const orgs = orgsOf(plan);
  const several = orgs.length > 1;
  const out: string[] = [];
  const targeted = targetLine(plan);
  if (targeted) out.push(c.bold(t(targeted)), '');

  for (const org of orgs) {
    const steps = plan.steps.filter((s) => s.org === org);
    if (several) {
      out.push(c.bold(`Organization ${org}`), '');
      if (steps.length === 0) out.push(c.dim('  (no changes)'), '');
    }
    for (const step of steps) out.push(...stepBlock(step, c, options.requests === true, options.why), '');
  }

  if (plan.violations.length > 0) {
    out.push(c.bold('Safety rules this plan breaks (apply refuses them unless --force):'));
    for (const v of plan.violations) {
      out.push(c.red(t(`! ${v.rule}: ${v.message}`)));
      for (const id of v.steps.slice(0, MAX_VIOLATION_STEPS)) out.push(c.dim(`    ${t(id)}`));
      if (v.steps.length > MAX_VIOLATION_STEPS) out.push(c.dim(`    … and ${v.steps.length - MAX_VIOLATION_STEPS} more`));
    }
    out.push('');
  }

  if (plan.problems.length > 0) {
    out.push(c.bold('Problems (the plan cannot do these):'));
    for (const p of plan.problems) out.push(c.red(t(`✗ ${problemText(p, several)}`)));
    out.push('');
  }

  if (plan.notes && plan.notes.length > 0) {
    out.push(c.bold('Notes:'));
    for (const note of plan.notes) out.push(c.dim(t(`# ${note.replace(/\r?\n/g, ' ')}`)));
    out.push('');
  }

  const unmanaged = orgs.map((org) => [org, unmanagedList(plan.unmanaged[org])] as const).filter(([, list]) => list !== '');
  if (unmanaged.length > 0) {
    // The addresses are capped as in the markdown plan: an organization can hold thousands the config
    // leaves alone, and the counts say how many; `--format json` lists every one.
    let shown = 0;
    let hidden = 0;
    const list = (org: string, indent: string) => {
      for (const address of unmanagedAddresses(plan.unmanaged[org])) {
        if (shown < MAX_UNMANAGED_SHOWN) {
          out.push(c.dim(t(`${indent}${several ? `${org}/` : ''}${address}`)));
          shown++;
        } else hidden++;
      }
    };
    if (several) {
      out.push('Unmanaged (not in the config, left alone):');
      for (const [org, counts] of unmanaged) {
        out.push(`  ${org}: ${counts}`);
        list(org, '    ');
      }
    } else {
      out.push(`Unmanaged (not in the config, left alone): ${unmanaged[0][1]}`);
      list(unmanaged[0][0], '  ');
    }
    if (hidden > 0) out.push(c.dim(`  … and ${hidden} more (--format json lists them all)`));
    out.push('');
  }

  out.push(c.bold(summaryLine(plan)));
  return out.join('\n');
}
