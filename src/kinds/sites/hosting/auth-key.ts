/**
 * The key that signs a site's visitor tokens (`sites["ID"].publishingAuth.privateKey`): the API never
 * lets it be read back into a config (the publishing-auth read drops it), so nothing can be compared;
 * `--replace` naming its address exactly rotates it with regenerateSitePublishingAuthById (`POST
 * SITE/publishing/auth/regenerate`), as `--replace` resends a certificate. The answer carries the new
 * key, which docplane neither keeps nor shows: the site's authentication backend must be given it in
 * the app. A plan without `--replace` plans nothing here.
 */
import { step } from '../../common/step.js';
import { emptyKindPlan, type KindPlan, type KindSpec, type ReadContext } from '../../kind.js';
import { siteAddress } from '../addresses.js';
import { sitePath } from '../remote.js';
import { siteKey, type SiteT } from '../schema.js';
import { matchSites, readSiteInfos, type RemoteSiteInfo } from '../../shared/sites.js';

export const authKeyAddress = (site: string): string => `${siteAddress(site)}.publishingAuth.privateKey`;

async function readAuthSites(ctx: ReadContext): Promise<Array<{ site: SiteT; info?: RemoteSiteInfo }> | undefined> {
  const desired = (ctx.desired.sites ?? []).filter((s) => s.publishingAuth !== undefined);
  if (desired.length === 0) return undefined;
  const list = await readSiteInfos(ctx);
  return matchSites(desired, list).pairs.map((p) => ({ site: p.desired, ...(p.remote ? { info: p.remote } : {}) }));
}

export const authKeysModule: KindSpec<Array<{ site: SiteT; info?: RemoteSiteInfo }> | undefined> = {
  kind: 'publishingAuthKeys',
  label: { one: 'visitor-auth key', many: 'visitor-auth keys' },
  replaceable: true,
  // Rotatable keys: the sites whose config gives their publishing auth.
  addresses: (org) => (org.sites ?? []).filter((s) => s.publishingAuth !== undefined).map((s) => authKeyAddress(siteKey(s))),
  read: readAuthSites,
  plan(ctx, remote): KindPlan {
    const kp = emptyKindPlan();
    if (!remote) return kp;
    for (const { site, info } of remote) {
      const address = authKeyAddress(siteKey(site));
      // Rotating breaks every visitor token signed with the old key: only --replace naming this very
      // address rotates it, not a pattern that selects it among others (a site's address, a glob).
      if (!info || !(ctx.replace ?? []).some((p) => p === address || p === `${ctx.org}/${address}`)) continue;
      kp.steps.push(step({
        address,
        kind: 'publishingAuthKeys',
        action: 'update',
        before: { privateKey: '(sensitive)' },
        after: { privateKey: '(a new key)' },
        requests: [{ method: 'POST', path: `${sitePath(ctx.org, info.id)}/publishing/auth/regenerate` }],
        needs: [`${siteAddress(siteKey(site))}.publishingAuth`],
        remoteId: info.id,
        notes: ['rotated because of --replace: visitor tokens signed with the old key stop working; give the new key (in the app) to the backend that signs them'],
      }));
    }
    return kp;
  },
};
