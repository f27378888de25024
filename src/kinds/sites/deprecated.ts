/**
 * The customization fields the live description marks deprecated: still accepted (the API takes
 * them), flagged `deprecated` in the JSON Schema, and a warning of `docplane validate` at the field.
 */
import type { OrgConfig } from '../../model/desired.js';
import { child, type Origin } from '../../source/origin.js';
import type { ResolveContext } from '../kind.js';
import { customizationAddress } from './customization.js';
import { siteKey, type SiteT } from './schema.js';

export const DEPRECATED_CUSTOMIZATION: ReadonlyArray<{ path: readonly [string, string]; instead: string }> = [
  { path: ['styling', 'background'], instead: 'use styling.tint instead' },
  { path: ['internationalization', 'locale'], instead: "the site's language comes from its spaces" },
  { path: ['header', 'preset'], instead: 'use styling.theme instead' },
  { path: ['header', 'backgroundColor'], instead: 'use the styling colors instead' },
  { path: ['header', 'linkColor'], instead: 'use the styling colors instead' },
];

/** The deprecated fields a site's customization sets. */
function deprecatedIn(site: SiteT): typeof DEPRECATED_CUSTOMIZATION {
  const c = site.customization as Record<string, Record<string, unknown> | undefined> | undefined;
  return c ? DEPRECATED_CUSTOMIZATION.filter(({ path: [a, b] }) => c[a]?.[b] !== undefined) : [];
}

const fieldAddress = (site: SiteT, path: readonly string[]) => `${customizationAddress(siteKey(site))}.${path.join('.')}`;

/** Records where each deprecated field a site sets stands, for the warnings. */
export function locateDeprecated(site: SiteT, origin: Origin, ctx: ResolveContext): void {
  for (const { path } of deprecatedIn(site)) ctx.locate(fieldAddress(site, path), child(origin, 'customization', ...path), 'key');
}

/** One warning per deprecated field the config sets: its address (located by the loader) and why. */
export function deprecationWarnings(org: OrgConfig): Array<{ address: string; message: string }> {
  return (org.sites ?? []).flatMap((site) =>
    deprecatedIn(site).map(({ path, instead }) => ({
      address: fieldAddress(site, path),
      message: `customization.${path.join('.')} is deprecated in the API and will be removed; ${instead}`,
    })),
  );
}
