/**
 * The customization a site space overrides (`sites["ID"].sections["PATH"].siteSpaces["SPACE"].customization`,
 * or `sites["ID"].siteSpaces["SPACE"].customization` at a site's root): a language or version variant's
 * own title and styling. Set with overrideSiteSpaceCustomizationById (PATCH, the fields given; null
 * drops one override), removed with deleteSiteSpaceCustomizationById (`customization: null`).
 *
 * The API reads back effective values only (getSiteSpaceCustomizationById: the site's customization
 * with the variant's overrides laid over it), so a plan compares the effective value of each field the
 * config gives with the value it wants: the override's, or the site's where the config drops the
 * override. What cannot be told apart: an override equal to the site's value and no override (neither
 * plans a change, and `customization: null` deletes only when some styling differs from the site's);
 * a variant's title without override falls back to its content's title, which the plan does not read,
 * so a dropped title (`title: null`) is sent with the other changes but never compared.
 */
import { fingerprintEntries } from '../../../model/fingerprint.js';
import type { FieldChange, JsonObject, JsonValue } from '../../../model/step.js';
import { sameJson } from '../../common/match.js';
import { step } from '../../common/step.js';
import { emptyKindPlan, type KindPlan, type KindSpec, type ReadContext } from '../../kind.js';
import { rootSiteSpaceAddress, siteSpaceAddress } from '../addresses.js';
import { CustomizationAnswer } from '../answers.js';
import { readSites, sitePath, type RemoteSite } from '../remote.js';
import { siteKey, type SiteSpaceT, type SiteT } from '../schema.js';
import { matchSites } from '../../shared/sites.js';
import { VARIANT_STYLING, type VariantCustomizationT } from './schema.js';

export const variantAddress = (owner: string): string => `${owner}.customization`;

/** One site space whose config gives `customization`, and what the API answers of it. */
interface Variant {
  /** The site space's address (its customization's is one below). */
  owner: string;
  want: VariantCustomizationT | null;
  siteSpace?: string;
  effective?: JsonObject;
}

interface VariantSite {
  site: string;
  siteId?: string;
  /** The site's own customization, when a variant of it is read. */
  base?: JsonObject;
  variants: Variant[];
}

/** The config's site spaces with `customization`, each with its address and its remote site space. */
function wanted(site: SiteT, remote: RemoteSite | null | undefined): Array<{ owner: string; entry: SiteSpaceT; id?: string }> {
  const name = siteKey(site);
  const out: Array<{ owner: string; entry: SiteSpaceT; id?: string }> = [];
  for (const section of site.sections ?? []) {
    const rs = remote?.sections.find((s) => s.path === section.path);
    for (const ss of section.siteSpaces ?? []) {
      if (ss.customization === undefined) continue;
      const id = rs?.siteSpaces.find((x) => x.space === ss.space)?.id;
      out.push({ owner: siteSpaceAddress(name, section.path, ss.space), entry: ss, ...(id ? { id } : {}) });
    }
  }
  for (const ss of site.siteSpaces ?? []) {
    if (ss.customization === undefined) continue;
    const id = remote?.rootSiteSpaces.find((x) => x.space === ss.space)?.id;
    out.push({ owner: rootSiteSpaceAddress(name, ss.space), entry: ss, ...(id ? { id } : {}) });
  }
  return out;
}

const obj = (v: unknown): JsonObject => (v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : {});

async function readVariants(ctx: ReadContext): Promise<VariantSite[] | undefined> {
  const sites = (ctx.desired.sites ?? []).filter((s) => [...(s.sections ?? []).flatMap((x) => x.siteSpaces ?? []), ...(s.siteSpaces ?? [])].some((ss) => ss.customization !== undefined));
  if (sites.length === 0) return undefined;
  const remote = await readSites(ctx);
  return Promise.all(
    matchSites(sites, remote.list).pairs.map(async (p): Promise<VariantSite> => {
      const structure = p.remote ? remote.sites.find((x) => x.id === p.remote!.id)?.site : undefined;
      const found = wanted(p.desired, structure);
      if (!p.remote) return { site: siteKey(p.desired), variants: found.map((f) => ({ owner: f.owner, want: f.entry.customization ?? null })) };
      const base = sitePath(ctx.org, p.remote.id);
      const read = (path: string) => ctx.client.request('GET', path, { schema: CustomizationAnswer }).then((r) => obj(r.body));
      const [site, ...effective] = await Promise.all([read(`${base}/customization`), ...found.map((f) => (f.id ? read(`${base}/site-spaces/${encodeURIComponent(f.id)}/customization`) : Promise.resolve(undefined)))]);
      return {
        site: siteKey(p.desired),
        siteId: p.remote.id,
        base: site,
        variants: found.map((f, i) => ({ owner: f.owner, want: f.entry.customization ?? null, ...(f.id ? { siteSpace: f.id, effective: effective[i] } : {}) })),
      };
    }),
  );
}

/** The fields a variant's customization can hold, as `path → value` (styling by key). */
function fieldsOf(c: JsonObject): Map<string, JsonValue> {
  const out = new Map<string, JsonValue>();
  if ('title' in c) out.set('title', c.title ?? null);
  if ('localizedTitle' in c) out.set('localizedTitle', c.localizedTitle ?? null);
  const styling = obj(c.styling);
  for (const k of VARIANT_STYLING) if (k in styling) out.set(`styling.${k}`, styling[k] ?? null);
  return out;
}

const emptyMap = (v: JsonValue | undefined): boolean => v === undefined || v === null || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);

export const variantsModule: KindSpec<VariantSite[] | undefined> = {
  kind: 'variantCustomization',
  label: { one: 'variant customization', many: 'variant customizations' },
  count: (org) => (org.sites ?? []).reduce((n, s) => n + [...(s.sections ?? []).flatMap((x) => x.siteSpaces ?? []), ...(s.siteSpaces ?? [])].filter((ss) => ss.customization !== undefined).length, 0),
  read: readVariants,
  plan(ctx, remote): KindPlan {
    const kp = emptyKindPlan();
    if (!remote) return kp;
    const prints: Array<[string, unknown]> = [];
    for (const s of remote) {
      for (const v of s.variants) {
        const address = variantAddress(v.owner);
        if (!s.siteId || !v.siteSpace || !v.effective || !s.base) {
          (kp.notes ??= []).push(`${address}: the site space does not exist yet; a later plan sets its customization`);
          continue;
        }
        kp.remoteCount += 1;
        const effective = fieldsOf(v.effective);
        const site = fieldsOf(s.base);
        prints.push([address, { siteSpace: v.siteSpace, effective: Object.fromEntries(effective) }]);
        const path = `${sitePath(ctx.org, s.siteId)}/site-spaces/${encodeURIComponent(v.siteSpace)}/customization`;
        if (v.want === null) {
          // No override at all: the styling reads as the site's (a title falls back to the content's, not read).
          const differs = VARIANT_STYLING.map((k) => `styling.${k}`).filter((f) => !sameJson(effective.get(f) ?? null, site.get(f) ?? null));
          if (differs.length === 0) continue;
          kp.steps.push(step({
            address,
            kind: 'variantCustomization',
            action: 'delete',
            before: Object.fromEntries(differs.map((f) => [f, effective.get(f) ?? null])),
            after: null,
            changes: differs.map((f): FieldChange => ({ path: f, kind: 'change', before: effective.get(f) ?? null, after: site.get(f) ?? null })),
            requests: [{ method: 'DELETE', path }],
            notes: ["the variant's overrides are removed: it shows the site's customization"],
          }));
          continue;
        }
        const want = fieldsOf(v.want as unknown as JsonObject);
        const changes: FieldChange[] = [];
        for (const [f, w] of want) {
          if (w === null && f === 'title') continue;
          const target = w === null ? (site.get(f) ?? null) : w;
          const have = effective.get(f) ?? null;
          if (sameJson(have, target) || (f === 'localizedTitle' && emptyMap(have) && emptyMap(target))) continue;
          changes.push({ path: f, kind: 'change', before: have, after: target });
        }
        if (changes.length === 0) continue;
        kp.steps.push(step({
          address,
          kind: 'variantCustomization',
          action: 'update',
          before: Object.fromEntries(changes.map((c) => [c.path, c.before ?? null])),
          after: Object.fromEntries(changes.map((c) => [c.path, c.after ?? null])),
          changes,
          requests: [{ method: 'PATCH', path, body: v.want as unknown as JsonObject }],
          remoteId: v.siteSpace,
        }));
      }
    }
    kp.fingerprints = fingerprintEntries(prints);
    return kp;
  },
};

