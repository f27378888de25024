/** Translations of an organization's spaces. */
import { z } from 'zod';
import { seedDocument } from '../documents.js';
import { badRequest, bodyObject, created, deleted, listReply, noContent, notFound, ok, validate } from '../http.js';
import type { RouteRequest } from '../http.js';
import { SeedError, defineKind } from '../kind.js';
import type { OrgRec, RichTextDoc } from '../model.js';
import { nowIso, orgOf, storeDoc, viewCtx } from '../routing.js';
import { Doc, Id, Language, SeedDoc, emptyDocument } from '../schemas.js';
import { apiUrl, compact, perms } from '../views.js';
import type { Obj, ViewContext } from '../views.js';

export interface TranslationRec {
  id: string;
  language: string;
  source: { space: string; language: string };
  instructions?: RichTextDoc;
  resultSpace: string;
  revision: string;
  runs: number;
  createdAt: string;
  updatedAt: string;
}

declare module '../model.js' {
  interface OrgRec {
    translations: Map<string, TranslationRec>;
  }
}

const TranslationSeed = z.strictObject({
  id: Id.optional(),
  language: z.string().min(1),
  source: z.strictObject({ space: Id, language: z.string().min(1) }),
  instructions: z.union([z.string(), SeedDoc]).optional(),
});

const CreateTranslation = z.strictObject({
  language: Language,
  source: z.strictObject({ space: z.string().min(1), language: Language }),
  instructions: Doc.optional(),
});
const PutTranslation = z.strictObject({ instructions: Doc });

export function translationView(ctx: ViewContext, org: OrgRec, t: TranslationRec): Obj {
  return compact({
    object: 'translation',
    id: t.id,
    status: 'pending',
    source: { ...t.source },
    language: t.language,
    // Both required by the live description (Translation): an empty document when none was given.
    instructions: t.instructions ? structuredClone(t.instructions) : emptyDocument(),
    result: { space: t.resultSpace, revision: t.revision, language: t.language },
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    stats: { runs: t.runs, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 },
    permissions: perms(ctx, ['view', 'edit']),
    urls: { location: apiUrl(ctx, `/orgs/${org.id}/translations/${t.id}`) },
  });
}

function translationOf(req: RouteRequest, org: OrgRec): TranslationRec {
  const t = org.translations.get(req.params.translation);
  if (!t) throw notFound(`no translation ${req.params.translation} in organization ${org.id}`);
  return t;
}

export const translationsKind = defineKind({
  name: 'translations',
  auditObjects: { translations: 'translation' },
  orgSeed: {
    translations: z.array(TranslationSeed).default([]),
  },
  seedOrg(ctx, org, seed, place) {
    const { world } = ctx;
    org.translations = new Map();
    seed.translations.forEach((t, i) => {
      if (world.spaces.get(t.source.space)?.org !== org.id) {
        throw new SeedError(`${place}.translations[${i}].source.space`, `no space ${t.source.space} in ${org.id}`);
      }
      const tid = t.id ?? world.newId('tr');
      const at = ctx.stamp();
      org.translations.set(tid, {
        id: tid,
        language: t.language,
        source: { ...t.source },
        instructions: t.instructions === undefined ? undefined : seedDocument(world, t.instructions as string | RichTextDoc),
        resultSpace: world.newId('space'),
        revision: world.newId('rev'),
        runs: 0,
        createdAt: at,
        updatedAt: at,
      });
    });
  },
  routes(router) {
    router.add('GET', '/v1/orgs/:org/translations', (req) => {
      const org = orgOf(req);
      return listReply(req.query, [...org.translations.values()], (t) => translationView(viewCtx(req), org, t));
    });

    router.add('POST', '/v1/orgs/:org/translations', (req) => {
      const org = orgOf(req);
      const body = validate(CreateTranslation, bodyObject(req));
      const space = req.world.spaces.get(body.source.space);
      if (!space || space.org !== org.id || space.deletedAt) throw badRequest(`source.space: no space ${body.source.space} in organization ${org.id}`);
      const at = nowIso(req);
      const t: TranslationRec = {
        id: req.world.newId('tr'),
        language: body.language,
        source: { space: body.source.space, language: body.source.language },
        instructions: body.instructions ? storeDoc(req, body.instructions) : undefined,
        resultSpace: req.world.newId('space'),
        revision: req.world.newId('rev'),
        runs: 0,
        createdAt: at,
        updatedAt: at,
      };
      org.translations.set(t.id, t);
      // No Location: the live description documents none for createTranslation.
      return created(translationView(viewCtx(req), org, t));
    });

    router.add('GET', '/v1/orgs/:org/translations/:translation', (req) => {
      const org = orgOf(req);
      return ok(translationView(viewCtx(req), org, translationOf(req, org)));
    });

    router.add('PUT', '/v1/orgs/:org/translations/:translation', (req) => {
      const org = orgOf(req);
      const t = translationOf(req, org);
      const body = validate(PutTranslation, bodyObject(req));
      t.instructions = storeDoc(req, body.instructions);
      t.updatedAt = nowIso(req);
      return ok(translationView(viewCtx(req), org, t));
    });

    router.add('DELETE', '/v1/orgs/:org/translations/:translation', (req) => {
      const org = orgOf(req);
      return deleted(org.translations.delete(req.params.translation));
    });

    router.add('POST', '/v1/orgs/:org/translations/:translation/run', (req) => {
      const org = orgOf(req);
      const t = translationOf(req, org);
      t.runs += 1;
      t.updatedAt = nowIso(req);
      return noContent();
    });
  },
});
