/**
 * Import of a site's redirects, customization and publishing auth (import reads all three for
 * every site it writes):
 * - redirects: the live ones, by source (a second redirect with the same source is left out, with
 *   a warning), an external destination written as its URL;
 * - customization: the whole document as read, without its read-only fields (the description gives
 *   no defaults to leave out); a top-level field the config schema does not know is left out with a
 *   warning (it is kept as it is by every PUT, which sends the document as read);
 * - publishing auth: only when it differs from a new site's (the custom backend, no URLs); never
 *   its private key, which the read drops.
 */
import { key } from '../../model/address.js';
import type { JsonObject } from '../../model/step.js';
import { sortBy, unique, type Draft } from '../common/import.js';
import { Customization } from './customization-read.js';
import type { RemoteSite } from './remote.js';

function redirectsDraft(site: RemoteSite, at: string, warn: (m: string) => void): Draft | undefined {
  if (site.redirects === undefined) return undefined;
  const live = sortBy(site.redirects.filter((r) => !r.draft), (r) => r.source, (r) => r.id);
  return unique(
    live,
    (r) => r.source,
    (r, kept) => warn(`${at}.redirects${key(r.source)}: redirects ${kept.id} and ${r.id} have the same source; only ${kept.id} is written`),
  ).map(
    (r): Draft => ({
      source: r.source,
      destination: r.destination.kind === 'external' && typeof r.destination.url === 'string' ? r.destination.url : (r.destination as Draft),
      permanent: r.permanent,
      captureWildcard: r.captureWildcard,
    }),
  );
}

function customizationDraft(doc: JsonObject | undefined, at: string, warn: (m: string) => void): Draft | undefined {
  if (doc === undefined) return undefined;
  const out: JsonObject = { ...doc };
  const parsed = Customization.safeParse(out);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? (i.code === 'unrecognized_keys' ? i.keys[0] : ''))))].filter((f) => f !== '');
    for (const f of fields) {
      warn(`${at}.customization.${f}: docplane's config does not take this field as the site has it; it is not written (apply keeps it as it is)`);
      delete out[f];
    }
  }
  return out as Draft;
}

function publishingAuthDraft(site: RemoteSite): Draft | undefined {
  const a = site.publishingAuth;
  if (!a || a.backend === null) return undefined;
  if (a.backend === 'custom' && a.fallbackURL === null && a.logoutURL === null) return undefined;
  return { backend: a.backend, fallbackURL: a.fallbackURL ?? undefined, logoutURL: a.logoutURL ?? undefined };
}

/** The site's redirects, customization and publishing auth as config (absent ones left out). */
export function siteExtrasDraft(site: RemoteSite, at: string, warn: (m: string) => void): Record<string, Draft | undefined> {
  return {
    redirects: redirectsDraft(site, at, warn),
    customization: customizationDraft(site.customization, at, warn),
    publishingAuth: publishingAuthDraft(site),
  };
}
