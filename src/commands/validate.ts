import { BaseCommand, commonFlags, configFlag } from '../cli/base.js';
import { loadConfig } from '../config/load.js';
import { renderSummary, summarizeConfig } from '../config/summary.js';

export default class Validate extends BaseCommand {
  static override summary = 'Check the config offline: YAML, schema, references';
  static override description =
    'Parse, schema-check and cross-reference the config without any request. Prints every problem as file:line:column: path: message and exits 1, or a summary of what the config manages.';

  static override examples = ['<%= config.bin %> validate', '<%= config.bin %> validate -c examples/docplane.yaml', '<%= config.bin %> validate -c config/'];

  static override flags = { ...commonFlags, ...configFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(Validate);
    const config = await loadConfig({ path: flags.config });
    process.stdout.write(renderSummary(summarizeConfig(config)));
  }
}
