/** Integrations (`integrations:` in the config) that this organization publishes, by name. */
import { formatPath } from '../../source/yaml.js';
import { key } from '../../model/address.js';
import type { Item } from '../../source/origin.js';
import { compare, Raw, sortBy, str, type Draft, type ImportSink } from '../common/import.js';
import type { Importer, KindUnit } from '../kind.js';
import { integrationsModule, readIntegrations, SCRIPT_STUB_MARKER, type RemoteIntegration } from './integrations.js';
import { Integration, type IntegrationT } from './schema.js';

/** Text written to integrations/<name>.js: the API never returns a script. */
export function scriptStub(name: string): string {
  return [
    `${SCRIPT_STUB_MARKER} of integration "${name}".`,
    '// Replace this file with the integration\'s real script: while it is this stub, docplane refuses',
    '// any plan that would publish the integration (a changed field, or --replace), so that the stub',
    '// never replaces the real script on the platform.',
    '',
  ].join('\n');
}

/** A policy string, or its directives (an object of strings), as the API returns it. */
function policy(value: unknown): Draft | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string');
    return Object.fromEntries(entries.sort(([a], [b]) => compare(a, b)));
  }
  return undefined;
}

const importIntegrations: Importer<RemoteIntegration[]> = {
  read: readIntegrations,
  write(integrations, sink) {
    const written = sortBy(integrations, (i) => i.name).map((i) => convertIntegration(i, sink));
    sink.count(integrationsModule.label, written.length);
    return written;
  },
};

function convertIntegration(i: RemoteIntegration, sink: ImportSink): Draft {
  const warn = (m: string) => sink.warn(m);
  const address = `integrations${key(i.name)}`;
  const path = sink.files.claim('integrations', i.name, '.js');
  sink.file({ path, content: scriptStub(i.name), kind: 'script', address });
  const scopes = Array.isArray(i.scopes) ? [...new Set(i.scopes.map(String))].sort(compare) : [];
  if (scopes.length === 0) warn(`${address}: the API lists no scopes, and the config requires at least one; add them before planning`);
  const links = Array.isArray(i.externalLinks)
    ? i.externalLinks.map((l): Draft => ({ url: String((l as { url?: unknown }).url ?? ''), label: String((l as { label?: unknown }).label ?? '') }))
    : undefined;
  return {
    name: i.name,
    title: str(i.title),
    description: str(i.description) ?? '',
    summary: str(i.summary),
    runtime: str(i.runtime),
    visibility: str(i.visibility),
    target: str(i.target),
    scopes,
    categories: Array.isArray(i.categories) ? [...new Set(i.categories.map(String))].sort(compare) : undefined,
    externalLinks: links,
    contentSecurityPolicy: policy(i.contentSecurityPolicy),
    script: new Raw(`\${file:${path}}`),
  };
}

export const integrationsUnit: KindUnit = {
  configKey: 'integrations',
  audit: {
    targets: { integration: { by: 'entry', field: 'name' } },
    paths: { integrations: 'integration' },
  },
  list: true,
  schema: Integration,
  kinds: [integrationsModule],
  addressNames: { top: ['integrations'] },
  secretFields: ['secrets'],
  flowMaps: ['integrations.*.externalLinks.*'],
  keyComments: [
    {
      path: 'integrations.*.script',
      comment: [
        ' The API returns neither the script nor the secrets of an integration: put the script in this file,',
        ' and add `secrets: { NAME: "${env:NAME}" }` if the integration has any.',
      ].join('\n'),
    },
  ],
  resolve(entries, ctx) {
    for (const { value, origin } of entries as readonly Item<IntegrationT>[]) {
      const address = `integrations${key(value.name)}`;
      if (!ctx.claim(`integration:${value.name}`, address, origin)) continue;
      for (const [name, secret] of Object.entries(value.secrets ?? {})) {
        ctx.secret({ name: `value:${ctx.org}/${address}.${formatPath(['secrets', name])}`, value: secret });
      }
    }
  },
  importer: importIntegrations,
};
