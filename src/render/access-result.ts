/**
 * The access tables of a pull-request comment: for each object whose access the plan changes, who
 * can do what after it — every direct grant, changed rows marked, and under a team the people who
 * hold its role through it (the members the config lists, else how many the team has). Drawn from
 * the plan's access results (src/model/access-result.ts); a plan saved before they existed gets the
 * table of the changed grants alone.
 */
import type { AccessGrantRow, PlanAccessResult } from '../model/access-result.js';
import { markdownCode, markdownText } from './escape.js';

/** Roles from the most to the least: a step to a later one (or to none) lowers access. */
export const ROLE_ORDER = ['admin', 'create', 'review', 'edit', 'comment', 'read'];

/** Member rows shown under one team grant; a larger team says how many more. */
const MAX_MEMBERS = 50;

const rank = (role: string | null): number => (role === null ? ROLE_ORDER.length : ROLE_ORDER.includes(role) ? ROLE_ORDER.indexOf(role) : ROLE_ORDER.length - 1);

/** What becomes of a grant, in words: new, raised, lowered, revoked, or nothing (unchanged). */
function changeOf(row: AccessGrantRow): string {
  if (row.before === row.after) return '';
  if (row.before === null) return '**new**';
  if (row.after === null) return `**revoked** (was ${markdownText(row.before)})`;
  return `**${rank(row.after) < rank(row.before) ? 'raised' : 'lowered'}** from ${markdownText(row.before)}`;
}

const role = (r: string | null): string => markdownText(r ?? '—');

/**
 * The table of one object: `| Who | Role after | How | Change |`, teams first, each team's members
 * under it as `↳` rows "through team …"; a user's direct row says when a team gives them more.
 */
export function accessResultTable(result: PlanAccessResult, name: string): string[] {
  const through = new Map<string, { role: string; team: string }>();
  for (const row of result.rows) {
    if (row.who !== 'team' || row.after === null) continue;
    for (const m of row.members ?? []) {
      const held = through.get(m);
      if (held === undefined || rank(row.after) < rank(held.role)) through.set(m, { role: row.after, team: row.name });
    }
  }
  const heading = result.title !== undefined && result.title !== '' ? `**${markdownText(result.title)}** (${markdownCode(name, { table: false })})` : markdownCode(name, { table: false });
  const out = [`Access of ${heading} after this plan:`, '', '| Who | Role after | How | Change |', '| --- | --- | --- | --- |'];
  for (const row of result.rows) {
    const changed = row.before !== row.after;
    const after = changed ? `**${role(row.after)}**` : role(row.after);
    const more = row.who === 'user' ? through.get(row.name) : undefined;
    let how = row.after === null ? '' : 'direct';
    if (more && rank(more.role) < rank(row.after)) how = `${row.after === null ? 'still' : 'direct;'} ${markdownText(more.role)} through team ${markdownText(more.team)}`;
    out.push(`| ${row.who} ${markdownText(row.name)} | ${after} | ${how} | ${changeOf(row)} |`);
    if (row.who !== 'team' || row.after === null) continue;
    const mark = changed ? `**${role(row.after)}**` : role(row.after);
    const via = `through team ${markdownText(row.name)}`;
    const members = row.members ?? [];
    for (const m of members.slice(0, MAX_MEMBERS)) out.push(`| ↳ ${markdownText(m)} | ${mark} | ${via} | ${changed ? 'with the team' : ''} |`);
    if (members.length > MAX_MEMBERS) out.push(`| ↳ … and ${members.length - MAX_MEMBERS} more members | ${mark} | ${via} | |`);
    if (row.members === undefined) {
      const who = row.memberCount === undefined ? 'its members' : `its ${row.memberCount} ${row.memberCount === 1 ? 'member' : 'members'}`;
      out.push(`| ↳ ${who} (the config does not list them) | ${mark} | ${via} | ${changed ? 'with the team' : ''} |`);
    }
  }
  out.push('');
  return out;
}
