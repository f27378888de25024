/**
 * What `bin/run.js` runs: oclif's `run` with docplane's rules around it. It is the entry of the
 * bundle (scripts/bundle.js), beside the commands and the hook, so that oclif, the commands and what
 * they import load as a few files that share one copy of @oclif/core.
 */
import { flush, handle, run, settings } from '@oclif/core';

/**
 * Every path that ends the process ends with one error line and exit 1 (docs/architecture.md,
 * "Errors and exit codes"). Should a promise be left unsettled with nothing left to wake it, Node
 * would exit 13 in silence.
 */
function onUnsettledExit(code: number): void {
  if (code !== 13) return;
  process.exitCode = 1;
  try {
    process.stderr.write('error: docplane stopped before its work was done (a request was left without an answer)\n  This is a bug in docplane; run again with --verbose and report it.\n');
  } catch {
    // stderr is gone: the exit code still says it.
  }
}

/**
 * An error of oclif's, from any copy of @oclif/core: the commands of oclif's plugins (help,
 * autocomplete) import their own from node_modules, so `instanceof` would miss theirs.
 */
function oclifError(error: unknown): (Error & { oclif?: { exit?: number }; code?: string }) | undefined {
  return error instanceof Error && typeof (error as { oclif?: unknown }).oclif === 'object' ? error : undefined;
}

/** Runs the command line `argv`; `bin` is the URL of the executable (oclif finds the package from it). */
export async function main(argv: string[], bin: string): Promise<void> {
  // The commands run compiled (and bundled): oclif is not to look for TypeScript sources and a
  // tsconfig to run instead, which it would try under NODE_ENV=development or test.
  settings.enableAutoTranspile = false;
  process.on('exit', onUnsettledExit);
  // A reader that stops early (`docplane help | head`) wants nothing more: end quietly, as on SIGPIPE.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });

  try {
    await run(argv, bin);
    await flush();
  } catch (error) {
    // A command's errors were printed by BaseCommand already. What gets here comes from oclif before
    // any command ran, or from a plugin's command (help, autocomplete): it is printed as docplane
    // prints every error (one line, exit 1; oclif's own would exit 2, the code of "the plan has
    // changes"). A DocplaneError carries its hint (an unknown command: src/cli/not-found.ts). Exits pass.
    const known = oclifError(error);
    if (known?.code === 'EEXIT') {
      await handle(error as Error);
    } else if (error instanceof Error && error.name === 'DocplaneError') {
      const { hint, exitCode } = error as Error & { hint?: string; exitCode?: number };
      process.stderr.write(`error: ${error.message}\n${hint ? `  ${hint}\n` : ''}`);
      process.exitCode = exitCode ?? 1;
    } else if (known) {
      const line = known.message
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '' && !/^See more help with/i.test(l))
        .join('; ');
      process.stderr.write(`error: ${line}\n  Run docplane help to see the commands.\n`);
      process.exitCode = 1;
    } else {
      await handle(error as Error);
    }
  } finally {
    process.removeListener('exit', onUnsettledExit);
  }
}
