/**
 * Progress of an apply. On a terminal: an ora spinner (`applying 12/40 · teams["Engineering"]`),
 * with failures printed above it as they happen. Elsewhere (CI logs): one plain line per finished
 * step, and a line for each retry or lookup, so that a log tells what happened when.
 */
import { createRequire } from 'node:module';
import type { Options as OraOptions, Ora } from 'ora';
import pc from 'picocolors';
import { maskSecrets, type Secret } from '../core/secrets.js';
import type { Step } from '../plan/types.js';
import type { ApplyEvent } from './types.js';
import { describeOutcome, failureNote } from './summary.js';

/** ora, loaded when a spinner is first drawn: off a terminal (CI, the bench) it is never loaded. */
function ora(options: OraOptions): Ora {
  const loaded = createRequire(import.meta.url)('ora') as { default: (o: OraOptions) => Ora };
  return loaded.default(options);
}

export interface ProgressOptions {
  /** Where progress goes (stderr in the command, so that stdout keeps the summary alone). */
  stream: NodeJS.WritableStream;
  /** A terminal: spinner; otherwise plain lines. */
  interactive: boolean;
  color: boolean;
  secrets: readonly Secret[];
  multiOrg?: boolean;
}

export interface ProgressReporter {
  onEvent(event: ApplyEvent): void;
  /** Removes the spinner; call once the apply has finished. */
  done(): void;
}

export function createProgressReporter(options: ProgressOptions): ProgressReporter {
  const paint = (f: (s: string) => string) => (s: string) => (options.color ? f(s) : s);
  const red = paint(pc.red);
  const green = paint(pc.green);
  const yellow = paint(pc.yellow);
  const dim = paint(pc.dim);
  const mask = (line: string) => maskSecrets(line, options.secrets);
  const write = (line: string) => {
    options.stream.write(`${mask(line)}\n`);
  };
  const where = (e: { step: Step }) => describeOutcome(e.step, options.multiOrg);

  let spinner: Ora | undefined;
  let current = '';
  let finished = 0;
  let total = 0;
  const spin = () => {
    if (!spinner) return;
    spinner.text = mask(`applying ${finished}/${total}${current ? ` · ${current}` : ''}`);
    // Drawn at once, not at the next frame: the count is what a watcher reads.
    spinner.render();
  };

  return {
    onEvent(event) {
      switch (event.type) {
        case 'step-start':
          total = event.total;
          current = `${options.multiOrg ? `${event.step.org}/` : ''}${event.step.address}`;
          // A terminal that reports no width (some pseudo-terminals say 0 columns) cannot hold a
          // spinner that redraws itself: plain lines then.
          if (options.interactive && ((options.stream as { columns?: number }).columns ?? 80) > 0) {
            spinner ??= ora({ stream: options.stream, isEnabled: true, discardStdin: false }).start();
            spin();
          }
          return;
        case 'step-done':
          finished = event.finished;
          total = event.total;
          if (spinner) spin();
          else write(green(`✓ ${where(event)}`) + dim(` (${plural(event.outcome.requests, 'request')})`));
          return;
        case 'step-failed':
          finished = event.finished;
          total = event.total;
          write(red(`✗ ${where(event)}: ${failureNote(event.outcome)}`));
          spin();
          return;
        case 'step-skipped':
          finished = event.finished;
          total = event.total;
          if (spinner) spin();
          else write(yellow(`- skipped ${where(event)}`) + dim(` (${event.outcome.cause ? `needs ${event.outcome.cause}` : (event.outcome.message ?? '').replace(/^not run: /, '')})`));
          return;
        case 'retry':
          if (!spinner) write(dim(`  ↻ ${where(event)}: ${event.method} ${event.path}: ${event.reason}; attempt ${event.attempt} in ${event.waitMs} ms`));
          return;
        case 'taken-as-done':
          if (!spinner) write(dim(`  ⌕ ${where(event)}: resent after no clear answer and refused (${event.message}); the first attempt did it`));
          return;
        case 'lookup-found':
          if (!spinner) write(dim(`  ⌕ ${where(event)}: no clear answer to ${event.method} ${event.path}, but it was made${event.id ? ` (${event.id})` : ''}; not sent again`));
          return;
      }
    },
    done() {
      spinner?.stop();
      spinner = undefined;
    },
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
