import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientFromFlags, readToken, type ApiFlags } from '../../src/cli/api.js';
import { DocplaneError } from '../../src/core/errors.js';
import { sendJson, startTestServer, type TestServer } from '../../src/api/test-server.js';

const FLAGS: ApiFlags = { concurrency: 4, timeout: 30, verbose: false };

let dir: string;
let server: TestServer;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docplane-api-'));
  server = await startTestServer((_req, res) => sendJson(res, 200, { ok: true }));
  vi.stubEnv('DOCPLANE_TOKEN', '');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<DocplaneError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(DocplaneError);
    return err as DocplaneError;
  }
  throw new Error('expected a refusal');
}

describe('clientFromFlags', () => {
  it('uses DOCPLANE_TOKEN and --api-url', async () => {
    vi.stubEnv('DOCPLANE_TOKEN', ' env-token-123 \n');
    const client = await clientFromFlags({ ...FLAGS, 'api-url': server.url });
    await client.request('GET', '/v1/orgs/org_acme');
    await client.close();
    expect(server.arrivals[0].headers.authorization).toBe('Bearer env-token-123');
  });

  it('reads the token file, trimmed, when the env has none', async () => {
    const file = join(dir, 'token');
    await writeFile(file, 'file-token-456\n');
    const client = await clientFromFlags({ ...FLAGS, 'api-url': server.url, 'token-file': file });
    await client.request('GET', '/v1/x');
    await client.close();
    expect(server.arrivals[0].headers.authorization).toBe('Bearer file-token-456');
  });

  it("falls back to the config's api.url", async () => {
    vi.stubEnv('DOCPLANE_TOKEN', 'env-token-123');
    const client = await clientFromFlags(FLAGS, `${server.url}/v1`);
    await client.request('GET', '/v1/x');
    await client.close();
    expect(server.arrivals[0].url).toBe('/v1/x');
  });

  it('prefers the flag to the config', async () => {
    vi.stubEnv('DOCPLANE_TOKEN', 'env-token-123');
    const client = await clientFromFlags({ ...FLAGS, 'api-url': server.url }, 'http://127.0.0.1:1');
    await client.request('GET', '/v1/x');
    await client.close();
    expect(server.arrivals).toHaveLength(1);
  });

  it('logs each exchange with --verbose, without the token', async () => {
    vi.stubEnv('DOCPLANE_TOKEN', 'env-token-123');
    const lines: string[] = [];
    const client = await clientFromFlags({ ...FLAGS, 'api-url': server.url, verbose: true }, undefined, (l) => lines.push(l));
    await client.request('GET', '/v1/x');
    await client.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^GET \/v1\/x → 200/);
    expect(lines[0]).not.toContain('env-token-123');
  });

  it('prefers --token-file to DOCPLANE_TOKEN', async () => {
    vi.stubEnv('DOCPLANE_TOKEN', 'env-token-123');
    await writeFile(join(dir, 'token'), 'file-token-456\n');
    expect(await readToken(join(dir, 'token'))).toBe('file-token-456');
    expect(await readToken(undefined)).toBe('env-token-123');
  });

  it('logs nothing without --verbose', async () => {
    vi.stubEnv('DOCPLANE_TOKEN', 'env-token-123');
    const lines: string[] = [];
    const client = await clientFromFlags({ ...FLAGS, 'api-url': server.url }, undefined, (l) => lines.push(l));
    await client.request('GET', '/v1/x');
    await client.close();
    expect(lines).toEqual([]);
  });

  it('refuses without a URL, naming the three ways to give one', async () => {
    vi.stubEnv('DOCPLANE_TOKEN', 'env-token-123');
    const err = await refusal(clientFromFlags(FLAGS));
    expect(err.code).toBe('API_URL_MISSING');
    expect(err.hint).toContain('--api-url');
    expect(err.hint).toContain('DOCPLANE_API_URL');
    expect(err.hint).toContain('api.url');
  });

  it('refuses plain http to a remote host before looking for a token', async () => {
    const err = await refusal(clientFromFlags({ ...FLAGS, 'api-url': 'http://api.example.com' }));
    expect(err.code).toBe('API_URL_INSECURE');
  });

  it('refuses without a token, naming both ways to give one', async () => {
    const err = await refusal(clientFromFlags({ ...FLAGS, 'api-url': server.url }));
    expect(err.code).toBe('TOKEN_MISSING');
    expect(err.hint).toContain('DOCPLANE_TOKEN');
    expect(err.hint).toContain('--token-file');
  });
});

describe('readToken', () => {
  it('prefers the file named by the flag to the env', async () => {
    const file = join(dir, 'token');
    await writeFile(file, 'from-file');
    expect(await readToken(file, { DOCPLANE_TOKEN: 'from-env' })).toBe('from-file');
  });

  it('says which token file cannot be read, and why', async () => {
    const file = join(dir, 'missing');
    const err = await refusal(readToken(file, {}));
    expect(err.code).toBe('TOKEN_FILE_UNREADABLE');
    expect(err.message).toBe(`cannot read the token file ${file}: no such file`);
  });

  it('refuses an empty token file', async () => {
    const file = join(dir, 'empty');
    await writeFile(file, '  \n');
    expect((await refusal(readToken(file, {}))).message).toContain('is empty');
  });
});
