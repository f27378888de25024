import { Flags } from '@oclif/core';
import { clientFromFlags } from '../cli/api.js';
import { BaseCommand, commonFlags } from '../cli/base.js';
import { DocplaneError } from '../core/errors.js';
import { readOrgAccess } from '../kinds/index.js';
import { sharedReads } from '../kinds/kind.js';
import { renderAccessJson, renderAccessText } from '../render/access.js';

export default class Access extends BaseCommand {
  static override summary = 'Show who can reach each collection, space and site: direct grants and effective roles';
  static override description =
    'For each object: its direct team and user grants (what `access:` in the config manages) and every user who can reach it ' +
    "with their effective role, as the API's aggregate lists them, and where the role comes from when it can be told (a direct " +
    'grant, a team, the organization, a space). Inherited access is shown here only: plan, apply and import manage direct grants ' +
    'and read two lists per object; this command reads three (teams, users, aggregate) per object it shows, plus one list of ' +
    'collections, spaces and sites each when it is not narrowed.';

  static override examples = [
    '<%= config.bin %> access --org org_acme',
    '<%= config.bin %> access --org org_acme --space space_api --format json',
  ];

  static override flags = {
    ...commonFlags,
    org: Flags.string({ description: 'Organization (required)' }),
    collection: Flags.string({ description: 'Only this collection (id); repeatable', multiple: true }),
    space: Flags.string({ description: 'Only this space (id); repeatable', multiple: true }),
    site: Flags.string({ description: 'Only this site (id); repeatable', multiple: true }),
    format: Flags.string({ description: 'Output format', options: ['text', 'json'], default: 'text' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Access);
    if (flags.org === undefined) throw new DocplaneError('USAGE', 'no organization given', { hint: 'Pass --org ID.' });
    const client = await clientFromFlags(flags);
    try {
      const objects = await readOrgAccess(
        { org: flags.org, client, shared: sharedReads() },
        { collections: flags.collection, spaces: flags.space, sites: flags.site },
      );
      const out = flags.format === 'json' ? `${renderAccessJson(flags.org, objects)}\n` : renderAccessText(flags.org, objects);
      process.stdout.write(out);
    } finally {
      await client.close();
    }
  }
}
