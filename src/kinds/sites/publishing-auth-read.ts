/**
 * A site's publishing auth (visitor authentication, `publishingAuth:` on a site): the backend that
 * authenticates visitors and its fallback and logout URLs (`SitePublishingAuthUpdate`), and the read
 * (`GET SITE/publishing/auth`, only for a site whose config has the block). The answer carries the
 * site's `privateKey`, the secret that signs visitor tokens: the read drops it at once, so it
 * reaches no plan, log or import.
 */
import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import type { Reader } from '../kind.js';
import { PublishingAuthAnswer } from './answers.js';

export const PublishingAuth = z.strictObject({
  backend: z.enum(['custom', 'integration']).describe('custom: your own authentication backend; integration: the site\'s authenticated-access integration'),
  fallbackURL: z.url().nullable().optional().describe('Where visitors go when their token is invalid; null unsets it'),
  logoutURL: z.url().nullable().optional().describe('Logs visitors out from the custom backend; null unsets it'),
});
export type PublishingAuthT = z.infer<typeof PublishingAuth>;

/** What docplane keeps of the answer: never the private key. */
export interface RemotePublishingAuth {
  backend: string | null;
  fallbackURL: string | null;
  logoutURL: string | null;
  /** The authenticated-access integration installed on the site, if any (read only). */
  integration: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function parsePublishingAuth(raw: unknown): RemotePublishingAuth {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  return { backend: str(o.backend), fallbackURL: str(o.fallbackURL), logoutURL: str(o.logoutURL), integration: str(o.integration) };
}

/** The site's publishing auth without its private key; undefined when not asked. */
export async function readPublishingAuth(ctx: Pick<Reader, 'client'>, base: string, wanted: { publishingAuth?: PublishingAuthT }): Promise<RemotePublishingAuth | undefined> {
  if (wanted.publishingAuth === undefined) return undefined;
  try {
    const { body } = await ctx.client.request('GET', `${base}/publishing/auth`, { schema: PublishingAuthAnswer });
    return parsePublishingAuth(body);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return parsePublishingAuth({});
    throw err;
  }
}
