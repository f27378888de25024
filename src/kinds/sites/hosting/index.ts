/**
 * A site's hosting: its custom hostname (`customHostname` of a `sites` entry, removed through the API),
 * the rotation of its visitor-auth key (`--replace 'sites["ID"].publishingAuth.privateKey'`) and the
 * site space it opens on (`defaultSiteSpace`, in a site without sections). Both
 * are fields of the site entries, so the unit joins the sites unit (as src/kinds/sites/agent/ does):
 * `withSiteHosting` adds the kinds after the unit's own and their address names. Import writes neither:
 * no operation sets a hostname, and a key is never read.
 */
import { child, type Item } from '../../../source/origin.js';
import type { KindUnit } from '../../kind.js';
import { siteKey, type SiteT } from '../schema.js';
import { authKeysModule } from './auth-key.js';
import { customHostnameAddress, customHostnamesModule } from './custom-hostname.js';
import { defaultSiteSpaceAddress, defaultSiteSpacesModule } from './default-site-space.js';

export { authKeysModule } from './auth-key.js';
export { customHostnamesModule } from './custom-hostname.js';
export { defaultSiteSpacesModule } from './default-site-space.js';

export function withSiteHosting(unit: KindUnit): KindUnit {
  return {
    ...unit,
    kinds: [...unit.kinds, customHostnamesModule, authKeysModule, defaultSiteSpacesModule],
    addressNames: { top: unit.addressNames.top, inner: [...(unit.addressNames.inner ?? []), 'customHostname', 'privateKey', 'defaultSiteSpace'] },
    resolve(entries, ctx) {
      unit.resolve?.(entries, ctx);
      for (const { value, origin } of entries as readonly Item<SiteT>[]) {
        if (value.customHostname !== undefined) ctx.locate(customHostnameAddress(siteKey(value)), child(origin, 'customHostname'));
        const space = value.defaultSiteSpace;
        if (space === undefined) continue;
        const at = child(origin, 'defaultSiteSpace');
        ctx.locate(defaultSiteSpaceAddress(siteKey(value)), at);
        // The default site space is shown first at the root: an order that says otherwise would never settle.
        if ((value.sections ?? []).length > 0) ctx.problems.at(at, 'a site with sections has a default site space per section: set defaultSiteSpace on the section');
        else if ((value.siteSpaces ?? []).length > 0 && value.siteSpaces?.[0].space !== space) {
          ctx.problems.at(at, value.siteSpaces?.some((s) => s.space === space) ? `the default site space is shown first: list ${space} first under siteSpaces` : `${space} is not one of the site's siteSpaces`);
        }
      }
    },
  };
}
