/**
 * What every kind's views share. A view turns a record into the API's object; optional fields that
 * are unset are left out, as the live service does; `permissions` follow the token's access.
 */
import type { TokenAccess, World } from './model.js';

export interface ViewContext {
  world: World;
  access: TokenAccess;
}

export type Obj = Record<string, unknown>;

/** Leaves out keys whose value is undefined, so that absent fields are absent in the JSON too. */
export function compact(o: Obj): Obj {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

export function perms(ctx: ViewContext, keys: string[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const k of keys) out[k] = k === 'view' || k === 'access' || ctx.access === 'write';
  return out;
}

export const apiUrl = (ctx: ViewContext, path: string) => `${ctx.world.baseUrl}/v1${path}`;
export const appUrl = (path: string) => `https://app.docplane.test${path}`;
export const publishedUrl = (org: string, path: string) => `https://${org.replace(/[^a-zA-Z0-9-]/g, '-').toLowerCase()}.docs.test${path}`;
