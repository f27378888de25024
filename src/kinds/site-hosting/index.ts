/**
 * A site's hosting: its custom hostname (`customHostname` of a `sites` entry, removed through the API)
 * and the rotation of its visitor-auth key (`--replace 'sites["ID"].publishingAuth.privateKey'`). Both
 * are fields of the site entries, so the unit joins the sites unit (as src/kinds/site-agent/ does):
 * `withSiteHosting` adds the kinds after the unit's own and their address names. Import writes neither:
 * no operation sets a hostname, and a key is never read.
 */
import { child, type Item } from '../../source/origin.js';
import type { KindUnit } from '../kind.js';
import { siteKey, type SiteT } from '../sites/schema.js';
import { authKeysModule } from './auth-key.js';
import { customHostnameAddress, customHostnamesModule } from './custom-hostname.js';

export { authKeysModule } from './auth-key.js';
export { customHostnamesModule } from './custom-hostname.js';

export function withSiteHosting(unit: KindUnit): KindUnit {
  return {
    ...unit,
    kinds: [...unit.kinds, customHostnamesModule, authKeysModule],
    addressNames: { top: unit.addressNames.top, inner: [...(unit.addressNames.inner ?? []), 'customHostname', 'privateKey'] },
    resolve(entries, ctx) {
      unit.resolve?.(entries, ctx);
      for (const { value, origin } of entries as readonly Item<SiteT>[]) {
        if (value.customHostname !== undefined) ctx.locate(customHostnameAddress(siteKey(value)), child(origin, 'customHostname'));
      }
    },
  };
}
