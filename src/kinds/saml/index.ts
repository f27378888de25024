/** SAML providers (`saml:` in the config), by label; the default team by title. */
import { key } from '../../model/address.js';
import { child, type Item } from '../../source/origin.js';
import { Raw, slug, sortBy, unique, type Draft, type ImportSink } from '../common/import.js';
import type { Importer, KindUnit } from '../kind.js';
import { configTeams, writtenTeams } from '../shared/teams.js';
import { readTeams, type RemoteTeam } from '../shared/teams.js';
import { readSamlProviders, samlModule, type RemoteSamlProvider } from './saml.js';
import { SamlProvider, type SamlProviderT } from './schema.js';

interface SamlState {
  providers: RemoteSamlProvider[];
  teams: RemoteTeam[];
}

const importSaml: Importer<SamlState> = {
  async read(ctx) {
    const [providers, teams] = await Promise.all([readSamlProviders(ctx), readTeams(ctx)]);
    return { providers, teams };
  },
  write(state, sink) {
    const teamTitle = new Map(state.teams.map((t) => [t.id, t.title]));
    const written = new Set(writtenTeams(state.teams).map((t) => t.id));
    const saml = unique(
      sortBy(state.providers, (p) => p.label, (p) => p.id),
      (p) => p.label,
      (p, kept) => sink.warn(`saml${key(p.label)}: providers ${kept.id} and ${p.id} have the same label; only ${kept.id} is written`),
    ).map((p) => convertSaml(p, teamTitle, written, sink));
    sink.count(samlModule.label, saml.length);
    return saml;
  },
};

function convertSaml(
  p: RemoteSamlProvider,
  teamTitle: ReadonlyMap<string, string>,
  writtenTeams: ReadonlySet<string>,
  sink: ImportSink,
): Draft {
  const warn = (m: string) => sink.warn(m);
  const address = `saml${key(p.label)}`;
  let certificate: Raw | undefined;
  if (typeof p.certificate === 'string' && p.certificate !== '') {
    const path = sink.files.claim('certs', slug(p.label, 'saml'), '.pem');
    sink.file({ path, content: p.certificate, kind: 'certificate', address });
    certificate = new Raw(`\${file:${path}}`);
  } else {
    warn(`${address}: the API returned no certificate (none is set, or the API does not show it): the provider is imported without its certificate, which stays unmanaged (add certificate: \${file:…} to manage it)`);
  }
  // A title in the config (null: none); left out when the team cannot be named.
  let defaultTeam: string | null | undefined = null;
  if (p.defaultTeam) {
    const id = p.defaultTeam.id;
    defaultTeam = teamTitle.get(id) ?? p.defaultTeam.title;
    if (defaultTeam === undefined) warn(`${address}: its default team ${id} is not in the organization's team list; defaultTeam is left out (unmanaged)`);
    else if (!writtenTeams.has(id)) warn(`${address}: its default team ${id} shares its title "${defaultTeam}" with another team; defaultTeam names the team that is written`);
  }
  return { id: p.id, label: p.label, entityID: p.entityID, ssoURL: p.ssoURL, certificate, defaultTeam, defaultRole: p.defaultRole ?? null };
}

export const samlUnit: KindUnit = {
  configKey: 'saml',
  audit: {
    targets: { 'saml-provider': { by: 'entry', field: 'label' } },
    paths: { saml: 'saml-provider' },
  },
  list: true,
  schema: SamlProvider,
  kinds: [samlModule],
  addressNames: { top: ['saml'] },
  secretFields: ['certificate'],
  references: [{ field: 'defaultTeam', target: 'teams' }],
  resolve(entries, ctx) {
    const items = entries as readonly Item<SamlProviderT>[];
    const teams = configTeams(ctx);
    const labels = new Set(items.map((s) => s.value.label));
    const ids = ctx.identities('saml', 'label');
    for (const { value, origin } of items) {
      const address = `saml${key(value.label)}`;
      if (!ctx.claim(`saml:${value.label}`, address, origin)) continue;
      ids.add(value.label, value, origin, labels);
      if (value.certificate) ctx.secret({ name: `value:${ctx.org}/${address}.certificate`, value: value.certificate });
      const team = value.defaultTeam;
      if (team === undefined || team === null) continue;
      ctx.reference({
        kind: 'teams',
        key: team,
        from: address,
        field: 'defaultTeam',
        origin: child(origin, 'defaultTeam'),
        ...(teams !== undefined && ctx.prunes('teams') ? { settled: `teams are pruned: the plan would delete team "${team}"` } : {}),
      });
    }
  },
  importer: importSaml,
};
