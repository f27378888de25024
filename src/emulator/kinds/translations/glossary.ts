/** The translation glossary of an organization: entries of terms by language, changed in batches. */
import { z } from 'zod';
import { badRequest, bodyObject, listReply, noContent, notFound, ok, validate } from '../../http.js';
import { SeedError, defineKind } from '../../kind.js';
import type { OrgRec } from '../../model.js';
import { nowIso, orgOf, viewCtx } from '../../routing.js';
import { Id, LANGUAGES, Language } from '../../schemas.js';
import { apiUrl } from '../../views.js';
import type { Obj, ViewContext } from '../../views.js';

export interface GlossaryEntryRec {
  id: string;
  translations: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

declare module '../../model.js' {
  interface OrgRec {
    glossary: Map<string, GlossaryEntryRec>;
  }
}

/** GlossaryTranslations: language code → a term of 1 to 255 characters on one line. */
const Term = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^\n\r]*$/, 'must be on one line');
const GlossaryTranslations = z.partialRecord(Language, Term);

const EntrySeed = z.strictObject({ id: Id.optional(), translations: GlossaryTranslations });

const Operation = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('insert'), translations: GlossaryTranslations }),
  z.strictObject({ type: z.literal('update'), id: z.string().min(1), translations: GlossaryTranslations }),
  z.strictObject({ type: z.literal('delete'), id: z.string().min(1) }),
]);
const UpdateGlossary = z.strictObject({ operations: z.array(Operation) });

function entryView(ctx: ViewContext, org: OrgRec, e: GlossaryEntryRec): Obj {
  return {
    object: 'glossary-entry',
    id: e.id,
    translations: { ...e.translations },
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    urls: { location: apiUrl(ctx, `/orgs/${org.id}/translations-glossary/${e.id}`) },
  };
}

function clean(t: Partial<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(t).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export const glossaryKind = defineKind({
  name: 'glossary',
  orgSeed: {
    glossary: z.array(EntrySeed).default([]),
  },
  seedOrg(ctx, org, seed, place) {
    org.glossary = new Map();
    seed.glossary.forEach((e, i) => {
      const id = e.id ?? ctx.world.newId('gle');
      if (org.glossary.has(id)) throw new SeedError(`${place}.glossary[${i}].id`, `${id} is given twice`);
      const at = ctx.stamp();
      org.glossary.set(id, { id, translations: clean(e.translations), createdAt: at, updatedAt: at });
    });
  },
  routes(router) {
    const base = '/v1/orgs/:org/translations-glossary';
    router.add('GET', base, (req) => {
      const org = orgOf(req);
      const by = req.query.get('orderBy');
      if (by !== null && !(LANGUAGES as readonly string[]).includes(by)) throw badRequest(`orderBy: must be one of ${LANGUAGES.join(', ')}`);
      const entries = [...org.glossary.values()];
      // Sorted by the term in that language; entries without one come last, in their order.
      if (by !== null) entries.sort((a, b) => (a.translations[by] === undefined ? 1 : 0) - (b.translations[by] === undefined ? 1 : 0) || (a.translations[by] ?? '').localeCompare(b.translations[by] ?? ''));
      return listReply(req.query, entries, (e) => entryView(viewCtx(req), org, e));
    });

    // All or nothing: every operation is checked before any is made.
    router.add('PUT', base, (req) => {
      const org = orgOf(req);
      const body = validate(UpdateGlossary, bodyObject(req));
      const gone = new Set<string>();
      body.operations.forEach((op, i) => {
        if (op.type === 'insert') return;
        if (!org.glossary.has(op.id) || gone.has(op.id)) throw badRequest(`operations[${i}].id: no glossary entry ${op.id} in organization ${org.id}`);
        if (op.type === 'delete') gone.add(op.id);
      });
      const at = nowIso(req);
      for (const op of body.operations) {
        if (op.type === 'insert') {
          const id = req.world.newId('gle');
          org.glossary.set(id, { id, translations: clean(op.translations), createdAt: at, updatedAt: at });
        } else if (op.type === 'update') {
          const e = org.glossary.get(op.id) as GlossaryEntryRec;
          e.translations = clean(op.translations);
          e.updatedAt = at;
        } else {
          org.glossary.delete(op.id);
        }
      }
      return noContent();
    });

    router.add('GET', `${base}/:entry`, (req) => {
      const org = orgOf(req);
      const e = org.glossary.get(req.params.entry);
      if (!e) throw notFound(`no glossary entry ${req.params.entry} in organization ${org.id}`);
      return ok(entryView(viewCtx(req), org, e));
    });
  },
});
