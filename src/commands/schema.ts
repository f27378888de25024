import { BaseCommand, commonFlags } from '../cli/base.js';
import { configJsonSchema } from '../config/json-schema.js';

export default class Schema extends BaseCommand {
  static override summary = 'Print the JSON Schema of the config';
  static override description =
    'The JSON Schema (draft 2020-12) of a config document, generated from the schemas the loader uses. Editors pick it up from the `# yaml-language-server: $schema=…` line.';

  static override examples = ['<%= config.bin %> schema > schemas/docplane.schema.json'];

  // Nothing is coloured; accepted as by every command.
  static override flags = { 'no-color': commonFlags['no-color'] };

  async run(): Promise<void> {
    await this.parse(Schema);
    process.stdout.write(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  }
}
