/**
 * A site's redirects: the config entry (`redirects:` on a site, keyed by `source`), the remote
 * object reduced to what the planner compares, and the read (`listSiteRedirects`, every page).
 * The list answers live redirects unless asked for drafts (`draft=true`): drafts are read only when
 * the config lists a draft redirect for the site, so a site without drafts in its config costs one
 * list, and its draft redirects are neither compared nor named.
 */
import { z } from 'zod';
import type { JsonObject } from '../../model/step.js';
import type { Reader } from '../kind.js';
import { RedirectAnswer } from './answers.js';

/** `SiteRedirectSourcePath`: a path from the site's root, an optional trailing `*` wildcard. */
export const RedirectSource = z
  .string()
  .max(512)
  .regex(/^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/, {
    message: 'a redirect source is a path such as /old/page or /old/* (letters, digits, -._~+ and %XX escapes)',
  });

/** `SiteRedirectDestination`: a URL (an external destination), or one of the four kinds. */
export const RedirectDestination = z.union([
  z.url().max(2048).describe('An external URL'),
  z.strictObject({ kind: z.literal('external'), url: z.url().max(2048) }),
  z.strictObject({ kind: z.literal('site-section'), siteSectionId: z.string().min(1) }),
  z.strictObject({ kind: z.literal('site-space'), siteSpaceId: z.string().min(1) }),
  z.strictObject({ kind: z.literal('site-page'), siteSpaceId: z.string().min(1), pageId: z.string().min(1) }),
]);

export const Redirect = z.strictObject({
  source: RedirectSource,
  destination: RedirectDestination,
  permanent: z.boolean().optional().describe('Served as 308 (else 307); default false'),
  captureWildcard: z.boolean().optional().describe('Appends what the wildcard matched to the destination; default false'),
  draft: z.boolean().optional().describe('A draft redirect, not live; default false'),
});
export type RedirectT = z.infer<typeof Redirect>;
export type DestinationT = z.infer<typeof RedirectDestination>;

export interface RemoteRedirect {
  id: string;
  source: string;
  destination: JsonObject;
  permanent: boolean;
  captureWildcard: boolean;
  draft: boolean;
}

/** The API's object of a destination: a URL is an external destination. */
export function destinationObject(d: DestinationT): JsonObject {
  return typeof d === 'string' ? { kind: 'external', url: d } : { ...d };
}

export function parseRedirect(raw: unknown): RemoteRedirect {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const destination = o.destination && typeof o.destination === 'object' ? (o.destination as JsonObject) : {};
  return {
    id: String(o.id),
    source: typeof o.source === 'string' ? o.source : '',
    destination,
    permanent: o.permanent === true,
    captureWildcard: o.captureWildcard === true,
    draft: o.draft === true,
  };
}

/** The site's redirects (live, and drafts when `drafts`), every page; undefined when not asked. */
export async function readRedirects(ctx: Pick<Reader, 'client'>, base: string, wanted: { redirects?: readonly RedirectT[] }): Promise<RemoteRedirect[] | undefined> {
  if (wanted.redirects === undefined) return undefined;
  const drafts = wanted.redirects.some((r) => r.draft === true);
  const [live, draft] = await Promise.all([
    ctx.client.listAll(`${base}/redirects`, {}, { schema: RedirectAnswer }),
    drafts ? ctx.client.listAll(`${base}/redirects`, { draft: true }, { schema: RedirectAnswer }) : Promise.resolve([]),
  ]);
  return [...live, ...draft].map(parseRedirect);
}
