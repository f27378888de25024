/** Integration installations (`installations:` in the config), by integration name. */
import { child, type Item } from '../../source/origin.js';
import { Raw, compare, sortBy, type Draft, type ImportSink } from '../common/import.js';
import type { Importer, KindUnit } from '../kind.js';
import {
  installationAddress,
  installationsModule,
  installationTargetsModule,
  readInstallations,
  targetAddress,
  targetId,
  type RemoteOrgInstallation,
  type Target,
} from './installations.js';
import { Installation, type InstallationT } from './schema.js';

/** An environment variable's name for a configuration value: `ACME_ANALYTICS_API_KEY`. */
function envName(parts: readonly string[]): string {
  const name = parts
    .map((p) => p.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_'))
    .join('_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '')
    .toUpperCase();
  return /^[A-Z_]/.test(name) ? name : `_${name}`;
}

/** Keys whose values are surely secrets: import writes them as `${env:…}` references, never as values. */
const SECRET_KEY = /token|secret|password|passwd|key|credential|auth|private|cert/i;

/**
 * A configuration as import writes it. The API returns the whole configuration, secrets included, and
 * import never writes a secret: a string under a key that names one (`apiKey`, `token`, …) becomes a
 * `${env:…}` reference (named in `names`); other values are written as the API returns them.
 */
function configurationDraft(value: unknown, path: readonly string[], names: string[], secret = false): Draft {
  if (typeof value === 'string' && secret) {
    const name = envName(path);
    names.push(name);
    return new Raw(`\${env:${name}}`);
  }
  if (Array.isArray(value)) return value.map((v, i) => configurationDraft(v, [...path, String(i)], names, secret));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort(compare)
        .map((k) => [k, configurationDraft((value as Record<string, unknown>)[k], [...path, k], names, secret || SECRET_KEY.test(k))]),
    );
  }
  return (value ?? null) as Draft;
}

const importInstallations: Importer<RemoteOrgInstallation[]> = {
  // The spaces and sites of an installation are listed only when it covers a selection of them
  // (`all` is written as it is).
  read: (ctx) => readInstallations(ctx, (r, t) => (t === 'spaces' ? r.installation.space_selection : r.installation.site_selection) !== 'all'),
  write(remote, sink) {
    const written = sortBy(remote, (r) => r.integration).map((r) => convertInstallation(r, sink));
    sink.count(installationsModule.label, written.length);
    return written;
  },
};

function convertInstallation(r: RemoteOrgInstallation, sink: ImportSink): Draft {
  const names: string[] = [];
  const i = r.installation;
  const configuration = (value: unknown, path: readonly string[]): Draft | undefined =>
    value && typeof value === 'object' && Object.keys(value).length > 0 ? configurationDraft(value, path, names) : undefined;
  const targets = (t: Target): Draft | undefined => {
    if ((t === 'spaces' ? i.space_selection : i.site_selection) === 'all') return 'all';
    const one = t === 'spaces' ? 'space' : 'site';
    const list = sortBy(r[t] ?? [], (x) => targetId(x, t));
    return list.map((x) => {
      const id = targetId(x, t);
      return { [one]: id, configuration: configuration(x.configuration, [r.integration, id]) };
    });
  };
  const draft: Draft = {
    integration: r.integration,
    configuration: configuration(i.configuration, [r.integration]),
    externalIds: i.externalIds && i.externalIds.length > 0 ? [...i.externalIds] : undefined,
    spaces: targets('spaces'),
    sites: targets('sites'),
  };
  if (names.length > 0) {
    sink.warn(
      `${installationAddress(r.integration)}: the configuration's secrets are written as \${env:…} references, not as values; set ${[...new Set(names)].join(', ')} before planning`,
    );
  }
  return draft;
}

export const installationsUnit: KindUnit = {
  configKey: 'installations',
  audit: {
    targets: { installation: { by: 'unit' } },
    paths: { installations: 'installation' },
  },
  list: true,
  schema: Installation,
  kinds: [installationsModule, installationTargetsModule],
  addressNames: { top: ['installations'], inner: ['spaces', 'sites'] },
  // Schema problems never echo a configuration's values.
  secretFields: ['configuration'],
  flowMaps: ['installations.*.spaces.*', 'installations.*.sites.*'],
  resolve(entries, ctx) {
    for (const { value, origin } of entries as readonly Item<InstallationT>[]) {
      const address = installationAddress(value.integration);
      if (!ctx.claim(`installation:${value.integration}`, address, origin)) continue;
      for (const target of ['spaces', 'sites'] as const) {
        const list = value[target];
        if (!Array.isArray(list)) continue;
        list.forEach((t, n) => {
          const id = 'space' in t ? t.space : t.site;
          const address = targetAddress(value.integration, target, id);
          const at = child(origin, target, n);
          if (!ctx.claim(`installation:${value.integration}:${target}:${id}`, address, at)) return;
          const field = target === 'spaces' ? 'space' : 'site';
          ctx.reference({ kind: target, key: id, from: address, field, origin: child(at, field), byId: true });
        });
      }
    }
  },
  importer: importInstallations,
};
