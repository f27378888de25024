/** Site kinds: sections, site spaces, section groups, share links and the structure order. */
import type { ResourceModule } from '../types.js';

export const siteModules: ResourceModule[] = [];
