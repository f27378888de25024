/**
 * A site's publishing auth (`getSitePublishingAuthById`, `updateSitePublishingAuthById`,
 * `regenerateSitePublishingAuthById`): the visitor-authentication backend and its URLs, and the private
 * key that signs visitor tokens, made once per site and again on a regenerate (a secret: the exchange
 * log masks `privateKey`).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { bodyObject, ok, validate } from '../../http.js';
import type { Router } from '../../http.js';
import { compact } from '../../views.js';
import type { SiteRec } from './records.js';
import { siteOf } from './routes.js';

export interface PublishingAuthRec {
  backend: 'custom' | 'integration';
  privateKey: string;
  fallbackURL?: string;
  logoutURL?: string;
}

declare module './records.js' {
  interface SiteRec {
    /** Made on first use: a custom backend and a new private key. */
    publishingAuth?: PublishingAuthRec;
  }
}

const Patch = z.strictObject({
  backend: z.enum(['custom', 'integration']),
  fallbackURL: z.url().nullable().optional(),
  logoutURL: z.url().nullable().optional(),
});

export const newPrivateKey = (): string => randomBytes(32).toString('hex');

export function publishingAuthOf(site: SiteRec): PublishingAuthRec {
  site.publishingAuth ??= { backend: 'custom', privateKey: newPrivateKey() };
  return site.publishingAuth;
}

function view(a: PublishingAuthRec): Record<string, unknown> {
  return compact({ object: 'publishing-auth', backend: a.backend, privateKey: a.privateKey, fallbackURL: a.fallbackURL, logoutURL: a.logoutURL });
}

export function publishingAuthRoutes(router: Router): void {
  const SITE = '/v1/orgs/:org/sites/:site';

  router.add('GET', `${SITE}/publishing/auth`, (req) => ok(view(publishingAuthOf(siteOf(req).site))));

  router.add('PATCH', `${SITE}/publishing/auth`, (req) => {
    const { site } = siteOf(req);
    const body = validate(Patch, bodyObject(req));
    const a = publishingAuthOf(site);
    a.backend = body.backend;
    if (body.fallbackURL !== undefined) a.fallbackURL = body.fallbackURL ?? undefined;
    if (body.logoutURL !== undefined) a.logoutURL = body.logoutURL ?? undefined;
    return ok(view(a));
  });

  router.add('POST', `${SITE}/publishing/auth/regenerate`, (req) => {
    const a = publishingAuthOf(siteOf(req).site);
    a.privateKey = newPrivateKey();
    return ok(view(a));
  });
}

/** Publishing auth in the state file (the private key is always made by the emulator). */
export const PublishingAuthSeed = z.strictObject({ backend: z.enum(['custom', 'integration']), fallbackURL: z.url().optional(), logoutURL: z.url().optional() });

export function seedPublishingAuth(site: SiteRec, seed: z.output<typeof PublishingAuthSeed>): void {
  site.publishingAuth = { ...seed, privateKey: newPrivateKey() };
}
