import { Flags } from '@oclif/core';
import { BaseCommand, commonFlags, configFlag } from '../cli/base.js';
import { sizeHeapForLongRun } from '../cli/heap.js';
import { renderSummary } from '../config/summary.js';
import { runValidate } from '../config/validate.js';
import { renderValidationJson, warningLine } from '../render/validate.js';

export default class Validate extends BaseCommand {
  static override summary = 'Check the config offline: YAML, schema, references';
  static override description =
    'Parse, schema-check and cross-reference the config without any request. Prints every problem as file:line:column: path: message and exits 1, or a summary of what the config manages. ' +
    'A reference to something the config does not define (a default team, a space\'s collection, a group\'s sections) is a warning: plan checks it against the organization.';

  static override examples = [
    '<%= config.bin %> validate',
    '<%= config.bin %> validate -c examples/docplane.yaml',
    '<%= config.bin %> validate -c config/ --format json',
  ];

  // No request is sent: none of the API flags.
  static override flags = {
    ...configFlag,
    format: Flags.string({ description: 'Output format', options: ['text', 'json'], default: 'text' }),
    verbose: commonFlags.verbose,
    'no-color': commonFlags['no-color'],
  };

  async run(): Promise<void> {
    // A large config's parse and checks hold several copies of it at once: V8's heap sized as a
    // plan's, so that it grows by what survives rather than by multiples of it (src/cli/heap.ts).
    sizeHeapForLongRun();
    const { flags } = await this.parse(Validate);
    const result = await runValidate({ path: flags.config });
    if (flags.format === 'json') process.stdout.write(`${renderValidationJson(result)}\n`);
    if (flags.format === 'text') {
      if (result.valid) process.stdout.write(renderSummary(result.summary));
      // With errors too: the warnings of what could be read come in the same round.
      if (result.warnings.length > 0) process.stderr.write(`${result.warnings.map(warningLine).join('\n')}\n`);
    }
    if (!result.valid) throw result.error;
  }
}
