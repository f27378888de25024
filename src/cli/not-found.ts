/**
 * An unknown command, through oclif's own did-you-mean (@oclif/plugin-not-found): on a terminal it
 * asks "Did you mean …?" and runs the suggestion. Its output is made to follow the project's rule
 * for every failure: one `error:` line and exit 1 — the plugin's own warning line and
 * its exit 127 (oclif's default would be 2, the code of "the plan has changes") are replaced.
 */
import type { Hook } from '@oclif/core';
import notFound from '@oclif/plugin-not-found';
import { DocplaneError } from '../core/errors.js';

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

export const commandNotFound: Hook<'command_not_found'> = async function (opts) {
  const said: string[] = [];
  const interactive = process.stdin.isTTY === true;
  const context = Object.create(this, {
    // On a terminal the warning introduces the plugin's question; elsewhere it becomes the error line.
    warn: {
      value: (message: string | Error) => {
        const text = String(message instanceof Error ? message.message : message).replace(ANSI, '');
        if (interactive) process.stderr.write(`${text}\n`);
        else said.push(text.replace(/\.$/, ''));
      },
    },
    error: {
      value: (message: string | Error) => {
        const hint = String(message instanceof Error ? message.message : message).replace(ANSI, '');
        throw new DocplaneError('COMMAND_NOT_FOUND', said[0] ?? `${opts.id.replaceAll(':', ' ')} is not a ${opts.config.bin} command`, { hint });
      },
    },
  }) as typeof this;
  return notFound.call(context, opts);
};
