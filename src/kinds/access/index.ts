/**
 * Access as code: the direct grants of teams and users on collections, spaces and sites (the
 * `access` field of each). The registry joins each access kind to the unit of its objects.
 */
import { key } from '../../model/address.js';
import type { RemoteCollection } from '../shared/collections.js';
import { collectionAccessModule, siteAccessModule, spaceAccessModule } from './kinds.js';
import type { AccessOf } from './unit.js';

export { withAccess } from './unit.js';
export { readOrgAccess, type ObjectAccess, type Origin } from './effective.js';
export { collectionAccessModule, siteAccessModule, spaceAccessModule } from './kinds.js';

export const collectionAccess: AccessOf = {
  target: 'collection',
  kind: collectionAccessModule,
  ids: (state) => (state as RemoteCollection[]).map((c) => c.id),
  address: (d) => `collections${key(String(d.title))}`,
  nested: 'collections',
};

export const spaceAccess: AccessOf = {
  target: 'space',
  kind: spaceAccessModule,
  ids: (state) => (state as { spaces: Array<{ id: string }> }).spaces.map((s) => s.id),
  address: (d) => `spaces${key(String(d.id))}`,
};

export const siteAccess: AccessOf = {
  target: 'site',
  kind: siteAccessModule,
  ids: (state) => (state as { sites: Array<{ id: string; site: unknown }> }).sites.filter((s) => s.site !== null).map((s) => s.id),
  address: (d) => `sites${key(String(d.id))}`,
};
