/**
 * Bounds on lists and shapes (docs/bounds.md): a list that never ends, a list longer than the item
 * cap and an answer nested without end each end in one error naming the list (or the request) and
 * the bound: the answer's fault, never "a bug".
 */
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, jsonDepthOver } from './client.js';
import { clientTests, failure, sendJson } from './test-server.js';

const { setup } = clientTests({ token: 'bounds-test-token' });

describe('a list that hands out a new cursor on every page', () => {
  it('ends at the page cap with one error naming the list and the cap', async () => {
    const { server, client } = await setup((req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 0);
      sendJson(res, 200, { items: [{ id: `t${page}` }], next: { page: String(page + 1) } });
    }, { maxListPages: 40 });
    const err = await failure(client.listAll('/v1/orgs/o/teams'));
    expect(err.message).toBe('GET /v1/orgs/o/teams → 200: the list /v1/orgs/o/teams has more than 40 pages (--max-list-pages 40); its last page still named a next page');
    expect(err.code).toBe('API_LIST_TOO_LONG');
    expect(server.arrivals).toHaveLength(40);
  });
});

describe('a list longer than the item cap', () => {
  it('ends as soon as a page passes the cap, naming the list and the cap', async () => {
    const { server, client } = await setup((req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 0);
      sendJson(res, 200, { items: Array.from({ length: 1000 }, (_, i) => ({ id: `t${page * 1000 + i}` })), next: { page: String(page + 1) } });
    }, { maxListItems: 2500 });
    const err = await failure(client.listAll('/v1/orgs/o/members'));
    expect(err.message).toBe('GET /v1/orgs/o/members → 200: the list /v1/orgs/o/members has more than 2500 items (--max-list-items 2500)');
    expect(server.arrivals).toHaveLength(3);
  });

  it('reads a list within both caps whole, in order', async () => {
    const { client } = await setup((req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 0);
      sendJson(res, 200, { items: [{ id: `t${page}` }], ...(page < 9 ? { next: { page: String(page + 1) } } : {}) });
    }, { maxListPages: 10, maxListItems: 10 });
    const all = await client.listAll<{ id: string }>('/v1/orgs/o/teams');
    expect(all.map((t) => t.id)).toEqual(Array.from({ length: 10 }, (_, i) => `t${i}`));
  });
});

describe('an answer nested without end', () => {
  it('is refused at the edge as the answer\'s fault (an array 100,000 levels deep)', async () => {
    const deep = `{"items": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(deep);
    });
    const err = await failure(client.listAll('/v1/orgs/o/teams'));
    expect(err.message).toBe(`GET /v1/orgs/o/teams → 200: the answer nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels (at character ${MAX_JSON_DEPTH + 10}); the API's objects do not`);
    expect(err.code).toBe('API_BAD_RESPONSE');
  });

  it('counts brackets outside strings only', () => {
    expect(jsonDepthOver(`{"a": "${'['.repeat(100)}\\"["}`, 3)).toBe(0);
    expect(jsonDepthOver('[[[[]]]]', 3)).toBe(4);
    expect(jsonDepthOver('[[[]]]', 3)).toBe(0);
  });
});
