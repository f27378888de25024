/** Test helpers: an emulator on port 0 and a tiny JSON client for it. */
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { loadEmulatorState, startEmulator } from '../../src/emulator/server.js';
import type { EmulatorOptions, EmulatorState, RunningEmulator } from '../../src/emulator/server.js';

export const DEMO_STATE_FILE = fileURLToPath(new URL('../../examples/emulator-state.yaml', import.meta.url));

export function demoState(): EmulatorState {
  return loadEmulatorState(DEMO_STATE_FILE);
}

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApi {
  emu: RunningEmulator;
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>;
  get<T = any>(path: string): Promise<Answer<T>>;
  post<T = any>(path: string, body?: unknown): Promise<Answer<T>>;
  put<T = any>(path: string, body?: unknown): Promise<Answer<T>>;
  patch<T = any>(path: string, body?: unknown): Promise<Answer<T>>;
  del<T = any>(path: string): Promise<Answer<T>>;
  /** Every item of a list, following `next.page`. */
  all<T = any>(path: string, limit?: number): Promise<T[]>;
}

export function client(emu: RunningEmulator, token = 'dev-token'): TestApi {
  const request = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const res = await fetch(`${emu.url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
  return {
    emu,
    request,
    get: (p) => request('GET', p),
    post: (p, b) => request('POST', p, b),
    put: (p, b) => request('PUT', p, b ?? {}),
    patch: (p, b) => request('PATCH', p, b ?? {}),
    del: (p) => request('DELETE', p),
    all: async (path, limit = 1000) => {
      const out: any[] = [];
      let page: string | undefined;
      for (;;) {
        const sep = path.includes('?') ? '&' : '?';
        const r = await request('GET', `${path}${sep}limit=${limit}${page ? `&page=${encodeURIComponent(page)}` : ''}`);
        if (r.status !== 200) throw new Error(`GET ${path} → ${r.status}: ${JSON.stringify(r.body)}`);
        out.push(...r.body.items);
        page = r.body.next?.page;
        if (!page) return out;
      }
    },
  };
}

/** Starts an emulator for one test and closes it after the test. */
export function useEmulator(): (options?: EmulatorOptions, token?: string) => Promise<TestApi> {
  const running: RunningEmulator[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((e) => e.close()));
  });
  return async (options = { state: demoState() }, token = 'dev-token') => {
    const emu = await startEmulator({ port: 0, seed: 1, ...options });
    running.push(emu);
    return client(emu, token);
  };
}

export const ORG = '/v1/orgs/org_acme';
export const SITE = `${ORG}/sites/site_docs`;
