/**
 * The read layer of one plan or import: every GET it sends goes through one memo keyed by the
 * request (path and query), so that two narrowing passes, two kinds, or a reference check and a
 * kind that need the same list get one answer from one request, whatever key their `ctx.shared`
 * uses and however often a narrowed plan widens.
 *
 * A write (any other method) through the same client forgets every answer: what was read before it
 * may have changed. A GET that failed is forgotten too, so that a later read may try it again.
 */
import type { ApiClient, ApiResponse, HttpMethod, ListOptions, Query, RequestOptions } from '../api/types.js';

/** The memo's key of a request: the path and its query, in the order of the query's names. */
function requestKey(kind: 'request' | 'list', path: string, query: Query | undefined): string {
  const entries = Object.entries(query ?? {})
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${kind} ${path}?${entries.map(([k, v]) => `${k}=${String(v)}`).join('&')}`;
}

export interface ReadLayer {
  /** The client whose GETs are sent once each. */
  client: ApiClient;
  /** GETs answered from the memo instead of sent (tests, the bench). */
  saved(): number;
}

/**
 * `client` with its GETs made once: a request or a list read again gets the first one's answer
 * (the same promise, the same objects: a reader never changes what it was answered). `paginate`
 * is left as it is: its callers stop early, and what they do not read is not kept.
 */
export function readOnce(client: ApiClient): ReadLayer {
  const memo = new Map<string, Promise<unknown>>();
  let saved = 0;
  const remember = <T>(k: string, send: () => Promise<T>): Promise<T> => {
    const had = memo.get(k);
    if (had !== undefined) {
      saved++;
      return had as Promise<T>;
    }
    const sent = send();
    memo.set(k, sent);
    sent.catch(() => {
      if (memo.get(k) === sent) memo.delete(k);
    });
    return sent;
  };
  const layered: ApiClient = {
    request<T = unknown>(method: HttpMethod, path: string, options?: RequestOptions): Promise<ApiResponse<T>> {
      // A GET with a body or a signal of its own is the caller's own exchange: sent as asked.
      if (method !== 'GET' || options?.body !== undefined || options?.signal !== undefined) {
        if (method !== 'GET') memo.clear();
        return client.request<T>(method, path, options);
      }
      return remember(requestKey('request', path, options?.query), () => client.request<T>(method, path, options));
    },
    paginate<T = unknown>(path: string, query?: Query, options?: ListOptions): AsyncIterable<T> {
      return client.paginate<T>(path, query, options);
    },
    listAll<T = unknown>(path: string, query?: Query, options?: ListOptions): Promise<T[]> {
      return remember(requestKey('list', path, query), () => client.listAll<T>(path, query, options));
    },
    stats: () => client.stats(),
    close: () => client.close(),
    ...(client.conceal ? { conceal: client.conceal.bind(client) } : {}),
    ...(client.concealed ? { concealed: client.concealed.bind(client) } : {}),
  };
  return { client: layered, saved: () => saved };
}
