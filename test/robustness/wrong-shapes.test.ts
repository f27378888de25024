/**
 * Every list and object that plan and import read, answered 200 with a body of the wrong shape by a
 * server between docplane and the emulator: each ends in one API error naming the request and what
 * is wrong (never "a bug in docplane"). The reads are those of the example config's plan and of an
 * import of its organization, recorded first through the same server.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { startTestServer, type TestServer } from '../../src/api/test-server.js';
import { loadConfig } from '../../src/config/load.js';
import type { LoadedConfig } from '../../src/config/types.js';
import { ApiError } from '../../src/core/errors.js';
import { loadEmulatorState, startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { runImport } from '../../src/import/run.js';
import { planOrgs } from '../../src/plan/run.js';

const ROOT = new URL('../../', import.meta.url).pathname;

let emulator: RunningEmulator;
let proxy: TestServer;
let config: LoadedConfig;
/** The path (without query) whose 200 answers are spoiled, if any; and the GET paths seen answered 200. */
const spoil: { path?: string } = {};
const seen = new Set<string>();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, state: loadEmulatorState(join(ROOT, 'examples/emulator-state.yaml')), seed: 3 });
  proxy = await startTestServer(async (req, res, arrival) => {
    const answer = await fetch(emulator.url + arrival.url, {
      method: arrival.method,
      headers: { authorization: String(req.headers.authorization ?? ''), ...(arrival.body ? { 'content-type': 'application/json' } : {}) },
      body: arrival.body || undefined,
    });
    let text = await answer.text();
    const path = arrival.url.split('?')[0];
    if (arrival.method === 'GET' && answer.status === 200) {
      seen.add(path);
      if (path === spoil.path) {
        // A list keeps its envelope with an item that is no object; an object read gets a list.
        const body: unknown = JSON.parse(text);
        text = JSON.stringify(body && typeof body === 'object' && Array.isArray((body as { items?: unknown }).items) ? { items: [null] } : [1]);
      }
    }
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(text);
  });
  config = await loadConfig({ path: join(ROOT, 'examples/docplane.yaml'), env: {} });
});

afterAll(async () => {
  await proxy?.close();
  await emulator?.close();
});

const client = () => createClient({ baseUrl: proxy.url, token: 'dev-token', backoffBaseMs: 5 });

async function plan(): Promise<void> {
  const c = client();
  try {
    await planOrgs(config, c, { toolVersion: '0.0.0' });
  } finally {
    await c.close();
  }
}

async function importOrg(): Promise<void> {
  await runImport({ orgs: ['org_acme'], out: '-', connect: () => Promise.resolve(client()) });
}

async function refusal(run: () => Promise<void>, path: string): Promise<void> {
  spoil.path = path;
  try {
    await run();
    throw new Error(`a spoiled ${path} went unnoticed`);
  } catch (err) {
    expect(err, String(err)).toBeInstanceOf(ApiError);
    const message = (err as ApiError).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toMatch(new RegExp(`^GET ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} answered 200 with an unexpected body: (items\\[0\\]: expected an object, got null|expected an object, got an array)$`));
  } finally {
    spoil.path = undefined;
  }
}

describe('answers of the wrong shape at every read', () => {
  it('plan: every list and object it reads', async () => {
    seen.clear();
    await plan();
    const paths = [...seen].sort();
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) await refusal(plan, path);
  });

  it('import: every list and object it reads', async () => {
    seen.clear();
    await importOrg();
    const paths = [...seen].sort();
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) await refusal(importOrg, path);
  });
});
