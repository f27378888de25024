/**
 * The built CLI against hostile servers on 127.0.0.1, with small bounds (--timeout 1, --max-wait 5,
 * --max-answer-size 1): `import` ends with one error line and exit 1, after a stated number of requests, for an
 * endless body, a host that never answers, a slow drip, a huge Retry-After, an HTML page, an item of
 * the wrong shape. (The client's own tests, src/api/hostile.test.ts, hold the finer cases.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startTestServer, type Handler } from '../../src/api/test-server.js';
import { runCli } from '../apply/cli-helpers.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'docplane-hostile-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The import against `handler`, run to its exit: its exit code, its stderr's lines, and how many
 * requests reached the server (the bound is said in requests, not in wall-clock time, which a loaded
 * machine stretches).
 */
async function importFrom(handler: Handler): Promise<{ code: number; lines: string[]; requests: number }> {
  const server = await startTestServer(handler);
  try {
    const res = await runCli(['import', '--org', 'org_acme', '--out', '-', '--timeout', '1', '--max-wait', '5', '--max-answer-size', '1'], { DOCPLANE_API_URL: server.url, DOCPLANE_TOKEN: 'hostile-token' }, dir);
    return { code: res.code, lines: res.stderr.trim().split('\n'), requests: server.arrivals.length };
  } finally {
    await server.close();
  }
}

describe('the CLI against hostile servers', () => {
  it('an endless body: stopped at the cap', async () => {
    const r = await importFrom((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => res.destroy());
      pump();
    });
    expect(r.code).toBe(1);
    expect(r.lines[0]).toBe('error: GET /v1/orgs/org_acme → 200: the answer is larger than the 1 MiB docplane reads at most (--max-answer-size)');
    // One request: an answer over the cap is not asked again.
    expect(r.requests).toBe(1);
  });

  it('a host that never answers: the breaker names it within 1.5 timeouts', async () => {
    const r = await importFrom(() => undefined);
    expect(r.code).toBe(1);
    expect(r.lines[0]).toMatch(/^error: GET \/v1\/orgs\/org_acme → no answer: 127\.0\.0\.1:\d+ answered nothing for [12] s \(\d requests? timed out\); giving up on it/);
    // The breaker gives up on the host after its requests time out (at most one retry), not after all of them.
    expect(r.requests).toBeLessThanOrEqual(2);
  });

  it('a slow drip: the same', async () => {
    const r = await importFrom((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 100);
      res.on('close', () => clearInterval(drip));
    });
    expect(r.code).toBe(1);
    expect(r.lines[0]).toMatch(/answered nothing for [12] s .*; giving up on it/);
    expect(r.requests).toBeLessThanOrEqual(2);
  });

  it('a huge Retry-After: ends at once, saying what the server asked', async () => {
    const r = await importFrom((_req, res) => sendJson(res, 429, { error: { code: 429, message: 'API rate limit exceeded' } }, { 'retry-after': '36000' }));
    expect(r.code).toBe(1);
    expect(r.lines[0]).toBe(
      'error: GET /v1/orgs/org_acme → 429: the server asked to wait 36000 s (Retry-After: 36000), longer than the 5 s docplane waits at most; the API said: API rate limit exceeded',
    );
    expect(r.lines[1]).toBe('  Run the command again later, or raise --max-wait (seconds) to wait that long.');
    // No waiting and no retry: the one request.
    expect(r.requests).toBe(1);
  });

  it('an HTML error page: one line, no bug', async () => {
    const r = await importFrom((_req, res) => {
      res.writeHead(403, { 'content-type': 'text/html' });
      res.end('<html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1><p>by the proxy</p></body></html>');
    });
    expect(r.code).toBe(1);
    expect(r.lines[0]).toMatch(/^error: organization org_acme was not found, or the token cannot reach it \(GET \/v1\/orgs\/org_acme → 403\)$/);
    expect(r.lines.join('\n')).not.toMatch(/bug in docplane/);
  });

  it('an item of the wrong shape: an API error, never a bug in docplane', async () => {
    const r = await importFrom((req, res) => (req.url?.split('?')[0] === '/v1/orgs/org_acme' ? sendJson(res, 200, { id: 'org_acme', title: 'Acme' }) : sendJson(res, 200, { items: [{}] })));
    expect(r.code).toBe(1);
    expect(r.lines[0]).toMatch(/^error: GET \/v1\/\S+ answered 200 with an unexpected body: items\[0\]\.\w+: missing$/);
    expect(r.lines.join('\n')).not.toMatch(/bug in docplane/);
  });
});
