/**
 * A site's custom hostname (`sites["ID"].customHostname`): the Site object's `hostname`. The API sets
 * none — connecting a hostname needs its DNS records, in the app — but removes one
 * (removeCustomHostname, `DELETE /custom-hostnames/HOST`). So the config manages its removal:
 * `customHostname: null`, or `prune: [customHostnames]` for a listed site whose entry leaves it out.
 * A host name in the config is compared with the site's: another one is a plan problem (it cannot be
 * set from here), the same one is nothing to do.
 */
import { fingerprintEntries } from '../../../model/fingerprint.js';
import type { PlanProblem } from '../../../model/step.js';
import { step } from '../../common/step.js';
import { emptyKindPlan, type KindPlan, type KindSpec, type ReadContext } from '../../kind.js';
import { siteAddress } from '../addresses.js';
import { siteKey, type SiteT } from '../schema.js';
import { matchSites, readSiteInfos, type RemoteSiteInfo } from '../../shared/sites.js';

export const customHostnameAddress = (site: string): string => `${siteAddress(site)}.customHostname`;

export interface HostnameSite {
  site: SiteT;
  info?: RemoteSiteInfo;
}

async function readHostnames(ctx: ReadContext): Promise<HostnameSite[] | undefined> {
  const prune = ctx.desired.prune.includes('customHostnames');
  const desired = (ctx.desired.sites ?? []).filter((s) => s.customHostname !== undefined || prune);
  if (desired.length === 0) return undefined;
  // The site list carries each site's hostname: no read of its own.
  const list = await readSiteInfos(ctx);
  return matchSites(desired, list).pairs.map((p) => ({ site: p.desired, ...(p.remote ? { info: p.remote } : {}) }));
}

export const customHostnamesModule: KindSpec<HostnameSite[] | undefined> = {
  kind: 'customHostnames',
  label: { one: 'custom hostname', many: 'custom hostnames' },
  prunable: true,
  count: (org) => (org.sites ?? []).filter((s) => s.customHostname !== undefined).length,
  read: readHostnames,
  plan(ctx, remote): KindPlan {
    const kp = emptyKindPlan();
    if (!remote) return kp;
    const prints: Array<[string, unknown]> = [];
    const prune = ctx.prunes('customHostnames');
    for (const { site, info } of remote) {
      const want = site.customHostname;
      const have = info?.hostname ?? null;
      const address = customHostnameAddress(siteKey(site));
      if (have !== null) kp.remoteCount += 1;
      if (want === undefined && !prune) continue;
      if (typeof want === 'string') {
        if (want === have) {
          prints.push([address, { site: info?.id ?? null, hostname: have }]);
          continue;
        }
        const location = ctx.desired.locations[address];
        const p: PlanProblem = {
          org: ctx.org,
          address,
          message: `${info ? `site ${info.id} has ${have === null ? 'no custom hostname' : `the custom hostname ${have}`}` : 'the site does not exist yet'}; the API cannot set one (connect ${want} in the app, where its DNS is checked), only remove one (customHostname: null)`,
          ...(location ? { location } : {}),
        };
        kp.problems.push(p);
        continue;
      }
      if (have === null || !info) continue;
      prints.push([address, { site: info.id, hostname: have }]);
      kp.steps.push(step({
        address,
        kind: 'customHostnames',
        action: 'delete',
        before: { hostname: have },
        after: null,
        changes: [],
        requests: [{ method: 'DELETE', path: `/v1/custom-hostnames/${encodeURIComponent(have)}` }],
        remoteId: have,
        notes: [`the site is served at its default address again; ${have} stops serving it`],
      }));
    }
    kp.fingerprints = fingerprintEntries(prints);
    return kp;
  },
};
