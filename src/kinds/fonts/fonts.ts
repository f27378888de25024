/**
 * Custom fonts (`fonts["Acme Sans"]`): created with `PUT ORG/fonts` (createCustomFont), updated with
 * `POST ORG/fonts/ID` (updateCustomFont: the family, and the faces that change, a null storage key
 * removing a weight), deleted when pruned (deleteCustomFont). A face's file is given as the storage
 * key of an upload; the API answers files as URLs, so a face's key is compared with its sources'
 * URLs: a key that none of them holds is sent again.
 */
import { matchesAny } from '../../model/address.js';
import { fingerprintEntries } from '../../model/fingerprint.js';
import type { JsonObject, JsonValue } from '../../model/step.js';
import { collisionMessage, keyCollisions } from '../common/match.js';
import { enc, orgPath } from '../common/paths.js';
import { planUnmatched } from '../common/skeleton.js';
import { step } from '../common/step.js';
import { lookAlikeNotes } from '../common/text.js';
import { emptyKindPlan, type KindPlan, type KindSpec } from '../kind.js';
import { fontAddress, matchFonts, readFonts, type RemoteFont } from '../shared/fonts.js';


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
    const kp = emptyKindPlan();
    const desired = ctx.desired.fonts;
    if (desired === undefined || remote === undefined) return kp;
    kp.remoteCount = remote.length;
    const base = `${orgPath(ctx.org)}/fonts`;
    const prints: Array<[string, unknown]> = [];
    const match = matchFonts(desired, remote);
    const { pairs, unmatched } = match;
    if (!ctx.prunes('fonts')) {
      for (const { desired: d } of keyCollisions(match, { desiredKey: (f) => f.fontFamily, remoteKey: (f) => f.fontFamily })) {
        kp.problems.push({ org: ctx.org, address: fontAddress(d.fontFamily), message: collisionMessage('custom fonts', d.fontFamily, 'fonts') });
      }
    }

    for (const { desired: d, remote: r } of pairs) {
      const address = fontAddress(d.fontFamily);
      const forced = matchesAny(ctx.replace ?? [], ctx.org, address);
      const remoteFace = new Map((r?.fontFaces ?? []).map((f) => [f.weight, f]));
      const missing = d.fontFaces.filter((f) => f.storageKey === undefined && !remoteFace.has(f.weight)).map((f) => f.weight);
      if (missing.length > 0) {
        kp.problems.push({
          org: ctx.org,
          address,
          field: 'fontFaces',
          message: `weight ${missing.join(', ')} is new and has no storageKey: give the storage key of its uploaded file (docs/live-surface.md, "Custom fonts")`,
        });
        continue;
      }

      if (!r) {
        const fontFaces = d.fontFaces.map((f) => ({ weight: f.weight, storageKey: f.storageKey as string }));
        const body: JsonObject = { fontFamily: d.fontFamily, fontFaces };
        kp.steps.push(step({
          address,
          kind: 'fonts',
          action: 'create',
          before: null,
          after: body,
          requests: [{ method: 'PUT', path: base, body, capture: true, lookup: { path: base, reads: 'one', match: { fontFamily: d.fontFamily } } }],
          ...lookAlikeNotes('custom font', d.fontFamily, remote.map((f) => f.fontFamily)),
        }));
        prints.push([address, null]);
        continue;
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
      if (Object.keys(body).length === 0) continue;
      kp.steps.push(step({
        address,
        kind: 'fonts',
        action: 'update',
        before,
        after,
        requests: [{ method: 'POST', path: `${base}/${enc(r.id)}`, body }],
        remoteId: r.id,
        ...(forced ? { notes: ['every face with a storageKey is sent because of --replace'] } : {}),
      }));
      prints.push([address, normalized(r)]);
    }

    planUnmatched(kp, prints, unmatched, {
      kind: 'fonts',
      prune: ctx.prunes('fonts'),
      address: fontAddress,
      naturalKey: (r) => r.fontFamily,
      id: (r) => r.id,
      twinOf: (r) => pairs.find((p) => p.remote && p.remote.fontFamily === r.fontFamily)?.remote?.id,
      before: (r) => ({ fontFamily: r.fontFamily, weights: r.fontFaces.map((f) => f.weight) }),
      requests: (r) => [{ method: 'DELETE', path: `${base}/${enc(r.id)}` }],
      normalized,
    });
    kp.fingerprints = fingerprintEntries(prints);
    return kp;
  },
};
