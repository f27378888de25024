/**
 * The customization a site space overrides (`getSiteSpaceCustomizationById`,
 * `overrideSiteSpaceCustomizationById`, `deleteSiteSpaceCustomizationById`): the overrides are kept
 * per site space and a read answers the effective settings — the site's customization with the
 * overrides laid over it (a styling override replaces that one styling field). A PATCH sets the fields
 * it gives; null drops that override.
 */
import { z } from 'zod';
import { bodyObject, deleted, notFound, ok, validate, type RouteRequest } from '../http.js';
import { defineKind } from '../kind.js';
import { customizationOf } from './sites/customization.js';
import type { SiteRec } from './sites/records.js';
import { siteOf } from './sites/routes.js';

declare module './sites/records.js' {
  interface SiteRec {
    /** Overrides by site space id. */
    variantCustomization?: Map<string, Record<string, unknown>>;
  }
}

const Override = z.looseObject({
  title: z.string().min(2).max(128).nullable().optional(),
  localizedTitle: z.record(z.string(), z.string().max(128)).nullable().optional(),
  styling: z.record(z.string(), z.unknown()).optional(),
});

function siteSpaceOf(req: RouteRequest): { site: SiteRec; id: string } {
  const { site } = siteOf(req);
  if (!site.siteSpaces.has(req.params.siteSpace)) throw notFound(`no site space ${req.params.siteSpace} in site ${site.id}`);
  return { site, id: req.params.siteSpace };
}

function overridesOf(site: SiteRec): Map<string, Record<string, unknown>> {
  site.variantCustomization ??= new Map();
  return site.variantCustomization;
}

function effective(site: SiteRec, id: string): Record<string, unknown> {
  const doc = structuredClone(customizationOf(site).doc);
  const o = overridesOf(site).get(id) ?? {};
  for (const [k, v] of Object.entries(o)) {
    if (k === 'styling') doc.styling = { ...(doc.styling as Record<string, unknown>), ...structuredClone(v as Record<string, unknown>) };
    else doc[k] = structuredClone(v);
  }
  return doc;
}

export const siteVariantsKind = defineKind({
  name: 'siteVariants',
  orgSeed: {},
  routes(router) {
    const AT = '/v1/orgs/:org/sites/:site/site-spaces/:siteSpace/customization';
    router.add('GET', AT, (req) => {
      const { site, id } = siteSpaceOf(req);
      return ok(effective(site, id));
    });
    router.add('PATCH', AT, (req) => {
      const { site, id } = siteSpaceOf(req);
      const body = validate(Override, bodyObject(req));
      const o = overridesOf(site).get(id) ?? {};
      for (const [k, v] of Object.entries(body)) {
        if (k === 'styling') {
          const styling = { ...((o.styling as Record<string, unknown>) ?? {}) };
          for (const [sk, sv] of Object.entries(v as Record<string, unknown>)) {
            if (sv === null) delete styling[sk];
            else styling[sk] = structuredClone(sv);
          }
          if (Object.keys(styling).length > 0) o.styling = styling;
          else delete o.styling;
        } else if (v === null) delete o[k];
        else if (v !== undefined) o[k] = structuredClone(v);
      }
      overridesOf(site).set(id, o);
      return ok(effective(site, id));
    });
    router.add('DELETE', AT, (req) => {
      const { site, id } = siteSpaceOf(req);
      const had = overridesOf(site).has(id) && Object.keys(overridesOf(site).get(id)!).length > 0;
      overridesOf(site).delete(id);
      return deleted(had);
    });
  },
});
