/** The fields of a `sites` entry that src/kinds/site-hosting/ plans: its custom hostname. */
import { z } from 'zod';

/** SiteHostname: a host of at least three labels (docs.acme.com). */
export const CustomHostname = z
  .string()
  .max(512)
  .regex(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/, 'must be a lower-case host name such as docs.acme.com')
  .nullable()
  .describe('The site\'s custom hostname: null removes it; a host name is checked against the site\'s (no operation sets one: the app does, with its DNS check); absent: unmanaged, or removed with prune: [customHostnames]');
