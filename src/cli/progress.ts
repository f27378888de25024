/**
 * Progress while plan reads the current state (docs/plans.md): on a terminal an ora spinner that
 * counts the requests answered; elsewhere (CI logs) a plain line every few seconds, so that a slow
 * plan is seen to be working. Both on stderr, so that stdout keeps the plan alone. When the client
 * waits on the server (a wait the API asked for, a slow answer, a backoff), the line says so and why.
 */
import { createRequire } from 'node:module';
import type { Options as OraOptions, Ora } from 'ora';

/** ora, loaded when a spinner is first drawn: off a terminal (CI, the bench) it is never loaded. */
function ora(options: OraOptions): Ora {
  const loaded = createRequire(import.meta.url)('ora') as { default: (o: OraOptions) => Ora };
  return loaded.default(options);
}

export interface ReadProgressOptions {
  stream: NodeJS.WritableStream;
  /** A terminal: spinner; otherwise a line every `intervalMs`. */
  interactive: boolean;
  /** Milliseconds between plain lines (default 5000): a plan quicker than that prints none. */
  intervalMs?: number;
  now?: () => number;
}

export interface ReadProgress {
  /**
   * Reading has begun; `requests` tells how many requests were sent so far, `waiting` what the client
   * waits for on the server now (docs/bounds.md), if anything.
   */
  reading(requests: () => number, waiting?: () => string | undefined): void;
  /** Reading is over (or failed): the spinner is removed, the lines stop. */
  done(): void;
}

export function createReadProgress(options: ReadProgressOptions): ReadProgress {
  const now = options.now ?? (() => Date.now());
  const state: { spinner?: Ora; timer?: ReturnType<typeof setInterval>; started: number } = { started: now() };
  const text = (requests: number, waiting: string | undefined) =>
    `reading the current state: ${requests} ${requests === 1 ? 'request' : 'requests'}${waiting ? `; ${waiting}` : ''}`;
  return {
    reading(count, waiting) {
      const line = () => text(count(), waiting?.());
      state.started = now();
      const columns = (options.stream as { columns?: number }).columns ?? 80;
      if (options.interactive && columns > 0) {
        const spinner = ora({ stream: options.stream, text: line(), discardStdin: false }).start();
        state.spinner = spinner;
        state.timer = setInterval(() => {
          spinner.text = line();
        }, 100);
      } else {
        state.timer = setInterval(() => {
          const seconds = Math.round((now() - state.started) / 1000);
          options.stream.write(`${line()} (${seconds} s)\n`);
        }, options.intervalMs ?? 5000);
      }
      // Progress never keeps the process alive on its own.
      state.timer.unref?.();
    },
    done() {
      if (state.timer) clearInterval(state.timer);
      state.timer = undefined;
      state.spinner?.stop();
      state.spinner = undefined;
    },
  };
}
