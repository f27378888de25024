/**
 * A site's customization: one document per site, replaced whole by `PUT SITE/customization`. The
 * config sets some of its fields; the plan compares those (nested paths, `styling.primaryColor`) and
 * the PUT sends the document as read with the config's fields laid over it, so that what the config
 * does not set stays as it is (a field left out of the PUT would revert to its default).
 */
import type { JsonObject, JsonValue } from '../../model/step.js';
import { sameJson } from '../common/match.js';
import { siteAddress } from './addresses.js';
import { ATOMIC_PATHS, FONT_FIELDS } from './customization-read.js';
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

/**
 * The customization with its fonts named by family (`{customFont: "Acme Sans"}`) resolved: for the
 * diff, a font the site already uses (the same id) reads as it is and another stays named by family;
 * for the PUT, it is the font's definition (refs to the create's answer for a font this plan creates).
 * Undefined when a family names no font (a problem is reported).
 */
function resolveFonts(ctx: SiteContext, address: string, want: JsonObject): { diff: JsonObject; body: JsonObject; needs: string[] } | undefined {
  const styling = want.styling;
  if (!isMap(styling) || !FONT_FIELDS.some((f) => isMap(styling[f]) && 'customFont' in styling[f])) return { diff: want, body: want, needs: [] };
  const have = isMap(ctx.remote.customization?.styling) ? ctx.remote.customization.styling : {};
  const diff: JsonObject = { ...styling };
  const body: JsonObject = { ...styling };
  const needs: string[] = [];
  for (const f of FONT_FIELDS) {
    const v = styling[f];
    if (!isMap(v) || typeof v.customFont !== 'string') continue;
    const choice = ctx.font(v.customFont);
    if (!choice) {
      ctx.problem('customization', address, `styling.${f}: customFont "${v.customFont}" names no font, neither in the config's fonts nor in the organization`);
      return undefined;
    }
    const current = have[f];
    if (choice.id !== undefined && isMap(current) && current.id === choice.id) diff[f] = current;
    body[f] = choice.definition;
    needs.push(...choice.needs);
  }
  return { diff: { ...want, styling: diff }, body: { ...want, styling: body }, needs };
}

export function planCustomization(ctx: SiteContext): void {
  const { site, remote, base, out, push } = ctx;
  if (site.customization === undefined || remote.customization === undefined) return;
  out.customization.remoteCount = 1;
  const address = customizationAddress(siteKey(site));
  const resolved = resolveFonts(ctx, address, site.customization as JsonObject);
  if (!resolved) return;
  const { before, after } = customizationDiff(remote.customization, resolved.diff);
  if (Object.keys(after).length === 0) return;
  push(
    step({
      address,
      kind: 'customization',
      action: 'update',
      before,
      after,
      requests: [{ method: 'PUT', path: `${base}/customization`, body: overlayCustomization(remote.customization, resolved.body) }],
      needs: resolved.needs }),
    remote.customization,
  );
}
