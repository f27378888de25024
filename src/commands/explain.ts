import { Args } from '@oclif/core';
import { clientFromFlags } from '../cli/api.js';
import { BaseCommand, commonFlags, configFlag } from '../cli/base.js';
import { createReadProgress } from '../cli/progress.js';
import { explainPlan } from '../plan/explain.js';
import { renderExplain } from '../render/explain.js';

export default class Explain extends BaseCommand {
  static override summary = 'Say why the plan has a step at an address';
  static override description =
    'Plans as `docplane plan` does, then, for each step at or under ADDRESS: the config entry that asks for it (file:line:column), the remote value it replaces, and the safety rules, policy warnings and problems that weigh on it.';

  static override examples = ['<%= config.bin %> explain \'teams["Writers"]\'', '<%= config.bin %> explain \'sites["site_docs"].sections["api"]\' -c docplane/'];

  static override args = {
    address: Args.string({ description: 'An address (`teams["Writers"]`), a glob (`teams[*]`), or ORG/ADDRESS', required: true }),
  };

  static override flags = {
    ...commonFlags,
    ...configFlag,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Explain);
    const { plan, secrets, locations } = await explainPlan({
      configPath: flags.config,
      toolVersion: this.config.version,
      connect: (apiUrl) => clientFromFlags(flags, apiUrl),
      progress: createReadProgress({ stream: process.stderr, interactive: process.stderr.isTTY === true && !flags.verbose }),
    });
    process.stdout.write(`${renderExplain(plan, args.address, locations, secrets)}\n`);
  }
}
