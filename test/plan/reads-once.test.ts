/**
 * One read per thing per command (src/plan/reads.ts): over the emulator's exchanges, no GET (method,
 * path and query) is sent twice within one plan, import or apply — in an apply, twice between two
 * writes (a write may change what was read). The demo world with the example config, and a pull
 * request's plan (`--base`) on a generated world; a --base plan of a change inside a site reads only
 * that part and plans exactly the whole plan's steps there.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import { runApply } from '../../src/apply/run.js';
import { generate, type BenchWorld } from '../../src/bench/generate.js';
import { loadWorldConfig, writeConfig } from '../../src/bench/world-io.js';
import { loadConfig } from '../../src/config/load.js';
import { parseEmulatorState, startEmulator, type EmulatorState, type RunningEmulator } from '../../src/emulator/server.js';
import { runImport } from '../../src/import/run.js';
import { runFor } from '../../src/plan/context.js';
import { planOrgs } from '../../src/plan/run.js';
import { readOnce } from '../../src/plan/reads.js';
import { quietApply } from '../apply/in-process.js';

const EXAMPLES = join(import.meta.dirname, '../../examples');

/** The GETs sent more than once with no write between them: `n× GET path?query`. */
function repeatedGets(exchanges: readonly { method: string; path: string }[]): string[] {
  const repeats: string[] = [];
  let seen = new Map<string, number>();
  for (const e of exchanges) {
    if (e.method !== 'GET') {
      seen = new Map();
      continue;
    }
    const k = `GET ${e.path}`;
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    if (n === 2) repeats.push(k);
  }
  return repeats;
}

interface Recorded {
  emulator: RunningEmulator;
  exchanges: { method: string; path: string }[];
  client(): ApiClient;
}

async function recorded(state: EmulatorState): Promise<Recorded> {
  const exchanges: { method: string; path: string }[] = [];
  const emulator = await startEmulator({ port: 0, state, onExchange: (e) => exchanges.push({ method: e.method, path: e.path }) });
  return { emulator, exchanges, client: () => createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 2 }) };
}

describe('the demo world and the example config', () => {
  const state = () => parseEmulatorState(parse(readFileSync(join(EXAMPLES, 'emulator-state.yaml'), 'utf8')));
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'docplane-reads-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a plan sends each GET once', async () => {
    const r = await recorded(state());
    const client = r.client();
    try {
      const config = await loadConfig({ path: join(EXAMPLES, 'docplane.yaml') });
      const plan = await planOrgs(config, client, { toolVersion: 'test' });
      expect(plan.steps.length).toBeGreaterThan(0);
      expect(r.exchanges.length).toBeGreaterThan(5);
      expect(repeatedGets(r.exchanges)).toEqual([]);
    } finally {
      await client.close();
      await r.emulator.close();
    }
  });

  it('an apply sends each GET once between two writes', async () => {
    const r = await recorded(state());
    try {
      const report = await runApply(quietApply(join(EXAMPLES, 'docplane.yaml'), async () => r.client()));
      expect(r.exchanges.some((e) => e.method !== 'GET')).toBe(true);
      expect(report).toBeDefined();
      expect(repeatedGets(r.exchanges)).toEqual([]);
    } finally {
      await r.emulator.close();
    }
  });

  it('an import sends each GET once', async () => {
    const r = await recorded(state());
    try {
      await runImport({ orgs: ['org_acme'], out: join(dir, 'import'), connect: async () => r.client() });
      expect(r.exchanges.length).toBeGreaterThan(5);
      expect(repeatedGets(r.exchanges)).toEqual([]);
    } finally {
      await r.emulator.close();
    }
  });
});

describe('the read layer', () => {
  it('answers a GET read again from the first answer, and forgets every answer at a write', async () => {
    const r = await recorded(parseEmulatorState(parse(readFileSync(join(EXAMPLES, 'emulator-state.yaml'), 'utf8'))));
    const inner = r.client();
    try {
      const layer = readOnce(inner);
      const [a, b] = await Promise.all([layer.client.listAll('/v1/orgs/org_acme/teams'), layer.client.listAll('/v1/orgs/org_acme/teams')]);
      expect(b).toBe(a);
      await layer.client.request('GET', '/v1/orgs/org_acme', { query: { x: undefined } });
      await layer.client.request('GET', '/v1/orgs/org_acme');
      expect(layer.saved()).toBe(2);
      expect(r.exchanges.map((e) => e.path)).toEqual(['/v1/orgs/org_acme/teams?limit=1000', '/v1/orgs/org_acme']);
      await layer.client.request('PATCH', '/v1/orgs/org_acme', { body: {} }).catch(() => undefined);
      await layer.client.request('GET', '/v1/orgs/org_acme');
      expect(r.exchanges.filter((e) => e.method === 'GET' && e.path === '/v1/orgs/org_acme')).toHaveLength(2);
    } finally {
      await inner.close();
      await r.emulator.close();
    }
  });
});

describe('a pull request on a generated world (plan --base)', () => {
  let world: BenchWorld;
  let dir: string;
  let basePath: string;
  beforeAll(() => {
    world = generate(0.1, 1);
    dir = mkdtempSync(join(tmpdir(), 'docplane-reads-base-'));
    basePath = writeConfig(world, join(dir, 'base'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  type Change = (config: Record<string, Array<Record<string, unknown>>>) => void;
  const site = (c: Record<string, Array<Record<string, unknown>>>) => c.sites[0] as Record<string, Array<Record<string, unknown>>>;
  /** The plan of `change` with --base (its targets and requests) and the whole plan's steps. */
  async function compare(name: string, change: Change) {
    const head = structuredClone(world.config) as unknown as Record<string, Array<Record<string, unknown>>>;
    change(head);
    const config = await loadWorldConfig({ ...world, config: head as unknown as BenchWorld['config'] }, join(dir, name));
    const r = await recorded(world.fullState);
    try {
      const run = runFor(config, 'test', join(dir, name, 'docplane.yaml'));
      const scope = await run.baseScope(basePath);
      const narrowed = await run.connect(async () => r.client(), (ctx) => ctx.plan({ base: scope }));
      const requests = [...r.exchanges];
      r.exchanges.length = 0;
      const whole = await run.connect(async () => r.client(), (ctx) => ctx.plan());
      const ids = (p: typeof whole.plan) => p.steps.map((s) => `${s.action} ${s.address}`).sort();
      return { scope, requests, narrowed: ids(narrowed.plan), whole: ids(whole.plan) };
    } finally {
      await r.emulator.close();
    }
  }

  it('a grant, a section title and a team membership: each GET once, the whole plan steps', async () => {
    const got = await compare('three', (c) => {
      (c.teams[3].members as unknown[]).pop();
      site(c).sections[2].title = 'Renamed section';
      const collection = c.collections.find((x) => x.access !== undefined) as { access: { teams: Record<string, string> } };
      collection.access.teams[Object.keys(collection.access.teams)[0]] = 'admin';
    });
    expect(got.narrowed).toEqual(got.whole);
    expect(got.narrowed).toHaveLength(3);
    expect(repeatedGets(got.requests)).toEqual([]);
    // The section alone is read of its site: the structure, no share links, redirects or grants.
    expect(got.scope.targets).toContain(`${world.org}/sites["${world.siteIds[0]}"].sections["${String(site(world.config as never).sections[2].path)}"]`);
    expect(got.requests.filter((e) => e.path.includes('/sites/'))).toEqual([{ method: 'GET', path: `/v1/orgs/${world.org}/sites/${world.siteIds[0]}/structure` }]);
  });

  const inside: Array<[string, Change, string]> = [
    ['a section title', (c) => void (site(c).sections[1].title = 'Renamed'), 'sections'],
    ['a site space path', (c) => void ((site(c).sections[1].siteSpaces as Array<Record<string, unknown>>)[0].path = 'v3'), 'sections'],
    ['a group icon', (c) => void (site(c).sectionGroups[0].icon = 'star'), 'sectionGroups'],
    ['an external link url', (c) => void (site(c).externalLinks[0].url = 'https://example.com/moved'), 'externalLinks'],
    ['a share link', (c) => void (site(c).shareLinks[0].active = !(site(c).shareLinks[0].active ?? true)), 'shareLinks'],
  ];
  for (const [what, change, part] of inside) {
    it(`${what}: only that part is a target, and its steps are the whole plan's`, async () => {
      const got = await compare(part + what.length, change);
      expect(got.scope.targets).toHaveLength(1);
      expect(got.scope.targets[0]).toContain(`.${part}[`);
      expect(got.narrowed).toEqual(got.whole);
      expect(got.narrowed.length).toBeGreaterThan(0);
      expect(repeatedGets(got.requests)).toEqual([]);
    });
  }
});
