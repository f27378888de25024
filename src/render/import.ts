/** `docplane import --format json`: the report as one JSON document (docs/import.md describes it). */
import type { ImportResult } from '../import/run.js';

/** 2-space JSON, no trailing newline. With `--out -` the YAML is in `yaml` and `dir` is absent. */
export function renderImportJson(result: ImportResult, out: string): string {
  const document = {
    formatVersion: 1,
    out,
    ...(result.dir !== undefined ? { dir: result.dir } : {}),
    orgs: result.orgs.map((o) => ({ org: o.org, counts: Object.fromEntries(o.counts.map((c) => [c.many, c.n])) })),
    written: [...result.written],
    notWritten: result.notWritten.map((n) => ({ file: n.file, reason: n.reason })),
    kept: result.kept.map((k) => ({ org: k.org, file: k.file, keys: [...k.keys] })),
    warnings: [...result.warnings],
    todo: [...result.todo],
    ...(result.stream !== undefined ? { yaml: result.stream } : {}),
  };
  return JSON.stringify(document, null, 2);
}
