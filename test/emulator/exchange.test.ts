/** `onExchange`: one call per exchange, 429s, injected faults and resets included, never the token. */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/emulator/server.js';
import { ORG, demoState, useEmulator } from './helpers.js';
import { refusedRequestsExpected } from '../conformance/session.js';

// Bad requests on purpose: their refusals are not checked (docs/conformance.md).
refusedRequestsExpected('the emulator\'s own tests send bad requests on purpose');

const start = useEmulator();

describe('onExchange', () => {
  it('sees each request and its answer as exchanged, with the token hidden, faults and 429s included', async () => {
    const seen: Exchange[] = [];
    const api = await start({ state: demoState(), onExchange: (e) => seen.push(e) });
    const list = await api.get(`${ORG}/members?limit=2&role=admin`);
    const made = await api.put(`${ORG}/teams`, { title: 'Docs' });
    const gone = await api.del(`${ORG}/teams/${made.body.id}`);
    const bad = await api.put(`${ORG}/teams`, '{bad');

    expect(seen).toHaveLength(4);
    expect(seen[0]).toMatchObject({ method: 'GET', path: `${ORG}/members?limit=2&role=admin`, requestBody: null, status: 200 });
    expect(seen[0].requestHeaders.authorization).toBe('Bearer ***');
    expect(seen[0].responseHeaders['content-type']).toBe('application/json; charset=utf-8');
    expect(seen[0].responseBody).toEqual(list.body);
    expect(seen[1]).toMatchObject({ method: 'PUT', path: `${ORG}/teams`, requestBody: { title: 'Docs' }, status: 201 });
    expect(seen[1].requestHeaders['content-type']).toBe('application/json');
    // createOrganizationTeam documents no Location (docs/conformance.md): none is sent.
    expect(seen[1].responseHeaders.location).toBeUndefined();
    expect(made.headers.get('location')).toBeNull();
    expect(seen[1].responseBody).toEqual(made.body);
    expect(seen[2]).toMatchObject({ method: 'DELETE', status: gone.status, responseBody: null });
    expect(seen[2].responseHeaders['content-length']).toBe('0');
    expect(seen[3]).toMatchObject({ requestBody: '{bad', status: 400, responseBody: bad.body });
    expect(JSON.stringify(seen)).not.toContain('dev-token');

    // Injected faults and resets: one call each; a reset never answered, so its status is 0.
    const faulty: Exchange[] = [];
    const flaky = await start({ state: demoState(), faultRate: 0.5, resetRate: 0.5, seed: 5, onExchange: (e) => faulty.push(e) });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push(await flaky.get(ORG).then((r) => r.status, () => 0));
    expect(faulty.map((e) => e.status)).toEqual(statuses);
    expect(statuses).toContain(0);
    for (const e of faulty.filter((x) => x.status === 0)) expect(e).toMatchObject({ responseHeaders: {}, responseBody: null });
    for (const e of faulty.filter((x) => x.status !== 0)) expect(e.responseBody).toEqual({ error: { code: e.status, message: 'injected fault' } });

    // Over the rate limit: a 429 with its headers.
    const limitedSeen: Exchange[] = [];
    const limited = await start({ state: demoState(), rateLimit: 1, onExchange: (e) => limitedSeen.push(e) });
    await Promise.all([limited.get(ORG), limited.get(ORG)]);
    expect(limitedSeen.map((e) => e.status).sort()).toEqual([200, 429]);
    const tooMany = limitedSeen.find((e) => e.status === 429)!;
    expect(tooMany.responseHeaders['retry-after']).toMatch(/^\d+$/);
    expect(tooMany.responseHeaders['x-ratelimit-limit']).toBe('1');
  });
});
