/**
 * The default site space of a site without sections (`sites["ID"].defaultSiteSpace`): which of the
 * site spaces at its root visitors land on, named by its space's id. Set with the site's PATCH
 * (`defaultSiteSpace`, the site space's id); a site space this plan adds at the root is set once it
 * exists. A site with sections sets the default on each section instead (`sections[].defaultSiteSpace`).
 */
import { ref } from '../../../model/address.js';
import { fingerprintEntries } from '../../../model/fingerprint.js';
import type { PlanProblem } from '../../../model/step.js';
import { step } from '../../common/step.js';
import { emptyKindPlan, type KindPlan, type KindSpec, type ReadContext } from '../../kind.js';
import { rootSiteSpaceAddress, siteAddress } from '../addresses.js';
import { readSites, sitePath, type RemoteSite } from '../remote.js';
import { siteKey, type SiteT } from '../schema.js';
import { matchSites } from '../../shared/sites.js';

export const defaultSiteSpaceAddress = (site: string): string => `${siteAddress(site)}.defaultSiteSpace`;

interface DefaultSite {
  site: SiteT;
  id?: string;
  structure?: RemoteSite | null;
}

async function readDefaults(ctx: ReadContext): Promise<DefaultSite[] | undefined> {
  const desired = (ctx.desired.sites ?? []).filter((s) => s.defaultSiteSpace !== undefined);
  if (desired.length === 0) return undefined;
  // The sites' structure holds the root site spaces and which one is the default (a shared read).
  const remote = await readSites(ctx);
  return matchSites(desired, remote.list).pairs.map((p) => ({
    site: p.desired,
    ...(p.remote ? { id: p.remote.id, structure: remote.sites.find((x) => x.id === p.remote!.id)?.site ?? null } : {}),
  }));
}

export const defaultSiteSpacesModule: KindSpec<DefaultSite[] | undefined> = {
  kind: 'defaultSiteSpaces',
  label: { one: 'default site space', many: 'default site spaces' },
  count: (org) => (org.sites ?? []).filter((s) => s.defaultSiteSpace !== undefined).length,
  read: readDefaults,
  plan(ctx, remote): KindPlan {
    const kp = emptyKindPlan();
    if (!remote) return kp;
    const prints: Array<[string, unknown]> = [];
    for (const o of remote) {
      const want = o.site.defaultSiteSpace;
      if (want === undefined) continue;
      const name = siteKey(o.site);
      const address = defaultSiteSpaceAddress(name);
      const problem = (message: string) => {
        const location = ctx.desired.locations[address];
        const p: PlanProblem = { org: ctx.org, address, message, ...(location ? { location } : {}) };
        kp.problems.push(p);
      };
      if (o.id === undefined && o.site.id !== undefined) continue;
      const roots = o.structure?.rootSiteSpaces ?? [];
      const current = roots.find((s) => s.default);
      const target = roots.find((s) => s.space === want);
      const listed = (o.site.siteSpaces ?? []).some((s) => s.space === want);
      if (!target && !listed) {
        problem(`defaultSiteSpace ${want} is not a space at the site's root: list it under the site's siteSpaces`);
        continue;
      }
      if (current?.space === want) {
        prints.push([address, { site: o.id ?? null, default: current.id }]);
        continue;
      }
      const base = o.id === undefined ? `/v1/orgs/${encodeURIComponent(ctx.org)}/sites/${ref(ctx.org, siteAddress(name))}` : sitePath(ctx.org, o.id);
      // A site space this plan adds at the root: its id comes from its create.
      const siteSpace = target ? target.id : ref(ctx.org, rootSiteSpaceAddress(name, want));
      prints.push([address, { site: o.id ?? null, default: current?.id ?? null }]);
      kp.steps.push(step({
        address,
        kind: 'defaultSiteSpaces',
        action: 'update',
        before: { defaultSiteSpace: current?.space ?? null },
        after: { defaultSiteSpace: want },
        requests: [{ method: 'PATCH', path: base, body: { defaultSiteSpace: siteSpace } }],
        needs: [siteAddress(name), ...(target ? [] : [`${rootSiteSpaceAddress(name, want)}:create`])],
      }));
    }
    kp.fingerprints = fingerprintEntries(prints);
    return kp;
  },
};
