/**
 * A site's publishing auth (visitor authentication): its backend and its fallback and logout URLs,
 * changed by `PATCH SITE/publishing/auth` (the body always names the backend, as the description's
 * `SitePublishingAuthUpdate` requires). The private key is never read into the plan
 * (publishing-auth-read.ts). Visitor authentication protects a site whose visibility is
 * `visitor-auth`: a change on a site the config, or else the organization's site list, gives another
 * visibility carries a note saying it has no effect yet, as does one whose visibility is not known.
 */
import type { JsonObject } from '../../model/step.js';
import { compact } from '../common/match.js';
import { siteAddress } from './addresses.js';
import type { RemotePublishingAuth } from './publishing-auth-read.js';
import { siteKey, type PublishingAuthT } from './schema.js';
import { differing, type SiteContext } from './steps.js';
import { step } from '../common/step.js';

export const publishingAuthAddress = (site: string): string => `${siteAddress(site)}.publishingAuth`;

const normalAuth = (r: RemotePublishingAuth): JsonObject => ({ backend: r.backend, fallbackURL: r.fallbackURL, logoutURL: r.logoutURL });

/** `current`: the site's visibility as the organization's site list has it (absent for a site this plan creates). */
/**
 * The API keeps a site's publishing auth whatever its visibility, and an organization may hold one on
 * a public site (import writes it as it is): a note on the step, not a problem.
 */
function visibilityNote(site: string, visibility: string | undefined): string {
  return visibility === undefined
    ? `visitor authentication applies only when the site's visibility is "visitor-auth"; site ${site}'s visibility is not known yet (set visibility on the site to have it checked)`
    : `site ${site}'s visibility is ${JSON.stringify(visibility)}: this publishing auth has no effect until the visibility is "visitor-auth"`;
}

export function planPublishingAuth(ctx: SiteContext, current?: string): void {
  const { site, remote, base, out, push } = ctx;
  const want: PublishingAuthT | undefined = site.publishingAuth;
  if (want === undefined || remote.publishingAuth === undefined) return;
  out.publishingAuth.remoteCount = 1;
  const address = publishingAuthAddress(siteKey(site));
  // The site's visibility: as the config sets it, else as the site has it.
  const visibility = site.visibility ?? current;
  const now = normalAuth(remote.publishingAuth);
  const { before, after } = differing(now, compact({ backend: want.backend, fallbackURL: want.fallbackURL, logoutURL: want.logoutURL }) as JsonObject);
  if (Object.keys(after).length === 0) return;
  push(
    step({
      address,
      kind: 'publishingAuth',
      action: 'update',
      before,
      after,
      requests: [{ method: 'PATCH', path: `${base}/publishing/auth`, body: { backend: want.backend, ...after } }],
      ...(visibility !== 'visitor-auth' ? { notes: [visibilityNote(siteKey(site), visibility)] } : {}) }),
    now,
  );
}
