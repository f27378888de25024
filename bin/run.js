#!/usr/bin/env node
import { Errors, flush, handle, run } from '@oclif/core';

// Every path that ends the process ends with one error line and exit 1 (DESIGN §2). Should a
// promise be left unsettled with nothing left to wake it, Node would exit 13 in silence.
function onUnsettledExit(code) {
  if (code !== 13) return;
  process.exitCode = 1;
  try {
    process.stderr.write('error: docplane stopped before its work was done (a request was left without an answer)\n  This is a bug in docplane; run again with --verbose and report it.\n');
  } catch {
    // stderr is gone: the exit code still says it.
  }
}
process.on('exit', onUnsettledExit);
// A reader that stops early (`docplane help | head`) wants nothing more: end quietly, as on SIGPIPE.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
});

try {
  await run(process.argv.slice(2), import.meta.url);
  await flush();
} catch (error) {
  // A command's errors were printed by BaseCommand already. What gets here comes from oclif before
  // any command ran, or from a plugin's command (help, autocomplete): it is printed as docplane
  // prints every error (one line, exit 1; oclif's own would exit 2, the code of "the plan has
  // changes"). A DocplaneError carries its hint (an unknown command: src/cli/not-found.ts). Exits pass.
  if (error instanceof Errors.ExitError) {
    await handle(error);
  } else if (error instanceof Error && error.name === 'DocplaneError') {
    process.stderr.write(`error: ${error.message}\n${error.hint ? `  ${error.hint}\n` : ''}`);
    process.exitCode = error.exitCode ?? 1;
  } else if (error instanceof Errors.CLIError) {
    const line = error.message.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^See more help with/i.test(l)).join('; ');
    process.stderr.write(`error: ${line}\n  Run docplane help to see the commands.\n`);
    process.exitCode = 1;
  } else {
    await handle(error);
  }
} finally {
  process.removeListener('exit', onUnsettledExit);
}
