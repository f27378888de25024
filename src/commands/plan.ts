import { Flags } from '@oclif/core';
import { clientFromFlags } from '../cli/api.js';
import { BaseCommand, commonFlags, configFlag } from '../cli/base.js';
import { createReadProgress } from '../cli/progress.js';
import { DocplaneError, ExitCode } from '../core/errors.js';
import { writePlanFile } from '../plan/file.js';
import { assertNoProblems } from '../plan/refusal.js';
import { runPlan } from '../plan/service.js';
import { renderPlan, type PlanFormat } from '../render/index.js';
import { sizeHeapForLongRun } from '../cli/heap.js';

export default class Plan extends BaseCommand {
  static override summary = 'Show what would change to make the organizations match the config';
  static override description =
    'Reads the current state of every organization the config names, compares it with the config and prints the ordered steps. ' +
    'Nothing is changed. With --out, the plan is saved (without secret values) for `docplane apply PLANFILE`.';

  static override examples = [
    '<%= config.bin %> plan',
    '<%= config.bin %> plan -c docplane/ --format markdown',
    '<%= config.bin %> plan --detailed-exitcode --out plan.json',
    '<%= config.bin %> plan --detailed-exitcode --unmanaged-is-drift',
    `<%= config.bin %> plan --target 'teams["Engineering"]' --target 'sites["site_docs"]'`,
    '<%= config.bin %> plan --base origin/main --format markdown --out plan.json',
    '<%= config.bin %> plan --since 70m --detailed-exitcode --format markdown',
  ];

  static override flags = {
    ...commonFlags,
    ...configFlag,
    format: Flags.string({ description: 'Output format', options: ['text', 'json', 'markdown'], default: 'text' }),
    out: Flags.string({ description: 'Save the plan to this file (for `docplane apply FILE`)' }),
    'detailed-exitcode': Flags.boolean({ description: 'Exit 2 when the plan has changes, 0 when it has none', default: false }),
    'unmanaged-is-drift': Flags.boolean({
      description: 'With --detailed-exitcode: exit 2 also when remote resources the config does not mention exist (drift jobs on an imported config)',
      default: false,
      dependsOn: ['detailed-exitcode'],
    }),
    target: Flags.string({ description: 'Limit the plan to this address (exact, glob with *, or prefix) and what it needs; repeatable', multiple: true }),
    base: Flags.string({
      description:
        "The config as the pull request's base has it: a path (file or folder) or a git revision (origin/main). Reads only what changed since; drift on unchanged entries is not shown",
      exclusive: ['target'],
    }),
    since: Flags.string({
      description:
        'A drift check: read the audit log since this time (RFC 3339, or a duration such as 70m or 7d) and only what its events touch; reads everything, saying why, when the log cannot tell',
      exclusive: ['target', 'base'],
    }),
    attribute: Flags.string({
      description: 'When the plan has changes, name who made each one from the audit log this far back (a duration such as 7d, or an RFC 3339 time); --since always does',
    }),
    'source-url': Flags.string({
      description:
        "Markdown: link each config entry's file:line to URL/FILE#LLINE, such as https://github.com/OWNER/REPO/blob/COMMIT (the action gives the pull request's head commit)",
      env: 'DOCPLANE_SOURCE_URL',
    }),
    replace: Flags.string({ description: 'Publish or update this resource even when nothing comparable differs (for what the API cannot read back: integration scripts and secrets, certificates); repeatable', multiple: true }),
  };

  async run(): Promise<void> {
    // A plan reads thousands of lists and holds what they answer: V8's heap sized as an apply's (src/cli/heap.ts).
    sizeHeapForLongRun();
    const { flags } = await this.parse(Plan);
    const sourceUrl = flags['source-url'];
    if (sourceUrl !== undefined && !/^https?:\/\/[^\s"'<>]+$/.test(sourceUrl)) {
      throw new DocplaneError('BAD_SOURCE_URL', `--source-url ${JSON.stringify(sourceUrl)} is not an http or https URL`, {
        hint: "Give the config files' home on the web, such as https://github.com/OWNER/REPO/blob/COMMIT.",
      });
    }
    const { plan, secrets, locations } = await runPlan({
      configPath: flags.config,
      toolVersion: this.config.version,
      targets: flags.target,
      replace: flags.replace,
      base: flags.base,
      since: flags.since,
      attribute: flags.attribute,
      connect: (apiUrl, secrets) => clientFromFlags(flags, apiUrl, undefined, secrets),
      // --verbose logs every request: no spinner over it.
      progress: createReadProgress({ stream: process.stderr, interactive: process.stderr.isTTY === true && !flags.verbose }),
    });
    const format = flags.format as PlanFormat;
    // Markdown names each config entry's file:line; --verbose adds under each step why it exists
    // (its config entry, the rules on it).
    const where = format === 'markdown' || flags.verbose ? { locations, why: flags.verbose } : {};
    const color = format === 'text' && this.colorEnabled(flags['no-color']);
    process.stdout.write(`${renderPlan(plan, { format, color, secrets, ...where, ...(sourceUrl !== undefined ? { sourceUrl } : {}) })}\n`);
    assertNoProblems(plan, { for: 'plan' });
    if (flags.out) {
      writePlanFile(plan, secrets, flags.out);
      process.stderr.write(`Saved the plan to ${flags.out}: docplane apply ${flags.out} applies it (refused if the config or the organization changes first).\n`);
    }
    // A twin of a managed resource (two applies at once) is drift too: the config's key names two.
    const drift = plan.steps.length > 0 || (plan.duplicates?.length ?? 0) > 0 || (flags['unmanaged-is-drift'] && plan.summary.unmanaged > 0);
    if (flags['detailed-exitcode'] && drift) process.exitCode = ExitCode.changes;
  }
}
