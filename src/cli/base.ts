/**
 * The base of every command: the common flags and the one place where errors become
 * output and exit codes. A DocplaneError prints one clear line (and a hint); anything else is a bug.
 * No stack trace reaches a user unless --verbose.
 */
import { Command, Errors, Flags } from '@oclif/core';
import pc from 'picocolors';
import { ConfigError, DocplaneError, ExitCode, formatConfigIssue } from '../core/errors.js';
import { suggest } from '../core/text.js';

export const commonFlags = {
  'api-url': Flags.string({
    description: 'Base URL of the API, such as http://127.0.0.1:4010 (plain http only for loopback)',
    env: 'DOCPLANE_API_URL',
    helpGroup: 'GLOBAL',
  }),
  'token-file': Flags.string({
    description: 'File holding the API token (else env DOCPLANE_TOKEN)',
    helpGroup: 'GLOBAL',
  }),
  concurrency: Flags.integer({ description: 'Requests in flight at most', default: 8, min: 1, max: 256, helpGroup: 'GLOBAL' }),
  timeout: Flags.integer({ description: 'Timeout of one request, from sending it to the last byte of its answer, in seconds', default: 30, min: 1, helpGroup: 'GLOBAL' }),
  'max-wait': Flags.integer({ description: 'Longest wait the API may ask for (Retry-After, rate limit reset), in seconds; a longer one ends the command', default: 300, min: 1, helpGroup: 'GLOBAL' }),
  'max-answer-size': Flags.integer({ description: 'Largest answer read from the API, in MiB', default: 32, min: 1, helpGroup: 'GLOBAL' }),
  'max-list-pages': Flags.integer({ description: 'Pages read of one list at most; a list still naming a next page after them ends the command', default: 1000, min: 1, helpGroup: 'GLOBAL' }),
  'max-list-items': Flags.integer({ description: 'Items read of one list at most; a longer list ends the command', default: 200000, min: 1, helpGroup: 'GLOBAL' }),
  'max-rps': Flags.integer({ description: 'Ceiling on requests per second', min: 1, helpGroup: 'GLOBAL' }),
  'no-color': Flags.boolean({ description: 'No colours (also env NO_COLOR)', default: false, helpGroup: 'GLOBAL' }),
  verbose: Flags.boolean({ description: 'Log each request, show stack traces of errors, and (plan) say under each step why it exists', default: false, helpGroup: 'GLOBAL' }),
};

export const configFlag = {
  config: Flags.string({
    char: 'c',
    description: 'Config file or folder (default ./docplane.yaml, else ./docplane/)',
  }),
};

/** oclif's parse error message as one line: its header and its "see --help" line left out. */
export function parseErrorLine(message: string): string {
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^The following errors? occurred:?$/i.test(l) && !/^See more help with/i.test(l));
  if (lines.length === 0) return message.trim();
  // "Missing 1 required arg:" introduces the lines after it.
  return lines.reduce((out, line, i) => (i === 0 ? line : `${out}${out.endsWith(':') ? ' ' : '; '}${line.replace(/\s+/g, ' ')}`), '');
}

/**
 * oclif's "Nonexistent flag: --fromat" with the closest flag of the command named beside it, so that
 * a typo in a CI log says what was meant.
 */
export function withFlagSuggestion(line: string, flags: readonly string[]): string {
  const m = /^Nonexistent flags?: (.+)$/.exec(line);
  if (!m) return line;
  const names = flags.map((f) => `--${f}`);
  const hints = m[1]
    .split(/,\s*/)
    .map((typed) => [typed, suggest(typed.replace(/=.*$/, ''), names)] as const)
    .filter((pair): pair is readonly [string, string] => pair[1] !== undefined)
    .map(([typed, near]) => `did you mean "${near}" for "${typed}"?`);
  if (hints.length === 0) return line;
  if (hints.length === 1) return `${line} — ${hints[0].replace(/ for ".*"\?$/, '?')}`;
  return `${line} — ${hints.join('; ')}`;
}

export abstract class BaseCommand extends Command {
  protected verbose(): boolean {
    return this.argv.includes('--verbose');
  }

  protected colorEnabled(noColorFlag: boolean): boolean {
    return !noColorFlag && !process.env.NO_COLOR && process.stdout.isTTY === true;
  }

  protected override async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<void> {
    const color = !process.env.NO_COLOR && process.stderr.isTTY === true;
    const red = (s: string) => (color ? pc.red(s) : s);
    const dim = (s: string) => (color ? pc.dim(s) : s);

    // this.exit() and oclif's own exits pass through untouched.
    if (err instanceof Errors.ExitError) throw err;

    if (err instanceof ConfigError) {
      for (const issue of err.issues) this.logToStderr(formatConfigIssue(issue));
      this.logToStderr(red(`error: ${err.issues.length === 1 ? '1 problem' : `${err.issues.length} problems`} in the config`) + dim(` — ${err.hint}`));
      process.exitCode = err.exitCode;
    } else if (err instanceof DocplaneError) {
      this.logToStderr(red(`error: ${err.message}`));
      if (err.hint) this.logToStderr(dim(`  ${err.hint}`));
      process.exitCode = err.exitCode;
    } else if (err instanceof Errors.CLIError) {
      // Flag and argument parsing errors: oclif's message has a header line and a help line around the
      // part that matters ("Missing required flag org").
      const flags = Object.keys((this.constructor as typeof Command).flags ?? {});
      this.logToStderr(red(`error: ${withFlagSuggestion(parseErrorLine(err.message), flags)}`));
      this.logToStderr(dim('  See --help for the flags.'));
      process.exitCode = ExitCode.failure;
    } else {
      this.logToStderr(red(`error: unexpected failure: ${err?.message ?? String(err)}`));
      this.logToStderr(dim('  This is a bug in docplane; run again with --verbose and report it.'));
      process.exitCode = ExitCode.failure;
    }
    if (this.verbose() && err?.stack) this.logToStderr(dim(err.stack));
  }
}
