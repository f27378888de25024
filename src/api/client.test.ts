import { setTimeout as sleep } from 'node:timers/promises';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../core/errors.js';
import { createClient } from './client.js';
import { clientTests, failure, sendJson, startTestServer } from './test-server.js';
import { virtualClock } from './virtual-clock.test-support.js';

const TOKEN = 'tok-5ecret-XYZ-123456';

const { setup, afterTest } = clientTests({ token: TOKEN });

function expectNoToken(...things: unknown[]): void {
  for (const thing of things) {
    const texts = [String(thing), JSON.stringify(thing) ?? '', inspect(thing, { depth: 10, showHidden: true })];
    if (thing instanceof Error) texts.push(thing.message, thing.stack ?? '');
    for (const text of texts) expect(text).not.toContain(TOKEN);
  }
}

describe('requests', () => {
  it('sends the bearer token and JSON, and reads JSON back', async () => {
    const { server, client } = await setup((_req, res, a) => sendJson(res, 201, { echo: JSON.parse(a.body) }, { location: '/x' }));
    const res = await client.request('POST', '/v1/orgs/org_acme/teams', { body: { title: 'Eng' }, headers: { Prefer: 'return=minimal' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ echo: { title: 'Eng' } });
    expect(res.headers.location).toBe('/x');
    const a = server.arrivals[0];
    expect(a.method).toBe('POST');
    expect(a.url).toBe('/v1/orgs/org_acme/teams');
    expect(a.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(a.headers['content-type']).toBe('application/json');
    expect(a.headers.prefer).toBe('return=minimal');
  });

  it('reads an answer that arrives in pieces: a character split between them, a byte order mark, a repeated header', async () => {
    const json = Buffer.from('\ufeff{"title":"Équipe ☃"}', 'utf8');
    const { client } = await setup(async (_req, res) => {
      res.writeHead(200, [
        ['content-type', 'application/json'],
        ['x-note', 'a'],
        ['x-note', 'b'],
      ]);
      // Cut inside the two-byte "É" and the three-byte "☃": the text is decoded once, whole.
      const cuts = [0, json.indexOf(Buffer.from('É')) + 1, json.indexOf(Buffer.from('☃')) + 1, json.length];
      for (let i = 0; i + 1 < cuts.length; i++) {
        res.write(json.subarray(cuts[i], cuts[i + 1]));
        await sleep(5);
      }
      res.end();
    });
    const res = await client.request('GET', '/v1/orgs/org_acme');
    expect(res.body).toEqual({ title: 'Équipe ☃' });
    expect(res.headers['x-note']).toBe('a, b');
  });

  it('sends no content-type without a body', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, {}));
    await client.request('GET', '/v1/orgs/org_acme');
    expect(server.arrivals[0].headers['content-type']).toBeUndefined();
  });

  it.each([202, 204, 205])('treats %i with an empty body as success with body undefined', async (status) => {
    const { client } = await setup((_req, res) => {
      res.statusCode = status;
      res.end();
    });
    const res = await client.request('DELETE', '/v1/orgs/org_acme/members/u_bob');
    expect(res.status).toBe(status);
    expect(res.body).toBeUndefined();
  });

  it('keeps a non-JSON 2xx body as text', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hello');
    });
    expect((await client.request('GET', '/v1/x')).body).toBe('hello');
  });

  it('keeps a 2xx body that claims JSON but is not as text', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{broken');
    });
    expect((await client.request('GET', '/v1/x')).body).toBe('{broken');
  });

  it('encodes query values and drops undefined ones', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, {}));
    await client.request('GET', '/v1/orgs/o/members', { query: { email: 'a b&c@x.com', sso: true, n: 3, skip: undefined } });
    expect(server.arrivals[0].url).toBe('/v1/orgs/o/members?email=a%20b%26c%40x.com&sso=true&n=3');
  });

  it.each(['', '/', '/v1', '/v1/'])('appends /v1 paths to a base URL ending in %j', async (suffix) => {
    const server = await startTestServer((_req, res) => sendJson(res, 200, {}));
    const client = createClient({ baseUrl: server.url + suffix, token: TOKEN });
    afterTest(() => server.close(), () => client.close());
    await client.request('GET', '/v1/orgs/org_acme');
    expect(server.arrivals[0].url).toBe('/v1/orgs/org_acme');
  });

  it('keeps a path prefix of the base URL', async () => {
    const server = await startTestServer((_req, res) => sendJson(res, 200, {}));
    const client = createClient({ baseUrl: `${server.url}/api/v1/`, token: TOKEN });
    afterTest(() => server.close(), () => client.close());
    await client.request('GET', '/v1/orgs/org_acme');
    expect(server.arrivals[0].url).toBe('/api/v1/orgs/org_acme');
  });

  it('keeps connections alive between requests', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, {}));
    for (let i = 0; i < 10; i++) await client.request('GET', '/v1/x');
    // undici's pool may open a second connection while the first finishes up, but no more.
    expect(new Set(server.arrivals.map((a) => a.port)).size).toBeLessThanOrEqual(2);
  });

  it('counts requests per method', async () => {
    const { client } = await setup((_req, res, _a, i) => (i === 0 ? sendJson(res, 503, {}) : sendJson(res, 200, {})));
    await client.request('GET', '/v1/x');
    await client.request('PATCH', '/v1/x', { body: {} });
    await client.request('POST', '/v1/x', { body: {} });
    expect(client.stats()).toEqual({ requests: 4, retries: 1, rateLimited: 0, byMethod: { GET: 2, PATCH: 1, POST: 1 } });
  });

  it('writes one log line per exchange', async () => {
    const { client, lines } = await setup((_req, res) => sendJson(res, 200, { items: [] }));
    await client.listAll('/v1/orgs/x/teams');
    expect(lines).toHaveLength(1);
    // A loaded machine may keep the request waiting for a connection a few milliseconds: the line says so.
    expect(lines[0]).toMatch(/^GET \/v1\/orgs\/x\/teams\?limit=1000 → 200 \(\d+ ms(, after waiting \d+ ms for a connection)?\)$/);
  });

  it('refuses an empty token or one with a line break', () => {
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:1', token: '' })).toThrow(/empty/);
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:1', token: 'abc\ndef' })).toThrow(/line breaks/);
  });

  it('refuses plain http to a remote host', () => {
    expect(() => createClient({ baseUrl: 'http://api.example.com', token: TOKEN })).toThrow(/plain http/);
  });
});

describe('paging', () => {
  it('reads 2,500 items in pages of 1000, sending limit=1000 on every request', async () => {
    const all = Array.from({ length: 2500 }, (_, i) => ({ id: `t${i}` }));
    const { server, client } = await setup((_req, res, a) => {
      const q = new URL(a.url, 'http://x').searchParams;
      const start = q.get('page') ? Number(Buffer.from(q.get('page') as string, 'base64url').toString()) : 0;
      const limit = Number(q.get('limit'));
      const end = Math.min(all.length, start + limit);
      const next = end < all.length ? { page: Buffer.from(String(end)).toString('base64url') } : undefined;
      sendJson(res, 200, { items: all.slice(start, end), next, count: all.length });
    });
    const items = await client.listAll<{ id: string }>('/v1/orgs/o/teams', { nested: true });
    expect(items.map((t) => t.id)).toEqual(all.map((t) => t.id));
    expect(server.arrivals).toHaveLength(3);
    for (const a of server.arrivals) {
      const q = new URL(a.url, 'http://x').searchParams;
      expect(q.get('limit')).toBe('1000');
      expect(q.get('nested')).toBe('true');
    }
    expect(new URL(server.arrivals[0].url, 'http://x').searchParams.has('page')).toBe(false);
  });

  it('always sends limit=1000, whatever the caller asked', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, { items: [1], next: null }));
    expect(await client.listAll('/v1/x', { limit: 5 })).toEqual([1]);
    expect(server.arrivals[0].url).toBe('/v1/x?limit=1000');
  });

  it('stops at a next without a page', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, { items: [1, 2], next: {} }));
    expect(await client.listAll('/v1/x')).toEqual([1, 2]);
    expect(server.arrivals).toHaveLength(1);
  });

  it('yields items as pages arrive', async () => {
    const { client } = await setup((_req, res, a) =>
      sendJson(res, 200, a.url.includes('page=') ? { items: ['b'] } : { items: ['a'], next: { page: 'p2' } }),
    );
    const seen: string[] = [];
    for await (const item of client.paginate<string>('/v1/x')) seen.push(item);
    expect(seen).toEqual(['a', 'b']);
  });

  it('fails clearly on a body without an items array', async () => {
    const { client } = await setup((_req, res) => sendJson(res, 200, { teams: [] }));
    const err = await failure(client.listAll('/v1/orgs/o/teams', { q: 'x' }));
    expect(err.code).toBe('API_BAD_RESPONSE');
    expect(err.message).toContain('GET /v1/orgs/o/teams');
    expect(err.message).toContain('{"teams":[]}');
  });

  it('sends a list\'s later pages before the requests queued after its first page', async () => {
    // One connection: the list's first page goes, five reads queue behind it. Each later page waits
    // only for the connection to be free, not for the five (a first-come line sent them last).
    const { server, client } = await setup(
      async (_req, res, a) => {
        await sleep(10);
        const page = new URL(a.url, 'http://x').searchParams.get('page');
        if (!a.url.startsWith('/v1/list')) return sendJson(res, 200, {});
        sendJson(res, 200, page === null ? { items: [1], next: { page: 'p2' } } : page === 'p2' ? { items: [2], next: { page: 'p3' } } : { items: [3] });
      },
      { connections: 1 },
    );
    const list = client.listAll('/v1/list');
    const reads = [0, 1, 2, 3, 4].map((i) => client.request('GET', `/v1/x${i}`));
    expect(await list).toEqual([1, 2, 3]);
    await Promise.all(reads);
    const order = server.arrivals.map((a) => (a.url.startsWith('/v1/list') ? (new URL(a.url, 'http://x').searchParams.get('page') ?? 'p1') : a.url.slice(4)));
    // The connection freed by a page goes to the read waiting longest; the next page, asked for
    // once that page is read, goes before the reads still waiting.
    expect(order).toEqual(['p1', 'x0', 'p2', 'x1', 'p3', 'x2', 'x3', 'x4']);
  });

  it('reads at most 4 lists a connection at once: the others wait their turn, started before nothing', async () => {
    const { server, client } = await setup(
      async (_req, res, a) => {
        await sleep(5);
        sendJson(res, 200, a.url.startsWith('/v1/list') ? { items: [a.url.slice(4).replace(/\?.*$/, '')] } : {});
      },
      { connections: 1 },
    );
    const lists = Array.from({ length: 10 }, (_, i) => client.listAll(`/v1/list${i}`));
    const after = client.request('GET', '/v1/after');
    expect(await Promise.all(lists)).toEqual(Array.from({ length: 10 }, (_, i) => [`list${i}`]));
    await after;
    // Four lists were started (their first page asked for at once); the read asked for after the
    // ten went before the six lists still waiting for a place.
    expect(server.arrivals.map((a) => a.url.slice(4).replace(/\?.*$/, ''))).toEqual(['list0', 'list1', 'list2', 'list3', 'after', 'list4', 'list5', 'list6', 'list7', 'list8', 'list9']);
  });

  it('fails the lists still waiting for a place when the client closes', async () => {
    const { client } = await setup(
      async (_req, res) => {
        await sleep(20);
        sendJson(res, 200, { items: [] });
      },
      { connections: 1 },
    );
    const lists = Array.from({ length: 6 }, (_, i) => client.listAll(`/v1/list${i}`).then(() => 'read', (err: ApiError) => err.code));
    await client.close();
    const outcomes = await Promise.all(lists);
    expect(outcomes.slice(4)).toEqual(['API_ABORTED', 'API_ABORTED']);
  });

  it('fails instead of looping on a repeated page cursor', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, { items: [1], next: { page: 'same' } }));
    const err = await failure(client.listAll('/v1/x'));
    expect(err.message).toContain('twice');
    expect(server.arrivals).toHaveLength(2);
  });
});

describe('retries', () => {
  it('retries a GET through 5xx answers and succeeds', async () => {
    const { server, client, lines } = await setup((_req, res, _a, i) => (i < 2 ? sendJson(res, 503, { error: { code: 503, message: 'busy' } }) : sendJson(res, 200, { ok: true })));
    expect((await client.request('GET', '/v1/x')).body).toEqual({ ok: true });
    expect(server.arrivals).toHaveLength(3);
    expect(client.stats()).toMatchObject({ requests: 3, retries: 2 });
    expect(lines[0]).toMatch(/^GET \/v1\/x → 503 \(\d+ ms\); retry 1 of 7 in \d+ ms$/);
    expect(lines.at(-1)).toMatch(/→ 200/);
  });

  it.each(['PUT', 'PATCH', 'DELETE'] as const)('retries a %s through connection resets and succeeds', async (method) => {
    const { server, client } = await setup((req, res, _a, i) => {
      if (i < 2) req.socket.destroy();
      else sendJson(res, 200, { ok: true });
    });
    expect((await client.request(method, '/v1/x', { body: { a: 1 } })).body).toEqual({ ok: true });
    expect(server.arrivals).toHaveLength(3);
    expect(server.arrivals.every((a) => a.body === '{"a":1}')).toBe(true);
  });

  it('gives up after maxAttempts on 5xx with the last status', async () => {
    const { server, client, lines } = await setup((_req, res) => sendJson(res, 500, { error: { code: 500, message: 'boom' } }), { maxAttempts: 3 });
    const err = await failure(client.request('GET', '/v1/orgs/o/teams', { query: { limit: 1000 } }));
    expect(err.status).toBe(500);
    expect(err.message).toBe('GET /v1/orgs/o/teams → 500: boom (after 3 attempts)');
    expect(server.arrivals).toHaveLength(3);
    expect(lines.at(-1)).toContain('giving up after 3 attempts');
  });

  it('gives up after maxAttempts on resets with status 0 and the network error', async () => {
    const { server, client } = await setup((req) => req.socket.destroy(), { maxAttempts: 4 });
    const err = await failure(client.request('GET', '/v1/orgs/o'));
    expect(err.status).toBe(0);
    expect(err.code).toBe('API_UNREACHABLE');
    expect(err.apiMessage).toMatch(/^connection (reset|closed by the server) \(after 4 attempts\)$/);
    expect(err.message).toContain('GET /v1/orgs/o → no answer');
    expect(server.arrivals).toHaveLength(4);
  });

  it('does not retry a POST on 5xx or a reset', async () => {
    const five = await setup((_req, res) => sendJson(res, 503, {}));
    expect((await failure(five.client.request('POST', '/v1/x', { body: {} }))).status).toBe(503);
    expect(five.server.arrivals).toHaveLength(1);

    const reset = await setup((req) => req.socket.destroy());
    expect((await failure(reset.client.request('POST', '/v1/x', { body: {} }))).status).toBe(0);
    expect(reset.server.arrivals).toHaveLength(1);
    expect(reset.client.stats().retries).toBe(0);
  });

  it('retries a POST when asked to', async () => {
    const { server, client } = await setup((_req, res, _a, i) => (i === 0 ? sendJson(res, 502, {}) : sendJson(res, 201, { id: 'x' })));
    expect((await client.request('POST', '/v1/x', { body: {}, retry: true })).status).toBe(201);
    expect(server.arrivals).toHaveLength(2);
  });

  it('does not retry a GET when told not to', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 503, {}));
    await failure(client.request('GET', '/v1/x', { retry: false }));
    expect(server.arrivals).toHaveLength(1);
  });

  it.each([400, 401, 403, 404, 409])('does not retry a %i', async (status) => {
    const { server, client } = await setup((_req, res) => sendJson(res, status, { error: { code: status, message: 'no' } }));
    expect((await failure(client.request('GET', '/v1/x'))).status).toBe(status);
    expect(server.arrivals).toHaveLength(1);
  });

  // The waits below are measured on a virtual clock: the client asks for them, nothing waits.
  it('honours Retry-After on 429', async () => {
    const clock = virtualClock();
    const { server, client } = await setup(
      (_req, res, _a, i) => (i === 0 ? sendJson(res, 429, { error: { code: 429, message: 'slow down' } }, { 'retry-after': '1' }) : sendJson(res, 200, {})),
      { clock },
    );
    await client.request('GET', '/v1/x');
    expect(server.arrivals).toHaveLength(2);
    expect(server.arrivals[1].at - server.arrivals[0].at).toBe(1000);
    expect(clock.sleeps.map((s) => s.ms)).toEqual([1000]);
  });

  it('honours Retry-After given as an HTTP date', async () => {
    const clock = virtualClock();
    const { server, client } = await setup(
      (_req, res, _a, i) => (i === 0 ? sendJson(res, 429, {}, { 'retry-after': new Date(clock.now() + 2000).toUTCString() }) : sendJson(res, 200, {})),
      { clock },
    );
    await client.request('GET', '/v1/x');
    expect(server.arrivals[1].at - server.arrivals[0].at).toBe(2000);
  });

  it('honours X-RateLimit-Reset as seconds to wait on 429 without Retry-After', async () => {
    const clock = virtualClock();
    const { server, client } = await setup(
      (_req, res, _a, i) => (i === 0 ? sendJson(res, 429, {}, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3' }) : sendJson(res, 200, {})),
      { clock },
    );
    await client.request('GET', '/v1/x');
    expect(server.arrivals[1].at - server.arrivals[0].at).toBe(3000);
  });

  it('honours X-RateLimit-Reset as an epoch time', async () => {
    const clock = virtualClock();
    const { server, client } = await setup(
      (_req, res, _a, i) =>
        i === 0
          ? sendJson(res, 429, {}, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(clock.now() / 1000) + 2) })
          : sendJson(res, 200, {}),
      { clock },
    );
    await client.request('GET', '/v1/x');
    expect(server.arrivals[1].at - server.arrivals[0].at).toBe(2000);
  });

  it('holds later requests back after X-RateLimit-Remaining: 0 on a success', async () => {
    const clock = virtualClock();
    const { server, client } = await setup(
      (_req, res, _a, i) => sendJson(res, 200, {}, i === 0 ? { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' } : { 'x-ratelimit-remaining': '99' }),
      { clock },
    );
    await client.request('GET', '/v1/a');
    await client.request('GET', '/v1/b');
    // The reset, and the gate's margin of 20 ms for the two clocks.
    expect(server.arrivals[1].at - server.arrivals[0].at).toBe(1020);
    expect(client.stats().retries).toBe(0);
  });

  it('makes every concurrent caller wait out a 429', async () => {
    const clock = virtualClock();
    const { server, client } = await setup(
      (_req, res, a) => (a.url === '/v1/first' && server.arrivals.length === 1 ? sendJson(res, 429, {}, { 'retry-after': '1' }) : sendJson(res, 200, {})),
      { clock },
    );
    // The second caller waits for the first answer (the window's size is unknown until then), a 429
    // that asks for a second: it waits that second too, though its own request was never refused.
    await Promise.all([client.request('GET', '/v1/first'), client.request('GET', '/v1/second')]);
    expect(server.arrivals.map((a) => a.url).sort()).toEqual(['/v1/first', '/v1/first', '/v1/second']);
    // An arrival is timed as it comes in, at or after its send: the pause is a lower bound.
    const second = server.arrivals.find((a) => a.url === '/v1/second');
    expect(second && second.at - server.arrivals[0].at).toBeGreaterThanOrEqual(1000);
  });

  it('holds back the requests waiting for a connection when a 429 asks for a pause', async () => {
    // One connection: x0 goes, x1–x3 wait for it. x1's 429 asks for a second's pause: x2 and x3,
    // still waiting for the connection then, are sent after it, not as the connection frees.
    const clock = virtualClock();
    const { server, client } = await setup(
      (_req, res, a, i) => (a.url === '/v1/x1' && i === 1 ? sendJson(res, 429, {}, { 'retry-after': '1' }) : sendJson(res, 200, {})),
      { connections: 1, clock },
    );
    await Promise.all(['/v1/x0', '/v1/x1', '/v1/x2', '/v1/x3'].map((path) => client.request('GET', path)));
    const at = (url: string) => server.arrivals.find((a) => a.url === url)?.at ?? Number.NaN;
    expect(server.arrivals.map((a) => a.url).slice(0, 2)).toEqual(['/v1/x0', '/v1/x1']);
    expect(server.arrivals.map((a) => a.url).sort()).toEqual(['/v1/x0', '/v1/x1', '/v1/x1', '/v1/x2', '/v1/x3']);
    expect(at('/v1/x2') - at('/v1/x1')).toBeGreaterThanOrEqual(1000);
    expect(at('/v1/x3') - at('/v1/x1')).toBeGreaterThanOrEqual(1000);
    expect(client.stats()).toMatchObject({ requests: 5, rateLimited: 1 });
  });

  it('does not count a 429 as an attempt', async () => {
    const { server, client } = await setup(
      (_req, res, _a, i) => (i < 3 ? sendJson(res, 429, {}, { 'retry-after': '0' }) : i === 3 ? sendJson(res, 503, {}) : sendJson(res, 200, {})),
      { maxAttempts: 2 },
    );
    await client.request('GET', '/v1/x');
    expect(server.arrivals).toHaveLength(5);
    expect(client.stats().rateLimited).toBe(3);
  });

  it('keeps concurrent requests within what the window has left', async () => {
    // A fixed window of 5 requests per second, told in the headers as the live service does. On the
    // system's clock: the server counts requests as they arrive, which a virtual clock would move
    // between a request's send and its arrival.
    let windowStart = Date.now();
    let used = 0;
    let refused = 0;
    const { client } = await setup((_req, res) => {
      const now = Date.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        used = 0;
      }
      const reset = String(Math.round((windowStart + 1000 - now) / 100) / 10);
      if (used >= 5) {
        refused++;
        return sendJson(res, 429, {}, { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset });
      }
      used++;
      sendJson(res, 200, {}, { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': String(5 - used), 'x-ratelimit-reset': reset });
    });
    // Eight requests: more than the window allows, so the second window's renewal is waited for.
    await Promise.all(Array.from({ length: 8 }, (_, i) => client.request('GET', `/v1/x${i}`)));
    expect(refused).toBe(0);
  });

  it('waits as long as the server asks, up to maxWaitMs', async () => {
    const clock = virtualClock();
    const { server, client } = await setup(
      (_req, res, _a, i) => (i === 0 ? sendJson(res, 429, {}, { 'retry-after': '0.2' }) : sendJson(res, 200, {})),
      { maxWaitMs: 1000, clock },
    );
    await client.request('GET', '/v1/x');
    expect(server.arrivals).toHaveLength(2);
    expect(server.arrivals[1].at - server.arrivals[0].at).toBe(200);
  });
});

describe('timeouts and cancelling', () => {
  it('treats a server that never answers as a network error after timeoutMs, and retries', async () => {
    const { server, client } = await setup(() => undefined, { timeoutMs: 200, maxAttempts: 2, silenceLimitMs: 10_000 });
    const err = await failure(client.request('GET', '/v1/orgs/o/teams'));
    expect(err.status).toBe(0);
    expect(err.message).toBe('GET /v1/orgs/o/teams → no answer: timed out after 200 ms (after 2 attempts)');
    expect(server.arrivals).toHaveLength(2);
  });

  it('times out a body that stops halfway', async () => {
    const { client } = await setup(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"items": [');
      },
      { timeoutMs: 200, maxAttempts: 1 },
    );
    const err = await failure(client.request('GET', '/v1/x'));
    expect(err.status).toBe(0);
    expect(err.apiMessage).toContain('timed out');
  });

  it('times a request from when it is sent, not while it waits for a connection', async () => {
    // One connection, answers after 60 ms, a 150 ms timeout: the fifth request waits 240 ms for the
    // connection, and still has its 150 ms once sent.
    const { server, client, lines } = await setup(
      async (_req, res) => {
        await sleep(60);
        sendJson(res, 200, { ok: true });
      },
      { connections: 1, timeoutMs: 150, maxAttempts: 1 },
    );
    const answers = await Promise.all([0, 1, 2, 3, 4].map((i) => client.request('GET', `/v1/x${i}`)));
    expect(answers.map((a) => a.body)).toEqual(Array.from({ length: 5 }, () => ({ ok: true })));
    expect(client.stats()).toMatchObject({ requests: 5, retries: 0 });
    expect(server.arrivals.map((a) => a.url)).toEqual(['/v1/x0', '/v1/x1', '/v1/x2', '/v1/x3', '/v1/x4']);
    // --verbose tells the exchange's time from the send, and the wait before it apart: x4 waited
    // for the connection behind x0–x3.
    const last = lines.find((l) => l.startsWith('GET /v1/x4 '));
    expect(last).toMatch(/^GET \/v1\/x4 → 200 \(\d+ ms, after waiting \d+ ms for a connection\)$/);
    const [, took, forConnection] = /\((\d+) ms, after waiting (\d+) ms for a connection/.exec(last ?? '') ?? [];
    expect(Number(took)).toBeLessThan(150);
    expect(Number(forConnection)).toBeGreaterThanOrEqual(200);
  });

  it('closing gives up the requests waiting for a connection at once, unsent', async () => {
    const { server, client } = await setup(
      async (_req, res) => {
        await sleep(200);
        sendJson(res, 200, {});
      },
      { connections: 1 },
    );
    const settled: Array<{ at: number; outcome: unknown }> = [];
    const requests = ['/v1/a', '/v1/b', '/v1/c'].map((path) =>
      client.request('GET', path).then(
        (res) => settled.push({ at: performance.now(), outcome: res.status }),
        (err: ApiError) => settled.push({ at: performance.now(), outcome: err.code }),
      ),
    );
    while (server.arrivals.length < 1) await sleep(5);
    const closedAt = performance.now();
    const closed = client.close();
    await Promise.all(requests);
    await closed;
    // The two waiting fail as close() is called; the one sent is answered.
    expect(settled.map((s) => s.outcome).sort()).toEqual([200, 'API_ABORTED', 'API_ABORTED']);
    for (const s of settled.filter((x) => x.outcome === 'API_ABORTED')) expect(s.at - closedAt).toBeLessThan(100);
    expect(server.arrivals.map((a) => a.url)).toEqual(['/v1/a']);
  });

  it('stops without retrying when the caller cancels', async () => {
    const { server, client } = await setup(() => undefined, { timeoutMs: 5000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await failure(client.request('GET', '/v1/x', { signal: controller.signal }));
    expect(err.code).toBe('API_ABORTED');
    expect(server.arrivals).toHaveLength(1);
  });

  it('closing gives up the requests waiting to retry at once, and sends nothing more', async () => {
    // Every attempt fails; the waits before the next attempts are drawn up to 10 minutes.
    const tenMinutes = 600_000;
    const { server, client } = await setup((_req, res) => sendJson(res, 503, { error: { message: 'down' } }), {
      backoffBaseMs: tenMinutes,
      backoffCapMs: tenMinutes,
      maxWaitMs: tenMinutes,
    });
    const settled: Array<ApiError | 'answered'> = [];
    const requests = ['/v1/a', '/v1/b', '/v1/c'].map((path) =>
      client.request('GET', path).then(
        () => settled.push('answered'),
        (err: ApiError) => settled.push(err),
      ),
    );
    while (server.arrivals.length < 3) await sleep(5);
    await sleep(20);
    const closedAt = performance.now();
    await client.close();
    await Promise.all(requests);
    // Without close() cutting the waits short, the three would still be waiting (up to ten minutes).
    expect(performance.now() - closedAt).toBeLessThan(1000);
    expect(settled).toHaveLength(3);
    for (const err of settled) expect(err).toMatchObject({ code: 'API_ABORTED' });
    expect(server.arrivals).toHaveLength(3);
    // A request made after close() is not sent either.
    expect((await failure(client.request('GET', '/v1/d'))).code).toBe('API_ABORTED');
    expect(server.arrivals).toHaveLength(3);
  });
});

describe('errors', () => {
  it('names method, path without query, status and the live service message', async () => {
    const { client } = await setup((_req, res) => sendJson(res, 404, { error: { code: 404, message: 'Team not found' } }));
    const err = await failure(client.request('GET', '/v1/orgs/org_acme/teams/t9', { query: { limit: 1000 } }));
    expect(err.message).toBe('GET /v1/orgs/org_acme/teams/t9 → 404: Team not found');
    expect(err).toMatchObject({ method: 'GET', path: '/v1/orgs/org_acme/teams/t9', status: 404, apiMessage: 'Team not found', code: 'API_404' });
    expect(err.hint).toBeTruthy();
  });

  it('takes a top-level message from another shape of body', async () => {
    const { client } = await setup((_req, res) => sendJson(res, 400, { message: 'title: required' }));
    expect((await failure(client.request('PATCH', '/v1/x', { body: {} }))).apiMessage).toBe('title: required');
  });

  it('shortens a long non-JSON error body', async () => {
    const page = `<html><body><h1>502 Bad Gateway</h1><p>${'upstream trouble '.repeat(100)}</p></body></html>`;
    const { client } = await setup((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(page);
    }, { maxAttempts: 1 });
    const err = await failure(client.request('GET', '/v1/x'));
    expect(err.status).toBe(502);
    expect(err.apiMessage.startsWith('502 Bad Gateway upstream trouble')).toBe(true);
    expect(err.apiMessage.length).toBeLessThanOrEqual(200);
    expect(err.apiMessage).not.toContain('<');
  });

  it('says HTTP <status> for an empty error body', async () => {
    const { client } = await setup((_req, res) => {
      res.statusCode = 418;
      res.end();
    });
    expect((await failure(client.request('GET', '/v1/x'))).message).toBe('GET /v1/x → 418: HTTP 418');
  });

  it('never shows the token: not in errors, their JSON or inspection, nor in log lines', async () => {
    const { client, lines } = await setup(
      (req, res, a) => {
        if (a.url.startsWith('/v1/echo')) sendJson(res, 401, { error: { code: 401, message: `bad credentials: ${req.headers.authorization}` } });
        else if (a.url.startsWith('/v1/reset')) req.socket.destroy();
        // /v1/hang: never answers
      },
      { timeoutMs: 150, maxAttempts: 2 },
    );
    const errors = [
      await failure(client.request('GET', '/v1/echo')),
      await failure(client.request('GET', '/v1/reset')),
      await failure(client.request('GET', '/v1/hang')),
      await failure(client.request('POST', `/v1/echo/${TOKEN}`, { body: { x: 1 } })),
    ];
    expect(errors[0].apiMessage).toBe('bad credentials: Bearer (token)');
    expectNoToken(...errors, lines.join('\n'), client);
    expect(lines.length).toBeGreaterThanOrEqual(4);
  });
});

describe('maxRps', () => {
  // On the system's clock: the spacing is checked on the arrivals, which a virtual clock would move.
  it('spaces request starts across concurrent callers', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, {}), { maxRps: 20 });
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 10 }, (_, i) => client.request('GET', `/v1/x${i}`)));
    expect(server.arrivals).toHaveLength(10);
    // 10 starts at most 20 per second: the last starts 9 × 50 ms after the first.
    expect(performance.now() - t0).toBeGreaterThanOrEqual(400);
    const times = server.arrivals.map((a) => a.at).sort((a, b) => a - b);
    expect(times[9] - times[0]).toBeGreaterThanOrEqual(400);
  });

  it('counts retries against the ceiling too', async () => {
    const { server, client } = await setup((_req, res, _a, i) => (i < 3 ? sendJson(res, 503, {}) : sendJson(res, 200, {})), { maxRps: 10 });
    await client.request('GET', '/v1/x');
    expect(server.arrivals).toHaveLength(4);
    expect(server.arrivals[3].at - server.arrivals[0].at).toBeGreaterThanOrEqual(270);
  });
});
