/**
 * Custom fonts (`fonts["Acme Sans"]`): created with `PUT ORG/fonts` (createCustomFont), updated with
 * `POST ORG/fonts/ID` (updateCustomFont: the family, and the faces that change, a null storage key
 * removing a weight), deleted when pruned (deleteCustomFont). A face's file is given as the storage
 * key of an upload; the API answers files as URLs, so a face's key is compared with its sources'
 * URLs: a key that none of them holds is sent again.
 */
import { matchesAny } from '../../model/address.js';
import type { JsonObject, JsonValue } from '../../model/step.js';
import { analyse, type Outcome } from '../common/analyse.js';
import { enc, orgPath } from '../common/paths.js';
import { step } from '../common/step.js';
import { lookAlikeNotes } from '../common/text.js';
import { emptyKindPlan, type KindPlan, type KindSpec } from '../kind.js';
import { FONT_KEYS, fontAddress, readFonts, type RemoteFont } from '../shared/fonts.js';
import type { FontT } from './schema.js';

/** Whether a face's file is the one a storage key names: some source URL holds the key. */
function holdsKey(face: RemoteFont['fontFaces'][number] | undefined, storageKey: string): boolean {
  if (!face) return false;
  return face.sources.some((s) => {
    let url = s.url;
    try {
      url = decodeURIComponent(s.url);
    } catch {
      // A URL with a stray `%` is compared as written.
    }
    return url.includes(storageKey);
  });
}

const urlsOf = (face: RemoteFont['fontFaces'][number]): JsonValue => face.sources.map((s) => s.url);

function normalized(r: RemoteFont): JsonObject {
  return {
    id: r.id,
    fontFamily: r.fontFamily,
    fontFaces: [...r.fontFaces].sort((a, b) => a.weight - b.weight).map((f) => ({ weight: f.weight, sources: urlsOf(f) })),
  };
}

export const fontsModule: KindSpec<RemoteFont[] | undefined> = {
  kind: 'fonts',
  label: { one: 'custom font', many: 'custom fonts' },
  prunable: true,
  addresses: (org) => (org.fonts ?? []).map((f) => fontAddress(f.fontFamily)),
  count: (org) => org.fonts?.length ?? 0,

  async read(ctx) {
    if (ctx.desired.fonts === undefined) return undefined;
    return readFonts(ctx);
  },

  plan(ctx, remote): KindPlan {
    const desired = ctx.desired.fonts;
    if (desired === undefined || remote === undefined) return emptyKindPlan();
    const base = `${orgPath(ctx.org)}/fonts`;
    const entry = (d: FontT, address: string, r?: RemoteFont): Outcome => {
      const forced = matchesAny(ctx.replace ?? [], ctx.org, address);
      const remoteFace = new Map((r?.fontFaces ?? []).map((f) => [f.weight, f]));
      const missing = d.fontFaces.filter((f) => f.storageKey === undefined && !remoteFace.has(f.weight)).map((f) => f.weight);
      if (missing.length > 0) {
        return { problems: [{
          org: ctx.org,
          address,
          field: 'fontFaces',
          message: `weight ${missing.join(', ')} is new and has no storageKey: give the storage key of its uploaded file (docs/live-surface.md, "Custom fonts")`,
        }] };
      }

      if (!r) {
        const fontFaces = d.fontFaces.map((f) => ({ weight: f.weight, storageKey: f.storageKey as string }));
        const body: JsonObject = { fontFamily: d.fontFamily, fontFaces };
        return [step({
          address,
          kind: 'fonts',
          action: 'create',
          before: null,
          after: body,
          requests: [{ method: 'PUT', path: base, body, capture: true, lookup: { path: base, reads: 'one', match: { fontFamily: d.fontFamily } } }],
          ...lookAlikeNotes('custom font', d.fontFamily, remote.map((f) => f.fontFamily)),
        })];
      }

      const before: JsonObject = {};
      const after: JsonObject = {};
      const body: JsonObject = {};
      if (r.fontFamily !== d.fontFamily) {
        before.fontFamily = r.fontFamily;
        after.fontFamily = d.fontFamily;
        body.fontFamily = d.fontFamily;
      }
      // Faces by weight: `before` shows the files' URLs, `after` the storage keys (null: removed).
      const facesBefore: JsonObject = {};
      const facesAfter: JsonObject = {};
      const sent: JsonObject[] = [];
      for (const f of d.fontFaces) {
        if (f.storageKey === undefined) continue;
        const have = remoteFace.get(f.weight);
        if (!forced && holdsKey(have, f.storageKey)) continue;
        facesBefore[String(f.weight)] = have ? urlsOf(have) : null;
        facesAfter[String(f.weight)] = f.storageKey;
        sent.push({ weight: f.weight, storageKey: f.storageKey });
      }
      const listed = new Set(d.fontFaces.map((f) => f.weight));
      for (const f of r.fontFaces) {
        if (listed.has(f.weight)) continue;
        facesBefore[String(f.weight)] = urlsOf(f);
        facesAfter[String(f.weight)] = null;
        sent.push({ weight: f.weight, storageKey: null });
      }
      if (sent.length > 0) {
        before.fontFaces = facesBefore;
        after.fontFaces = facesAfter;
        body.fontFaces = sent;
      }
      if (Object.keys(body).length === 0) return [];
      return [step({
        address,
        kind: 'fonts',
        action: 'update',
        before,
        after,
        requests: [{ method: 'POST', path: `${base}/${enc(r.id)}`, body }],
        remoteId: r.id,
        ...(forced ? { notes: ['every face with a storageKey is sent because of --replace'] } : {}),
      })];
    };

    return analyse(ctx.org, desired, remote, {
      kind: 'fonts',
      what: 'custom fonts',
      ...FONT_KEYS,
      prune: ctx.prunes('fonts'),
      fingerprint: normalized,
      observe: (r) => ({ fontFamily: r.fontFamily }),
      create: (d, address) => entry(d, address),
      update: (d, r, address) => entry(d, address, r),
      remove: (r) => ({ before: { fontFamily: r.fontFamily, weights: r.fontFaces.map((f) => f.weight) }, requests: [{ method: 'DELETE', path: `${base}/${enc(r.id)}` }] }),
    }).plan;
  },
};
