import { Args, Flags } from '@oclif/core';
import { BaseCommand, commonFlags } from '../cli/base.js';
import { showPlan } from '../plan/service.js';
import { renderPlan, type PlanFormat } from '../render/index.js';

export default class Show extends BaseCommand {
  static override summary = 'Render a saved plan (from `docplane plan --out`)';
  static override description =
    'Prints a plan file as `docplane plan` printed it, in text, markdown or json, without reading the config or the API (as `terraform show` does). ' +
    'Secret values are not in a plan file: they show as placeholders.';

  static override examples = ['<%= config.bin %> show plan.json', '<%= config.bin %> show plan.json --format markdown'];

  static override args = {
    planfile: Args.string({ description: 'A plan file written by `docplane plan --out`', required: true }),
  };

  static override flags = {
    'no-color': commonFlags['no-color'],
    verbose: Flags.boolean({ description: "List each step's requests (method and path) under it", default: false }),
    format: Flags.string({ description: 'Output format', options: ['text', 'json', 'markdown'], default: 'text' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Show);
    const { plan, secrets } = showPlan({ file: args.planfile });
    const format = flags.format as PlanFormat;
    // --verbose lists each step's requests: what apply sends once it has checked them again.
    process.stdout.write(`${renderPlan(plan, { format, color: format === 'text' && this.colorEnabled(flags['no-color']), secrets, requests: flags.verbose })}\n`);
  }
}
