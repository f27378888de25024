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

/** One phrase, without parentheses. Labels are remote text: the renderings show them as data. */
export function changedByText(c: ChangedBy): string {
  const who = c.actor.label ?? c.actor.id;
  const when = shortUtc(c.at);
  if (c.by === 'docplane') return `applied by docplane (as ${who}), ${when}`;
  const where = WHERE[c.source] ?? `from ${c.source}`;
  return c.by === 'person' ? `changed ${where} by ${who}, ${when}` : `changed ${where}, ${who}, ${when}`;
}
