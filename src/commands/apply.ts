import { createInterface } from 'node:readline/promises';
import { Args, Flags } from '@oclif/core';
import { outcomeError, runApply, shownPaths, type ApplyNotice } from '../apply/run.js';
import { renderApplySummary } from '../apply/summary.js';
import { clientFromFlags } from '../cli/api.js';
import { BaseCommand, commonFlags, configFlag } from '../cli/base.js';
import { sizeHeapForLongRun } from '../cli/heap.js';
import { renderPlan, summaryLine } from '../render/index.js';

export default class Apply extends BaseCommand {
  static override summary = 'Apply the changes of a plan to the organizations';
  static override description =
    'Without PLANFILE: plan, show the plan, ask for confirmation (on a terminal; elsewhere --auto-approve is needed), then apply. ' +
    'With PLANFILE (from `docplane plan --out`): apply exactly its reviewed steps, derived again from the config (-c, or ./docplane.yaml, else ./docplane/, as plan finds it) and the organization; ' +
    'refuse it, sending nothing, when it differs from them, when the config, the docplane version or the remote state changed since, or when its --target or --replace is not given to apply too. ' +
    'Afterwards, plan the touched resources again and say whether the apply converged.';

  static override examples = [
    '<%= config.bin %> apply -c docplane.yaml',
    '<%= config.bin %> apply --auto-approve',
    '<%= config.bin %> apply plan.json',
  ];

  static override args = {
    planfile: Args.string({ description: 'A plan file written by `docplane plan --out`', required: false }),
  };

  static override flags = {
    ...commonFlags,
    ...configFlag,
    'auto-approve': Flags.boolean({ description: 'Apply without asking for confirmation', default: false }),
    force: Flags.boolean({ description: 'Apply even when the plan breaks a safety rule (maxDeletes, maxDeletePercent)', default: false }),
    format: Flags.string({ description: 'Format of the final summary', options: ['text', 'json'], default: 'text' }),
    target: Flags.string({ description: 'Limit the plan to this address (glob or prefix); repeatable. With PLANFILE: the part of it to apply (a plan made with --target needs them here too)', multiple: true }),
    base: Flags.string({
      description:
        "With PLANFILE of a pull request's plan (plan --base): the base to derive its scope from (a path or a git revision, such as the merge's first parent), instead of the one the file records; the file's recorded base config must be this one",
    }),
    replace: Flags.string({ description: 'With PLANFILE: confirm the --replace patterns the plan was made with (a forced resend is applied only when apply asks for it too); repeatable', multiple: true }),
    verify: Flags.boolean({ description: 'After applying, read the touched resources again and say whether the apply converged (--no-verify skips it)', default: true, allowNo: true }),
  };

  async run(): Promise<void> {
    // An apply is a long run of many requests: V8's heap sized for it (src/cli/heap.ts).
    sizeHeapForLongRun();
    const { args, flags } = await this.parse(Apply);
    const format = flags.format as 'text' | 'json';
    const noColor = flags['no-color'] || Boolean(process.env.NO_COLOR);
    const stdoutColor = this.colorEnabled(flags['no-color']);
    const stderrColor = !noColor && process.stderr.isTTY === true;
    // In JSON mode stdout holds the summary alone: the plan and the notes go to stderr.
    const write = format === 'json' ? (text: string) => void process.stderr.write(text) : (text: string) => void process.stdout.write(text);
    const planColor = format === 'json' ? stderrColor : stdoutColor;
    const notify = (notice: ApplyNotice) => write(noticeText(notice, planColor));

    // Ctrl+C (SIGINT) and a CI job's cancel (SIGTERM) alike: no new requests; those in flight finish
    // and the summary says what was done (exit 1, as any partial apply). A second signal quits at
    // once, with the shell's code for it (130 for SIGINT, 143 for SIGTERM).
    const controller = new AbortController();
    const onSignal = (signal: NodeJS.Signals) => {
      if (controller.signal.aborted) process.exit(signal === 'SIGTERM' ? 143 : 130);
      controller.abort();
      process.stderr.write(`\nstopping (${signal}): waiting for the requests in flight (a second signal quits at once)\n`);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      const report = await runApply({
        planFile: args.planfile,
        configPath: flags.config,
        autoApprove: flags['auto-approve'],
        force: flags.force,
        targets: flags.target ?? [],
        replace: flags.replace ?? [],
        ...(flags.base === undefined ? {} : { base: flags.base }),
        toolVersion: this.config.version,
        concurrency: flags.concurrency,
        notify,
        progress: { stream: process.stderr, interactive: process.stderr.isTTY === true, color: stderrColor },
        interactive: process.stdin.isTTY === true && process.stdout.isTTY === true,
        confirm: (n) => ask(`Apply ${n === 1 ? 'this change' : `these ${n} changes`}? (yes/no) `),
        connect: (apiUrl, secrets) => clientFromFlags(flags, apiUrl, undefined, secrets),
        signal: controller.signal,
        verify: flags.verify,
      });
      // JSON readers get a summary even when there was nothing to do.
      const result = report.result ?? (format === 'json' ? { applied: [], failed: [], skipped: [], durationMs: 0 } : undefined);
      if (result) {
        const summary = renderApplySummary(result, {
          format,
          secrets: report.secrets,
          color: format === 'json' ? false : stdoutColor,
          multiOrg: report.multiOrg,
          convergence: report.convergence,
        });
        process.stdout.write(format === 'text' ? `\n${summary}` : summary);
      }
      const failure = outcomeError(report);
      if (failure) throw failure;
    } finally {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    }
  }
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** What the apply tells, as the lines a person reads. */
export function noticeText(notice: ApplyNotice, color: boolean): string {
  switch (notice.type) {
    case 'config':
      return `Config: ${shownPaths(notice.files)} (${notice.given ? 'given with -c' : 'found as plan finds it: ./docplane.yaml, else ./docplane/'})\n`;
    case 'plan':
      return withNewline(renderPlan(notice.plan, { format: 'text', color, secrets: notice.secrets }));
    case 'nothing':
      return 'Nothing to apply.\n';
    case 'already-applied':
      return `The plan ${notice.file} is already applied: ${notice.total === 1 ? 'its step is' : `all ${notice.total} of its steps are`} done in the organization. Nothing to apply.\n`;
    case 'resuming': {
      const cut = notice.partial > 0 ? `; ${notice.partial} ${notice.partial === 1 ? 'step' : 'steps'} cut short, finished now` : '';
      return `resuming: ${notice.done} of ${notice.total} steps were already applied${cut}\n`;
    }
    case 'applying': {
      const part = notice.selected ? ` (${notice.selected.steps} ${notice.selected.steps === 1 ? 'step' : 'steps'} of ${notice.selected.total}, selected by --target)` : '';
      return `Applying ${notice.file}${part}: ${summaryLine(notice.plan)}\n`;
    }
  }
}

/** A yes/no question on the terminal; Ctrl+C or end of input is a no. */
async function ask(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const cancel = new AbortController();
  rl.on('SIGINT', () => cancel.abort());
  rl.on('close', () => cancel.abort());
  try {
    const answer = await rl.question(question, { signal: cancel.signal });
    return /^\s*(y|yes)\s*$/i.test(answer);
  } catch {
    process.stdout.write('\n');
    return false;
  } finally {
    rl.close();
  }
}
