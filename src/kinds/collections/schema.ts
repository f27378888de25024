/** A `collections` entry: a collection by its path of titles, and its children. */
import { z } from 'zod';
import { Access, type AccessT } from '../shared/access-schema.js';
import { Id, Level, RenamedFrom } from '../common/fields.js';

export interface CollectionT {
  id?: string;
  renamedFrom?: string;
  title: string;
  description?: string | null;
  defaultLevel?: z.infer<typeof Level> | null;
  collections?: CollectionT[];
  access?: AccessT;
}
export const Collection: z.ZodType<CollectionT> = z.lazy(() =>
  z
    .strictObject({
      id: Id.optional(),
      renamedFrom: RenamedFrom.optional().describe('Path of the remote collection this one was called before'),
      // A "/" would make the collection's path (its natural key, `Product/API`) ambiguous.
      title: z.string().min(1).max(50).regex(/^[^/]*$/, { error: 'must not contain "/" (collection paths use it to separate titles)' }),
      description: z.string().max(100).nullable().optional(),
      defaultLevel: Level.nullable().optional(),
      collections: z.array(Collection).optional().describe('Child collections'),
      access: Access.optional(),
    }),
  // The id names the recursive definition in the JSON Schema ($defs/Collection).
).meta({ id: 'Collection' });

declare module '../../model/desired.js' {
  interface DesiredLists {
    collections?: CollectionT[];
  }
}
