/**
 * The one client of the platform API: undici with keep-alive, bearer token,
 * JSON in and out, a per-request timeout, paging over the list envelope, retries with backoff and
 * jitter for what may safely be repeated, and a request-rate ceiling shared by every caller.
 *
 * The token lives only in the closure and in the Authorization header; every message that leaves
 * this module (errors, log lines) is built from our own words plus the API's answer, and scrubbed.
 */
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import Pool from 'undici/lib/dispatcher/pool.js';
import { ApiError, BugError, DocplaneError } from '../core/errors.js';
import { createRateGate } from './gate.js';
import { backoffDelay, describeNetworkError, isRetryableStatus, requestedWait, type NetworkFailure } from './retry.js';
import type { ApiClient, ApiResponse, ClientOptions, ClientStats, HttpMethod, ListEnvelope, Query, RequestOptions } from './types.js';
import { createSlots, type Ticket } from '../core/slots.js';
import { resolveApiUrl } from './url.js';

/**
 * The retry budget (README, "Retries and rate limits"): sized so that a plan under 10% 5xx and 3%
 * connection resets does not fail in practice — a request fails only when 8 attempts in a row do
 * (0.13^8 ≈ 1e-7). The waits between attempts are a full-jitter backoff capped at 5 s: at most
 * 0.2 + 0.4 + 0.8 + 1.6 + 3.2 + 5 + 5 = 16.2 s of waiting per request, 8 s on average. A 429 is no
 * attempt: the API refused before acting; it is waited out (up to maxRateLimitWaits times).
 */
const DEFAULTS = {
  timeoutMs: 30_000,
  maxAttempts: 8,
  connections: 16,
  backoffBaseMs: 200,
  backoffCapMs: 5_000,
  maxWaitMs: 60_000,
  maxRateLimitWaits: 30,
};

/** Longest raw (non-JSON) error text kept in a message, and longest API message. */
const RAW_TEXT_MAX = 200;
const API_MESSAGE_MAX = 500;

/** When an exchange was asked for, got a connection and was sent, and whether the rate gate held it back. */
interface Timing {
  queuedAt: number;
  connectedAt?: number;
  sentAt?: number;
  heldByGate?: boolean;
}

type Outcome =
  /** `wait`: what the API asked to be waited before the next request (429, 503 with Retry-After), capped; the gate is paused for it. */
  | { kind: 'answer'; status: number; headers: Record<string, string>; text: string; wait?: number }
  | { kind: 'no-answer'; failure: NetworkFailure };

export function createClient(options: ClientOptions): ApiClient {
  const base = resolveApiUrl(options.baseUrl);
  const prefix = base.pathname === '/' ? '' : base.pathname;
  const token = checkToken(options.token);
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULTS.maxAttempts);
  const backoffBaseMs = options.backoffBaseMs ?? DEFAULTS.backoffBaseMs;
  const maxWaitMs = options.maxWaitMs ?? DEFAULTS.maxWaitMs;
  const backoffCapMs = Math.min(maxWaitMs, options.backoffCapMs ?? DEFAULTS.backoffCapMs);
  const maxRateLimitWaits = options.maxRateLimitWaits ?? DEFAULTS.maxRateLimitWaits;
  const gate = createRateGate({ maxRps: options.maxRps });
  const scrub = (text: string): string => (text.includes(token) ? text.split(token).join('(token)') : text);
  const log = options.log ? (line: string) => options.log?.(scrub(line)) : undefined;

  const connections = options.connections ?? DEFAULTS.connections;
  const slots = createSlots(connections);
  const pool = new Pool(base.origin, {
    connections,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connectTimeout: Math.min(timeoutMs, 10_000),
  });

  const counters = { requests: 0, retries: 0, rateLimited: 0, byMethod: {} as Record<string, number> };
  /**
   * A failure of the connection itself that no retry can mend (a TLS certificate refused, a host
   * name that does not resolve): every later request to the origin fails the same way, so it fails
   * at once. The pool is destroyed with it, because undici leaves the requests queued behind a TLS
   * host-name failure unsettled, and a command waiting on them would end with nothing said.
   */
  const fatal: { failure?: NetworkFailure } = {};
  /**
   * Fired by close(). A command that fails on one request (the organization's GET, say) closes the
   * client while its other requests may still be waiting to retry, for up to 5 s each: those give up
   * at once instead, and the process ends with the error rather than seconds after it.
   */
  const closing = new AbortController();
  // Every request waiting for the gate or a retry listens to it: hundreds at once in a plan.
  setMaxListeners(0, closing.signal);

  /**
   * One exchange, body read in full, under the timeout. Never throws for a network failure; throws
   * `aborted` when the caller's signal fires. Through the pool's dispatch() with a handler that keeps
   * the body's chunks and decodes them once, where request() would wrap every answer in a stream
   * and every request in an AbortController and its listeners.
   */
  function exchange(
    method: HttpMethod,
    target: string,
    headers: Record<string, string>,
    body: string | undefined,
    priority: number,
    timing: Timing,
    signal?: AbortSignal,
  ): Promise<Outcome> {
    if (fatal.failure) return Promise.resolve({ kind: 'no-answer', failure: fatal.failure });
    const cancel = () => aborted(method, pathOnly(target.slice(prefix.length)));
    if (signal?.aborted) return Promise.reject(cancel());
    return new Promise<Outcome>((resolve, reject) => {
      let settled = false;
      /** Whether the exchange holds a connection (it is given back as the exchange settles). */
      let holding = false;
      /** Whether it holds a unit of the rate gate's budget (given back, with what the answer says of the window, as it settles). */
      let metered = false;
      /** Its place in the line for a connection (set after enqueue(), which may start it at once). */
      const place: { ticket?: Ticket } = {};
      let timer: NodeJS.Timeout | undefined;
      let controller: Dispatcher.DispatchController | undefined;
      /** Why the exchange was called off before undici started it (it is then told as it starts). */
      let cancelled: Error | undefined;
      let status = 0;
      let answerHeaders: Record<string, string> = {};
      const chunks: Buffer[] = [];
      const settle = (outcome: Outcome | Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        place.ticket?.cancel();
        signal?.removeEventListener('abort', onAbort);
        if (metered) {
          metered = false;
          const answer = !(outcome instanceof Error) && outcome.kind === 'answer' ? outcome : undefined;
          // A wait the API asks for (429, 503 with Retry-After) concerns every caller of the client:
          // the gate holds them back before the connection goes to the next one.
          const asked = answer && requestedWait(answer.status, answer.headers, Date.now());
          if (answer && asked !== undefined) {
            answer.wait = Math.min(asked, maxWaitMs);
            gate.pause(answer.wait);
          }
          // Every answer teaches the gate what is left of the window; no answer frees the unit.
          gate.observe(answer?.headers);
        }
        // The next exchange is sent before this answer is processed (src/core/slots.ts).
        if (holding) {
          holding = false;
          slots.release();
        }
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      // Calling off settles the exchange at once, even when undici does not settle the request it cancels.
      const callOff = (why: Error, outcome: Outcome | Error) => {
        cancelled ??= why;
        settle(outcome);
        controller?.abort(why);
      };
      const onAbort = () => callOff(new Error('request cancelled'), cancel());
      signal?.addEventListener('abort', onAbort, { once: true });
      // A connection first, then the rate's turn, so that the gate weighs a request as it is sent
      // (a pause the API asked for meanwhile holds it back too) and counts only what is sent.
      const connected = () => {
        holding = true;
        timing.connectedAt = performance.now();
        if (gate.tryAcquire()) return send(false);
        // A caller's own signal (apply's cancel) stands alone here, sparing a combined signal per
        // request: apply closes the client only once its requests have settled.
        gate.acquire(signal ?? closing.signal).then(
          (held) => {
            if (!settled) return send(held);
            // Called off while it waited: the unit the gate gave goes back unused.
            gate.observe(undefined);
          },
          () => settle(cancel()),
        );
      };
      // Sent: the timeout runs from here, not from the waits before.
      const send = (heldByGate: boolean) => {
        metered = true;
        timing.sentAt = performance.now();
        timing.heldByGate = heldByGate;
        if (fatal.failure) return settle({ kind: 'no-answer', failure: fatal.failure });
        counters.requests++;
        counters.byMethod[method] = (counters.byMethod[method] ?? 0) + 1;
        timer = setTimeout(() => {
          callOff(new Error(`timed out after ${timeoutMs} ms`), { kind: 'no-answer', failure: { description: `timed out after ${timeoutMs} ms`, retryable: true } });
        }, timeoutMs);
        // Started from another exchange's end, inside undici's callback: what dispatch throws is this exchange's.
        try {
          dispatch();
        } catch (err) {
          settle(err instanceof Error ? err : new Error(String(err)));
        }
      };
      const dispatch = () =>
        pool.dispatch(
          { path: target, method, headers, body, headersTimeout: timeoutMs, bodyTimeout: timeoutMs },
          {
            onRequestStart(c) {
              if (cancelled) c.abort(cancelled);
              else controller = c;
            },
            onResponseStart(_c, statusCode, responseHeaders) {
              status = statusCode;
              answerHeaders = flattenHeaders(responseHeaders);
            },
            onResponseData(_c, chunk) {
              chunks.push(chunk);
            },
            onResponseEnd() {
              settle({ kind: 'answer', status, headers: answerHeaders, text: bodyText(chunks) });
            },
            onResponseError(_c, err) {
              if (settled) return;
              if (fatal.failure) return settle({ kind: 'no-answer', failure: fatal.failure });
              const failure = describeNetworkError(err, timeoutMs);
              if (!failure.retryable && isConnectionFailure(err)) {
                fatal.failure = failure;
                pool.destroy(err).catch(() => undefined);
              }
              settle({ kind: 'no-answer', failure });
            },
          },
        );
      place.ticket = slots.enqueue(priority, connected, () => settle(cancel()));
    });
  }

  async function request<T = unknown>(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    if (!path.startsWith('/')) throw new BugError(`API path must start with "/": ${JSON.stringify(path)}`);
    const bare = pathOnly(path);
    const shown = withQuery(path, opts.query);
    const target = prefix + shown;
    const retryable = opts.retry ?? method !== 'POST';
    const attempts = retryable ? maxAttempts : 1;
    const headers: Record<string, string> = {
      ...lowerCaseKeys(opts.headers ?? {}),
      accept: 'application/json',
      authorization: `Bearer ${token}`,
    };
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    if (payload !== undefined) headers['content-type'] = 'application/json';

    let rateLimitWaits = 0;
    for (let attempt = 1; ; attempt++) {
      if (closing.signal.aborted) throw aborted(method, bare);
      const timing: Timing = { queuedAt: performance.now() };
      const outcome = await exchange(method, target, headers, payload, opts.priority ?? 0, timing, opts.signal);
      // From the send; the waits before it are told apart (a plan queues its reads at once).
      const sentAt = timing.sentAt ?? performance.now();
      const connectedAt = timing.connectedAt ?? sentAt;
      const took = `(${Math.round(performance.now() - sentAt)} ms${waits(timing.heldByGate ? sentAt - connectedAt : 0, connectedAt - timing.queuedAt)})`;

      let what: string;
      let message: string;
      let status: number;
      let again: boolean;
      let wait: number | undefined;
      let answerHeaders: Record<string, string> | undefined;
      if (outcome.kind === 'answer') {
        answerHeaders = outcome.headers;
        status = outcome.status;
        if (status >= 200 && status < 300) {
          log?.(`${method} ${shown} → ${status} ${took}`);
          return { status, headers: outcome.headers, body: parseBody(outcome.text, outcome.headers) as T };
        }
        what = String(status);
        message = errorMessage(status, outcome.text);
        again = isRetryableStatus(status);
        // The gate was paused for it as the exchange ended (the API's limit concerns every caller).
        wait = outcome.wait;
      } else {
        status = 0;
        what = outcome.failure.description;
        message = outcome.failure.description;
        again = outcome.failure.retryable;
      }

      // A 429 is no attempt (the API refused before acting): waited out and sent again, a bounded number of times.
      const limited = status === 429 && retryable && rateLimitWaits < maxRateLimitWaits;
      if (status === 429) counters.rateLimited++;
      if (limited) {
        rateLimitWaits++;
        attempt--;
      }
      if (again && (limited || attempt < attempts)) {
        const delay = wait ?? backoffDelay(limited ? rateLimitWaits : attempt, backoffBaseMs, backoffCapMs);
        counters.retries++;
        log?.(`${method} ${shown} → ${what} ${took}; ${limited ? `rate limited, again` : `retry ${attempt} of ${attempts - 1}`} in ${delay} ms`);
        // When the wait came from the API it is already a pause of the gate, which acquire() honours.
        if (wait === undefined && delay > 0) {
          try {
            await sleep(delay, undefined, { signal: opts.signal ? AbortSignal.any([opts.signal, closing.signal]) : closing.signal });
          } catch {
            throw aborted(method, bare);
          }
        }
        continue;
      }
      const after = attempt > 1 ? ` (after ${attempt} attempts)` : rateLimitWaits > 0 ? ` (after ${rateLimitWaits + 1} rate-limited tries)` : '';
      log?.(`${method} ${shown} → ${what} ${took}${attempt > 1 ? `; giving up after ${attempt} attempts` : ''}`);
      throw new ApiError(method, scrub(bare), status, scrub(message) + after, { headers: answerHeaders && Object.fromEntries(Object.entries(answerHeaders).map(([k, v]) => [k, scrub(v)])) });
    }
  }

  /** A list's pages, each page's items at once (listAll takes them a page at a time, not an item at a time). */
  async function* pages<T>(path: string, query: Query = {}): AsyncGenerator<T[]> {
    const seen = new Set<string>();
    let page: string | undefined;
    for (;;) {
      // A later page goes before the reads queued since the first: the list is a chain, they are not.
      const res = await request<unknown>('GET', path, { query: { ...query, limit: 1000, page }, priority: page === undefined ? 0 : 1 });
      const body = res.body;
      if (!isEnvelope(body)) {
        throw badResponse(pathOnly(path), res.status, `expected a list ({"items": [...]}), got ${describe(body)}`);
      }
      yield body.items as T[];
      const next = body.next?.page;
      if (next === undefined || next === null || next === '') return;
      if (typeof next !== 'string' && typeof next !== 'number') {
        throw badResponse(pathOnly(path), res.status, `expected next.page to be a string, got ${describe(next)}`);
      }
      const key = String(next);
      // A service that hands out the same cursor twice would otherwise page forever.
      if (seen.has(key) || key === page) {
        throw badResponse(pathOnly(path), res.status, `the list returned the page cursor ${JSON.stringify(key)} twice`);
      }
      seen.add(key);
      page = key;
    }
  }

  return {
    request,
    async *paginate<T = unknown>(path: string, query?: Query): AsyncGenerator<T> {
      for await (const items of pages<T>(path, query)) yield* items;
    },
    async listAll<T = unknown>(path: string, query?: Query): Promise<T[]> {
      let all: T[] | undefined;
      for await (const items of pages<T>(path, query)) all = all ? all.concat(items) : items;
      return all ?? [];
    },
    stats(): ClientStats {
      return { requests: counters.requests, retries: counters.retries, rateLimited: counters.rateLimited, byMethod: { ...counters.byMethod } };
    },
    async close(): Promise<void> {
      closing.abort();
      slots.close(new Error('client closed'));
      if (pool.destroyed) return;
      await pool.close();
    },
  };
}

/** What a request waited for before it was sent, for --verbose: `, after waiting 40 ms for the rate limit and 900 ms for a connection`. */
function waits(forRate: number, forConnection: number): string {
  const parts: string[] = [];
  if (Math.round(forRate) > 0) parts.push(`${Math.round(forRate)} ms for the rate limit`);
  if (Math.round(forConnection) > 0) parts.push(`${Math.round(forConnection)} ms for a connection`);
  return parts.length > 0 ? `, after waiting ${parts.join(' and ')}` : '';
}

/** A TLS or name-lookup failure: the connection could not be made, whatever the request. */
function isConnectionFailure(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code === 'ENOTFOUND' || /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/.test(code))) return true;
  }
  return false;
}

function checkToken(token: string): string {
  if (!token) {
    throw new DocplaneError('TOKEN_MISSING', 'the API token is empty', { hint: 'Set DOCPLANE_TOKEN or pass --token-file FILE.' });
  }
  // Visible ASCII only: a stray line break from a token file would otherwise fail deep in undici.
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new DocplaneError('TOKEN_INVALID', 'the API token holds spaces, line breaks or other characters a header cannot carry', {
      hint: 'Check DOCPLANE_TOKEN or the --token-file: it should hold the token alone.',
    });
  }
  return token;
}

function aborted(method: string, path: string): ApiError {
  return new ApiError(method, path, 0, 'request cancelled', { code: 'API_ABORTED', hint: 'The request was cancelled before an answer came.' });
}

function badResponse(path: string, status: number, message: string): ApiError {
  return new ApiError('GET', path, status, message, {
    code: 'API_BAD_RESPONSE',
    hint: 'The answer is not what the platform API sends; check that --api-url points at the API.',
  });
}

/** The path without its query string, as errors name it. */
function pathOnly(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}

/** `path` with the query appended; undefined values are dropped, everything is percent-encoded. */
export function withQuery(path: string, query: Query | undefined): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  if (parts.length === 0) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${parts.join('&')}`;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The body's bytes as UTF-8 text, without a byte order mark (as undici's body.text() reads it). */
function bodyText(chunks: readonly Buffer[]): string {
  const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** JSON when it is JSON (or says nothing of its type), the text otherwise, undefined when empty. */
function parseBody(text: string, headers: Record<string, string>): unknown {
  if (text === '') return undefined;
  const type = headers['content-type'];
  if (type && !/json/i.test(type)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The API's own words for a failure: the live service's `{"error": {"message"}}`, else a top-level
 * `message` (or a string `error`), else the raw text shortened, else `HTTP <status>`.
 */
export function errorMessage(status: number, text: string): string {
  const raw = text.trim();
  if (raw === '') return `HTTP ${status}`;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object') {
      const body = parsed as { error?: unknown; message?: unknown };
      const inner = body.error && typeof body.error === 'object' ? (body.error as { message?: unknown }).message : undefined;
      for (const candidate of [inner, body.message, body.error]) {
        if (typeof candidate === 'string' && candidate.trim() !== '') return shorten(candidate.trim(), API_MESSAGE_MAX);
      }
    }
  } catch {
    // Not JSON: a proxy's HTML page or plain text.
  }
  const plain = raw.startsWith('<') ? raw.replace(/<[^>]*>/g, ' ') : raw;
  const collapsed = plain.replace(/\s+/g, ' ').trim();
  return collapsed === '' ? `HTTP ${status}` : shorten(collapsed, RAW_TEXT_MAX);
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function isEnvelope(body: unknown): body is ListEnvelope<unknown> & { next?: { page?: unknown } | null } {
  return !!body && typeof body === 'object' && Array.isArray((body as { items?: unknown }).items);
}

function describe(value: unknown): string {
  if (value === undefined) return 'an empty body';
  if (typeof value === 'string') return `the text ${JSON.stringify(shorten(value.replace(/\s+/g, ' '), 80))}`;
  return shorten(JSON.stringify(value) ?? String(value), 120);
}
