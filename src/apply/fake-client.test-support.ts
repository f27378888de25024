/**
 * An in-memory ApiClient for the executor's tests: every call goes to a handler, and the fake
 * counts calls and the requests in flight at once.
 */
import type { ApiClient, ApiResponse, ClientStats, HttpMethod, Query, RequestOptions } from '../api/types.js';
import { ApiError } from '../core/errors.js';
import type { JsonValue, Plan, RequestSpec, Step } from '../plan/types.js';

export interface FakeCall {
  method: HttpMethod;
  path: string;
  query?: Query;
  body?: unknown;
  retry?: boolean;
}

export type FakeHandler = (call: FakeCall) => ApiResponse | Promise<ApiResponse>;

export class FakeClient implements ApiClient {
  readonly calls: FakeCall[] = [];
  inFlight = 0;
  maxInFlight = 0;

  constructor(
    private readonly handler: FakeHandler,
    private readonly delayMs = 0,
  ) {}

  async request<T = unknown>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const call: FakeCall = { method, path, query: options.query, body: options.body, retry: options.retry };
    this.calls.push(call);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
      else await Promise.resolve();
      return (await this.handler(call)) as ApiResponse<T>;
    } finally {
      this.inFlight -= 1;
    }
  }

  async *paginate<T = unknown>(path: string, query?: Query): AsyncIterable<T> {
    for (const item of await this.listAll<T>(path, query)) yield item;
  }

  async listAll<T = unknown>(path: string, query?: Query): Promise<T[]> {
    const res = await this.request<{ items: T[] }>('GET', path, { query: { ...query, limit: 1000 } });
    return res.body.items;
  }

  stats(): ClientStats {
    const byMethod: Record<string, number> = {};
    for (const c of this.calls) byMethod[c.method] = (byMethod[c.method] ?? 0) + 1;
    return { requests: this.calls.length, retries: 0, byMethod };
  }

  async close(): Promise<void> {}

  count(method: HttpMethod, path?: string): number {
    return this.calls.filter((c) => c.method === method && (path === undefined || c.path === path)).length;
  }
}

export function ok(body?: unknown, status = 200, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers, body };
}

export function apiError(call: FakeCall, status: number, message: string): ApiError {
  return new ApiError(call.method, call.path, status, message);
}

export function makeStep(
  org: string,
  address: string,
  action: Step['action'],
  requests: RequestSpec[],
  dependsOn: string[] = [],
  kind: Step['kind'] = 'teams',
): Step {
  return {
    id: `${org}/${address}:${action}`,
    org,
    address,
    kind,
    action,
    before: null,
    after: null,
    changes: [],
    requests,
    dependsOn,
  };
}

export function makePlan(steps: Step[]): Plan {
  return {
    formatVersion: 1,
    toolVersion: '0.0.0-test',
    createdAt: '2025-01-01T00:00:00.000Z',
    configHash: 'x',
    configPaths: [],
    orgs: [...new Set(steps.map((s) => s.org))],
    steps,
    unmanaged: {},
    violations: [],
    problems: [],
    fingerprints: {},
    summary: { create: 0, update: 0, delete: 0, other: 0, unmanaged: 0 },
  };
}

/** A team create as the planner writes it: PUT ORG/teams with a lookup by title. */
export function teamCreate(org: string, title: string, dependsOn: string[] = []): Step {
  const body: JsonValue = { title };
  return makeStep(org, `teams[${JSON.stringify(title)}]`, 'create', [
    { method: 'PUT', path: `/v1/orgs/${org}/teams`, body, capture: true, lookup: { path: `/v1/orgs/${org}/teams`, match: { title } } },
  ], dependsOn);
}
