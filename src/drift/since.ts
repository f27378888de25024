/**
 * `plan --since TIME`: an RFC 3339 time (`2026-11-27T09:00:00Z`) or a duration back from now (`70m`,
 * `2h`, `7d`, `1w`, `90s`; units may be combined: `1h30m`).
 */
import { DocplaneError } from '../core/errors.js';

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DURATION = /^(?:\d+[smhdw])+$/;
const RFC3339 = /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:[Zz]|[+-]\d\d:\d\d)$/;

/** The time `--since` names, refused with one line when it is neither form or lies in the future. */
export function parseSince(text: string, now: Date): Date {
  const t = text.trim();
  let at: Date | undefined;
  if (DURATION.test(t)) {
    let ms = 0;
    for (const [, n, unit] of t.matchAll(/(\d+)([smhdw])/g)) ms += Number(n) * UNIT_MS[unit];
    at = new Date(now.getTime() - ms);
  } else if (RFC3339.test(t) && !Number.isNaN(Date.parse(t))) {
    at = new Date(Date.parse(t));
  }
  if (at === undefined) {
    throw new DocplaneError('BAD_SINCE', `--since ${text}: not an RFC 3339 time (2026-11-27T09:00:00Z) nor a duration (70m, 2h, 7d)`, {
      hint: 'Give a time with its offset, or how long ago: --since 70m.',
    });
  }
  if (at.getTime() > now.getTime()) throw new DocplaneError('BAD_SINCE', `--since ${text}: ${at.toISOString()} is in the future`, { hint: 'Give a time in the past.' });
  return at;
}

/** `2026-11-27 10:32 UTC`: how the renderings show an event's time. */
export function shortUtc(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`;
}
