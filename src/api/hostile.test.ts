/**
 * The client against hostile servers on 127.0.0.1 (docs/bounds.md): each case ends in one error, in
 * a bounded time and memory, with the bounds made small (a 200 ms timeout, a 64 KiB cap).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clientTests, failure, sendJson, type Handler } from './test-server.js';

const { setup } = clientTests({ token: 'hostile-test-token', timeoutMs: 200 });

/** Writes a chunk whenever the socket can take one, until the client goes away. */
function endless(chunk: Buffer): Handler {
  return (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"items": [');
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    req.socket.once('close', () => res.destroy());
    pump();
  };
}

describe('an answer larger than the cap', () => {
  it('stops reading an endless body at the cap: one error naming the request and the cap, no retry', async () => {
    const { server, client } = await setup(endless(Buffer.alloc(16 * 1024, 0x20)), { maxAnswerBytes: 64 * 1024, timeoutMs: 10_000 });
    const before = process.memoryUsage().rss;
    const err = await failure(client.listAll('/v1/orgs/o/teams'));
    expect(err.message).toBe('GET /v1/orgs/o/teams → 200: the answer is larger than the 64 KiB docplane reads at most (--max-answer-size)');
    expect(err.code).toBe('API_ANSWER_TOO_LARGE');
    expect(server.arrivals).toHaveLength(1);
    // Memory: nowhere near what an unbounded read would take (generous: the test runner moves too).
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  it('refuses an answer whose content-length says it is too large before reading it', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024 * 1024) });
      res.write('{');
    }, { maxAnswerBytes: 1024 * 1024 });
    const err = await failure(client.request('GET', '/v1/orgs/o'));
    expect(err.message).toBe('GET /v1/orgs/o → 200: the answer says it is 10240 MiB, larger than the 1 MiB docplane reads at most (--max-answer-size)');
  });
});

describe('a host that answers nothing', () => {
  it('gives up after three timeouts in a row, calling off every request, with one line naming the host', async () => {
    const { server, client } = await setup(() => undefined, { timeoutMs: 200, silenceLimitMs: 60_000 });
    const t0 = performance.now();
    const errors = await Promise.all(['/v1/a', '/v1/b', '/v1/c', '/v1/d'].map((p) => failure(client.request('GET', p))));
    const host = new URL(server.url).host;
    for (const err of errors) {
      expect(err.code).toBe('API_SILENT_HOST');
      expect(err.message).toMatch(new RegExp(`^GET /v1/[a-d] → no answer: .*${host.replace(/\./g, '\\.')} answered nothing for \\d+ s \\(\\d+ requests timed out\\); giving up on it`));
    }
    // One round of timeouts (200 ms), not 8 attempts of each request.
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(server.arrivals.length).toBeLessThan(8);
    const sent = server.arrivals.length;
    // Later requests fail at once, unsent.
    expect((await failure(client.request('GET', '/v1/e'))).code).toBe('API_SILENT_HOST');
    expect(server.arrivals).toHaveLength(sent);
  });

  it('gives up on one request that keeps timing out after the silence limit', async () => {
    const { server, client } = await setup(() => undefined, { timeoutMs: 200, silenceLimitMs: 300 });
    const err = await failure(client.request('GET', '/v1/orgs/o'));
    expect(err.code).toBe('API_SILENT_HOST');
    // The first attempt timed out at 200 ms, the second was called off at 300 ms of silence.
    expect(server.arrivals).toHaveLength(2);
  });

  it('keeps going while the host answers other requests', async () => {
    const { client } = await setup((req, res) => (req.url?.startsWith('/v1/slow') ? undefined : sendJson(res, 200, {})), { timeoutMs: 200, maxAttempts: 2, silenceLimitMs: 300 });
    const slow = failure(client.request('GET', '/v1/slow'));
    const quick = (async () => {
      for (let i = 0; i < 8; i++) {
        await client.request('GET', '/v1/quick');
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const [err] = await Promise.all([slow, quick]);
    expect(err.code).toBe('API_UNREACHABLE');
    expect(err.message).toBe('GET /v1/slow → no answer: timed out after 200 ms (after 2 attempts)');
  });

  it('counts a body that drips too slowly as a timeout', async () => {
    const { server, client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 20);
      res.on('close', () => clearInterval(drip));
    }, { timeoutMs: 200, silenceLimitMs: 300 });
    const t0 = performance.now();
    const err = await failure(client.request('GET', '/v1/orgs/o'));
    expect(err.code).toBe('API_SILENT_HOST');
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(server.arrivals.length).toBeLessThanOrEqual(2);
  });
});

describe('a wait the server asks for beyond the cap', () => {
  it('ends at once on a Retry-After of ten hours, saying what the server asked', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 429, { error: { code: 429, message: 'slow down' } }, { 'retry-after': '36000' }), { maxWaitMs: 300_000 });
    const t0 = performance.now();
    const err = await failure(client.request('GET', '/v1/orgs/o'));
    expect(err.message).toBe('GET /v1/orgs/o → 429: the server asked to wait 36000 s (Retry-After: 36000), longer than the 300 s docplane waits at most; the API said: slow down');
    expect(err.code).toBe('API_WAIT_TOO_LONG');
    expect(performance.now() - t0).toBeLessThan(2000);
    // Every other request of the command fails at once, unsent.
    expect((await failure(client.request('GET', '/v1/orgs/p'))).code).toBe('API_WAIT_TOO_LONG');
    expect(server.arrivals).toHaveLength(1);
  });

  it('ends on a 503 with a far Retry-After date too', async () => {
    const { client } = await setup((_req, res) => sendJson(res, 503, {}, { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() }), { maxWaitMs: 60_000 });
    const err = await failure(client.request('GET', '/v1/x'));
    expect(err.message).toMatch(/^GET \/v1\/x → 503: the server asked to wait 36\d\d s \(Retry-After: .+ GMT\), longer than the 60 s docplane waits at most/);
  });

  it('ends when a spent window renews beyond the cap (X-RateLimit-Reset)', async () => {
    const reset = String(Math.floor(Date.now() / 1000) + 7200);
    const { server, client } = await setup((_req, res) => sendJson(res, 200, {}, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }), { maxWaitMs: 60_000 });
    await client.request('GET', '/v1/first');
    const err = await failure(client.request('GET', '/v1/second'));
    expect(err.code).toBe('API_WAIT_TOO_LONG');
    expect(err.message).toMatch(/^GET \/v1\/second → no answer: not sent: the rate limit's window renews in 7[12]\d\d s \(X-RateLimit-Remaining: 0, X-RateLimit-Reset\), longer than the 60 s docplane waits at most$/);
    expect(server.arrivals).toHaveLength(1);
  });

  it('says what it waits for while it waits (the progress line reads it)', async () => {
    let asked = false;
    const { client } = await setup((_req, res) => {
      if (!asked) {
        asked = true;
        return sendJson(res, 429, {}, { 'retry-after': '2' });
      }
      return sendJson(res, 200, {});
    });
    const done = client.request('GET', '/v1/x');
    while (client.stats().waiting === undefined) await new Promise((r) => setTimeout(r, 10));
    expect(client.stats().waiting).toMatch(/^waiting [12] s: the API asked for it \(429, Retry-After: 2\)$/);
    await done;
    expect(client.stats().waiting).toBeUndefined();
  });
});

describe('answers of the wrong shape', () => {
  const Item = z.looseObject({ id: z.string(), title: z.string() });

  it('names the first item and field a list item lacks', async () => {
    const { client } = await setup((_req, res) => sendJson(res, 200, { items: [{ id: 'a', title: 'A' }, {}] }));
    const err = await failure(client.listAll('/v1/orgs/o/teams', {}, { schema: Item }));
    expect(err.message).toBe('GET /v1/orgs/o/teams answered 200 with an unexpected body: items[1].id: missing');
    expect(err.code).toBe('API_BAD_RESPONSE');
  });

  it('counts items across pages', async () => {
    const { client } = await setup((req, res) =>
      req.url?.includes('page=2') ? sendJson(res, 200, { items: [{ id: 'b', title: 3 }] }) : sendJson(res, 200, { items: [{ id: 'a', title: 'A' }], next: { page: '2' } }),
    );
    const err = await failure(client.listAll('/v1/orgs/o/teams', {}, { schema: Item }));
    expect(err.message).toBe('GET /v1/orgs/o/teams answered 200 with an unexpected body: items[1].title: expected a string, got a number');
  });

  it('keeps each list item as its schema parses it: a z.object only the fields it names, a looseObject every field', async () => {
    const answer = { items: [{ id: 'a', title: 'A', urls: { location: 'https://x' }, createdAt: '2026-01-01', nested: { id: 'n', extra: 1 } }] };
    const { client } = await setup((_req, res) => sendJson(res, 200, answer));
    const strict = z.object({ id: z.string(), title: z.string(), nested: z.object({ id: z.string() }) });
    expect(await client.listAll('/v1/orgs/o/teams', {}, { schema: strict })).toEqual([{ id: 'a', title: 'A', nested: { id: 'n' } }]);
    expect(await client.listAll('/v1/orgs/o/teams', {}, { schema: z.looseObject({ id: z.string() }) })).toEqual(answer.items);
    expect(await client.listAll('/v1/orgs/o/teams')).toEqual(answer.items);
  });

  it('checks an object read', async () => {
    const { client } = await setup((_req, res) => sendJson(res, 200, { id: 7 }));
    const err = await failure(client.request('GET', '/v1/orgs/o', { schema: Item }));
    expect(err.message).toBe('GET /v1/orgs/o answered 200 with an unexpected body: id: expected a string, got a number');
  });

  it('calls an HTML page answered with 200 what it is', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body><h1>Sign in to the proxy</h1></body></html>');
    });
    const list = await failure(client.listAll('/v1/orgs/o/teams', {}, { schema: Item }));
    expect(list.message).toMatch(/^GET \/v1\/orgs\/o\/teams → 200: expected a list \(\{"items": \[\.\.\.\]\}\), got the text "<html>/);
    const object = await failure(client.request('GET', '/v1/orgs/o', { schema: Item }));
    expect(object.message).toBe('GET /v1/orgs/o answered 200 with an unexpected body: expected an object, got the text "<html><body><h1>Sign in to the proxy</h1></body></html>"');
  });

  it('shows an HTML error page as one short line with the status', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(`<html><head><title>502 Bad Gateway</title></head><body>${'<p>upstream gone</p>'.repeat(200)}</body></html>`);
    }, { maxAttempts: 2 });
    const err = await failure(client.request('GET', '/v1/orgs/o'));
    expect(err.message.split('\n')).toHaveLength(1);
    expect(err.message).toMatch(/^GET \/v1\/orgs\/o → 502: 502 Bad Gateway upstream gone upstream gone .*… \(after 2 attempts\)$/);
    expect(err.message.length).toBeLessThan(300);
  });
});
