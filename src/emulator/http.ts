/**
 * The emulator's small HTTP layer: a router of method + path pattern, the error body of the live
 * service (`{"error": {"code", "message"}}`), request-body validation whose messages name the field
 * (`title: at most 50 characters`), and the list envelope with opaque `next.page` cursors.
 */
import type { z } from 'zod';
import { EmulatorDomainError } from './errors.js';
import type { EmulatorDomainErrorCode } from './errors.js';
import { describeIssue } from './issues.js';
import type { DomainEvent, TokenAccess, World } from './model.js';

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** An answer other than success; thrown by handlers, turned into the live service's error body. */
export class HttpError extends Error {
  readonly status: number;
  readonly headers?: Record<string, string>;

  constructor(status: number, message: string, headers?: Record<string, string>) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.headers = headers;
  }
}

export function errorBody(status: number, message: string): { error: { code: number; message: string } } {
  return { error: { code: status, message } };
}

export const badRequest = (message: string): HttpError => new HttpError(400, message);
export const notFound = (message: string): HttpError => new HttpError(404, message);
/** 409: what the live description documents for a move or transfer that would change nothing. */
export const conflict = (message: string): HttpError => new HttpError(409, message);

const DOMAIN_STATUS: Record<EmulatorDomainErrorCode, number> = { invalid: 400, 'not-found': 404, conflict: 409 };

/** The answer for an error a handler threw: its status and error body; undefined for a bug. */
export function errorReply(err: unknown): Reply | undefined {
  if (err instanceof HttpError) return { status: err.status, body: errorBody(err.status, err.message), headers: err.headers };
  if (err instanceof EmulatorDomainError) {
    const status = DOMAIN_STATUS[err.code];
    return { status, body: errorBody(status, err.message) };
  }
  return undefined;
}

export interface RouteRequest {
  world: World;
  method: string;
  /** Path without the query string. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body, or undefined when the request had none. */
  body: unknown;
  access: TokenAccess;
  /** The user the token acts for, when the state file names one. */
  userId?: string;
  /** Tells every kind of a change it may have to follow. */
  emit(event: DomainEvent): void;
}

/** Handlers are synchronous: the world is in memory, and a fault striking "after" needs the change made. */
export type Handler = (req: RouteRequest) => Reply;

export interface RouteOptions {
  /**
   * `Prefer: return=minimal` turns the success into 204 without a body: only on the operations whose
   * live description documents that 204.
   */
  minimal?: boolean;
}

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: Handler;
  options: RouteOptions;
}

export interface RouteMatch {
  handler: Handler;
  params: Record<string, string>;
  options: RouteOptions;
}

export class Router {
  private readonly routes: Route[] = [];

  /** `pattern` such as `/v1/orgs/:org/teams/:team`; a parameter matches one path segment. */
  add(method: string, pattern: string, handler: Handler, options: RouteOptions = {}): this {
    const names: string[] = [];
    const source = pattern
      .split('/')
      .map((segment) => {
        if (segment.startsWith(':')) {
          names.push(segment.slice(1));
          return '([^/]+)';
        }
        return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    this.routes.push({ method, pattern: new RegExp(`^${source}/?$`), names, handler, options });
    return this;
  }

  /** The handler for a request; 404 for an unknown path, 405 for a known path with another method. */
  match(method: string, path: string): RouteMatch {
    let pathKnown = false;
    for (const route of this.routes) {
      const m = route.pattern.exec(path);
      if (!m) continue;
      pathKnown = true;
      if (route.method !== method) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = safeDecode(m[i + 1]);
      });
      return { handler: route.handler, params, options: route.options };
    }
    if (pathKnown) throw new HttpError(405, `method ${method} is not allowed on ${path}`);
    throw notFound(`no such endpoint: ${method} ${path}`);
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`path: invalid percent-encoding in "${segment}"`);
  }
}

// ---------------------------------------------------------------------------------------------
// Validation

/** Validates a body (or any input) against a schema; 400 naming the first offending field. */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw badRequest(describeIssue(result.error.issues[0], input));
}

/** The request body as an object; 400 when it is absent or not an object. */
export function bodyObject(req: RouteRequest): Record<string, unknown> {
  if (req.body === undefined) return {};
  if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) throw badRequest('body: must be a JSON object');
  return req.body as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Lists

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset }), 'utf8').toString('base64url');
}

function decodeCursor(page: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(page, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof parsed.o === 'number' && Number.isInteger(parsed.o) && parsed.o >= 0) return parsed.o;
  } catch {
    // fall through to the error below
  }
  throw badRequest('page: not a page identifier returned by this list');
}

/** The page size a list request asks for; 400 outside 1..1000. */
export function pageSize(query: URLSearchParams): number {
  const raw = query.get('limit');
  if (raw === null) return DEFAULT_PAGE_SIZE;
  if (!/^-?\d+$/.test(raw.trim())) throw badRequest('limit: must be an integer');
  const limit = Number(raw);
  if (limit > MAX_PAGE_SIZE) throw badRequest(`limit: at most ${MAX_PAGE_SIZE}`);
  if (limit < 1) throw badRequest('limit: at least 1');
  return limit;
}

/**
 * One page of `items` in the list envelope: `items`, `count` (all matching) and `next.page` when more
 * follow. `view` turns a record into the API's object; only the records of the page are turned.
 */
export function listReply<T>(query: URLSearchParams, items: readonly T[], view: (item: T) => unknown = (item) => item): Reply {
  const limit = pageSize(query);
  const page = query.get('page');
  const offset = page ? decodeCursor(page) : 0;
  const slice = items.slice(offset, offset + limit).map(view);
  const body: { items: unknown[]; count: number; next?: { page: string } } = { items: slice, count: items.length };
  if (offset + limit < items.length) body.next = { page: encodeCursor(offset + limit) };
  return { status: 200, body };
}

/** A boolean query parameter; undefined when absent, 400 when not true/false. */
export function queryBoolean(query: URLSearchParams, name: string): boolean | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw badRequest(`${name}: must be true or false`);
}

// ---------------------------------------------------------------------------------------------
// Answers

export function ok(body: unknown): Reply {
  return { status: 200, body };
}

/** 201; `location` only for the operations whose live description documents the header. */
export function created(body: unknown, location?: string): Reply {
  return location === undefined ? { status: 201, body } : { status: 201, body, headers: { location } };
}

export function noContent(): Reply {
  return { status: 204 };
}

/** DELETE: 205 when it deleted, 204 when there was nothing to delete (the live service, not the document). */
export function deleted(existed: boolean): Reply {
  return { status: existed ? 205 : 204 };
}
