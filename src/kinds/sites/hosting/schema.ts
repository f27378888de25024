/** The fields of a `sites` entry that src/kinds/sites/hosting/ plans: its custom hostname, its default site space. */
import { z } from 'zod';

/** SiteHostname: a host of at least three labels (docs.acme.com). */
export const CustomHostname = z
  .string()
  .max(512)
  .regex(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/, 'must be a lower-case host name such as docs.acme.com')
  .nullable()
  .describe('The site\'s custom hostname: null removes it; a host name is checked against the site\'s (no operation sets one: the app does, with its DNS check); absent: unmanaged, or removed with prune: [customHostnames]');

/** The space (its id) of the root site space visitors land on, in a site without sections. */
export const DefaultSiteSpace = z
  .string()
  .min(1)
  .describe('In a site without sections: the space (by id) of the site space shown by default, listed first among siteSpaces; absent: unmanaged');
