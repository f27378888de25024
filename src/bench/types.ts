/** What the benchmark measures and reports: its options, each scenario's result, the targets. */
import type { CpuMeasure } from './cpu.js';
import type { WorldCounts } from './generate.js';
import type { Formula } from './least.js';

export interface BenchOptions {
  /** The repository root (bin/run.js, dist/). */
  root: string;
  scale: number;
  seed: number;
  latencyMs: number;
  concurrency: number;
  /** Scale of the CPU measure of validate + diff (5 by default); 0 leaves it out. */
  cpuScale: number;
  /** Where the JSON results go. */
  outFile: string;
  /** CPU profiles of each CLI run go here (`node --cpu-prof`). */
  profileDir?: string;
  /** The rate-limited apply's limit: `N` per second or `N/Ss`; undefined or '0' leaves it out. */
  rateLimit?: string;
  /** Fault seeds of the faults scenario (0 leaves it out). */
  faultSeeds?: number;
  /** Scale of the memory scenario (0 leaves it out). */
  memoryScale?: number;
  log: (line: string) => void;
}

export interface ScenarioResult {
  name: string;
  /** Requests the emulator received during the CLI run. */
  requests: number;
  least: number;
  leastFormula: Formula[];
  wallMs: number;
  idealMs: number;
  /** How the ideal was made: round trips per phase. */
  idealRoundTrips: number;
  maxRssMiB?: number;
  cpuMs?: number;
  /** CPU of the emulator (this process) during the run. */
  emulatorCpuMs: number;
  /** The per-resource approach on the same world: one GET per managed resource, 10 at a time. */
  perResource?: { requests: number; estimatedMs: number };
  /** What the scenario checked of the outcome (exit code, steps found, …). */
  check: { ok: boolean; detail: string };
  /** Where the CLI run's wall went: when its first request left, its last answer came in, it began to exit. */
  timeline?: Timeline;
  /**
   * The wall under a window rate limit (`limit` requests per `windowSeconds`), computed from the
   * requests and from the least: a window's worth at once, then one more window per window's worth.
   */
  windowed?: { limit: number; windowSeconds: number; ms: number; leastMs: number };
}

/** Milliseconds from the CLI process's start (performance's time origin, inside the process). */
export interface Timeline {
  firstRequestMs: number;
  lastAnswerMs: number;
  exitEventMs: number;
}

export interface Target {
  name: string;
  value: string;
  limit: string;
  pass: boolean | undefined;
  note?: string;
}

export interface BenchReport {
  toolVersion: string;
  date: string;
  node: string;
  machine: { cpus: number; loadAverage: number[] };
  options: Omit<BenchOptions, 'log' | 'root' | 'outFile' | 'profileDir'>;
  /** The rate-limited apply: 429s answered. */
  rateLimited?: { requests: number; limited: number; scenario: string };
  faults?: FaultOutcome;
  counts: WorldCounts;
  startup: { wallMs: number; cpuMs?: number; maxRssMiB?: number; runs: number[] };
  scenarios: ScenarioResult[];
  cpu?: CpuMeasure;
  targets: Target[];
}

export interface FaultOutcome {
  seeds: number;
  failedApplies: number;
  failedPlans: number;
  duplicates: number;
}
