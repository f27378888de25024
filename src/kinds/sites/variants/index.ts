/**
 * A site's variants: the customization a site space overrides (`customization` of a site space entry).
 * A field of the site entries, so it joins the sites unit (as src/kinds/sites/agent/ does). Import writes
 * nothing of it: the API answers effective values, which cannot tell an override from the site's own.
 */
import type { KindUnit } from '../../kind.js';
import { variantsModule } from './variants.js';

export { variantsModule } from './variants.js';

export function withSiteVariants(unit: KindUnit): KindUnit {
  return { ...unit, kinds: [...unit.kinds, variantsModule] };
}
