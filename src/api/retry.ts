/**
 * The client's retry policy as pure functions: which failures are worth another attempt, how long
 * to wait before it, and what the API's rate-limit headers ask for. Kept apart from the transport so
 * that the arithmetic can be tested without a server.
 */

/** Response headers with lower-cased names, as ApiResponse carries them. */
export type Headers = Record<string, string>;

/** Statuses that say "try again later" rather than "this request is wrong". */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * Exponential backoff with full jitter: a random wait in [0, base·2^(attempt-1)], capped. `attempt` is
 * the number of the attempt that just failed (1 for the first).
 */
export function backoffDelay(attempt: number, baseMs: number, maxWaitMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxWaitMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** `Retry-After` in milliseconds from now: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * `X-RateLimit-Reset` in milliseconds from now. Services disagree on its unit: small values are a
 * number of seconds to wait, values that look like a Unix time are epoch seconds (or epoch
 * milliseconds when very large).
 */
export function parseRateLimitReset(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  const n = Number(text);
  if (n < 1e9) return Math.round(n * 1000);
  const at = n < 1e12 ? n * 1000 : n;
  return Math.max(0, Math.round(at - now));
}

/**
 * How long a failed answer asks us to wait, if it says so: `Retry-After` (on 429 and 503), else on a
 * 429 the time until `X-RateLimit-Reset`. Undefined means "use the backoff".
 */
export function requestedWait(status: number, headers: Headers, now: number): number | undefined {
  if (status !== 429 && status !== 503) return undefined;
  const retryAfter = parseRetryAfter(headers['retry-after'], now);
  if (retryAfter !== undefined) return retryAfter;
  if (status === 429) return parseRateLimitReset(headers['x-ratelimit-reset'], now);
  return undefined;
}

/**
 * When an answer says the allowance is spent (`X-RateLimit-Remaining: 0`), the time until it is
 * renewed: later requests wait that long instead of running into 429s.
 */
export function exhaustedFor(headers: Headers, now: number): number | undefined {
  const remaining = headers['x-ratelimit-remaining'];
  if (remaining === undefined || remaining.trim() !== '0') return undefined;
  return parseRateLimitReset(headers['x-ratelimit-reset'], now);
}

/**
 * What a failed answer asked for, in the server's own terms, for the line that refuses to wait:
 * `Retry-After: 36000` or `X-RateLimit-Reset: 1767225600`.
 */
export function describeAskedWait(status: number, headers: Headers): string {
  const retryAfter = headers['retry-after']?.trim();
  if ((status === 429 || status === 503) && retryAfter && parseRetryAfter(retryAfter, 0) !== undefined) return `Retry-After: ${retryAfter.slice(0, 40)}`;
  return `X-RateLimit-Reset: ${(headers['x-ratelimit-reset'] ?? '').trim().slice(0, 40)}`;
}

/** A network failure (or an answer refused before it was read whole), described for people and classified for the retry loop. */
export interface NetworkFailure {
  description: string;
  retryable: boolean;
  /** No answer came in time (connect, headers or body): what the client's breaker counts. */
  timedOut?: boolean;
  /** The status, when the answer began before it was refused (too large). */
  status?: number;
  /** The error's code, when it is not the one its status would give. */
  code?: string;
}

const TLS_CODE = /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/**
 * What went wrong when no answer came. Only the error's code and a known wording are used, so that
 * nothing from the request (headers, token) can leak through an error's own message.
 */
export function describeNetworkError(err: unknown, timeoutMs: number): NetworkFailure {
  const code = errorCode(err);
  const message = err instanceof Error ? err.message : '';
  switch (code) {
    case 'ECONNRESET':
      return { description: 'connection reset', retryable: true };
    case 'EPIPE':
      return { description: 'connection closed while sending', retryable: true };
    case 'UND_ERR_SOCKET':
      // undici's "other side closed" and friends: the server dropped the connection.
      return { description: /reset/i.test(message) ? 'connection reset' : 'connection closed by the server', retryable: true };
    case 'ECONNREFUSED':
      return { description: 'connection refused', retryable: true };
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { description: 'timed out connecting', retryable: true, timedOut: true };
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return { description: `timed out after ${timeoutMs} ms`, retryable: true, timedOut: true };
    case 'EAI_AGAIN':
      return { description: 'host name lookup failed (temporary)', retryable: true };
    case 'ENOTFOUND':
      return { description: 'host not found', retryable: false };
    case 'UND_ERR_CLOSED':
    case 'UND_ERR_DESTROYED':
      return { description: 'the client was closed', retryable: false };
    case 'UND_ERR_INVALID_ARG':
      return { description: 'the request could not be sent (invalid argument)', retryable: false };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { description: 'host unreachable', retryable: true };
    default:
      break;
  }
  if (code && TLS_CODE.test(code)) return { description: `TLS failure (${code})`, retryable: false };
  if (code && code.startsWith('UND_ERR_')) return { description: `request failed (${code})`, retryable: true };
  if (code) return { description: `network error (${code})`, retryable: true };
  return { description: 'network error', retryable: true };
}

function errorCode(err: unknown): string | undefined {
  // The interesting code may sit on the error or on its cause (undici wraps socket errors).
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR') return code;
  }
  return undefined;
}

/**
 * Waits `ms` milliseconds, or less when `signal` aborts: it then resolves early rather than
 * rejecting, and the caller decides what the abort means (apply's next send refuses).
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
