/** A `siteAds` entry: whether a site shows ads (updateSiteAdsById), and on which topic. */
import { z } from 'zod';
import { Id } from '../common/fields.js';

export const SiteAds = z.strictObject({
  site: Id.describe('The site, by id'),
  status: z.enum(['in-review', 'disabled']).describe('in-review submits the site for ads (it then goes live or is rejected by the ad network); disabled turns them off'),
  topic: z.enum(['webdev', 'crypto']).optional().describe('The topic of the site\'s content, for the ads shown'),
});

export type SiteAdsT = z.infer<typeof SiteAds>;

declare module '../../model/desired.js' {
  interface DesiredLists {
    siteAds?: SiteAdsT[];
  }
}
