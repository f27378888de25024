/**
 * The organization's audit log: every write the emulator accepts is recorded as an event (who, from
 * where, on what), and the three audit operations of the live description answer them
 * (`listOrganizationAuditEvents`, `getOrganizationAuditEvent`, `listOrganizationAuditEventActions`),
 * newest first, up to 100 a page. An organization whose seed says `auditLog: false` (not on an
 * Enterprise plan) answers 403, as the live service does. `GET /user` answers the token's user, so
 * that a client can tell its own changes from others'.
 *
 * The recording is not a route: the server calls `auditBefore` before a write's handler runs (the
 * target's label is read while it still exists, for a delete) and `recordAudit` after it succeeded.
 */
import { z } from 'zod';
import { HttpError, badRequest, listReply, notFound, ok } from '../http.js';
import type { Reply, RouteRequest } from '../http.js';
import { defineKind } from '../kind.js';
import type { OrgRec, TokenRec, World } from '../model.js';
import { orgOf } from '../routing.js';
import { apiUrl, compact } from '../views.js';

export const AUDIT_SOURCES = ['ui', 'api', 'integration', 'webhook', 'workflow', 'script', 'support'] as const;
export type AuditSource = (typeof AUDIT_SOURCES)[number];

export interface AuditEventRec {
  id: string;
  occurredAt: string;
  action: string;
  actor: { type: 'user' | 'integration'; id: string; label?: string };
  source: AuditSource;
  target: { type: string; id: string; label?: string };
  correlationId: string;
  /** Names of the request body's fields (the values are not kept: they may be secrets). */
  fields: string[];
}

declare module '../model.js' {
  interface OrgRec {
    /** False: the organization is not on an Enterprise plan, and the audit operations answer 403. */
    auditLog: boolean;
    /** Oldest first. */
    auditEvents: AuditEventRec[];
  }
  interface World {
    /** Events recorded so far in every organization (makes their ids). */
    auditCount: number;
  }
}

/** Path words under which the items are not objects of their own: the object above them changed. */
const NOT_OBJECTS = new Set(['permissions']);

/** The token without a user acts for this one (the live service has no such token; tests use it). */
const TOKEN_USER = { id: 'u_api_token', label: 'API token' };

export interface PendingAudit {
  org: OrgRec;
  method: string;
  type: string;
  id: string | undefined;
  /** The object above a list written to, when the answer names no object of its own. */
  parent?: { type: string; id: string };
  /** Words of the path after the target (`members`, `structure/sort`), for the action's name. */
  rest: string[];
  label?: string;
  token: TokenRec;
  fields: string[];
}

interface Seg {
  word: string;
  id?: string;
}

/** `/v1/orgs/o/teams/t/members` → [{orgs,o},{teams,t},{members}]: a word followed by its item's id when a parameter stands there. */
function segments(path: string, params: Record<string, string>): Seg[] {
  const parts = path.split('/').filter((p) => p !== '' && p !== 'v1');
  const values = new Set(Object.values(params));
  const out: Seg[] = [];
  for (let i = 0; i < parts.length; i++) {
    const word = parts[i];
    const next = parts[i + 1];
    const id = next === undefined ? undefined : safeDecode(next);
    if (id !== undefined && values.has(id) && !values.has(safeDecode(word))) {
      out.push({ word, id });
      i++;
    } else out.push({ word });
  }
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The organization an object outside `/orgs/…` belongs to (spaces and collections have global ids). */
function orgOfObject(world: World, word: string, id: string): OrgRec | undefined {
  const stores = world as unknown as Record<string, unknown>;
  const store = stores[word];
  if (!(store instanceof Map)) return undefined;
  const rec = store.get(id) as { org?: unknown } | undefined;
  return typeof rec?.org === 'string' ? world.orgs.get(rec.org) : undefined;
}

/** A record's display label: its title, name, label or path. */
function labelOf(rec: unknown): string | undefined {
  if (!rec || typeof rec !== 'object') return undefined;
  const r = rec as Record<string, unknown>;
  for (const f of ['title', 'displayName', 'name', 'label', 'path']) if (typeof r[f] === 'string' && r[f] !== '') return r[f];
  return undefined;
}

/** The label of a target as the world holds it now. */
function currentLabel(world: World, org: OrgRec, type: string, id: string): string | undefined {
  const o = org as unknown as Record<string, unknown>;
  switch (type) {
    case 'organization':
      return labelOf(org);
    case 'team':
      return labelOf((o.teams as Map<string, unknown> | undefined)?.get(id));
    case 'site':
      return labelOf((o.sites as Map<string, unknown> | undefined)?.get(id));
    case 'space':
    case 'collection': {
      const store = (world as unknown as Record<string, unknown>)[`${type === 'space' ? 'spaces' : 'collections'}`];
      return store instanceof Map ? labelOf(store.get(id)) : undefined;
    }
    case 'member':
      return labelOf(world.users.get(id));
    default:
      return undefined;
  }
}

/**
 * What a write is about, found before its handler runs: the organization, and the innermost object
 * of the path (a site's section, not the site; a space, not its permissions). Undefined for a write
 * outside any organization the world holds (publishing an integration, a Git Sync installation).
 */
export function auditBefore(
  world: World,
  objectTypes: ReadonlyMap<string, string>,
  method: string,
  path: string,
  params: Record<string, string>,
  token: TokenRec,
  body: unknown,
): PendingAudit | undefined {
  const segs = segments(path, params);
  let org: OrgRec | undefined;
  let type: string | undefined;
  let id: string | undefined;
  let at = -1;
  let parent: { type: string; id: string } | undefined;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if (NOT_OBJECTS.has(s.word)) break;
    // A team's members are the team's: its membership changed.
    if (s.word === 'members' && type === 'team') break;
    const t = objectTypes.get(s.word);
    if (t === undefined) continue;
    if (s.id === undefined) {
      // A write to a list creates in it (the id comes with the answer; without one, the object above changed).
      if (i === segs.length - 1 && (method === 'POST' || method === 'PUT')) {
        if (type !== undefined && id !== undefined) parent = { type, id };
        type = t;
        id = undefined;
        at = i;
      }
      continue;
    }
    if (s.word === 'orgs') org = world.orgs.get(s.id);
    else org ??= orgOfObject(world, s.word, s.id);
    type = t;
    id = s.id;
    at = i;
  }
  if (org === undefined || type === undefined) return undefined;
  const rest = segs.slice(at + 1).map((s) => s.word);
  const fields = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body).sort() : [];
  return { org, method, type, id, parent, rest, label: id === undefined ? undefined : currentLabel(world, org, type, id), token, fields };
}

const VERBS: Record<string, string> = { POST: 'created', PUT: 'updated', PATCH: 'updated', DELETE: 'deleted' };

/** Records the event of a write that succeeded (a DELETE of what was already gone, 204, changed nothing). */
export function recordAudit(world: World, pending: PendingAudit, reply: Reply): void {
  if (reply.status < 200 || reply.status >= 300) return;
  if (pending.method === 'DELETE' && reply.status === 204 && pending.rest.length === 0) return;
  const answered = reply.body && typeof reply.body === 'object' ? (reply.body as Record<string, unknown>) : undefined;
  let { type, id } = pending;
  if (id === undefined && typeof answered?.id === 'string') id = answered.id;
  if (id === undefined && pending.parent) ({ type, id } = pending.parent);
  if (id === undefined) return;
  const label = (answered?.id === id ? labelOf(answered) : undefined) ?? currentLabel(world, pending.org, type, id) ?? pending.label;
  // `team.members.updated`, `site.structure.sort.updated`; a POST to a word past the object is the
  // word's own verb (`space.move`, `space.restore`).
  const verb = pending.method === 'POST' && pending.rest.length > 0 ? [] : pending.id === undefined && id !== undefined && type === pending.type ? ['created'] : [VERBS[pending.method] ?? 'changed'];
  const action = [type, ...pending.rest, ...verb].join('.');
  const user = pending.token.user === undefined ? undefined : world.users.get(pending.token.user);
  const source = pending.token.source ?? 'api';
  const actor =
    source === 'integration'
      ? { type: 'integration' as const, id: user?.id ?? TOKEN_USER.id, label: user?.displayName ?? TOKEN_USER.label }
      : { type: 'user' as const, id: user?.id ?? TOKEN_USER.id, label: user?.displayName ?? TOKEN_USER.label };
  world.auditCount = (world.auditCount ?? 0) + 1;
  const n = world.auditCount;
  (pending.org.auditEvents ??= []).push({
    id: uuidOf(n),
    occurredAt: world.now().toISOString(),
    action,
    actor,
    source,
    target: compact({ type, id, label }) as AuditEventRec['target'],
    correlationId: `corr_${n}`,
    fields: pending.fields,
  });
}

/** A uuid made of a counter: deterministic, and of the format the description gives the ids. */
function uuidOf(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

function eventView(req: RouteRequest, org: OrgRec, e: AuditEventRec): Record<string, unknown> {
  return {
    object: 'audit-event',
    id: e.id,
    occurredAt: e.occurredAt,
    action: e.action,
    actor: e.actor,
    source: e.source,
    target: e.target,
    urls: { location: apiUrl({ world: req.world, access: req.access }, `/orgs/${org.id}/audit-events/${e.id}`) },
  };
}

/** The audit log of a path's organization: 403 without an Enterprise plan, or for a token whose user is not an admin. */
function auditOrg(req: RouteRequest): OrgRec {
  const org = orgOf(req);
  if (org.auditLog === false) throw new HttpError(403, `the audit log of organization ${org.id} needs an Enterprise plan`);
  if (req.userId !== undefined) {
    const members = (org as unknown as { members?: Map<string, { role?: unknown }> }).members;
    if (members?.get(req.userId)?.role !== 'admin') throw new HttpError(403, 'the audit log is for the organization\'s administrators');
  }
  return org;
}

function timeParam(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  const t = Date.parse(raw);
  if (!/^\d{4}-\d\d-\d\dT/.test(raw) || Number.isNaN(t)) throw badRequest(`${name}: must be a date-time (RFC 3339)`);
  return t;
}

const MAX_AUDIT_PAGE = 100;
const DEFAULT_AUDIT_PAGE = 20;

/** The action names the emulator records, with labels (the description does not list them). */
function knownActions(org: OrgRec): Array<{ object: 'audit-event-action'; id: string; label: string }> {
  const ids = [...new Set((org.auditEvents ?? []).map((e) => e.action))].sort();
  return ids.map((id) => ({ object: 'audit-event-action' as const, id, label: id.replace(/[.-]/g, ' ') }));
}

export const auditKind = defineKind({
  name: 'audit',
  orgSeed: {
    /** False: no Enterprise plan, the audit operations answer 403. Default true. */
    auditLog: z.boolean().optional(),
  },
  initWorld(world) {
    world.auditCount = 0;
  },
  seedOrg(_ctx, org, seed) {
    org.auditLog = seed.auditLog ?? true;
    org.auditEvents = [];
  },
  routes(router) {
    router.add('GET', '/v1/user', (req) => {
      const user = req.userId === undefined ? undefined : req.world.users.get(req.userId);
      return ok(
        compact({
          object: 'user',
          id: user?.id ?? TOKEN_USER.id,
          displayName: user?.displayName ?? TOKEN_USER.label,
          email: user?.email,
          photoURL: user?.photoURL,
          urls: { location: apiUrl({ world: req.world, access: req.access }, '/user') },
        }),
      );
    });
    router.add('GET', '/v1/orgs/:org/audit-events', (req) => {
      const org = auditOrg(req);
      const raw = req.query.get('limit');
      if (raw !== null && (!/^\d+$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > MAX_AUDIT_PAGE)) throw badRequest(`limit: an integer from 1 to ${MAX_AUDIT_PAGE}`);
      const from = timeParam(req.query, 'from');
      const to = timeParam(req.query, 'to');
      const action = req.query.get('action');
      const actor = req.query.get('actor');
      const target = req.query.get('target');
      const events = (org.auditEvents ?? [])
        .filter((e) => {
          const t = Date.parse(e.occurredAt);
          return (
            (from === undefined || t >= from) &&
            (to === undefined || t <= to) &&
            (action === null || e.action === action) &&
            (actor === null || e.actor.id === actor) &&
            (target === null || e.target.id === target)
          );
        })
        .reverse();
      const query = new URLSearchParams(req.query);
      query.set('limit', raw === null ? String(DEFAULT_AUDIT_PAGE) : raw.trim());
      return listReply(query, events, (e) => eventView(req, org, e));
    });
    router.add('GET', '/v1/orgs/:org/audit-events/:event', (req) => {
      const org = auditOrg(req);
      const e = (org.auditEvents ?? []).find((x) => x.id === req.params.event);
      if (!e) throw notFound(`no audit event ${req.params.event} in organization ${org.id}`);
      return ok({ ...eventView(req, org, e), executionId: `exec_${e.correlationId}`, correlationId: e.correlationId, schemaVersion: 1, payload: { fields: e.fields } });
    });
    router.add('GET', '/v1/orgs/:org/audit-event-actions', (req) => {
      const org = auditOrg(req);
      return ok({ items: knownActions(org) });
    });
  },
});

