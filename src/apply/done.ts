/**
 * Done means done: a saved plan's create is counted as done only when the object, read now, has every
 * field the create sets at the create's value. A create someone else made with other values (a team
 * "Ops" with carol where the reviewed plan creates it with bob) makes the plan stale, naming the
 * object and the field; nothing is sent.
 *
 * The kinds report what they observed of each matched object in a create's terms (`KindPlan.observed`),
 * several kinds one object (a team's title is the teams kind's, its members the membership kind's);
 * the re-derivation of a saved plan's scope plans every kind of its entries, so each is observed.
 */
import { stableStringify } from '../core/json.js';
import type { JsonValue, Plan, Step } from '../plan/types.js';

const at = (s: Pick<Step, 'org' | 'address'>) => `${s.org}/${s.address}`;

/** The file's creates that the re-derivation no longer gives: the object exists now. */
export function doneCreates(file: Pick<Plan, 'steps'>, fresh: Pick<Plan, 'steps'>): Step[] {
  const created = new Set(fresh.steps.filter((s) => s.action === 'create').map(at));
  return file.steps.filter((s) => s.action === 'create' && !created.has(at(s)));
}

/** A value as compared: lists in any order (a team's members), tokens (refs, secrets) not at all. */
function comparable(v: JsonValue): string | undefined {
  if (typeof v === 'string' && v.includes('{{')) return undefined;
  if (Array.isArray(v)) {
    if (v.some((x) => comparable(x) === undefined)) return undefined;
    return stableStringify([...v].map((x) => stableStringify(x)).sort());
  }
  return stableStringify(v);
}

export interface PreEmpted {
  /** `ORG/ADDRESS` of the object. */
  address: string;
  field: string;
  now: JsonValue;
  planned: JsonValue;
}

/**
 * The fields of a create that the reviewed plan sets after the create itself: by the create's own
 * later requests (a PATCH of what the create request does not take) or by a later step at its address
 * (a space's defaultLevel). An interrupted apply leaves them to those requests, which the saved
 * check holds as what is left of the step.
 */
function laterFields(file: Pick<Plan, 'steps'>, create: Step): Set<string> {
  const out = new Set<string>();
  for (const r of create.requests.slice(1)) if (r.body && typeof r.body === 'object' && !Array.isArray(r.body)) for (const k of Object.keys(r.body)) out.add(k);
  for (const f of file.steps) if (f !== create && at(f) === at(create) && f.after !== null) for (const k of Object.keys(f.after)) out.add(k);
  return out;
}

/**
 * The done creates whose object, as observed now, differs from what the create sets (first field
 * each). A field the kinds do not observe (a secret, a reference by title) is not compared.
 */
export function preEmptedCreates(file: Pick<Plan, 'steps'>, fresh: Pick<Plan, 'steps' | 'observed'>): PreEmpted[] {
  const out: PreEmpted[] = [];
  for (const s of doneCreates(file, fresh)) {
    const now = fresh.observed?.[at(s)];
    if (!now || s.after === null) continue;
    const later = laterFields(file, s);
    for (const [field, planned] of Object.entries(s.after)) {
      if (!(field in now) || later.has(field)) continue;
      const want = comparable(planned);
      if (want !== undefined && want !== comparable(now[field])) {
        out.push({ address: at(s), field, now: now[field], planned });
        break;
      }
    }
  }
  return out;
}

/** One line per pre-empted create, for the stale plan's message. */
export function preEmptedLine(p: PreEmpted): string {
  return `${p.address} was created by someone else with ${p.field} ${JSON.stringify(p.now)}; the plan creates it with ${JSON.stringify(p.planned)}`;
}
