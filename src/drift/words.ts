/** How the renderings word who changed an object (`changed in the app by Ana Lima, 2026-11-27 10:32 UTC`). */
import type { ChangedBy } from '../plan/types.js';
import { shortUtc } from './since.js';

const WHERE: Record<string, string> = {
  ui: 'in the app',
  api: 'through the API',
  integration: 'by an integration',
  webhook: 'by a webhook',
  workflow: 'by a workflow',
  script: 'by a script',
  support: 'by support',
};

/** A remote label on one line, and short: it stands beside a step's address. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

/** One phrase, without parentheses. Labels are remote text: the renderings show them as data. */
export function changedByText(c: ChangedBy): string {
  const who = oneLine(c.actor.label ?? c.actor.id);
  const when = shortUtc(c.at);
  if (c.by === 'docplane') return `applied by docplane (as ${who}), ${when}`;
  const where = WHERE[c.source] ?? `from ${c.source}`;
  return c.by === 'person' ? `changed ${where} by ${who}, ${when}` : `changed ${where}, ${who}, ${when}`;
}
