/** The contract between docplane and the platform API client (implemented in client.ts). */

import type { z } from 'zod';
import type { Secret, SecretRegistry } from '../core/secrets.js';
import type { HttpMethod } from '../model/step.js';
import type { Clock } from './clock.js';

export type { HttpMethod } from '../model/step.js';

export type QueryValue = string | number | boolean | undefined;
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  query?: Query;
  /** JSON-serialisable request body. */
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * Whether the client may retry on network errors, 5xx and 429. Defaults to true for GET, PUT, PATCH
   * and DELETE and false for POST: a create is never blindly retried (apply looks it up first).
   */
  retry?: boolean;
  signal?: AbortSignal;
  /**
   * Requests waiting for a connection go highest priority first, then in the order they came
   * (default 0). The client gives a list's later pages 1: a list is a chain of requests.
   */
  priority?: number;
  /**
   * The fields of a 2xx body the caller relies on: a body that does not match is an API error
   * ("GET PATH answered 200 with an unexpected body: id: missing"), never a failure further in.
   */
  schema?: z.ZodType;
}

/** How a list's items are checked and kept. */
export interface ListOptions {
  /**
   * The schema of one item (see RequestOptions.schema). What the list answers is each item as the
   * schema parses it: a `z.looseObject` keeps every field, a `z.object` only the fields it names
   * (so a list of thousands keeps what docplane reads of each item, not the whole answer).
   */
  schema?: z.ZodType;
}

export interface ApiResponse<T = unknown> {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined for an empty body (204, 205). */
  body: T;
}

/** The list envelope of the API: `items` always, `next.page` and `count` maybe. */
export interface ListEnvelope<T> {
  items: T[];
  next?: { page?: string } | null;
  count?: number;
}

export interface ClientStats {
  /** Requests sent, retries included. */
  requests: number;
  retries: number;
  /** Answers that were 429 (rate limited). */
  rateLimited?: number;
  /** Requests per method. */
  byMethod: Record<string, number>;
  /** What the client is waiting for now, when it is waiting on the server (for the progress line). */
  waiting?: string;
}

export interface ApiClient {
  /** One request; throws ApiError for a non-2xx answer or when no answer came after the retries. */
  request<T = unknown>(method: HttpMethod, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Every item of a list, page after page (`limit=1000`, following `next.page`). */
  paginate<T = unknown>(path: string, query?: Query, options?: ListOptions): AsyncIterable<T>;
  /** paginate, collected. */
  listAll<T = unknown>(path: string, query?: Query, options?: ListOptions): Promise<T[]>;
  stats(): ClientStats;
  /**
   * Makes a value the API answered a secret of this run (an id that is itself a credential: whoever
   * holds it gets in): the client's log lines and errors show it as `(sensitive)`, as
   * they hide the token, and `concealed()` hands it to the renderings and the plan file's
   * placeholders. Optional: a test double that never meets such a value may leave both out.
   */
  conceal?(secret: Secret): void;
  /** The secrets concealed so far, in the order they came. */
  concealed?(): Secret[];
  /** Lets the connections go once the requests in flight are answered; a request still waiting to be sent or retried fails at once (`API_ABORTED`). */
  close(): Promise<void>;
}

export interface ClientOptions {
  /** Base URL such as http://127.0.0.1:4010 (a trailing /v1 is accepted). */
  baseUrl: string;
  token: string;
  /**
   * The run's secrets, which the client asks when it masks a log line or an error, and where it puts
   * what it conceals; a registry of its own when the caller has none (a run without a config).
   */
  secrets?: SecretRegistry;
  /** Per-request timeout in milliseconds, from the send to the last byte of the answer (default 30000). */
  timeoutMs?: number;
  /** Timeout of making a connection, in milliseconds (default the smaller of timeoutMs and 10000). */
  connectTimeoutMs?: number;
  /** Largest answer body read, in bytes (default 32 MiB): a longer one fails the request. */
  maxAnswerBytes?: number;
  /** Pages read of one list at most (default 1000): a list whose every page names a next page ends with an error naming it. */
  maxListPages?: number;
  /** Items read of one list at most (default 200000), counted before they are checked or kept. */
  maxListItems?: number;
  /**
   * How long a host that lets requests time out may stay silent before the client gives up on it,
   * in milliseconds (default 1.5 × timeoutMs); three timeouts in a row without an answer give up too.
   */
  silenceLimitMs?: number;
  /** Attempts for a retryable request, the first included; 429s are not counted (default 8). */
  maxAttempts?: number;
  /** Ceiling on request rate, requests per second; undefined for none. */
  maxRps?: number;
  /** Connections kept open to the API (default 16). */
  connections?: number;
  /** Called with one line per exchange for --verbose; never given the token. */
  log?: (line: string) => void;
  /** Base of the backoff in milliseconds (default 200); tests make it small. */
  backoffBaseMs?: number;
  /**
   * Longest wait the server may ask for (Retry-After, a rate limit's reset), in milliseconds
   * (default 300000): a longer one ends every request of the client with a line saying what was asked.
   */
  maxWaitMs?: number;
  /** Upper bound of one backoff wait after a failure, in milliseconds (default 5000). */
  backoffCapMs?: number;
  /** 429s a request waits out before it fails (default 30). */
  maxRateLimitWaits?: number;
  /** What the waits (backoffs, pauses a 429 asks for, a window's reset) are measured in (default the system's clock); tests give a virtual one. */
  clock?: Clock;
}
