/**
 * `startEmulator`: the platform API in memory on a loopback address. Every request is
 * counted, checked against the rate limit, authenticated, routed to a synchronous handler, and
 * maybe struck by a fault before or after the handler ran; its answer leaves `latencyMs` after the
 * request arrived (the emulator's own work included, as a remote service's work runs on its own
 * machines: requests that arrive together are answered together, not one handler's time apart).
 */
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { DocplaneError } from '../core/errors.js';
import { faultDrawer, rateLimitOf, slidingWindow } from './faults.js';
import type { Fault, RateLimit } from './faults.js';
import { HttpError, Router, errorBody, errorReply } from './http.js';
import type { Reply } from './http.js';
import { auditBefore, recordAudit } from './kinds/audit.js';
import { AUDIT_OBJECT_TYPES, emulatorKinds } from './kinds/index.js';
import { secretMasker } from './masking.js';
import type { DomainEvent } from './model.js';
import { freshSeed, seededRandom } from './random.js';
import { createWorld } from './seeding.js';
import { loadEmulatorState, parseEmulatorState } from './state.js';
import type { EmulatorState, ParsedEmulatorState } from './state.js';
import type { World } from './model.js';

export { loadEmulatorState, parseEmulatorState } from './state.js';
export type { EmulatorState, ParsedEmulatorState } from './state.js';
export type { World } from './model.js';
export type { RateLimit } from './faults.js';

/** One request and its answer, as `onExchange` sees it. */
export interface Exchange {
  method: string;
  /** The path with its query string. */
  path: string;
  /** Header names in lower case; the Authorization value is replaced by `Bearer ***`. */
  requestHeaders: Record<string, string>;
  /** The parsed JSON body (the raw text when it is not JSON), or null without one. */
  requestBody: unknown;
  /** 0 for a connection reset that never answered. */
  status: number;
  responseHeaders: Record<string, string>;
  /** The body sent, or null without one. */
  responseBody: unknown;
}

export interface EmulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Loopback only: 127.0.0.1 (default), ::1 or localhost. */
  host?: string;
  /** A seed world (validated); else `stateFile`; else an empty world with the default tokens. */
  state?: EmulatorState;
  stateFile?: string;
  /** Added to every request, in milliseconds. */
  latencyMs?: number;
  /** Fraction (0–1) of requests answered 500/502/503. */
  faultRate?: number;
  /** Fraction (0–1) of requests whose connection is destroyed. */
  resetRate?: number;
  /**
   * Requests per second (a number), or `{ limit, windowSeconds, retryAfter }`: `limit` requests per
   * window of `windowSeconds`; over it, 429. `X-RateLimit-*` on every answer; `Retry-After` on a 429
   * unless `retryAfter: false`.
   */
  rateLimit?: number | (Partial<RateLimit> & { limit: number });
  /** One JSON line per exchange. */
  logFile?: string;
  /** Seed of the faults and of generated ids; the same seed gives the same sequence. */
  seed?: number;
  /** The emulator's clock: the world's times (tests of the 7-day restore window) and the rate limit's window. */
  now?: () => Date;
  /**
   * Called once per exchange, 429s, injected faults and resets (status 0) included, after the
   * answer was sent. Bodies are as exchanged: unlike the log, secrets are not masked.
   */
  onExchange?: (exchange: Exchange) => void;
}

export interface RunningEmulator {
  url: string;
  port: number;
  close(): Promise<void>;
  /** The in-memory state, for tests to inspect. */
  world: World;
  /** Requests received so far, every one counted (429s and faults included). */
  requestCount(): number;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/;

function optionError(message: string): DocplaneError {
  return new DocplaneError('EMULATOR_OPTIONS', message, { hint: 'See `docplane emulator --help`.' });
}

function checkOptions(o: EmulatorOptions): void {
  const host = o.host ?? '127.0.0.1';
  if (!LOOPBACK.test(host)) throw optionError(`the emulator listens on loopback addresses only, not ${host}`);
  for (const [name, value] of [
    ['fault rate', o.faultRate],
    ['reset rate', o.resetRate],
  ] as const) {
    if (value !== undefined && !(value >= 0 && value <= 1)) throw optionError(`the ${name} must be a fraction between 0 and 1, not ${value}`);
  }
  if ((o.faultRate ?? 0) + (o.resetRate ?? 0) > 1) throw optionError('the fault rate and the reset rate add up to more than 1');
  if (o.latencyMs !== undefined && !(o.latencyMs >= 0)) throw optionError(`the latency must be 0 or more milliseconds, not ${o.latencyMs}`);
  if (o.rateLimit !== undefined) {
    const { limit, windowSeconds } = rateLimitOf(o.rateLimit);
    if (!(Number.isInteger(limit) && limit >= 1)) throw optionError(`the rate limit must be a whole number of requests, 1 or more, not ${limit}`);
    if (!(Number.isInteger(windowSeconds) && windowSeconds >= 1)) throw optionError(`the rate limit's window must be a whole number of seconds, 1 or more, not ${windowSeconds}`);
  }
  if (o.port !== undefined && !(Number.isInteger(o.port) && o.port >= 0 && o.port <= 65535)) throw optionError(`not a port: ${o.port}`);
  if (o.state !== undefined && o.stateFile !== undefined) throw optionError('give a state or a state file, not both');
}

/** The routes of every kind. */
function buildRouter(): Router {
  const router = new Router();
  for (const kind of emulatorKinds()) kind.routes(router);
  return router;
}

/** Every kind hears every change; a kind follows the ones that concern it. */
function eventBus(world: World): (event: DomainEvent) => void {
  const kinds = emulatorKinds();
  return (event) => {
    for (const kind of kinds) kind.on?.(world, event);
  };
}

/** The request's headers for `onExchange`: lists joined, the token hidden. */
function exchangeHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  if (out.authorization !== undefined) out.authorization = 'Bearer ***';
  return out;
}

function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge }));
    req.on('error', reject);
  });
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  checkOptions(options);
  let state: ParsedEmulatorState;
  if (options.state !== undefined) state = parseEmulatorState(options.state);
  else if (options.stateFile !== undefined) state = loadEmulatorState(options.stateFile);
  else state = parseEmulatorState({});

  const seed = options.seed ?? freshSeed();
  // Separate streams, so that the ids a test creates do not shift the sequence of faults.
  const world = createWorld(state, { random: seededRandom((seed ^ 0x5bd1e995) >>> 0), now: options.now });
  const drawFault = faultDrawer(seededRandom(seed), options.faultRate ?? 0, options.resetRate ?? 0);
  const limits = options.rateLimit === undefined ? undefined : rateLimitOf(options.rateLimit);
  const rateLimit = limits ? slidingWindow(limits.limit, limits.windowSeconds * 1000, limits.retryAfter) : undefined;
  const router = buildRouter();
  const latency = options.latencyMs ?? 0;
  let log: WriteStream | undefined;
  if (options.logFile) {
    log = createWriteStream(options.logFile, { flags: 'w' });
    await new Promise<void>((resolve, reject) => {
      log!.once('open', () => resolve());
      log!.once('error', (err) =>
        reject(new DocplaneError('EMULATOR_LOG', `cannot write the log file ${options.logFile}: ${(err as NodeJS.ErrnoException).code ?? err.message}`)),
      );
    });
  }
  let count = 0;

  const emit = eventBus(world);
  const maskForLog = secretMasker(emulatorKinds().flatMap((kind) => kind.secretFields ?? []));

  /** Everything but the faults: auth, body, route, handler, `Prefer: return=minimal`. */
  const process = (req: IncomingMessage, method: string, url: URL, text: string): { reply: Reply; requestBody: unknown } => {
    // The body as sent, parsed when it is JSON, even when the request is refused before it is read.
    let requestBody: unknown = text === '' ? null : safeJson(text);
    try {
      const auth = req.headers.authorization ?? '';
      const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
      const token = match ? world.tokens.get(match[1]) : undefined;
      if (!token) throw new HttpError(401, match ? 'the token is not valid' : 'the Authorization: Bearer header is missing');
      if (method !== 'GET' && token.access !== 'write') throw new HttpError(403, 'the token has read-only access');
      let body: unknown;
      if (text !== '') {
        try {
          body = JSON.parse(text);
          requestBody = body;
        } catch (err) {
          throw new HttpError(400, `body: invalid JSON: ${(err as Error).message}`);
        }
      }
      const { handler, params, options: route } = router.match(method, url.pathname);
      // Every write is recorded in its organization's audit log once it succeeded (kinds/audit.ts).
      const audit = method === 'GET' ? undefined : auditBefore(world, AUDIT_OBJECT_TYPES, method, url.pathname, params, token, body);
      let reply = handler({ world, method, path: url.pathname, params, query: url.searchParams, body, access: token.access, userId: token.user, emit });
      if (audit) recordAudit(world, audit, reply);
      const minimal = /\breturn=minimal\b/i.test(String(req.headers.prefer ?? ''));
      if (minimal && route.minimal && (reply.status === 200 || reply.status === 201)) {
        reply = { status: 204, headers: { ...reply.headers, 'preference-applied': 'return=minimal' } };
      }
      return { reply, requestBody };
    } catch (err) {
      const known = errorReply(err);
      if (known) return { reply: known, requestBody };
      const message = `internal emulator error: ${(err as Error)?.message ?? String(err)}`;
      return { reply: { status: 500, body: errorBody(500, message) }, requestBody };
    }
  };

  const writeLog = (entry: Record<string, unknown>) => {
    if (log) log.write(`${JSON.stringify(maskForLog(entry))}\n`);
  };

  /** The answer as it will be written: status, headers, the body's text, and the body for `onExchange`. */
  const render = (reply: Reply, extra: Record<string, string>) => {
    const headers: Record<string, string> = { ...extra, ...(reply.headers ?? {}) };
    const hasBody = reply.body !== undefined && reply.status !== 204 && reply.status !== 205;
    const payload = hasBody ? JSON.stringify(reply.body) : '';
    if (hasBody) headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = String(Buffer.byteLength(payload));
    return { status: reply.status, headers, payload, body: hasBody ? reply.body : null };
  };
  const write = (res: ServerResponse, answer: ReturnType<typeof render>) => {
    res.writeHead(answer.status, answer.headers);
    res.end(answer.payload);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const answerAt = performance.now() + latency;
    count++;
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const pathWithQuery = `${url.pathname}${url.search}`;
    const { text, tooLarge } = await readBody(req);

    /** At `answerAt`: logs the exchange, answers it (or, for a reset, does not), and tells `onExchange`. */
    const conclude = async (requestBody: unknown, reply: Reply | 'reset', extra: Record<string, string>, fault?: string) => {
      const status = reply === 'reset' ? 0 : reply.status;
      const responseBody = reply === 'reset' ? null : (reply.body ?? null);
      writeLog({ method, path: pathWithQuery, requestBody, status, responseBody, ...(fault ? { fault } : {}) });
      const answer = reply === 'reset' ? undefined : render(reply, extra);
      const wait = answerAt - performance.now();
      if (wait > 0) await sleep(wait);
      if (answer) write(res, answer);
      else req.socket.destroy();
      options.onExchange?.({
        method,
        path: pathWithQuery,
        requestHeaders: exchangeHeaders(req),
        requestBody,
        status,
        responseHeaders: answer?.headers ?? {},
        responseBody: answer?.body ?? null,
      });
    };

    if (tooLarge) {
      await conclude(null, { status: 413, body: errorBody(413, `body: larger than ${MAX_BODY_BYTES} bytes`) }, {});
      return;
    }

    let limitHeaders: Record<string, string> = {};
    if (rateLimit) {
      const decision = rateLimit(options.now ? options.now().getTime() : Date.now());
      limitHeaders = decision.headers;
      if (!decision.allowed) {
        // The live service's message.
        const reply = { status: 429, body: errorBody(429, `API rate limit exceeded. Please try again in ${decision.retryInSeconds} seconds`) };
        await conclude(text === '' ? null : safeJson(text), reply, limitHeaders);
        return;
      }
    }

    const fault: Fault | undefined = drawFault();
    const strike = (requestBody: unknown) => {
      const tag = `${fault!.kind}-${fault!.when}`;
      if (fault!.kind === 'reset') return conclude(requestBody, 'reset', {}, tag);
      return conclude(requestBody, { status: fault!.status, body: errorBody(fault!.status, 'injected fault') }, limitHeaders, tag);
    };

    if (fault?.when === 'before') {
      await strike(text === '' ? null : safeJson(text));
      return;
    }
    const { reply, requestBody } = process(req, method, url, text);
    if (fault?.when === 'after') {
      await strike(requestBody);
      return;
    }
    await conclude(requestBody, reply, limitHeaders);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // Only a broken connection gets here (reading the body failed); nothing left to answer.
      if (!res.headersSent && !res.destroyed) write(res, render({ status: 500, body: errorBody(500, String((err as Error)?.message ?? err)) }, {}));
    });
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new DocplaneError('EMULATOR_LISTEN', `cannot listen on ${host}:${options.port ?? 0}: ${err.code ?? err.message}`, {
        hint: err.code === 'EADDRINUSE' ? 'The port is taken; pick another with --port, or --port 0 for a free one.' : undefined,
      })),
    );
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  world.baseUrl = url;

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    world,
    requestCount: () => count,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(
        () =>
          new Promise<void>((resolve) => {
            if (log) log.end(() => resolve());
            else resolve();
          }),
      );
      return closing;
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
