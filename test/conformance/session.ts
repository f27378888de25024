// The conformance check of one test file (docs/conformance.md, "Over the whole suite"): every
// exchange of every emulator the file starts, in process (through test/conformance/setup.ts) or as a
// CLI process (its `--log` file, given to `recordExchangeLog`), is checked after the file's tests.
import { isAllowed, ALLOWED_DIFFERENCES } from './allow.js';
import { readExchangeLog } from './recorder.js';
import { createConformance, type Conformance, type ConformanceProblem, type Exchange } from './validator.js';

/** Request header that takes one exchange out of the check: `x-conformance: skip`. */
export const CONFORMANCE_SKIP_HEADER = 'x-conformance';

/** Where a problem lies when the exchange was struck by a fault: the request side only. */
const REQUEST_SIDE: ReadonlySet<ConformanceProblem['where']> = new Set(['path', 'query', 'request']);

export interface CheckedProblem {
  problem: ConformanceProblem;
  exchange: Exchange;
}

export interface ConformanceSession {
  readonly exchanges: Exchange[];
  /** Set by `refusedRequestsExpected`: the file's exchanges answered 4xx are not checked. */
  refusedRequestsReason?: string;
}

// Test code, not src/: one session per test file. Files that share a worker's modules (vitest's
// `isolate: false`) share this one; test/conformance/setup.ts ends the session after each file.
const session: ConformanceSession = { exchanges: [] };

/** The description's validators, built once per worker: compiling them is most of a check's cost. */
let shared: Conformance | undefined;

export function conformanceSession(): ConformanceSession {
  return session;
}

/** Records one exchange (the emulator's `onExchange`, or a line of its log). */
export function recordExchange(exchange: Exchange): void {
  session.exchanges.push(exchange);
}

/** Records the exchanges of an emulator's `--log` file, for emulators run as a CLI process. */
export async function recordExchangeLog(file: string): Promise<number> {
  const exchanges = await readExchangeLog(file);
  session.exchanges.push(...exchanges);
  return exchanges.length;
}

/**
 * For a file whose tests send bad requests on purpose (test/emulator/*): its exchanges answered
 * 4xx are left out of the check; every other exchange (what the emulator accepted) is still checked.
 */
export function refusedRequestsExpected(reason: string): void {
  session.refusedRequestsReason = reason;
}

function skipped(exchange: Exchange): boolean {
  if (exchange.requestHeaders?.[CONFORMANCE_SKIP_HEADER] === 'skip') return true;
  return session.refusedRequestsReason !== undefined && exchange.status >= 400 && exchange.status < 500 && exchange.status !== 429;
}

/**
 * The live service answers its errors with the error body on every operation, though the
 * description documents 400, 401, 403, 404 on only some (the body is always
 * `{"error": {"code", "message"}}`). Such a status is not a problem when it comes with that body;
 * 409 and 412 (what a move that changes nothing answers) must be documented.
 */
const GENERIC_ERRORS: ReadonlySet<number> = new Set([400, 401, 403, 404, 405, 413]);

function isErrorBody(body: unknown, status: number): boolean {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error === 'object' && error !== null && error.code === status && typeof error.message === 'string';
}

function genericError(exchange: Exchange, problem: ConformanceProblem): boolean {
  return problem.where === 'status' && GENERIC_ERRORS.has(exchange.status) && isErrorBody(exchange.responseBody, exchange.status);
}

/** An injected fault, a reset or a 429: only the request is the operation's. */
function requestSideOnly(exchange: Exchange): boolean {
  return exchange.fault !== undefined || exchange.status === 0 || exchange.status === 429 || exchange.status >= 500;
}

export interface SessionResult {
  exchanges: number;
  checked: number;
  operations: string[];
  unknown: number;
  /** Exchanges with a problem the allow-list covers. */
  allowed: number;
  problems: CheckedProblem[];
}

/** Forgets the recorded exchanges and the file's settings: the next test file starts a new session. */
export function endSession(): void {
  session.exchanges.length = 0;
  delete session.refusedRequestsReason;
}

/** Checks every recorded exchange; distinct problems (by operation, part, pointer and message). */
export function checkSession(conformance?: Conformance): SessionResult {
  if (session.exchanges.length === 0) return { exchanges: 0, checked: 0, operations: [], unknown: 0, allowed: 0, problems: [] };
  const check = conformance ?? (shared ??= createConformance());
  const operations = new Set<string>();
  const seen = new Set<string>();
  const problems: CheckedProblem[] = [];
  let checked = 0;
  let unknown = 0;
  let allowed = 0;
  for (const exchange of session.exchanges) {
    if (skipped(exchange)) continue;
    checked++;
    const ref = check.operationFor(exchange.method, exchange.path);
    if (ref) operations.add(ref.id);
    else unknown++;
    let sawAllowed = false;
    for (const problem of check.check(exchange)) {
      if (requestSideOnly(exchange) && !REQUEST_SIDE.has(problem.where)) continue;
      if (genericError(exchange, problem)) continue;
      if (isAllowed(problem, ALLOWED_DIFFERENCES)) {
        sawAllowed = true;
        continue;
      }
      const key = `${problem.operation} ${problem.where} ${problem.pointer.replace(/\/\d+(?=\/|$)/g, '/*')} ${problem.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push({ problem, exchange });
    }
    if (sawAllowed) allowed++;
  }
  return { exchanges: session.exchanges.length, checked, operations: [...operations].sort(), unknown, allowed, problems };
}
