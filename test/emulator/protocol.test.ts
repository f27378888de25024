/** The rules every endpoint shares: auth, errors, lists and paging, Prefer, Location, state files. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocplaneError } from '../../src/core/errors.js';
import { loadEmulatorState, startEmulator } from '../../src/emulator/server.js';
import { ORG, SITE, client, demoState, useEmulator } from './helpers.js';
import { refusedRequestsExpected } from '../conformance/session.js';

// Bad requests on purpose: their refusals are not checked (docs/conformance.md).
refusedRequestsExpected('the emulator\'s own tests send bad requests on purpose');

const start = useEmulator();

describe('authentication', () => {
  it('answers 401 without a token, with a bad scheme, and with an unknown token', async () => {
    const api = await start();
    for (const authorization of [undefined, 'Basic dev-token', 'Bearer nope']) {
      const res = await fetch(`${api.emu.url}${ORG}`, { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      const body = (await res.json()) as any;
      expect(body.error.code).toBe(401);
      expect(JSON.stringify(body)).not.toContain('dev-token');
    }
  });

  it('lets a read-only token read and answers 403 to its writes, changing nothing', async () => {
    const api = await start(undefined, 'read-token');
    expect((await api.get(`${ORG}/teams?limit=10`)).status).toBe(200);
    const writes = await Promise.all([
      api.put(`${ORG}/teams`, { title: 'Nope' }),
      api.patch(ORG, { title: 'Nope' }),
      api.del(`${ORG}/members/u_bob`),
      api.post(`${SITE}/share-links`, { name: 'x' }),
    ]);
    for (const w of writes) {
      expect(w.status).toBe(403);
      expect(w.body).toEqual({ error: { code: 403, message: expect.any(String) } });
    }
    const org = api.emu.world.orgs.get('org_acme')!;
    expect(org.title).toBe('Acme');
    expect(org.teams.size).toBe(1);
    expect(org.members.has('u_bob')).toBe(true);
  });

  it('limits a token tied to a user to that user’s organizations', async () => {
    const state = demoState();
    state.tokens = [{ token: 'heidi', access: 'write', user: 'u_heidi' }];
    const api = await start({ state }, 'heidi');
    const orgs = await api.get('/v1/orgs');
    expect(orgs.body.items.map((o: any) => o.id)).toEqual(['org_acme']);
    expect((await api.get('/v1/orgs/org_globex')).status).toBe(404);
    expect((await api.get('/v1/spaces/space_globex')).status).toBe(404);
  });
});

describe('errors', () => {
  it('answers 404 with the error body for an unknown route and for unknown ids', async () => {
    const api = await start();
    for (const path of ['/v1/nothing', '/v2/orgs', `${ORG}/teams/team_unknown`, '/v1/orgs/org_unknown', '/v1/spaces/space_unknown', `${ORG}/sites/site_unknown/sections`]) {
      const r = await api.get(path);
      expect(r.status, path).toBe(404);
      expect(r.body.error.code).toBe(404);
      expect(r.body.error.message).toMatch(/no /);
    }
  });

  it('answers 405 for a known path with another method', async () => {
    const api = await start();
    const r = await api.request('POST', `${ORG}/members`, {});
    expect(r.status).toBe(405);
    expect(r.body.error.code).toBe(405);
  });

  it('answers 400 for a body that is not JSON, or not an object', async () => {
    const api = await start();
    const bad = await api.request('PUT', `${ORG}/teams`, '{"title": ', { 'content-type': 'application/json' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^body: invalid JSON/);
    const arr = await api.request('PUT', `${ORG}/teams`, '[1]');
    expect(arr.status).toBe(400);
    expect(arr.body.error.message).toBe('body: must be a JSON object');
  });

  it('names unknown fields of a request body', async () => {
    const api = await start();
    const r = await api.put(`${ORG}/teams`, { title: 'A', colour: 'red' });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('colour: unknown field');
  });
});

describe('lists', () => {
  it('answers 400 for limit over 1000, under 1, or not a number, naming limit', async () => {
    const api = await start();
    for (const limit of ['1001', '0', '-3', 'ten']) {
      const r = await api.get(`${ORG}/members?limit=${limit}`);
      expect(r.status, limit).toBe(400);
      expect(r.body.error.message).toMatch(/^limit: /);
    }
    expect((await api.get(`${ORG}/members?limit=1000`)).status).toBe(200);
  });

  it('answers 400 for a page identifier it did not give', async () => {
    const api = await start();
    const r = await api.get(`${ORG}/members?limit=2&page=garbage`);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/^page: /);
  });

  const teams = (n: number) => ({
    users: [{ id: 'u_a', email: 'a@x.test' }],
    organizations: [
      {
        id: 'org_x',
        title: 'X org',
        members: [{ user: 'u_a', role: 'admin' as const }],
        teams: Array.from({ length: n }, (_, i) => ({ title: `Team ${String(i).padStart(4, '0')}` })),
      },
    ],
  });

  it('pages across 2,500 teams at the default page size (50): every item once, in order', async () => {
    const api = await start({ state: teams(2500) });
    const seen: string[] = [];
    let page: string | undefined;
    let requests = 0;
    do {
      const r = await api.get(`/v1/orgs/org_x/teams${page ? `?page=${encodeURIComponent(page)}` : ''}`);
      requests++;
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(2500);
      expect(r.body.items.length).toBeLessThanOrEqual(50);
      seen.push(...r.body.items.map((t: any) => t.title));
      page = r.body.next?.page;
    } while (page);
    expect(requests).toBe(50);
    expect(seen).toEqual(Array.from({ length: 2500 }, (_, i) => `Team ${String(i).padStart(4, '0')}`));
  });

  it('pages across 2,500 teams at limit=1000 in 3 pages, the last without next', async () => {
    const api = await start({ state: teams(2500) });
    const sizes: number[] = [];
    const seen: string[] = [];
    let page: string | undefined;
    let last: any;
    do {
      last = (await api.get(`/v1/orgs/org_x/teams?limit=1000${page ? `&page=${encodeURIComponent(page)}` : ''}`)).body;
      sizes.push(last.items.length);
      seen.push(...last.items.map((t: any) => t.id));
      page = last.next?.page;
    } while (page);
    expect(sizes).toEqual([1000, 1000, 500]);
    expect(last.next).toBeUndefined();
    expect(new Set(seen).size).toBe(2500);
    expect(seen).toEqual([...api.emu.world.orgs.get('org_x')!.teams.keys()]);
  });
});

describe('creates and Prefer', () => {
  it('answers creates 201 with a Location that leads to the created resource, where the description documents it', async () => {
    const api = await start();
    const r = await api.post(`${ORG}/saml`, { label: 'Okta' });
    expect(r.status).toBe(201);
    const loc = r.headers.get('location')!;
    expect(loc).toBe(`${api.emu.url}${ORG}/saml/${r.body.id}`);
    const again = await api.get(loc.slice(api.emu.url.length));
    expect(again.body).toEqual(r.body);
    // createOrganizationTeam documents no Location header: none.
    const team = await api.put(`${ORG}/teams`, { title: 'Docs' });
    expect(team.status).toBe(201);
    expect(team.headers.get('location')).toBeNull();
  });

  it('answers 204 without a body to Prefer: return=minimal only where the description documents that 204, and still makes the change', async () => {
    const api = await start();
    const minimal = { prefer: 'return=minimal' };
    const sections = await api.all(`${SITE}/sections`);
    const patch = await api.request('PATCH', `${SITE}/sections/${sections[0].id}`, { title: 'Guides 2' }, minimal);
    expect(patch.status).toBe(204);
    expect(patch.body).toBeUndefined();
    expect(patch.headers.get('preference-applied')).toBe('return=minimal');
    expect((await api.all(`${SITE}/sections`))[0].title).toBe('Guides 2');
    const create = await api.request('POST', `${SITE}/site-spaces`, { spaceId: 'space_api' }, minimal);
    expect(create.status).toBe(204);
    expect(create.headers.get('location')).toMatch(/\/site-spaces\/sitesp_/);
    // updateOrganizationById and createSiteShareLink document no 204: the full answer.
    const org = await api.request('PATCH', ORG, { title: 'Acme Inc' }, minimal);
    expect(org.status).toBe(200);
    expect(org.body.title).toBe('Acme Inc');
    const link = await api.request('POST', `${SITE}/share-links`, { name: 'partner' }, minimal);
    expect(link.status).toBe(201);
    expect(link.body.name).toBe('partner');
  });

  it('makes opaque ids with a kind prefix, the same ones for the same seed', async () => {
    const a = await start({ state: demoState(), seed: 42 });
    const b = await start({ state: demoState(), seed: 42 });
    const ta = await a.put(`${ORG}/teams`, { title: 'T' });
    const tb = await b.put(`${ORG}/teams`, { title: 'T' });
    expect(ta.body.id).toMatch(/^team_[A-Za-z0-9]{16}$/);
    expect(ta.body.id).toBe(tb.body.id);
  });
});

describe('state files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docplane-emu-'));

  it('loads the demo world (YAML) and the same world as JSON', async () => {
    const yaml = demoState();
    const file = join(dir, 'state.json');
    writeFileSync(file, JSON.stringify(yaml));
    expect(loadEmulatorState(file)).toEqual(yaml);
    const emu = await startEmulator({ port: 0, stateFile: file });
    try {
      const members = await client(emu).all(`${ORG}/members`);
      expect(members).toHaveLength(12);
    } finally {
      await emu.close();
    }
  });

  it('names the file and the field of an invalid state', () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'organizations:\n  - id: org_a\n    title: A\n');
    expect(() => loadEmulatorState(file)).toThrowError(DocplaneError);
    expect(() => loadEmulatorState(file)).toThrowError(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: organizations\\[0\\]\\.title`));
    writeFileSync(file, 'users: [\n');
    expect(() => loadEmulatorState(file)).toThrowError(/bad\.yaml: not valid YAML or JSON/);
    expect(() => loadEmulatorState(join(dir, 'missing.yaml'))).toThrowError(/cannot read the emulator state file .*missing\.yaml: ENOENT/);
  });

  it('refuses seeds that refer to something missing, naming the place', async () => {
    const state = { users: [], organizations: [{ id: 'o', title: 'Org', members: [{ user: 'u_ghost', role: 'admin' as const }] }] };
    await expect(startEmulator({ port: 0, state })).rejects.toThrowError(/organizations\[0\]\.members\[0\]\.user: no user u_ghost/);
  });

  it('gives an empty world with dev-token and read-token when no state is given', async () => {
    const emu = await startEmulator({ port: 0 });
    try {
      expect((await client(emu).get('/v1/orgs')).body).toEqual({ items: [], count: 0 });
      expect((await client(emu, 'read-token').get('/v1/orgs')).status).toBe(200);
    } finally {
      await emu.close();
    }
  });

  it('refuses an address that is not loopback, and bad rates', async () => {
    await expect(startEmulator({ host: '0.0.0.0' })).rejects.toThrowError(/loopback/);
    await expect(startEmulator({ faultRate: 1.5 })).rejects.toThrowError(/fault rate/);
    await expect(startEmulator({ faultRate: 0.6, resetRate: 0.6 })).rejects.toThrowError(/more than 1/);
  });
});
