/**
 * The one client of the platform API: undici with keep-alive, bearer token,
 * JSON in and out, a per-request timeout, paging over the list envelope, retries with backoff and
 * jitter for what may safely be repeated, and a request-rate ceiling shared by every caller.
 *
 * Every wait and every answer is bounded (docs/bounds.md): connect, headers and body timeouts; a cap
 * on an answer's size; a breaker that gives up on a host that lets requests time out and answers
 * nothing; a wait the server asks for beyond a cap ends every request instead of waiting; and the
 * body of a 2xx is checked against the schema of the fields the caller relies on.
 *
 * The token lives only in the closure and in the Authorization header; every message that leaves
 * this module (errors, log lines) is built from our own words plus the API's answer, and scrubbed.
 */
import { setMaxListeners } from 'node:events';
import { Pool, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { ApiError, BugError, DocplaneError } from '../core/errors.js';
import { createSecretRegistry, type Secret } from '../core/secrets.js';
import { systemClock } from './clock.js';
import { createRateGate, TooLongWait } from './gate.js';
import { backoffAfter, retryPolicy } from './policy.js';
import { describeAskedWait, describeNetworkError, isRetryableStatus, requestedWait, type NetworkFailure } from './retry.js';
import type { ApiClient, ApiResponse, ClientOptions, ClientStats, HttpMethod, ListEnvelope, ListOptions, Query, RequestOptions } from './types.js';
import { createSlots, type Ticket } from '../core/slots.js';
import { resolveApiUrl } from './url.js';

/**
 * The client's own numbers; its retries follow the one retry policy (src/api/policy.ts, docs/plans.md
 * "Retries and rate limits"): with its waits, a full-jitter backoff capped at 5 s, at most
 * 0.2 + 0.4 + 0.8 + 1.6 + 3.2 + 5 + 5 = 16.2 s of waiting per request, 8 s on average.
 */
const DEFAULTS = {
  timeoutMs: 30_000,
  connections: 16,
  maxAnswerBytes: 32 * 1024 * 1024,
  maxListPages: 1_000,
  maxListItems: 200_000,
  connectTimeoutMs: 10_000,
};

/**
 * Lists read at once, per connection: enough to keep every connection busy (a list's next page waits
 * for its answer before it), few enough that the thousands a plan asks for wait holding only their path.
 */
const LISTS_PER_CONNECTION = 4;

/** Timeouts in a row, with no answer between them, after which the client gives up on the host. */
const TIMEOUTS_IN_A_ROW = 3;

/**
 * Deepest nesting of arrays and objects read in an answer: the API's objects nest a few levels (a
 * rich-text document a few more); a deeper answer is refused before anything walks it recursively.
 */
export const MAX_JSON_DEPTH = 64;

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
  /**
   * `wait`: what the API asked to be waited before the next request (429, 503 with Retry-After); the
   * gate is paused for it. `tooLong`: it asked for more than the client waits.
   */
  | { kind: 'answer'; status: number; headers: Record<string, string>; text: string; wait?: number; tooLong?: string }
  | { kind: 'no-answer'; failure: NetworkFailure };

export function createClient(options: ClientOptions): ApiClient {
  const base = resolveApiUrl(options.baseUrl);
  const prefix = base.pathname === '/' ? '' : base.pathname;
  const token = checkToken(options.token);
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const policy = retryPolicy({
    maxAttempts: options.maxAttempts,
    backoffBaseMs: options.backoffBaseMs,
    backoffCapMs: options.backoffCapMs,
    maxWaitMs: options.maxWaitMs,
    maxRateLimitWaits: options.maxRateLimitWaits,
  });
  const { maxAttempts, maxWaitMs, maxRateLimitWaits } = policy;
  const maxAnswerBytes = options.maxAnswerBytes ?? DEFAULTS.maxAnswerBytes;
  const maxListPages = options.maxListPages ?? DEFAULTS.maxListPages;
  const maxListItems = options.maxListItems ?? DEFAULTS.maxListItems;
  const silenceLimitMs = options.silenceLimitMs ?? Math.round(timeoutMs * 1.5);
  const clock = options.clock ?? systemClock;
  const gate = createRateGate({ maxRps: options.maxRps, maxWaitMs, clock });
  /**
   * The run's secrets (the config's, and the values the API answered that are credentials,
   * ApiClient.conceal): every log line and error is masked through them, and through the token, in
   * every form the API may quote them (raw, percent-encoded, in another case, base64).
   */
  const secrets = options.secrets ?? createSecretRegistry();
  const tokenSecret: Secret[] = [{ name: 'token', value: token }];
  const scrub = (text: string): string => secrets.scrub(text.includes(token) ? text.split(token).join('(token)') : text, tokenSecret);
  const log = options.log ? (line: string) => options.log?.(scrub(line)) : undefined;

  const connections = options.connections ?? DEFAULTS.connections;
  const slots = createSlots(connections);
  /**
   * The lists being read at once (LISTS_PER_CONNECTION a connection). A plan or an import asks for
   * thousands of lists at once (one or two per object it reads): each one started
   * holds its request's state while it waits for a connection (40 MiB for an import at scale 10),
   * where one waiting here holds only its path.
   */
  const lists = createSlots(connections * LISTS_PER_CONNECTION);
  const pool = new Pool(base.origin, {
    connections,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connectTimeout: options.connectTimeoutMs ?? Math.min(timeoutMs, DEFAULTS.connectTimeoutMs),
  });

  const counters = { requests: 0, retries: 0, rateLimited: 0, byMethod: {} as Record<string, number> };
  /**
   * A failure of the connection itself that no retry can mend (a TLS certificate refused, a host
   * name that does not resolve): every later request to the origin fails the same way, so it fails
   * at once. The pool is destroyed with it, because undici leaves the requests queued behind a TLS
   * host-name failure unsettled, and a command waiting on them would end with nothing said.
   */
  const fatal: { failure?: NetworkFailure } = {};
  /** The exchanges sent and not yet settled: what the breaker calls off, and what the progress line waits for. */
  const inFlight = new Set<() => void>();
  const sentTimes = new Map<() => void, number>();
  /** Why the client waits before sending again after a failure (a backoff), and until when. */
  const backoffs = new Map<symbol, { until: number; why: string }>();
  /** The last wait the API asked for, in its terms, for the progress line. */
  let lastAsked: { until: number; why: string } | undefined;
  /** Fails every later request at once, and calls off those in flight. */
  const giveUp = (failure: NetworkFailure) => {
    if (fatal.failure) return;
    fatal.failure = failure;
    breaker.disarm();
    for (const callOff of inFlight) callOff();
  };
  /** The breaker: a host that lets requests time out and answers nothing is given up on (docs/bounds.md). */
  const breaker = (() => {
    let lastAnswerAt = performance.now();
    let timeouts = 0;
    let timer: NodeJS.Timeout | undefined;
    const trip = (silentMs: number) =>
      giveUp({
        description: `${base.host} answered nothing for ${Math.round(silentMs / 1000)} s (${timeouts} ${timeouts === 1 ? 'request' : 'requests'} timed out); giving up on it`,
        retryable: false,
        code: 'API_SILENT_HOST',
      });
    return {
      answered(): void {
        lastAnswerAt = performance.now();
        timeouts = 0;
        this.disarm();
      },
      timedOut(sentAt: number): void {
        timeouts++;
        const now = performance.now();
        const silentSince = Math.max(lastAnswerAt, sentAt);
        if (timeouts >= TIMEOUTS_IN_A_ROW || now - silentSince >= silenceLimitMs) return trip(now - silentSince);
        if (timer) return;
        timer = setTimeout(() => {
          timer = undefined;
          trip(performance.now() - silentSince);
        }, silenceLimitMs - (now - silentSince));
        timer.unref?.();
      },
      disarm(): void {
        clearTimeout(timer);
        timer = undefined;
      },
    };
  })();
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
    const cancel = () => aborted(method, scrub(pathOnly(target.slice(prefix.length))));
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
      let received = 0;
      // An answer beyond the cap is not read on: the same request would get it again.
      const tooLarge = (what: string) => {
        chunks.length = 0;
        callOff(new Error('answer too large'), {
          kind: 'no-answer',
          failure: { description: `the answer ${what} than the ${sizeText(maxAnswerBytes)} docplane reads at most (--max-answer-size)`, retryable: false, status, code: 'API_ANSWER_TOO_LARGE' },
        });
      };
      const settle = (outcome: Outcome | Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        place.ticket?.cancel();
        signal?.removeEventListener('abort', onAbort);
        inFlight.delete(onGiveUp);
        sentTimes.delete(onGiveUp);
        if (metered) {
          metered = false;
          const answer = !(outcome instanceof Error) && outcome.kind === 'answer' ? outcome : undefined;
          if (answer) breaker.answered();
          else if (!(outcome instanceof Error) && outcome.kind === 'no-answer' && outcome.failure.timedOut) breaker.timedOut(timing.sentAt ?? performance.now());
          // A wait the API asks for (429, 503 with Retry-After) concerns every caller of the client:
          // the gate holds them back before the connection goes to the next one.
          const asked = answer && requestedWait(answer.status, answer.headers, clock.now());
          if (answer && asked !== undefined) {
            if (asked > maxWaitMs) {
              // More than the client waits: the command ends with what the server asked, now.
              answer.tooLong = `the server asked to wait ${Math.ceil(asked / 1000)} s (${describeAskedWait(answer.status, answer.headers)}), longer than the ${Math.round(maxWaitMs / 1000)} s docplane waits at most`;
              giveUp({ description: `not sent: ${answer.tooLong}`, retryable: false, code: 'API_WAIT_TOO_LONG' });
            } else {
              answer.wait = asked;
              gate.pause(asked);
              lastAsked = { until: clock.now() + asked, why: `${answer.status}, ${describeAskedWait(answer.status, answer.headers)}` };
            }
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
      // The breaker or a refused wait called every exchange off.
      const onGiveUp = () => callOff(new Error('gave up on the host'), { kind: 'no-answer', failure: fatal.failure ?? { description: 'gave up on the host', retryable: false } });
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
          (err: unknown) =>
            settle(
              err instanceof TooLongWait
                ? (giveUp({ description: `not sent: ${err.asked}, longer than the ${Math.round(maxWaitMs / 1000)} s docplane waits at most`, retryable: false, code: 'API_WAIT_TOO_LONG' }),
                  { kind: 'no-answer', failure: fatal.failure as NetworkFailure })
                : cancel(),
            ),
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
        inFlight.add(onGiveUp);
        sentTimes.set(onGiveUp, performance.now());
        timer = setTimeout(() => {
          callOff(new Error(`timed out after ${timeoutMs} ms`), { kind: 'no-answer', failure: { description: `timed out after ${timeoutMs} ms`, retryable: true, timedOut: true } });
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
              const length = Number(answerHeaders['content-length']);
              if (length > maxAnswerBytes) tooLarge(`says it is ${sizeText(length)}, larger`);
            },
            onResponseData(_c, chunk) {
              received += chunk.length;
              if (received > maxAnswerBytes) return tooLarge('is larger');
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
      if (closing.signal.aborted) throw aborted(method, scrub(bare));
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
      let failureCode: string | undefined;
      if (outcome.kind === 'answer') {
        answerHeaders = outcome.headers;
        status = outcome.status;
        if (status >= 200 && status < 300) {
          log?.(`${method} ${shown} → ${status} ${took}`);
          const depth = jsonDepthOver(outcome.text, MAX_JSON_DEPTH);
          if (depth) {
            throw new ApiError(method, scrub(bare), status, `the answer nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels (at character ${depth}); the API's objects do not`, {
              code: 'API_BAD_RESPONSE',
              hint: 'The answer is not what the platform API sends; check that --api-url points at the API.',
            });
          }
          const parsed = parseBody(outcome.text, outcome.headers);
          if (opts.schema) checkShape(method, scrub(bare), status, parsed, opts.schema, []);
          return { status, headers: outcome.headers, body: parsed as T };
        }
        what = String(status);
        message = errorMessage(status, outcome.text);
        again = isRetryableStatus(status);
        // The gate was paused for it as the exchange ended (the API's limit concerns every caller).
        wait = outcome.wait;
        if (outcome.tooLong !== undefined) {
          log?.(`${method} ${shown} → ${what} ${took}; ${outcome.tooLong}`);
          throw new ApiError(method, scrub(bare), status, `${outcome.tooLong}; the API said: ${scrub(message)}`, {
            code: 'API_WAIT_TOO_LONG',
            hint: 'Run the command again later, or raise --max-wait (seconds) to wait that long.',
          });
        }
      } else {
        status = outcome.failure.status ?? 0;
        what = outcome.failure.status === undefined ? outcome.failure.description : String(outcome.failure.status);
        message = outcome.failure.description;
        again = outcome.failure.retryable;
        failureCode = outcome.failure.code;
      }

      // A 429 is no attempt (the API refused before acting): waited out and sent again, a bounded number of times.
      const limited = status === 429 && retryable && rateLimitWaits < maxRateLimitWaits;
      if (status === 429) counters.rateLimited++;
      if (limited) {
        rateLimitWaits++;
        attempt--;
      }
      if (again && (limited || attempt < attempts)) {
        const delay = wait ?? backoffAfter(policy, limited ? rateLimitWaits : attempt);
        counters.retries++;
        log?.(`${method} ${shown} → ${what} ${took}; ${limited ? `rate limited, again` : `retry ${attempt} of ${attempts - 1}`} in ${delay} ms`);
        // When the wait came from the API it is already a pause of the gate, which acquire() honours.
        if (wait === undefined && delay > 0) {
          const key = Symbol('backoff');
          backoffs.set(key, { until: clock.now() + delay, why: `after ${what}` });
          const signal = opts.signal ? AbortSignal.any([opts.signal, closing.signal]) : closing.signal;
          try {
            await clock.sleep(delay, signal);
          } finally {
            backoffs.delete(key);
          }
          if (signal.aborted) throw aborted(method, scrub(bare));
        }
        continue;
      }
      const after = attempt > 1 ? ` (after ${attempt} attempts)` : rateLimitWaits > 0 ? ` (after ${rateLimitWaits + 1} rate-limited tries)` : '';
      log?.(`${method} ${shown} → ${what} ${took}${attempt > 1 ? `; giving up after ${attempt} attempts` : ''}`);
      throw new ApiError(method, scrub(bare), status, scrub(message) + after, {
        headers: answerHeaders && Object.fromEntries(Object.entries(answerHeaders).map(([k, v]) => [k, scrub(v)])),
        ...(failureCode ? { code: failureCode, hint: hintFor(failureCode) } : {}),
      });
    }
  }

  /** Every item of a list, its pages read one after the other. */
  async function readList<T>(path: string, query: Query | undefined, options: ListOptions | undefined): Promise<T[]> {
    // Appended in place: a copy per page would make a long list's reading quadratic.
    const all: T[] = [];
    for await (const items of pages<T>(path, query, options?.schema)) for (const item of items) all.push(item);
    return all;
  }

  /** A list's pages, each page's items at once (listAll takes them a page at a time, not an item at a time). */
  async function* pages<T>(path: string, query: Query = {}, schema?: z.ZodType): AsyncGenerator<T[]> {
    const seen = new Set<string>();
    let page: string | undefined;
    let offset = 0;
    for (let pageCount = 1; ; pageCount++) {
      // A later page goes before the reads queued since the first: the list is a chain, they are not.
      const res = await request<unknown>('GET', path, { query: { ...query, limit: 1000, page }, priority: page === undefined ? 0 : 1 });
      const body = res.body;
      if (!isEnvelope(body)) {
        throw badResponse(scrub(pathOnly(path)), res.status, `expected a list ({"items": [...]}), got ${describe(body)}`);
      }
      offset += body.items.length;
      // Bounds per list (docs/bounds.md): counted before the items are checked or kept.
      if (offset > maxListItems) {
        throw listTooLong(scrub(pathOnly(path)), res.status, `the list ${scrub(pathOnly(path))} has more than ${maxListItems} items (--max-list-items ${maxListItems})`);
      }
      yield (schema ? parseItems(scrub(pathOnly(path)), res.status, body.items, schema, offset - body.items.length) : body.items) as T[];
      const next = body.next?.page;
      if (next === undefined || next === null || next === '') return;
      if (typeof next !== 'string' && typeof next !== 'number') {
        throw badResponse(scrub(pathOnly(path)), res.status, `expected next.page to be a string, got ${describe(next)}`);
      }
      const key = String(next);
      // A service that hands out the same cursor twice would otherwise page forever.
      if (seen.has(key) || key === page) {
        throw badResponse(scrub(pathOnly(path)), res.status, `the list returned the page cursor ${JSON.stringify(key)} twice`);
      }
      if (pageCount >= maxListPages) {
        throw listTooLong(scrub(pathOnly(path)), res.status, `the list ${scrub(pathOnly(path))} has more than ${maxListPages} pages (--max-list-pages ${maxListPages}); its last page still named a next page`);
      }
      seen.add(key);
      page = key;
    }
  }

  /** What the client waits for now, in words, when it waits on the server (the progress line). */
  function waiting(): string | undefined {
    const now = clock.now();
    const held = gate.holding();
    if (held?.why === 'pause') {
      const why = lastAsked && lastAsked.until >= held.until - 1000 ? `the API asked for it (${lastAsked.why})` : 'the API asked for it';
      return `waiting ${Math.ceil((held.until - now) / 1000)} s: ${why}`;
    }
    if (held?.why === 'window') return `waiting ${Math.ceil((held.until - now) / 1000)} s for the API's rate limit window to renew (X-RateLimit-Remaining: 0)`;
    let oldest = Infinity;
    for (const at of sentTimes.values()) oldest = Math.min(oldest, at);
    const silent = performance.now() - oldest;
    if (silent >= 3000) return `waiting ${Math.round(silent / 1000)} s for the API to answer (timeout ${Math.round(timeoutMs / 1000)} s)`;
    for (const b of backoffs.values()) if (b.until > now) return `waiting ${Math.ceil((b.until - now) / 1000)} s before trying again (${b.why})`;
    return undefined;
  }

  return {
    request,
    async *paginate<T = unknown>(path: string, query?: Query, options?: ListOptions): AsyncGenerator<T> {
      for await (const items of pages<T>(path, query, options?.schema)) yield* items;
    },
    listAll<T = unknown>(path: string, query?: Query, options?: ListOptions): Promise<T[]> {
      // Started inside enqueue() when a place is free: its first page is asked for at once, before
      // whatever the caller asks for next.
      return new Promise<T[]>((resolve, reject) => {
        lists.enqueue(
          0,
          () => void readList<T>(path, query, options).then(resolve, reject).finally(() => lists.release()),
          () => reject(aborted('GET', scrub(pathOnly(path)))),
        );
      });
    },
    conceal: (secret: Secret) => secrets.conceal(secret),
    concealed: () => secrets.concealed(),
    stats(): ClientStats {
      const stats: ClientStats = { requests: counters.requests, retries: counters.retries, rateLimited: counters.rateLimited, byMethod: { ...counters.byMethod } };
      const now = waiting();
      if (now !== undefined) stats.waiting = now;
      return stats;
    },
    async close(): Promise<void> {
      closing.abort();
      breaker.disarm();
      slots.close(new Error('client closed'));
      lists.close(new Error('client closed'));
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

function listTooLong(path: string, status: number, message: string): ApiError {
  return new ApiError('GET', path, status, message, {
    code: 'API_LIST_TOO_LONG',
    hint: 'Check that --api-url points at the API (a list that never ends is a server fault); raise --max-list-items or --max-list-pages if the organization is that large.',
  });
}

/**
 * The position where `text`, read as JSON, nests arrays and objects deeper than `max`, else 0: one pass
 * over the characters, brackets inside strings ignored, so nothing recursive ever meets the answer.
 */
export function jsonDepthOver(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i + 1;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return 0;
}

function hintFor(code: string): string | undefined {
  if (code === 'API_ANSWER_TOO_LARGE') return 'Check that --api-url points at the API, or raise --max-answer-size (MiB) if its answers are this large.';
  if (code === 'API_SILENT_HOST') return 'Check --api-url and the network (a proxy or firewall that swallows requests), or raise --timeout.';
  if (code === 'API_WAIT_TOO_LONG') return 'Run the command again later, or raise --max-wait (seconds) to wait that long.';
  return undefined;
}

/** `32 MiB`, `1.5 KiB`, `900 bytes`. */
function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

/** The mismatch of an answer with what the caller relies on, as one line: `GET PATH answered 200 with an unexpected body: items[0].id: missing`. */
function unexpectedBody(method: string, path: string, status: number, what: string): ApiError {
  return new ApiError(method, path, status, `unexpected body: ${what}`, {
    code: 'API_BAD_RESPONSE',
    line: `${method} ${path} answered ${status} with an unexpected body: ${what}`,
    hint: 'The answer lacks what docplane relies on; check that --api-url points at the platform API, and report the answer if it does.',
  });
}

function checkShape(method: string, path: string, status: number, body: unknown, schema: z.ZodType, at: (string | number)[]): void {
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return;
  throw unexpectedBody(method, path, status, describeIssue(result.error.issues[0], at));
}

/** A page's items as the schema of one item parses them; `offset`: the index of the page's first item in the list. */
function parseItems(path: string, status: number, items: readonly unknown[], schema: z.ZodType, offset: number): unknown[] {
  return items.map((item, i) => {
    const result = schema.safeParse(item, { reportInput: true });
    if (!result.success) throw unexpectedBody('GET', path, status, describeIssue(result.error.issues[0], ['items', offset + i]));
    return result.data;
  });
}

/** One zod issue in the words of the line: `items[0].id: missing`, `title: expected a string, got a number`. */
function describeIssue(issue: z.core.$ZodIssue, at: readonly (string | number)[]): string {
  const where = [...at, ...issue.path]
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : /^[A-Za-z_$][\w$]*$/.test(String(p)) ? `.${String(p)}` : `[${JSON.stringify(String(p))}]`))
    .join('');
  let what: string;
  if (issue.code === 'invalid_type') what = issue.input === undefined ? 'missing' : `expected ${article(issue.expected)}, got ${kindOf(issue.input)}`;
  else if (issue.code === 'invalid_value') what = `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${shorten(JSON.stringify(issue.input) ?? String(issue.input), 40)}`;
  else if (issue.code === 'invalid_union') what = `got ${kindOf(issue.input)}, which is none of the shapes it may have`;
  else what = issue.message;
  return where === '' ? what : `${where}: ${what}`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.trimStart().startsWith('<') ? `the text ${JSON.stringify(shorten(value.replace(/\s+/g, ' ').trim(), 60))}` : 'a string';
  return article(typeof value);
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
