/** Sites' ads (`siteAds:` in the config), by site id. */
import type { Item } from '../../source/origin.js';
import { sortBy, type Draft } from '../common/import.js';
import type { Importer, KindUnit } from '../kind.js';
import { readSiteInfos, type RemoteSiteInfo } from '../shared/sites.js';
import { adsOf, siteAdsAddress, siteAdsModule } from './site-ads.js';
import { SiteAds, type SiteAdsT } from './schema.js';

const importSiteAds: Importer<RemoteSiteInfo[]> = {
  read: (ctx) => readSiteInfos(ctx),
  write(sites, sink) {
    // A site never submitted for ads (`pending`) has nothing to write.
    const out = sortBy(sites, (s) => s.id).flatMap((s): Draft[] => {
      const ads = adsOf(s);
      return ads ? [{ site: s.id, ...ads }] : [];
    });
    sink.count(siteAdsModule.label, out.length);
    return out;
  },
};

export const siteAdsUnit: KindUnit = {
  configKey: 'siteAds',
  list: true,
  schema: SiteAds,
  kinds: [siteAdsModule],
  addressNames: { top: ['siteAds'] },
  flowMaps: ['siteAds.*'],
  resolve(entries, ctx) {
    for (const { value, origin } of entries as readonly Item<SiteAdsT>[]) ctx.claim(`siteAds:${value.site}`, siteAdsAddress(value.site), origin);
  },
  importer: importSiteAds,
};
