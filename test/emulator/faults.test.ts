/** Injected faults (before / after the change), latency, the rate limit, the exchange log, requestCount. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ORG, demoState, useEmulator } from './helpers.js';
import type { TestApi } from './helpers.js';
import { refusedRequestsExpected } from '../conformance/session.js';

// Bad requests on purpose: their refusals are not checked (docs/conformance.md).
refusedRequestsExpected('the emulator\'s own tests send bad requests on purpose');

const start = useEmulator();

const teamTitles = (api: TestApi) => [...api.emu.world.orgs.get('org_acme')!.teams.values()].map((t) => t.title).filter((t) => t.startsWith('T'));

describe('faults', () => {
  it('answers 5xx to every request at fault rate 1, yet keeps the writes of the faults that struck after the change', async () => {
    const api = await start({ state: demoState(), faultRate: 1, seed: 7 });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await api.put(`${ORG}/teams`, { title: `T${i}` });
      statuses.push(r.status);
      expect(r.body).toEqual({ error: { code: r.status, message: 'injected fault' } });
    }
    expect(statuses.every((s) => [500, 502, 503].includes(s))).toBe(true);
    const written = teamTitles(api);
    // Some answers were lost after the write (the team exists), some before it (it does not).
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThan(20);

    // The same seed strikes the same way.
    const again = await start({ state: demoState(), faultRate: 1, seed: 7 });
    for (let i = 0; i < 20; i++) await again.put(`${ORG}/teams`, { title: `T${i}` });
    expect(teamTitles(again)).toEqual(written);
  });

  it('resets connections at reset rate 1, before or after the change', async () => {
    const api = await start({ state: demoState(), resetRate: 1, seed: 3 });
    let failures = 0;
    for (let i = 0; i < 12; i++) {
      await api.put(`${ORG}/teams`, { title: `T${i}` }).catch(() => failures++);
    }
    expect(failures).toBe(12);
    const written = teamTitles(api);
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThan(12);
  });

  it('strikes about as often as asked at a fractional rate', async () => {
    const api = await start({ state: demoState(), faultRate: 0.3, seed: 11 });
    let faults = 0;
    for (let i = 0; i < 200; i++) if ((await api.get(`${ORG}/teams?limit=1`)).status >= 500) faults++;
    expect(faults).toBeGreaterThan(30);
    expect(faults).toBeLessThan(90);
  });

  it('adds the latency to each request', async () => {
    const api = await start({ state: demoState(), latencyMs: 150 });
    const t0 = performance.now();
    await api.get(ORG);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('does the work when a request arrives and answers it the latency after: the handler runs within the latency, not after it', async () => {
    const api = await start({ state: demoState(), latencyMs: 300 });
    const t0 = performance.now();
    let answered = false;
    const answer = api.put(`${ORG}/teams`, { title: 'T-early' }).finally(() => (answered = true));
    // The team is there while the answer is still held back: the write was done on arrival. (Looked
    // at on every turn of the event loop: the turn after the handler ran comes before the latency's timer.)
    while (teamTitles(api).length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    expect(teamTitles(api)).toEqual(['T-early']);
    expect(api.emu.requestCount()).toBe(1);
    expect((await answer).status).toBe(201);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
  });
});

describe('rate limit', () => {
  it('limits N requests per window of S seconds as the live service documents it, with its message, and Retry-After only when asked', async () => {
    const api = await start({ state: demoState(), rateLimit: { limit: 3, windowSeconds: 60, retryAfter: false } });
    const nowSec = Math.floor(Date.now() / 1000);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await api.get(ORG));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
    for (const a of answers) {
      expect(a.headers.get('x-ratelimit-limit')).toBe('3');
      const reset = Number(a.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(nowSec + 59);
      expect(reset).toBeLessThanOrEqual(nowSec + 62);
    }
    const limited = answers[3];
    expect(limited.body.error.message).toMatch(/^API rate limit exceeded\. Please try again in (59|60) seconds$/);
    expect(limited.headers.get('retry-after')).toBeNull();
  });

  it('answers 429 over the limit with Retry-After and X-RateLimit-*, and sends X-RateLimit-* on normal answers', async () => {
    // The emulator's clock stands still until the test moves it past the window.
    let now = Date.now();
    const api = await start({ state: demoState(), rateLimit: 5, now: () => new Date(now) });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => api.put(`${ORG}/teams`, { title: `T${i}` })));
    const ok = answers.filter((a) => a.status === 201);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok).toHaveLength(5);
    expect(limited).toHaveLength(3);
    const nowSec = now / 1000;
    for (const a of limited) {
      expect(a.body).toEqual({ error: { code: 429, message: expect.stringMatching(/rate limit/) } });
      const retryAfter = a.headers.get('retry-after')!;
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(a.headers.get('x-ratelimit-limit')).toBe('5');
      expect(a.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(a.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(nowSec));
      expect(Number(a.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(Math.ceil(nowSec) + 2);
    }
    for (const a of ok) {
      expect(a.headers.get('x-ratelimit-limit')).toBe('5');
      expect(a.headers.get('x-ratelimit-remaining')).toMatch(/^[0-4]$/);
      expect(a.headers.get('retry-after')).toBeNull();
    }
    // A limited request changed nothing.
    expect(teamTitles(api)).toHaveLength(5);
    // Within the window, a request is still refused; after it, requests pass again.
    now += 999;
    expect((await api.get(ORG)).status).toBe(429);
    now += 1;
    expect((await api.get(ORG)).status).toBe(200);
  });
});

describe('log and request count', () => {
  it('writes one JSON line per exchange, with the query string, without the token, with secrets masked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docplane-emu-log-'));
    const logFile = join(dir, 'emulator.jsonl');
    const api = await start({ state: demoState(), logFile });
    await api.get(`${ORG}/members?limit=2&role=admin`);
    await api.put(`${ORG}/teams`, { title: 'Docs' });
    await api.post('/v1/integrations/acme-analytics', {
      title: 'Acme Analytics',
      description: 'd',
      script: 's',
      organization: 'org_acme',
      scopes: [],
      secrets: { API_KEY: 'very-secret-key' },
    });
    await api.post(`${ORG}/saml`, { label: 'Okta', certificate: 'CERTIFICATE-BODY' });
    await api.put(`${ORG}/teams`, '{bad');
    await api.emu.close();
    const text = readFileSync(logFile, 'utf8');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatchObject({ method: 'GET', path: `${ORG}/members?limit=2&role=admin`, requestBody: null, status: 200 });
    expect(lines[0].responseBody.items).toHaveLength(2);
    expect(lines[1]).toMatchObject({ method: 'PUT', path: `${ORG}/teams`, requestBody: { title: 'Docs' }, status: 201, responseBody: { title: 'Docs' } });
    expect(lines[2].requestBody.secrets).toEqual({ API_KEY: '(sensitive)' });
    expect(lines[3].requestBody.certificate).toBe('(sensitive)');
    expect(lines[3].responseBody.certificate).toBe('(sensitive)');
    expect(lines[4]).toMatchObject({ requestBody: '{bad', status: 400 });
    for (const l of lines) expect(Object.keys(l).slice(0, 5)).toEqual(['method', 'path', 'requestBody', 'status', 'responseBody']);
    expect(text).not.toContain('dev-token');
    expect(text).not.toContain('very-secret-key');
    expect(text).not.toContain('CERTIFICATE-BODY');
  });

  it('marks the injected faults in the log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docplane-emu-log-'));
    const logFile = join(dir, 'faults.jsonl');
    const api = await start({ state: demoState(), logFile, faultRate: 0.5, resetRate: 0.5, seed: 5 });
    for (let i = 0; i < 10; i++) await api.get(ORG).catch(() => undefined);
    await api.emu.close();
    const lines = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(10);
    for (const l of lines) expect(l.fault).toMatch(/^(error|reset)-(before|after)$/);
    expect(lines.filter((l) => l.fault.startsWith('reset')).every((l) => l.status === 0)).toBe(true);
  });

  it('counts every request, 401s and 404s included', async () => {
    const api = await start();
    await api.get(ORG);
    await api.get('/v1/nothing');
    await fetch(`${api.emu.url}${ORG}`);
    expect(api.emu.requestCount()).toBe(3);
  });
});
