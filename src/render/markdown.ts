/**
 * The markdown rendering, for a pull-request comment: the summary as title, what needs attention,
 * a table of counts per kind, warnings, then one collapsible block per config entry (a team with
 * its members, a site with its structure, a space with its access), named by its title and its
 * config file:line (a link to the file, given `sourceUrl`), holding a ```diff fence in the text
 * style (GitHub colours `+` green, `-` red and `!` orange). A comment holds at most 65,536
 * characters, so the blocks are cut from the end, with a note, to stay under that. Before the
 * blocks: a Mermaid picture of each site whose structure changes (src/render/mermaid.ts) and who can
 * do what on each object whose access changes (src/render/access-result.ts), within a share of the limit.
 */
import { KIND_SPECS, KINDS, UNITS } from '../kinds/index.js';
import { compareAddresses, entryOf, key, topName } from '../model/address.js';
import type { SourceLocation } from '../model/desired.js';
import { type Action, type Kind, type Step } from '../plan/types.js';
import { accessResultTable, ROLE_ORDER } from './access-result.js';
import { fencedLine, htmlText, markdownCode, markdownText } from './escape.js';
import { ACTION_SYMBOL, CHANGE_SYMBOL, changedBySuffix, changesOf, formatChange, isOtherAction, orgsOf, requestCount, summaryLine, targetLine, unmanagedAddresses, requestLine } from './format.js';
import { accessOf, accessTables, segmentsOf, siteDiagrams } from './mermaid.js';
import type { MaskedPlan } from './redact.js';

/** GitHub's limit on a comment body; the rendering stays strictly under it. */
export const MARKDOWN_LIMIT = 65_536;

/** A longer value is shortened: one huge value must not push every later step out of the comment. */
const MAX_VALUE_LENGTH = 400;
/** Problems listed at most in the warning; the text and json renderings list them all. */
const MAX_PROBLEMS = 50;

export interface MarkdownOptions {
  /** Characters the result must stay under (default MARKDOWN_LIMIT); smaller in tests. */
  limit?: number;
  /** Why each step exists, in lines under it (`plan --verbose`: src/render/explain.ts). */
  why?: (step: Step) => string[];
  /** Where the config writes each address, per organization: each entry's block names its file:line. */
  locations?: Record<string, Record<string, SourceLocation>>;
  /**
   * The config files' home on the web (`https://github.com/OWNER/REPO/blob/SHA`): an entry's file:line
   * links to `URL/FILE#LLINE` (the action gives the pull request's head commit).
   */
  sourceUrl?: string;
}

/** Inline text that must not be read as markdown or HTML (src/render/escape.ts). */
const escapeText = markdownText;

/** A code span outside a table. */
const code = (text: string): string => markdownCode(text, { table: false });

function diffMark(action: Action): string {
  return action === 'create' ? '+' : action === 'delete' ? '-' : '!';
}

function stepLines(step: Step, why?: (step: Step) => string[]): string[] {
  const mark = diffMark(step.action);
  // The diff mark colours the line; the text rendering's symbol follows where it says more (~ » ↻ ⇡).
  const symbol = ACTION_SYMBOL[step.action] === mark ? '' : `${ACTION_SYMBOL[step.action]} `;
  const suffix = isOtherAction(step.action) ? ` (${step.action})` : '';
  const lines = [fencedLine(`${mark} ${symbol}${step.address}${suffix}${changedBySuffix(step)}`)];
  for (const change of changesOf(step)) {
    const changeMark = change.kind === 'add' ? '+' : change.kind === 'remove' ? '-' : '!';
    lines.push(fencedLine(`${changeMark}   ${CHANGE_SYMBOL[change.kind]} ${formatChange(change, MAX_VALUE_LENGTH)}`));
  }
  for (const note of step.notes ?? []) lines.push(`#   ${fencedLine(note)}`);
  for (const line of why?.(step) ?? []) lines.push(`#   ${fencedLine(line)}`);
  lines.push(`#   ${requestCount(step)}`);
  return lines;
}

interface KindCounts {
  create: number;
  update: number;
  delete: number;
  other: number;
  unmanaged: number;
}

function countsTable(plan: MaskedPlan, orgs: string[]): string[] {
  const several = orgs.length > 1;
  const rows: { org: string; kind: Kind; counts: KindCounts }[] = [];
  for (const org of orgs) {
    for (const kind of KINDS) {
      const counts: KindCounts = { create: 0, update: 0, delete: 0, other: 0, unmanaged: plan.unmanaged[org]?.[kind]?.length ?? 0 };
      for (const s of plan.steps) {
        if (s.org !== org || s.kind !== kind) continue;
        if (isOtherAction(s.action)) counts.other++;
        else counts[s.action as 'create' | 'update' | 'delete']++;
      }
      // A row of unmanaged resources alone says nothing about this plan: the unmanaged list below names them.
      if (counts.create + counts.update + counts.delete + counts.other > 0) rows.push({ org, kind, counts });
    }
  }
  if (rows.length === 0) return [];
  const head = several ? '| Organization | Kind |' : '| Kind |';
  const line = (first: string, c: KindCounts) => `${first} ${c.create} | ${c.update} | ${c.delete} | ${c.other} | ${c.unmanaged} |`;
  const out = [`${head} Create | Update | Delete | Other | Unmanaged |`, `|${several ? ' --- |' : ''} --- | ---: | ---: | ---: | ---: | ---: |`];
  for (const r of rows) out.push(line(several ? `| ${markdownCode(r.org)} | ${r.kind} |` : `| ${r.kind} |`, r.counts));
  // The total's unmanaged counts every kind of the plan's organizations, also those without a row.
  const unmanaged = orgs.reduce((n, org) => n + Object.values(plan.unmanaged[org] ?? {}).reduce((m, list) => m + (list?.length ?? 0), 0), 0);
  const shown = rows.reduce((n, r) => n + r.counts.unmanaged, 0);
  if (rows.length > 1 || unmanaged > shown) {
    const total: KindCounts = { create: 0, update: 0, delete: 0, other: 0, unmanaged };
    for (const r of rows) for (const k of ['create', 'update', 'delete', 'other'] as const) total[k] += r.counts[k];
    out.push(line(several ? '| **Total** | |' : '| **Total** |', total));
  }
  if (unmanaged > shown) out.push('', `The total's ${unmanaged} unmanaged include ${unmanaged - shown} of kinds this plan does not change (listed below).`);
  return out;
}

function warnings(plan: MaskedPlan, several: boolean): string[] {
  const out: string[] = [];
  if (plan.violations.length > 0) {
    out.push('> [!CAUTION]', '> **Safety rules this plan breaks** (apply refuses them unless `--force`):');
    for (const v of plan.violations) out.push(`> - **${v.rule}**: ${escapeText(v.message)}`);
    out.push('');
  }
  if (plan.problems.length > 0) {
    out.push('> [!WARNING]', '> **Problems** (the plan cannot do these):');
    for (const p of plan.problems.slice(0, MAX_PROBLEMS)) {
      const at = p.location ? `${code(`${p.location.file}:${p.location.line}:${p.location.column}`)}: ` : '';
      const what = `${several ? `${p.org}/` : ''}${p.address}${p.field ? `.${p.field}` : ''}`;
      out.push(`> - ${at}${code(what)}: ${escapeText(p.message)}`);
    }
    if (plan.problems.length > MAX_PROBLEMS) {
      out.push(`> - … and ${plan.problems.length - MAX_PROBLEMS} more (see \`docplane plan\` output)`);
    }
    out.push('');
  }
  if (plan.notes && plan.notes.length > 0) {
    out.push('> [!NOTE]');
    for (const note of plan.notes) out.push(`> - ${escapeText(note)}`);
    out.push('');
  }
  const unmanaged = Object.keys(plan.unmanaged)
    .sort()
    .flatMap((org) => unmanagedAddresses(plan.unmanaged[org]).map((a) => (several ? `${org}/${a}` : a)));
  if (unmanaged.length > 0) {
    out.push(`<details><summary>Unmanaged: ${unmanaged.length} not in the config, left alone</summary>`, '');
    for (const a of unmanaged.slice(0, MAX_PROBLEMS)) out.push(`- ${code(a)}`);
    if (unmanaged.length > MAX_PROBLEMS) out.push(`- … and ${unmanaged.length - MAX_PROBLEMS} more (\`--format json\` lists them all)`);
    out.push('', '</details>', '');
  }
  return out;
}

/** At most this many items in a collapsed structure list: a huge site's list says how many more. */
const MAX_TREE = 400;

/** A site's whole structure as it will be, as a nested list in a collapsed block. */
function collapsedTree(tree: readonly { depth: number; text: string }[]): string[] {
  const out = [`<details><summary>The whole structure as it will be (${tree.length} items)</summary>`, ''];
  for (const t of tree.slice(0, MAX_TREE)) out.push(`${'  '.repeat(t.depth)}- ${escapeText(t.text)}`);
  if (tree.length > MAX_TREE) out.push(`- … and ${tree.length - MAX_TREE} more`);
  out.push('', '</details>', '');
  return out;
}

/** At most this many lines in "Needs attention"; the blocks below list the rest. */
const MAX_ATTENTION = 40;


/** What a reviewer names a step's object by: its title (or name, label, email), else its address's last key. */
function titleOf(step: Step): string {
  // The title it will have (a rename shows its new one), else the one it had (a delete).
  for (const side of [step.after, step.before]) {
    for (const field of ['title', 'name', 'label', 'email']) {
      const v = (side as Record<string, unknown> | null)?.[field];
      if (typeof v === 'string' && v !== '') return v;
    }
  }
  const segments = segmentsOf(step.address);
  return segments?.reverse().find((s) => s.key !== undefined)?.key ?? step.address;
}

const roleOf = (v: unknown): string | undefined => {
  const r = (v as { role?: unknown } | null)?.role;
  return typeof r === 'string' ? r : undefined;
};

/**
 * The lines a reviewer must not miss, before anything else: every problem, safety rule broken, policy
 * warning and twin, every delete, and every revocation or lowered role, each by its title.
 */
function needsAttention(plan: MaskedPlan, several: boolean): string[] {
  const items: string[] = [];
  const where = (org: string, address: string) => code(several ? `${org}/${address}` : address);
  for (const p of plan.problems) {
    const at = p.location ? ` at ${code(`${p.location.file}:${p.location.line}:${p.location.column}`)}` : '';
    items.push(`**problem** ${where(p.org, `${p.address}${p.field ? `.${p.field}` : ''}`)}${at}: ${escapeText(p.message)}`);
  }
  for (const v of plan.violations) items.push(`**safety rule ${escapeText(v.rule)}**: ${escapeText(v.message)}`);
  for (const n of plan.notes ?? []) if (/^(?:[^\s:]+: )?warning: /.test(n)) items.push(`**policy warning**: ${escapeText(n.replace(/^(?:[^\s:]+: )?warning: /, ''))}`);
  for (const d of plan.duplicates ?? []) items.push(`**twin** ${code(d)}: two remote resources share one key`);
  for (const step of plan.steps) {
    const before = roleOf(step.before);
    const after = roleOf(step.after);
    if (step.action === 'delete') {
      const verb = before === undefined ? 'delete' : /Access$/.test(step.kind) ? 'revoke' : 'remove';
      const what = `${verb} **${escapeText(titleOf(step))}**${before !== undefined ? ` (${escapeText(before)} → none)` : ''}`;
      items.push(`${what} ${where(step.org, step.address)}`);
    } else if (before !== undefined && (after === undefined || ROLE_ORDER.indexOf(after) > ROLE_ORDER.indexOf(before))) {
      items.push(`lower **${escapeText(titleOf(step))}** (${escapeText(before)} → ${escapeText(after ?? 'none')}) ${where(step.org, step.address)}`);
    }
  }
  if (items.length === 0) return [];
  const out = ['**Needs attention**', ''];
  for (const it of items.slice(0, MAX_ATTENTION)) out.push(`- ${it}`);
  if (items.length > MAX_ATTENTION) out.push(`- … and ${items.length - MAX_ATTENTION} more (the blocks below list them)`);
  out.push('');
  return out;
}

/** The share of the limit the pictures may take: the steps' details keep the rest. */
const PICTURES_SHARE = 0.4;

/** The pictures (a Mermaid flowchart per site whose structure changes) and the access tables, within `budget` characters. */
function pictures(plan: MaskedPlan, several: boolean, budget: number): string[] {
  const pieces: string[][] = [];
  for (const d of siteDiagrams(plan)) {
    const name = code(several ? `${d.org}/sites["${d.site}"]` : `sites["${d.site}"]`);
    const heading = d.title !== undefined && d.title !== d.site ? `#### Structure of ${escapeText(d.title)} (${name})` : `#### Structure of ${name}`;
    const caption = d.caption !== undefined ? [`_${escapeText(d.caption)}_`, ''] : d.omitted > 0 ? [`_A large site: only what changes and its parents are drawn (${d.omitted} other items left out)._`, ''] : [];
    const tree = d.tree && d.tree.length > 0 ? collapsedTree(d.tree) : [];
    pieces.push([heading, '', ...caption, '```mermaid', d.mermaid, '```', '', ...tree]);
  }
  const results = plan.access ?? [];
  results.forEach((r, i) => {
    pieces.push([...(i === 0 ? ['#### Access after this plan', ''] : []), ...accessResultTable(r, several ? `${r.org}/${r.address}` : r.address)]);
  });
  // A plan saved before access results existed: the changed grants alone, from its steps.
  const tables = results.length > 0 ? [] : accessTables(plan);
  tables.forEach((t, i) => {
    const name = code(several ? `${t.org}/${t.object}` : t.object);
    const rows = t.rows.map((r) => `| ${escapeText(r.who)} | ${escapeText(r.before)} → ${r.after === r.before ? escapeText(r.after) : `**${escapeText(r.after)}**`} |`);
    pieces.push([...(i === 0 ? ['#### Access changes', ''] : []), `Access of ${name}:`, '', '| Who | Role before → after |', '| --- | --- |', ...rows, '']);
  });
  const out: string[] = [];
  let size = 0;
  for (const [i, piece] of pieces.entries()) {
    const length = piece.join('\n').length + 1;
    if (size + length > budget) {
      out.push(`> … ${pieces.length - i} more ${pieces.length - i === 1 ? 'picture or table' : 'pictures and tables'} not shown (plan too large for one comment)`, '');
      break;
    }
    out.push(...piece);
    size += length;
  }
  return out;
}

/** One config entry's steps: a top-level resource and everything under it (`teams["Eng"]`, `organization`). */
interface EntryBlock {
  org: string;
  /** The entry's address: the first keyed segment of its steps' addresses, or their first name. */
  entry: string;
  steps: Step[];
}

/** The plan's steps grouped per config entry, in the units' order, then by address; each entry's steps in the plan's order. */
function entryBlocks(plan: MaskedPlan, orgs: string[]): EntryBlock[] {
  const blocks = new Map<string, EntryBlock>();
  for (const step of plan.steps) {
    const entry = entryOf(step.address) ?? topName(step.address) ?? step.address;
    const id = `${step.org}\0${entry}`;
    let block = blocks.get(id);
    if (!block) blocks.set(id, (block = { org: step.org, entry, steps: [] }));
    block.steps.push(step);
  }
  const unitIndex = (entry: string) => {
    const top = topName(entry) ?? '';
    const i = UNITS.findIndex((u) => u.addressNames.top.includes(top));
    return i < 0 ? UNITS.length : i;
  };
  return [...blocks.values()].sort((a, b) => orgs.indexOf(a.org) - orgs.indexOf(b.org) || unitIndex(a.entry) - unitIndex(b.entry) || compareAddresses(a.entry, b.entry));
}

/** An entry's name for a reviewer: what it is (`team`) and its title, from its own step, its picture or its access, else its key. */
function entryName(plan: MaskedPlan, block: EntryBlock): { what: string; title?: string } {
  const top = topName(block.entry) ?? block.entry;
  const keyOf = segmentsOf(block.entry)?.[0]?.key;
  if (keyOf === undefined) return { what: top };
  const what = KIND_SPECS.find((k) => k.kind === top)?.label.one ?? top;
  const own = block.steps.find((s) => s.address === block.entry);
  const title =
    (own ? titleOf(own) : undefined) ??
    plan.pictures?.find((p) => p.org === block.org && p.address === block.entry)?.title ??
    plan.access?.find((a) => a.org === block.org && a.address === block.entry)?.title ??
    keyOf;
  return { what, title };
}

/** `1 to create, 2 to update`: what an entry's steps do. */
function actionCounts(steps: readonly Step[]): string {
  const n = { create: 0, update: 0, delete: 0, other: 0 };
  for (const s of steps) n[isOtherAction(s.action) ? 'other' : (s.action as 'create' | 'update' | 'delete')]++;
  const parts = [n.create && `${n.create} to create`, n.update && `${n.update} to update`, n.delete && `${n.delete} to delete`, n.other && `${n.other} other`];
  return parts.filter(Boolean).join(', ');
}

/** `URL/FILE#LLINE` for a config file under the current folder; undefined for a file outside it. */
function sourceLink(sourceUrl: string, at: SourceLocation): string | undefined {
  const file = at.file.replace(/\\/g, '/');
  if (file.startsWith('/') || file.startsWith('../') || /^[A-Za-z]:/.test(file)) return undefined;
  return `${sourceUrl.replace(/\/+$/, '')}/${file.split('/').map(encodeURIComponent).join('/')}#L${at.line}`;
}

/**
 * The `<summary>` of an entry's block, `team <b>Writers</b> · 1 to create · teams.yaml:12` (HTML: no
 * markdown is read there), given how many of its steps are shown.
 */
function entrySummary(plan: MaskedPlan, block: EntryBlock, several: boolean, options: MarkdownOptions): (shown: number) => string {
  const { what, title } = entryName(plan, block);
  const name = `${several ? `${htmlText(block.org)}: ` : ''}${htmlText(what)}${title !== undefined ? ` <b>${htmlText(title)}</b>` : ''}`;
  const counts = actionCounts(block.steps);
  const at = options.locations?.[block.org]?.[block.entry];
  let where = '';
  if (at !== undefined) {
    const text = htmlText(`${at.file}:${at.line}`);
    const link = options.sourceUrl !== undefined ? sourceLink(options.sourceUrl, at) : undefined;
    where = ` · ${link !== undefined ? `<a href="${link.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}">${text}</a>` : `<code>${text}</code>`}`;
  }
  return (shown) => `<summary>${name} · ${counts}${shown < block.steps.length ? ` (first ${shown} of ${block.steps.length} shown)` : ''}${where}</summary>`;
}

/**
 * The grants in this plan that name an entry from another entry's access (a team's grants are
 * written on the collections, spaces and sites), as lines of the named entry's block, by
 * `ORG\0ENTRY`: made once for the plan.
 */
function grantsByEntry(plan: MaskedPlan, several: boolean): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const step of plan.steps) {
    const m = accessOf(step.address);
    if (!m) continue;
    const before = roleOf(step.before);
    const after = roleOf(step.after);
    const t = (r: string | undefined) => markdownText(r ?? '—');
    const change = after !== undefined ? (before !== undefined ? `${t(before)} → **${t(after)}**` : `**${t(after)}**`) : `**revoked** (was ${t(before)})`;
    const id = `${step.org}\0${m.who}${key(m.key)}`;
    const lines = out.get(id) ?? [];
    lines.push(`- ${change} on ${code(several ? `${step.org}/${m.object}` : m.object)}`);
    out.set(id, lines);
  }
  return out;
}

function fenceFor(lines: string[]): string {
  const runs = lines.join('\n').match(/`{3,}/g) ?? [];
  return '`'.repeat(Math.max(3, ...runs.map((r) => r.length + 1)));
}

function cutNote(hidden: number): string {
  return `> … ${hidden} more ${hidden === 1 ? 'step' : 'steps'} not shown (plan too large for one comment; see the saved plan artifact)`;
}

/** Renders a masked plan as markdown for a pull-request comment (no trailing newline). */
export function renderMarkdown(plan: MaskedPlan, options: MarkdownOptions = {}): string {
  const limit = options.limit ?? MARKDOWN_LIMIT;
  const orgs = orgsOf(plan);
  const several = orgs.length > 1;

  const head: string[] = [`### ${summaryLine(plan)}`, ''];
  head.push(`${several ? 'Organizations' : 'Organization'}: ${orgs.map(code).join(', ')}`, '');
  const targeted = targetLine(plan);
  if (targeted) head.push('> [!IMPORTANT]', `> ${escapeText(targeted)}`, '');
  head.push(...needsAttention(plan, several));
  const table = countsTable(plan, orgs);
  if (table.length > 0) head.push(...table, '');
  head.push(...warnings(plan, several));
  head.push(...pictures(plan, several, Math.floor(limit * PICTURES_SHARE)));

  let text = head.join('\n');
  const total = plan.steps.length;
  // Room kept for the note that says how much was cut, sized for the largest possible count.
  const reserve = cutNote(total).length + 2;
  let shown = 0;
  let cut = false;

  const grants = grantsByEntry(plan, several);
  for (const block of entryBlocks(plan, orgs)) {
    if (cut) break;
    const diffs = block.steps.map((step) => stepLines(step, options.why));
    const fence = fenceFor(diffs.flat());
    const named = grants.get(`${block.org}\0${block.entry}`) ?? [];
    const intro = named.length > 0 ? `Its grants in this plan (in the blocks of what they grant):\n\n${named.join('\n')}\n\n` : '';
    const summary = entrySummary(plan, block, several, options);
    const close = `${fence}\n\n</details>\n`;
    const open = (n: number) => `<details>${summary(n)}\n\n${intro}${fence}diff\n`;

    const body: string[] = [];
    let size = 0;
    for (const lines of diffs) {
      const piece = `${body.length > 0 ? '\n' : ''}${lines.join('\n')}\n`;
      const needed = text.length + open(body.length + 1).length + size + piece.length + close.length + reserve;
      if (needed >= limit) {
        cut = true;
        break;
      }
      body.push(piece);
      size += piece.length;
    }
    if (body.length > 0) {
      text += `\n${open(body.length)}${body.join('')}${close}`;
      shown += body.length;
    }
  }

  if (shown < total) text += `\n${cutNote(total - shown)}\n`;
  else text += requestsSection(plan, limit - text.length);
  return text.replace(/\n+$/, '');
}

/**
 * The requests of every step (method and path), collapsed: what a reviewer approves is also what
 * apply sends, once it has derived them again. Left out, with a line saying where to see them, when
 * it would not fit in `room` characters.
 */
function requestsSection(plan: MaskedPlan, room: number): string {
  const lines: string[] = [];
  for (const step of plan.steps) {
    lines.push(fencedLine(step.id));
    for (const r of step.requests) lines.push(fencedLine(`  ${requestLine(r)}`));
  }
  if (lines.length === 0) return '';
  const fence = fenceFor(lines);
  const n = plan.steps.reduce((sum, s) => sum + s.requests.length, 0);
  const section = `\n<details><summary>Requests (${n})</summary>\n\n${fence}\n${lines.join('\n')}\n${fence}\n\n</details>\n`;
  if (section.length < room - 2) return section;
  return '\n> The requests are not listed (too large for one comment): `docplane show --verbose PLANFILE` lists them.\n';
}
