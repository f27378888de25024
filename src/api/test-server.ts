/**
 * A tiny HTTP server on 127.0.0.1 for the client's tests: each test gives the handler that plays
 * the API, and reads back what arrived. Not used by docplane itself.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect } from 'vitest';
import { ApiError } from '../core/errors.js';
import { createClient } from './client.js';
import type { ApiClient, ClientOptions } from './types.js';

export interface Arrival {
  method: string;
  /** Path with query string, as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** When it arrived (performance.now(), or the client's clock when the test gives it one). */
  at: number;
  /** Remote port of the connection it came on. */
  port: number;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, arrival: Arrival, index: number) => unknown;

export interface TestServer {
  url: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}

export async function startTestServer(handler: Handler, now: () => number = () => performance.now()): Promise<TestServer> {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const arrival: Arrival = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: now(),
        port: req.socket.remotePort ?? 0,
      };
      arrivals.push(arrival);
      void Promise.resolve(handler(req, res, arrival, arrivals.length - 1)).catch((err: unknown) => {
        res.statusCode = 599;
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answer with JSON (or nothing for an undefined body). */
export function sendJson(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { ...(text ? { 'content-type': 'application/json' } : {}), ...headers });
  res.end(text);
}

/** A test server playing the API, a client on it, and the client's log lines. */
export interface ClientSetup {
  server: TestServer;
  client: ApiClient;
  lines: string[];
}

/**
 * The set-up of a client test file: `setup(handler)` starts a test server and a client on it with
 * `defaults` (and the test's options), both closed after each test; `afterTest` adds what a test
 * set up itself. With a `clock` in the options, arrivals are timed on it.
 */
export function clientTests(defaults: Partial<ClientOptions> & { token: string }): {
  setup(handler: Handler, options?: Partial<ClientOptions>): Promise<ClientSetup>;
  afterTest(...cleanups: Array<() => Promise<void>>): void;
} {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()?.();
  });
  return {
    async setup(handler, options = {}) {
      const clock = options.clock;
      const server = await startTestServer(handler, clock ? () => clock.now() : undefined);
      const lines: string[] = [];
      const client = createClient({ baseUrl: server.url, backoffBaseMs: 5, log: (l) => lines.push(l), ...defaults, ...options });
      cleanups.push(() => server.close(), () => client.close());
      return { server, client, lines };
    },
    afterTest: (...more) => cleanups.push(...more),
  };
}

/** The ApiError a promise must reject with. */
export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected the request to fail');
}
