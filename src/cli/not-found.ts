/**
 * An unknown command: one `error:` line naming the closest command (docplane's own did-you-mean,
 * src/core/text.ts), exit 1, the same on a terminal and in a CI log. No question is asked: a
 * command that runs something other than what was typed is not what a script expects, and a
 * prompt cannot be answered in CI. oclif's default would exit 2, the code of "the plan has changes".
 */
import type { Hook } from '@oclif/core';
import { DocplaneError } from '../core/errors.js';
import { suggest } from '../core/text.js';

export const commandNotFound: Hook<'command_not_found'> = async function (opts) {
  const typed = opts.id.replaceAll(':', ' ');
  const commands = opts.config.commands.filter((c) => !c.hidden).map((c) => c.id.replaceAll(':', ' '));
  const near = suggest(typed, commands);
  const tail = near === undefined ? '' : ` — did you mean "${opts.config.bin} ${near}"?`;
  throw new DocplaneError('COMMAND_NOT_FOUND', `${typed} is not a ${opts.config.bin} command${tail}`, { hint: `${opts.config.bin} help lists the commands.` });
};
