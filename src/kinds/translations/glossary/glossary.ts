/**
 * The translation glossary (`glossary`): the organization's glossary entries, each a term in several
 * languages, the whole truth when the config gives the list. One PUT ORG/translations-glossary
 * (updateGlossaryEntries) inserts, updates and deletes every entry that differs, in one batch: a plan
 * has one step for the glossary, its changes shown per entry.
 *
 * An entry matches the remote one with its `id`, else the one with the same term in its first
 * language (in the API's order of languages: en, fr, de, …), which is also its name in the plan
 * (`en:API`).
 */
import { z } from 'zod';
import type { JsonObject, JsonValue } from '../../../model/step.js';
import { fingerprintEntries } from '../../../model/fingerprint.js';
import { LANGUAGES } from '../../common/fields.js';
import { diffFields } from '../../common/match.js';
import { matchPairs } from '../../common/analyse.js';
import { key } from '../../../model/address.js';
import { orgPath } from '../../common/paths.js';
import { step } from '../../common/step.js';
import { emptyKindPlan, type KindPlan, type KindSpec, type Reader } from '../../kind.js';
import type { GlossaryEntryT } from './schema.js';

export interface RemoteGlossaryEntry {
  id: string;
  translations: Record<string, string>;
}

const GlossaryEntryAnswer = z.looseObject({ id: z.string(), translations: z.record(z.string(), z.string()) });

export const GLOSSARY_ADDRESS = 'glossary';
export const glossaryPath = (org: string): string => `${orgPath(org)}/translations-glossary`;

const ORDER = new Map<string, number>(LANGUAGES.map((l, i) => [l, i]));

/** Language codes in the API's order (codes it does not list last, sorted). */
export function languageOrder(a: string, b: string): number {
  return (ORDER.get(a) ?? ORDER.size) - (ORDER.get(b) ?? ORDER.size) || (a < b ? -1 : a > b ? 1 : 0);
}

/** An entry's terms, in the API's order of languages. */
export function termsOf(entry: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(entry).sort(languageOrder)) {
    const v = entry[k];
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

/** An entry's name: its first language and the term in it (`en:API`). */
export function entryKey(terms: Record<string, string>): string {
  const first = Object.keys(terms).sort(languageOrder)[0];
  return first === undefined ? '' : `${first}:${terms[first]}`;
}

function sameTerms(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => b[k] === a[k]);
}

/** The glossary: one list (listGlossaryEntries). */
export function readGlossary(ctx: Reader): Promise<RemoteGlossaryEntry[]> {
  return ctx.client.listAll<RemoteGlossaryEntry>(glossaryPath(ctx.org), {}, { schema: GlossaryEntryAnswer });
}

type Operation = { type: 'insert'; translations: Record<string, string> } | { type: 'update'; id: string; translations: Record<string, string> } | { type: 'delete'; id: string };

export const glossaryModule: KindSpec<RemoteGlossaryEntry[] | undefined> = {
  kind: 'glossary',
  label: { one: 'translation glossary', many: 'translation glossaries' },
  count: (org) => (org.glossary === undefined ? 0 : 1),

  async read(ctx) {
    if (ctx.desired.glossary === undefined) return undefined;
    return readGlossary(ctx);
  },

  plan(ctx, remote): KindPlan {
    const kp = emptyKindPlan();
    const desired = ctx.desired.glossary;
    if (desired === undefined || remote === undefined) return kp;
    kp.remoteCount = remote.length;

    // By id first for every entry, then by name (the shared matching of every kind).
    const wanted = desired.map((d) => ({ id: d.id, terms: termsOf(d.translations) }));
    const { pairs, unmatched, twice } = matchPairs(wanted, remote, {
      address: (k) => `${GLOSSARY_ADDRESS}${key(k)}`,
      desiredKey: (w) => entryKey(w.terms),
      remoteKey: (r) => entryKey(r.translations),
      remoteId: (r) => r.id,
      desiredId: (w) => w.id,
    });
    for (const { entry, other } of twice) {
      kp.problems.push({ org: ctx.org, address: GLOSSARY_ADDRESS, message: `two entries name the glossary entry ${other.remote?.id} (${entryKey(other.desired.terms)}): one by id, one by its term ${entryKey(entry.desired.terms)}; keep one, or the plan would insert a second` });
    }
    if (twice.length > 0) return kp;
    const matched = new Map(pairs.flatMap((p, i) => (p.remote ? [[i, p.remote] as const] : [])));

    const operations: Operation[] = [];
    const before: JsonObject = {};
    const after: JsonObject = {};
    const name = (terms: Record<string, string>, id: string | undefined, used: JsonObject) => {
      const k = entryKey(terms);
      return k in used && id !== undefined ? `${k}#${id}` : k;
    };
    wanted.forEach((w, i) => {
      const r = matched.get(i);
      if (r === undefined) {
        operations.push({ type: 'insert', translations: w.terms });
        after[name(w.terms, undefined, after)] = w.terms;
        return;
      }
      if (sameTerms(w.terms, r.translations)) return;
      operations.push({ type: 'update', id: r.id, translations: w.terms });
      const k = name(w.terms, r.id, after);
      before[k] = termsOf(r.translations);
      after[k] = w.terms;
    });
    // An entry no config entry matches is deleted; one with the term of a managed entry (a twin) is
    // named by its term and id.
    const managed = new Set(pairs.flatMap((p) => (p.remote ? [entryKey(p.remote.translations)] : [])));
    for (const r of unmatched) {
      operations.push({ type: 'delete', id: r.id });
      const k = entryKey(r.translations);
      before[managed.has(k) ? `${k}#${r.id}` : name(r.translations, r.id, { ...before, ...after })] = termsOf(r.translations);
    }
    if (operations.length === 0) return kp;

    const counts = (['insert', 'update', 'delete'] as const).map((t) => [t, operations.filter((o) => o.type === t).length] as const).filter(([, n]) => n > 0);
    kp.steps.push(
      step({
        address: GLOSSARY_ADDRESS,
        kind: 'glossary',
        action: 'update',
        before,
        after,
        changes: diffFields(before, after),
        // Sent once: a batch resent after a lost answer would insert its entries twice. After an
        // unclear answer the glossary is listed: the entries as this batch leaves them mean it went
        // through, the entries as they were mean it did not (then it is sent again).
        requests: [
          {
            method: 'PUT',
            path: glossaryPath(ctx.org),
            body: { operations: operations as unknown as JsonValue },
            once: true,
            verify: {
              path: glossaryPath(ctx.org),
              fields: ['translations'],
              before: remote.map((r) => ({ translations: termsOf(r.translations) })),
              after: wanted.map((w) => ({ translations: w.terms })),
            },
          },
        ],
        notes: [`glossary entries: ${counts.map(([t, n]) => `${n} to ${t}`).join(', ')}, in one request`],
      }),
    );
    const normalized = [...remote].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((r) => ({ id: r.id, translations: termsOf(r.translations) }));
    kp.fingerprints = fingerprintEntries([[GLOSSARY_ADDRESS, normalized]]);
    return kp;
  },
};

/** The config's entries as the plan names them, for duplicates (`en:API`). */
export function desiredKey(d: GlossaryEntryT): string {
  return entryKey(termsOf(d.translations));
}
