/**
 * A site's customization: one document per site, replaced whole by `PUT SITE/customization`. The
 * config sets some of its fields; the plan compares those (nested paths, `styling.primaryColor`) and
 * the PUT sends the document as read with the config's fields laid over it, so that what the config
 * does not set stays as it is (a field left out of the PUT would revert to its default).
 */
import type { JsonObject, JsonValue } from '../../model/step.js';
import { sameJson } from '../common/match.js';
import { siteAddress } from './addresses.js';
import { ATOMIC_PATHS } from './customization-read.js';
import { siteKey } from './schema.js';
import type { SiteContext } from './steps.js';
import { step } from '../common/step.js';

export const customizationAddress = (site: string): string => `${siteAddress(site)}.customization`;

const isMap = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether a config value at `path` is merged key by key into the document's value. */
const merges = (path: string, want: JsonValue | undefined, have: JsonValue | undefined): want is JsonObject =>
  isMap(want) && !ATOMIC_PATHS.has(path) && (have === undefined || have === null || isMap(have));

/** The fields of `want` that differ from `doc`, nested: `before` as read (null when missing), `after` as wanted. */
export function customizationDiff(doc: JsonObject, want: JsonObject, path = ''): { before: JsonObject; after: JsonObject } {
  const before: JsonObject = {};
  const after: JsonObject = {};
  for (const [k, v] of Object.entries(want)) {
    if (v === undefined) continue;
    const p = path ? `${path}.${k}` : k;
    const have = doc[k];
    if (merges(p, v, have)) {
      const sub = customizationDiff(isMap(have) ? have : {}, v, p);
      if (Object.keys(sub.after).length > 0) {
        before[k] = sub.before;
        after[k] = sub.after;
      }
    } else if (!sameJson(have ?? null, v)) {
      before[k] = have ?? null;
      after[k] = v;
    }
  }
  return { before, after };
}

/** The document with the config's fields laid over it (the PUT body). */
export function overlayCustomization(doc: JsonObject, want: JsonObject, path = ''): JsonObject {
  const out: JsonObject = { ...doc };
  for (const [k, v] of Object.entries(want)) {
    if (v === undefined) continue;
    const p = path ? `${path}.${k}` : k;
    const have = doc[k];
    out[k] = merges(p, v, have) ? overlayCustomization(isMap(have) ? have : {}, v, p) : v;
  }
  return out;
}

export function planCustomization(ctx: SiteContext): void {
  const { site, remote, base, out, push } = ctx;
  if (site.customization === undefined || remote.customization === undefined) return;
  out.customization.remoteCount = 1;
  const want = site.customization as JsonObject;
  const { before, after } = customizationDiff(remote.customization, want);
  if (Object.keys(after).length === 0) return;
  push(
    step({
      address: customizationAddress(siteKey(site)),
      kind: 'customization',
      action: 'update',
      before,
      after,
      requests: [{ method: 'PUT', path: `${base}/customization`, body: overlayCustomization(remote.customization, want) }] }),
    remote.customization,
  );
}
