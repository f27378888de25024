/** `docplane access`: each object's direct grants and every user's effective role, in text or JSON. */
import type { ObjectAccess, Origin } from '../kinds/index.js';
import { terminalText as t } from './escape.js';

function originText(o: Origin): string {
  switch (o.type) {
    case 'direct':
      return 'direct';
    case 'team':
      return `team ${t(o.team)}`;
    case 'space':
      return `from space ${t(o.space)}`;
    case 'organization':
      return 'from the organization';
    case 'site-default':
      return "the site's default";
    case 'team-or-inherited':
      return o.direct === undefined ? 'through a team, or inherited' : `through a team, or inherited (direct grant: ${o.direct})`;
  }
}

const pairs = (record: Record<string, string>): string =>
  Object.entries(record)
    .map(([k, v]) => `${t(k)} ${t(v)}`)
    .join(', ') || '(none)';

export function renderAccessText(org: string, objects: readonly ObjectAccess[]): string {
  if (objects.length === 0) return `${t(org)}: no collections, spaces or sites\n`;
  const lines: string[] = [];
  for (const o of objects) {
    lines.push(`${o.target} ${t(JSON.stringify(o.name))} (${t(o.id)})`);
    lines.push(`  direct teams: ${pairs(o.teams)}`);
    lines.push(`  direct users: ${pairs(o.users)}`);
    if (o.effective.length === 0) lines.push('  effective:    (nobody)');
    else lines.push('  effective:', ...o.effective.map((e) => `    ${t(e.user)} ${t(e.role)} (${originText(e.origin)})`));
  }
  const inherited = objects.reduce((n, o) => n + o.effective.filter((e) => e.origin.type !== 'direct').length, 0);
  lines.push('', `${objects.length} object(s); ${inherited} effective role(s) not given by a direct user grant. Only direct grants are managed by \`access:\`.`);
  return `${lines.join('\n')}\n`;
}

export function renderAccessJson(org: string, objects: readonly ObjectAccess[]): string {
  return JSON.stringify({ organization: org, objects }, null, 2);
}
