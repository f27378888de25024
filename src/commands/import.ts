import { Flags } from '@oclif/core';
import { clientFromFlags } from '../cli/api.js';
import { BaseCommand, commonFlags } from '../cli/base.js';
import { runImport, type ImportResult } from '../import/run.js';
import { renderImportJson } from '../render/import.js';
import { sizeHeapForLongRun } from '../cli/heap.js';

export default class Import extends BaseCommand {
  static override summary = "Write organizations' current state as a config that plans no changes";
  static override description =
    'Reads everything the config format can express of each organization (every site, unless --site narrows it to some) ' +
    'and writes it as config. Layout of the --out folder: <org id>.yaml per organization; certs/ for certificates and ' +
    'integrations/ for integration scripts, which the YAML references with ${file:…}; docplane.schema.json, which the first ' +
    'line of each YAML file points to. The output is deterministic: ids are written (renames plan as updates), members by ' +
    'email, lists sorted, nothing pruned. The API returns no integration scripts and no secrets: a note at the end lists ' +
    'what to fill in. A folder that is not empty is refused unless --force (which replaces the files import writes and ' +
    'leaves the rest, and keeps an integration script that is no longer the stub). With --out -, the YAML goes to stdout.';

  static override examples = [
    '<%= config.bin %> import --org org_acme',
    '<%= config.bin %> import --org org_acme --site site_docs',
    '<%= config.bin %> import --org org_acme --org org_globex --out docplane/ --force',
    '<%= config.bin %> import --org org_acme --out - > acme.yaml',
  ];

  static override flags = {
    ...commonFlags,
    // Checked by runImport rather than by oclif, for a one-line message.
    org: Flags.string({ description: 'Organization to import (required); repeatable', multiple: true }),
    site: Flags.string({ description: 'Only this site (every site when absent), as SITE or ORG/SITE; repeatable', multiple: true }),
    out: Flags.string({ description: 'Folder to write, or - for stdout', default: 'docplane' }),
    force: Flags.boolean({ description: 'Write into a folder that is not empty (replacing the files import writes; every top-level entry of a replaced <org>.yaml that import does not write, such as prune, safety, protect and policies, is kept)', default: false }),
    format: Flags.string({ description: 'Format of the report on stdout (json: one document; the YAML of --out - is in it)', options: ['text', 'json'], default: 'text' }),
  };

  async run(): Promise<void> {
    // An import reads every resource of the organization: V8's heap sized as an apply's (src/cli/heap.ts).
    sizeHeapForLongRun();
    const { flags } = await this.parse(Import);
    const result = await runImport({
      orgs: flags.org ?? [],
      sites: flags.site,
      out: flags.out,
      force: flags.force,
      connect: () => clientFromFlags(flags),
    });
    if (flags.format === 'json') {
      process.stdout.write(`${renderImportJson(result, flags.out)}\n`);
      return;
    }
    if (result.stream !== undefined) process.stdout.write(result.stream);
    else process.stdout.write(summary(result, flags.out));
    const notes = notesOf(result);
    if (notes.length > 0) process.stderr.write(`${notes.join('\n')}\n`);
  }
}

function summary(result: ImportResult, out: string): string {
  const lines = result.orgs.map((o) => {
    const parts = o.counts.filter((c) => c.n > 0).map((c) => `${c.n} ${c.n === 1 ? c.one : c.many}`);
    return `Imported ${o.org}: ${parts.length > 0 ? parts.join(', ') : 'settings only'}`;
  });
  const folder = out.replace(/\/+$/, '') || '.';
  lines.push(`Wrote ${result.written.map((f) => `${folder}/${f}`).join(', ')}`);
  for (const k of result.kept) lines.push(`Kept ${k.keys.join(', ')} of the ${folder}/${k.file} it replaced`);
  lines.push(`Next: docplane plan -c ${folder} (it should show no changes)`);
  return `${lines.join('\n')}\n`;
}

/** The note on stderr: what to fill in, what was not written, what the config could not say. */
function notesOf(result: ImportResult): string[] {
  const lines: string[] = [];
  if (result.notWritten.length > 0) {
    lines.push('Not written:');
    for (const n of result.notWritten) lines.push(`  ${n.file}: ${n.reason}`);
  }
  if (result.warnings.length > 0) {
    lines.push('Could not be imported as it is:');
    for (const w of result.warnings) lines.push(`  ${w}`);
  }
  if (result.todo.length > 0) {
    lines.push('To fill in by hand:');
    for (const t of result.todo) lines.push(`  ${t}`);
  }
  return lines;
}
