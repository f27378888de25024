/**
 * Translations (`translations["space_guides/fr"]`: source space / target language): created with
 * POST ORG/translations, their instructions replaced with PUT (compared by content), deleted when
 * pruned. The source language of an existing translation cannot be changed through the API.
 */
import { type RichTextDocumentT, documentToText, isPlainDocument, normalizeDocument, sameDocument, toDocument } from '../../core/richtext.js';
import type { JsonObject, JsonValue } from '../../model/step.js';
import { emptyKindPlan, type Reader, type KindPlan, type KindSpec } from '../kind.js';
import { analyse } from '../common/analyse.js';
import { enc, orgPath } from '../common/paths.js';
import { key } from '../../model/address.js';
import { step } from '../common/step.js';
import { readSpaceIds, spaceNames, type SpaceIds } from '../shared/spaces.js';
import { TranslationAnswer } from './answers.js';
import type { TranslationT } from './schema.js';

export interface RemoteTranslation {
  id: string;
  language: string;
  source: { space: string; language: string };
  instructions?: RichTextDocumentT | null;
}

export function translationAddress(space: string, language: string): string {
  return `translations${key(`${space}/${language}`)}`;
}

function shown(doc: RichTextDocumentT | null | undefined): JsonValue {
  if (!doc || !Array.isArray(doc.nodes) || doc.nodes.length === 0) return null;
  return isPlainDocument(doc) ? documentToText(doc) : (normalizeDocument(doc) as JsonValue);
}

function normalized(t: RemoteTranslation): JsonObject {
  return {
    id: t.id,
    language: t.language,
    source: { space: t.source?.space ?? null, language: t.source?.language ?? null },
    instructions: shown(t.instructions) };
}

/** The organization's translations: one list. */
export function readTranslations(ctx: Reader): Promise<RemoteTranslation[]> {
  return ctx.client.listAll<RemoteTranslation>(`${orgPath(ctx.org)}/translations`, {}, { schema: TranslationAnswer });
}

/** The translations, and the config's spaces without id that translations name by natural key. */
export interface RemoteTranslations {
  list: RemoteTranslation[];
  spaceIds?: SpaceIds;
}

export const translationsModule: KindSpec<RemoteTranslations | undefined> = {
  kind: 'translations',
  label: { one: 'translation', many: 'translations' },
  prunable: true,
  count: (org) => org.translations?.length ?? 0,

  async read(ctx) {
    const desired = ctx.desired.translations;
    if (desired === undefined) return undefined;
    const [list, spaceIds] = await Promise.all([readTranslations(ctx), readSpaceIds(ctx, ctx.desired, desired.map((t) => t.source.space))]);
    return { list, ...(Object.keys(spaceIds).length > 0 ? { spaceIds } : {}) };
  },

  plan(ctx, read): KindPlan {
    const desired = ctx.desired.translations;
    if (desired === undefined || read === undefined) return emptyKindPlan();
    // A source space the config names by natural key: remote ids read in the config's names, requests send ids.
    const spaces = spaceNames(ctx.org, read.spaceIds);
    const remote = read.spaceIds === undefined ? read.list : read.list.map((t) => (t.source ? { ...t, source: { ...t.source, space: spaces.config(t.source.space) } } : t));
    const base = `${orgPath(ctx.org)}/translations`;
    const needsOf = (d: TranslationT, source: { needs: string[] }) => ((ctx.desired.spaces ?? []).some((s) => s.id === d.source.space) ? [`spaces${key(d.source.space)}`] : source.needs);

    return analyse<TranslationT, RemoteTranslation>(ctx.org, desired, remote, {
      kind: 'translations',
      what: 'translations',
      address: (natural) => `translations${key(natural)}`,
      // By id first, then by source space + language (an id the list lacks falls back to them).
      desiredKey: (d) => `${d.source.space}/${d.language}`,
      remoteKey: (r) => `${r.source?.space}/${r.language}`,
      remoteId: (r) => r.id,
      desiredId: (d) => d.id,
      prune: ctx.prunes('translations'),
      fingerprint: normalized,
      observe: (r) => ({ language: r.language, source: { space: r.source?.space ?? null, language: r.source?.language ?? null }, ...(r.instructions ? { instructions: shown(r.instructions) } : {}) }),
      create(d, address) {
        // A translation waits for its source space (restored, for instance) when the config names it.
        const source = spaces.request(d.source.space);
        const body: JsonObject = { language: d.language, source: { space: source.id, language: d.source.language } };
        if (d.instructions !== undefined) body.instructions = toDocument(d.instructions) as unknown as JsonValue;
        const after: JsonObject = { language: d.language, source: { space: d.source.space, language: d.source.language }, ...(d.instructions !== undefined ? { instructions: shown(toDocument(d.instructions)) } : {}) };
        return [step({
          address,
          kind: 'translations',
          action: 'create',
          before: null,
          after,
          requests: [{ method: 'POST', path: base, body, capture: true, lookup: { path: base, match: { language: d.language, 'source.space': source.id } } }],
          needs: needsOf(d, source),
          ...(source.needs.length > 0 ? { notes: [`source.space: (created by this plan) ${d.source.space}`] } : {}),
        })];
      },
      update(d, r, address) {
        if (r.source?.language !== d.source.language || r.language !== d.language || r.source?.space !== d.source.space) {
          return { problems: [{
            org: ctx.org,
            address,
            message: `translation ${r.id} translates ${r.source?.space} from ${r.source?.language} to ${r.language}; the API cannot change the source or the language of a translation (remove its id to create a new one)` }] };
        }
        if (d.instructions === undefined || sameDocument(d.instructions, r.instructions ?? { object: 'document', nodes: [] })) return [];
        const before = { instructions: shown(r.instructions) };
        const after = { instructions: shown(toDocument(d.instructions)) };
        return [step({
          address,
          kind: 'translations',
          action: 'update',
          before,
          after,
          changes: [{ path: 'instructions', kind: before.instructions === null ? 'add' : 'change', ...(before.instructions === null ? {} : { before: before.instructions }), after: after.instructions }],
          requests: [{ method: 'PUT', path: `${base}/${enc(r.id)}`, body: { instructions: toDocument(d.instructions) as unknown as JsonValue } }],
          needs: needsOf(d, spaces.request(d.source.space)),
          remoteId: r.id })];
      },
      remove: (r) => ({
        before: { language: r.language, source: { space: r.source?.space ?? null, language: r.source?.language ?? null } },
        requests: [{ method: 'DELETE', path: `${base}/${enc(r.id)}` }],
      }),
    }).plan;
  } };
