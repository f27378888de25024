// The conformance report of an exchange log, grouped by operation (docs/conformance.md).
import type { ProblemCount, RecorderSummary } from './recorder.js';

/** Plain text: a summary line, then per operation its distinct problems with statuses and counts (exchanges). */
export function renderReport(counts: readonly ProblemCount[], summary: RecorderSummary): string {
  const lines = [`${summary.exchanges} exchanges, ${summary.operations} operations, ${summary.unknown} not in the description; ${counts.length} distinct problems`];
  const byOperation = new Map<string, ProblemCount[]>();
  for (const c of counts) {
    const list = byOperation.get(c.problem.operation) ?? [];
    list.push(c);
    byOperation.set(c.problem.operation, list);
  }
  for (const operation of [...byOperation.keys()].sort()) {
    const list = byOperation.get(operation)!;
    lines.push('', `${operation} (${list[0].endpoint})`);
    for (const { problem, statuses, count } of list) {
      lines.push(`  ${statuses.join('/')} ${problem.where} ${problem.pointer || '(root)'}: ${problem.message}  ×${count}`);
    }
  }
  return lines.join('\n');
}
