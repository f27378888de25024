// Collects the exchanges of a run (from the emulator's `onExchange` callback, or from its
// `--log` file) and checks them all against the description at the end (docs/conformance.md).
import { readFile } from 'node:fs/promises';
import { ALLOWED_DIFFERENCES, isAllowed, type AllowEntry } from './allow.js';
import { createConformance, formatProblem, type Conformance, type ConformanceProblem, type Exchange } from './validator.js';

export interface ProblemCount {
  problem: ConformanceProblem;
  /** `METHOD /template` of the operation (the path itself for one the description lacks). */
  endpoint: string;
  /** The statuses of the exchanges that showed it, ascending. */
  statuses: number[];
  /** How many exchanges showed it. */
  count: number;
}

export interface CountOptions {
  /** Array indices in pointers become `*`, so `/items/0/x` and `/items/7/x` count as one. */
  collapseIndices?: boolean;
}

export interface RecorderSummary {
  exchanges: number;
  /** Distinct operations of the description the exchanges were routed to. */
  operations: number;
  /** Exchanges the description has no operation for. */
  unknown: number;
}

export interface Recorder {
  /** Bound: pass it as is, e.g. `startEmulator({ onExchange: recorder.record })`. */
  readonly record: (exchange: Exchange) => void;
  readonly exchanges: readonly Exchange[];
  /** Distinct problems, in order of first appearance. */
  problems(): ConformanceProblem[];
  /** Distinct problems with the number of exchanges that showed each. */
  problemCounts(options?: CountOptions): ProblemCount[];
  summary(): RecorderSummary;
}

export interface RecorderOptions {
  /** A validator to share between recorders (building one reads the 1.7 MB description). */
  conformance?: Conformance;
  /** Differences to leave out; the repository's allow-list by default. */
  allow?: readonly AllowEntry[];
}

export function createRecorder(options: RecorderOptions = {}): Recorder {
  const exchanges: Exchange[] = [];
  const allow = options.allow ?? ALLOWED_DIFFERENCES;
  // Built on first use, not when the recorder is made: a run that records nothing reads nothing.
  let conformance = options.conformance;
  const validator = () => (conformance ??= createConformance());

  const problemCounts = (countOptions: CountOptions = {}): ProblemCount[] => {
    const byKey = new Map<string, ProblemCount>();
    for (const exchange of exchanges) {
      const seen = new Set<string>();
      for (const raw of validator().check(exchange)) {
        if (isAllowed(raw, allow)) continue;
        const problem = countOptions.collapseIndices ? { ...raw, pointer: raw.pointer.replace(/\/\d+(?=\/|$)/g, '/*') } : raw;
        const key = formatProblem(problem);
        if (seen.has(key)) continue;
        seen.add(key);
        const entry = byKey.get(key);
        if (entry) {
          entry.count++;
          if (!entry.statuses.includes(exchange.status)) entry.statuses = [...entry.statuses, exchange.status].sort((a, b) => a - b);
        } else {
          const ref = validator().operationFor(exchange.method, exchange.path);
          const endpoint = ref ? `${ref.method} ${ref.template}` : problem.operation;
          byKey.set(key, { problem, endpoint, statuses: [exchange.status], count: 1 });
        }
      }
    }
    return [...byKey.values()];
  };

  return {
    record: (exchange: Exchange) => {
      exchanges.push(exchange);
    },
    exchanges,
    problems: () => problemCounts().map((c) => c.problem),
    problemCounts,
    summary: () => {
      const operations = new Set<string>();
      let unknown = 0;
      for (const e of exchanges) {
        const ref = validator().operationFor(e.method, e.path);
        if (ref) operations.add(ref.id);
        else unknown++;
      }
      return { exchanges: exchanges.length, operations: operations.size, unknown };
    },
  };
}

/**
 * The exchanges of an emulator log (`docplane emulator --log FILE`): one JSON object a line,
 * `{"method","path","requestBody","status","responseBody"}` and `fault` for injected faults.
 * A line that is not such an object is an error naming its line number.
 */
export async function readExchangeLog(file: string): Promise<Exchange[]> {
  const text = await readFile(file, 'utf8');
  const out: Exchange[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch (err) {
      throw new Error(`${file}:${i + 1}: not JSON: ${(err as Error).message}`);
    }
    if (!entry || typeof entry !== 'object' || typeof entry.method !== 'string' || typeof entry.path !== 'string' || typeof entry.status !== 'number') {
      throw new Error(`${file}:${i + 1}: not an exchange (method, path and status are required)`);
    }
    out.push({
      method: entry.method,
      path: entry.path,
      requestBody: entry.requestBody ?? undefined,
      status: entry.status,
      responseBody: entry.responseBody ?? undefined,
      ...(typeof entry.fault === 'string' ? { fault: entry.fault } : {}),
    });
  });
  return out;
}
