#!/usr/bin/env node
import { Errors, flush, handle, run } from '@oclif/core';

try {
  await run(process.argv.slice(2), import.meta.url);
  await flush();
} catch (error) {
  // A command's errors were printed by BaseCommand already. What gets here comes from oclif before
  // any command ran: an unknown command is printed as docplane prints every error (one line, exit
  // 1; oclif's own would exit 2, the code of "the plan has changes"); the rest (exits) is oclif's.
  if (error instanceof Errors.CLIError && !(error instanceof Errors.ExitError) && /^command .+ not found/.test(error.message)) {
    process.stderr.write(`error: ${error.message}\n  Run docplane --help to see the commands.\n`);
    process.exitCode = 1;
  } else {
    await handle(error);
  }
}
