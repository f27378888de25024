/**
 * The benchmark's table and target lines, as plain text (pasted as is into docs/benchmarks.md).
 */
import type { BenchReport, ScenarioResult } from './types.js';

const s = (ms: number) => (ms / 1000).toFixed(2);
const minutes = (ms: number) => (ms < 60_000 ? `${(ms / 1000).toFixed(0)} s` : `${(ms / 60_000).toFixed(1)} min`);

/**
 * Where a run's wall went, against its ideal (start-up + round trips × latency): the CLI's own work
 * before its first request (the ideal counts `--version`'s start-up for it), the requests from the
 * first sent to the last answered, the work after the last answer, and the exit (from the `exit`
 * event until the parent saw the process end, with the few ms before the process's time origin).
 */
export function wallParts(x: ScenarioResult, startupMs: number) {
  const t = x.timeline;
  if (!t || !(x.idealMs > 0)) return undefined;
  return {
    beforeMs: t.firstRequestMs,
    requestsMs: t.lastAnswerMs - t.firstRequestMs,
    idealRequestsMs: x.idealMs - startupMs,
    afterMs: t.exitEventMs - t.lastAnswerMs,
    exitMs: x.wallMs - t.exitEventMs,
  };
}

/** The parts of a run's wall in one line (a wall target's note). */
export function wallNote(x: ScenarioResult, startupMs: number): string | undefined {
  const p = wallParts(x, startupMs);
  if (!p) return undefined;
  return (
    `first request after ${s(p.beforeMs)} s (start-up ${s(startupMs)} s), requests ${s(p.requestsMs)} s (ideal ${s(p.idealRequestsMs)} s), ` +
    `${s(p.afterMs)} s after the last answer, ${s(p.exitMs)} s of exit`
  );
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

export function formatReport(report: BenchReport): string {
  const o = report.options;
  const out: string[] = [];
  out.push(
    `docplane ${report.toolVersion} · node ${report.node} · ${report.machine.cpus} CPUs (load ${report.machine.loadAverage.join(' ')}) · ` +
      `scale ${o.scale}, seed ${o.seed}, latency ${o.latencyMs} ms, --concurrency ${o.concurrency}`,
  );
  out.push(`start-up: docplane --version ${s(report.startup.wallMs)} s wall (median of ${report.startup.runs.length}), ${s(report.startup.cpuMs ?? 0)} s CPU`);
  out.push('');
  out.push(
    ...table(
      ['scenario', 'requests', 'least', '×least', 'wall s', 'ideal s', '×ideal', 'peak MiB', 'CPU s', 'emu CPU s', 'check'],
      report.scenarios.map((x) => [
        x.name,
        String(x.requests),
        String(x.least),
        (x.requests / x.least).toFixed(3),
        s(x.wallMs),
        x.idealMs > 0 ? s(x.idealMs) : '-',
        x.idealMs > 0 ? (x.wallMs / x.idealMs).toFixed(2) : '-',
        x.maxRssMiB === undefined ? '?' : x.maxRssMiB.toFixed(0),
        x.cpuMs === undefined ? '?' : s(x.cpuMs),
        s(x.emulatorCpuMs),
        `${x.check.ok ? 'ok' : 'WRONG'}: ${x.check.detail}`,
      ]),
    ),
  );
  out.push('');
  out.push('per-resource approach (one GET per managed resource, 10 at a time), same world and latency:');
  out.push(
    ...table(
      ['scenario', 'requests', 'est. wall s', 'docplane requests', 'docplane wall s', 'requests saved'],
      report.scenarios
        .filter((x) => x.perResource)
        .map((x) => [
          x.name,
          String(x.perResource!.requests),
          s(x.perResource!.estimatedMs),
          String(x.requests),
          s(x.wallMs),
          `${(x.perResource!.requests / x.requests).toFixed(1)} ×`,
        ]),
    ),
  );
  const timed = report.scenarios.filter((x) => wallParts(x, report.startup.wallMs));
  if (timed.length > 0) {
    out.push('');
    out.push(`where the wall goes (s): the ideal is start-up (${s(report.startup.wallMs)}) + requests' round trips × latency`);
    out.push(
      ...table(
        ['scenario', 'wall', 'ideal', 'before 1st request', 'requests', 'ideal requests', 'after last answer', 'exit'],
        timed.map((x) => {
          const p = wallParts(x, report.startup.wallMs)!;
          return [x.name, s(x.wallMs), s(x.idealMs), s(p.beforeMs), s(p.requestsMs), s(p.idealRequestsMs), s(p.afterMs), s(p.exitMs)];
        }),
      ),
    );
  }
  if (report.cpu) {
    const c = report.cpu;
    out.push('');
    out.push(
      `validate + diff, scale ${c.scale} (${c.resources} managed resources, ${c.steps} steps): ${s(c.coldMs)} s CPU cold ` +
        `(validate ${s(c.validateMs)} s, diff ${s(c.diffMs)} s; the YAML parse alone, warm: ${s(c.yamlMs)} s), ${s(c.warmMs)} s warm`,
    );
  }
  out.push('');
  out.push('targets:');
  for (const t of report.targets) {
    const mark = t.pass === undefined ? 'n/a ' : t.pass ? 'pass' : 'MISS';
    out.push(`  ${mark}  ${t.name}: ${t.value} (limit ${t.limit})${t.note ? ` — ${t.note}` : ''}`);
  }
  return out.join('\n');
}

/** The formulas of the least counts, one line per term (for the docs and --verbose). */
export function formatFormulas(report: BenchReport): string {
  const out: string[] = [];
  for (const x of report.scenarios) {
    out.push(`${x.name}: least ${x.least} = ${x.leastFormula.map((f) => f.total).join(' + ')}; ideal ${x.idealRoundTrips} round trips × ${report.options.latencyMs} ms + start-up`);
    for (const f of x.leastFormula) for (const t of f.terms) out.push(`    ${String(t.n).padStart(6)}  ${t.what}`);
    const w = x.windowed;
    if (w) out.push(`    at ${w.limit} per ${w.windowSeconds} s: ${x.requests} requests wait ${minutes(w.ms)} (the least, ${x.least}: ${minutes(w.leastMs)})`);
  }
  return out.join('\n');
}
