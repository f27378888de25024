/**
 * A site's customization (`getSiteCustomizationById`, `updateSiteCustomizationById`): one document
 * per site, the service's defaults until a PUT replaces it whole. The PUT body is the description's
 * `SiteCustomizationSettingsInput` (the answer's fields but `updatedAt`): its required fields must
 * all be there. Per site-space overrides are not emulated.
 */
import { z } from 'zod';
import { bodyObject, ok, validate } from '../../http.js';
import type { Router } from '../../http.js';
import { nowIso } from '../../routing.js';
import type { SiteRec } from './records.js';
import { siteOf } from './routes.js';

export interface CustomizationRec {
  doc: Record<string, unknown>;
  updatedAt?: string;
}

declare module './records.js' {
  interface SiteRec {
    /** Made on first use, with the defaults. */
    customization?: CustomizationRec;
  }
}

const themed = (light: string, dark: string) => ({ light, dark });

/** The settings of a site never customized (what the service answers for a new site). */
export function defaultCustomization(title: string): Record<string, unknown> {
  return {
    title: title.length >= 2 ? title.slice(0, 128) : `${title} site`,
    styling: {
      theme: 'clean',
      primaryColor: themed('#346DDB', '#346DDB'),
      infoColor: themed('#787878', '#787878'),
      successColor: themed('#02A36D', '#02A36D'),
      warningColor: themed('#FE9A00', '#FE9A00'),
      dangerColor: themed('#FB2C36', '#FB2C36'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      background: 'plain',
      icons: 'regular',
      codeTheme: { default: themed('default-light', 'default-dark'), openapi: themed('default-light', 'default-dark') },
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'system', toggeable: true },
    feedback: { enabled: false },
    ai: { mode: 'search' },
    advancedCustomization: { enabled: true },
    pageActions: { items: ['markdown', 'external-ai'] },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    trademark: { enabled: true },
    privacyPolicy: {},
    socialPreview: {},
    socialAccounts: [],
    insights: { trackingCookie: true },
  };
}

const REQUIRED = [
  'styling',
  'internationalization',
  'favicon',
  'header',
  'footer',
  'themes',
  'feedback',
  'ai',
  'advancedCustomization',
  'trademark',
  'externalLinks',
  'pagination',
  'pageActions',
  'privacyPolicy',
  'socialPreview',
  'socialAccounts',
  'insights',
] as const;
const STYLING_REQUIRED = ['theme', 'primaryColor', 'infoColor', 'successColor', 'warningColor', 'dangerColor', 'corners', 'depth', 'links', 'font', 'monospaceFont', 'background', 'icons', 'codeTheme', 'sidebar', 'search'];

/** The PUT body: an object with every required field (their insides are checked by shape only). */
const Input = z.looseObject({
  title: z.string().min(2).max(128).optional(),
  ...Object.fromEntries(REQUIRED.map((k) => [k, k === 'socialAccounts' ? z.array(z.unknown()).max(10) : z.looseObject({})])),
  styling: z.looseObject(Object.fromEntries(STYLING_REQUIRED.map((k) => [k, z.unknown().refine((v) => v !== undefined, 'required')]))),
});

export function customizationOf(site: SiteRec): CustomizationRec {
  site.customization ??= { doc: defaultCustomization(site.title) };
  return site.customization;
}

function view(c: CustomizationRec): Record<string, unknown> {
  return { ...structuredClone(c.doc), ...(c.updatedAt ? { updatedAt: c.updatedAt } : {}) };
}

export function customizationRoutes(router: Router): void {
  const SITE = '/v1/orgs/:org/sites/:site';

  router.add('GET', `${SITE}/customization`, (req) => ok(view(customizationOf(siteOf(req).site))));

  router.add('PUT', `${SITE}/customization`, (req) => {
    const { site } = siteOf(req);
    const raw = bodyObject(req);
    validate(Input, raw);
    const c = customizationOf(site);
    c.doc = structuredClone(raw);
    delete c.doc.updatedAt;
    c.updatedAt = nowIso(req);
    return ok(view(c));
  });
}

/** Customization in the state file: fields laid over the defaults (a nested object merges). */
export const CustomizationSeed = z.record(z.string(), z.unknown());

function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    const isMap = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);
    out[k] = isMap(v) && isMap(b) ? merge(b, v) : v;
  }
  return out;
}

export function seedCustomization(site: SiteRec, seed: Record<string, unknown>, stamp: () => string): void {
  site.customization = { doc: merge(defaultCustomization(site.title), structuredClone(seed)), updatedAt: stamp() };
}
