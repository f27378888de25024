/**
 * Who can reach an object, as the API shows it: the object's direct grants (what `access:` manages)
 * beside every user's effective role (`listPermissionsAggregateIn{Collection,Space,Site}`), so that
 * inherited access — a space's collection, the organization's default level, a team — can be seen.
 * Read by `docplane access` only: a plan and an import read the two direct lists of an object and
 * never this third one, which they could not manage anyway.
 */
import { ApiError, DocplaneError } from '../../core/errors.js';
import { resolveCollections, readCollections } from '../shared/collections.js';
import { enc, orgPath } from '../common/paths.js';
import type { Reader } from '../kind.js';
import { readSpaceList } from '../shared/space-list.js';
import { permissionsPath, readGrants, type AccessTarget } from './grants.js';
import { AggregateAnswer, SiteNameAnswer } from './answers.js';

/** Where a user's effective role comes from. */
export type Origin =
  | { type: 'direct' }
  | { type: 'team'; team: string }
  | { type: 'space'; space: string }
  | { type: 'organization' }
  | { type: 'site-default' }
  /**
   * Collections and spaces: the aggregate does not say; no direct user grant gives this role (the
   * user's direct grant, when they have one, is another role: `direct`).
   */
  | { type: 'team-or-inherited'; direct?: string };

export interface EffectiveRole {
  /** The user's email, else their id. */
  user: string;
  role: string;
  origin: Origin;
}

export interface ObjectAccess {
  target: AccessTarget;
  id: string;
  /** A collection's path of titles, a space's or a site's title. */
  name: string;
  /** Direct grants: team title → role, user email → role. */
  teams: Record<string, string>;
  users: Record<string, string>;
  /** Every user who can reach the object, by email. */
  effective: EffectiveRole[];
}

export interface AccessSelection {
  collections?: readonly string[];
  spaces?: readonly string[];
  sites?: readonly string[];
}

interface AggregateItem {
  permission?: string | null;
  user?: { id: string; email?: string };
  origin?: { type?: string; reason?: string; team?: string; space?: string; id?: string };
}

interface Named {
  target: AccessTarget;
  id: string;
  name: string;
}

const byKey = <T>(entries: Array<[string, T]>): Record<string, T> =>
  Object.fromEntries(entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));

function originOf(item: AggregateItem, direct: ReadonlyMap<string, string>, teamTitle: (id: string) => string): Origin {
  const o = item.origin;
  if (o?.type === 'site') {
    if (o.reason === 'member') return { type: 'direct' };
    if (o.reason === 'team' && o.team) return { type: 'team', team: teamTitle(o.team) };
    return { type: 'site-default' };
  }
  if (o?.type === 'space') return { type: 'space', space: o.space ?? o.id ?? '' };
  if (o?.type === 'organization') return { type: 'organization' };
  // "direct" only when the direct grant is the role shown: a higher role comes through a team or the
  // object's parent, whatever the user's own grant.
  const own = direct.get(item.user?.id ?? '');
  if (own === undefined) return { type: 'team-or-inherited' };
  return own === (item.permission ?? 'read') ? { type: 'direct' } : { type: 'team-or-inherited', direct: own };
}

/** One object's direct grants and effective roles: three lists; undefined when it does not exist. */
export async function readObjectAccess(ctx: Reader, object: Named): Promise<ObjectAccess | undefined> {
  const [grants, aggregate] = await Promise.all([
    readGrants(ctx, object.target, object.id),
    ctx.client.listAll<AggregateItem>(`${permissionsPath(ctx.org, object.target, enc(object.id))}/aggregate`, {}, { schema: AggregateAnswer }).catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }),
  ]);
  if (!grants || !aggregate) return undefined;
  const teams = new Map(grants.teams.map((g) => [g.team.id, g.team.title ?? g.team.id]));
  const direct = new Map(grants.users.map((g) => [g.user.id, g.permission ?? 'read']));
  const label = (u: { id: string; email?: string } | undefined): string => (u?.email ? u.email.toLowerCase() : (u?.id ?? '?'));
  const effective = aggregate
    .map((item): EffectiveRole => ({ user: label(item.user), role: item.permission ?? 'read', origin: originOf(item, direct, (id) => teams.get(id) ?? id) }))
    .sort((a, b) => (a.user < b.user ? -1 : a.user > b.user ? 1 : 0));
  return {
    ...object,
    teams: byKey(grants.teams.map((g) => [g.team.title ?? g.team.id, g.permission ?? 'read'])),
    users: byKey(grants.users.map((g) => [label(g.user), g.permission ?? 'read'])),
    effective,
  };
}

/**
 * The objects to report: those the selection names (by id), or, for a kind it does not narrow when
 * it narrows none, every collection, space and site of the organization (one list each).
 */
async function objectsOf(ctx: Reader, select: AccessSelection): Promise<Named[]> {
  const narrowed = select.collections !== undefined || select.spaces !== undefined || select.sites !== undefined;
  const want = (ids: readonly string[] | undefined) => (narrowed ? (ids === undefined ? undefined : new Set(ids)) : null);
  const [collections, spaces, sites] = [want(select.collections), want(select.spaces), want(select.sites)];
  const [remoteCollections, remoteSpaces, remoteSites] = await Promise.all([
    collections === undefined ? [] : readCollections(ctx),
    spaces === undefined ? [] : readSpaceList(ctx),
    sites === undefined ? [] : ctx.client.listAll<{ id: string; title?: string }>(`${orgPath(ctx.org)}/sites`, {}, { schema: SiteNameAnswer }),
  ]);
  const paths = resolveCollections(undefined, remoteCollections).remotePath;
  const pick = <T extends { id: string }>(list: readonly T[], only: Set<string> | null | undefined): T[] =>
    only ? list.filter((x) => only.has(x.id)) : [...list];
  const missing = [
    ...[...(collections ?? [])].filter((id) => !remoteCollections.some((c) => c.id === id)).map((id) => `collection ${id}`),
    ...[...(spaces ?? [])].filter((id) => !remoteSpaces.some((s) => s.id === id)).map((id) => `space ${id}`),
    ...[...(sites ?? [])].filter((id) => !remoteSites.some((s) => s.id === id)).map((id) => `site ${id}`),
  ];
  if (missing.length > 0) {
    throw new DocplaneError('NOT_FOUND', `organization ${ctx.org} has no ${missing.join(', ')}`, { hint: 'Pass ids as `docplane import` writes them.' });
  }
  return [
    ...pick(remoteCollections, collections).map((c): Named => ({ target: 'collection', id: c.id, name: paths.get(c.id) ?? c.title })),
    ...pick(remoteSpaces, spaces).map((s): Named => ({ target: 'space', id: s.id, name: s.title ?? s.id })),
    ...pick(remoteSites, sites).map((s): Named => ({ target: 'site', id: s.id, name: s.title ?? s.id })),
  ];
}

/** The access of every selected object of one organization, objects read concurrently. */
export async function readOrgAccess(ctx: Reader, select: AccessSelection): Promise<ObjectAccess[]> {
  const objects = await objectsOf(ctx, select);
  const read = await Promise.all(objects.map((o) => readObjectAccess(ctx, o)));
  return read.filter((o): o is ObjectAccess => o !== undefined);
}
