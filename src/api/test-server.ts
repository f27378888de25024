/**
 * A tiny HTTP server on 127.0.0.1 for the client's tests: each test gives the handler that plays
 * the API, and reads back what arrived. Not used by docplane itself.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  method: string;
  /** Path with query string, as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** When it arrived (performance.now()). */
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

export async function startTestServer(handler: Handler): Promise<TestServer> {
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
        at: performance.now(),
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
