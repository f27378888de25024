/** Helpers of the planner tests: configs built in code, a module's plan in one call, a fake client. */
import type { ApiClient, ApiResponse, ClientStats, HttpMethod, Query } from '../../src/api/types.js';
import type { OrganizationT } from '../../src/kinds/organization/schema.js';
import type { LoadedConfig, OrgConfig } from '../../src/config/types.js';
import { ApiError } from '../../src/core/errors.js';
import { readContextFor, sharedPlans, type KindPlan, type PlanContext, type ReadContext, type KindSpec } from '../../src/kinds/kind.js';

export type OrgConfigInput = Partial<Omit<OrgConfig, 'organization' | 'safety'>> & {
  organization?: Partial<OrganizationT>;
  safety?: Partial<OrgConfig['safety']>;
};

export function orgConfig(input: OrgConfigInput = {}): OrgConfig {
  const { organization, safety, ...rest } = input;
  return {
    prune: [],
    protect: [],
    locations: {},
    ...rest,
    organization: { id: 'org_acme', ...organization },
    safety: { maxDeletes: 10, maxDeletePercent: 25, keepSsoMembers: true, ...safety },
  };
}

export function loaded(orgs: OrgConfig[], secrets: LoadedConfig['secrets'] = []): LoadedConfig {
  return { orgs, secrets, hash: 'hash-of-config', files: ['/cfg/docplane.yaml'] };
}

export function planContext(desired: OrgConfig, options: { replace?: string[] } = {}): PlanContext {
  const pruned = new Set<string>(desired.prune);
  return {
    org: desired.organization.id,
    desired,
    prunes: (kind) => pruned.has(kind),
    replace: options.replace,
    shared: sharedPlans(),
  };
}

/** A module's plan for a desired config and a remote state given directly (no reads). */
export function planKind<R>(
  module: KindSpec<R>,
  desired: OrgConfig,
  remote: R,
  options: { replace?: string[] } = {},
): KindPlan {
  return module.plan(planContext(desired, options), remote);
}

/** A read context over a client, with the same sharing as planOrgs. */
export function readContext(desired: OrgConfig, client: ApiClient): ReadContext {
  return readContextFor(desired, client);
}

export interface FakeClient extends ApiClient {
  /** `METHOD path?query` of every call, in order (lists once per listAll; limit left out). */
  calls: string[];
}

/**
 * An in-memory client: `lists` answers listAll by path, `gets` answers GET by path (an Error or a
 * status number is thrown as an ApiError of that status). Counts calls.
 */
export function fakeClient(lists: Record<string, unknown[]>, gets: Record<string, unknown> = {}): FakeClient {
  const calls: string[] = [];
  const stats: ClientStats = { requests: 0, retries: 0, byMethod: {} };
  const count = (method: string, path: string) => {
    calls.push(`${method} ${path}`);
    stats.requests++;
    stats.byMethod[method] = (stats.byMethod[method] ?? 0) + 1;
  };
  const client: FakeClient = {
    calls,
    async request<T>(method: HttpMethod, path: string): Promise<ApiResponse<T>> {
      count(method, path);
      if (!(path in gets)) throw new ApiError(method, path, 404, 'not found');
      const v = gets[path];
      if (typeof v === 'number') throw new ApiError(method, path, v, 'fake error');
      return { status: 200, headers: {}, body: v as T };
    },
    async *paginate<T>(path: string, query?: Query): AsyncIterable<T> {
      for (const item of await client.listAll<T>(path, query)) yield item;
    },
    async listAll<T>(path: string, query?: Query): Promise<T[]> {
      const q = Object.entries(query ?? {}).filter(([, v]) => v !== undefined);
      count('GET', q.length > 0 ? `${path}?${q.map(([k, v]) => `${k}=${String(v)}`).join('&')}` : path);
      if (!(path in lists)) throw new ApiError('GET', path, 404, 'not found');
      return structuredClone(lists[path]) as T[];
    },
    stats: () => structuredClone(stats),
    close: async () => {},
  };
  return client;
}
