import { describe, expect, it } from 'vitest';
import { orgConfig, planKind, type OrgConfigInput } from '../plan/fixtures.js';
import { installationsModule, installationTargetsModule, type RemoteOrgInstallation } from '../../src/kinds/installations/installations.js';

const remote: RemoteOrgInstallation[] = [
  {
    integration: 'acme-analytics',
    installation: { id: 'inst_a', space_selection: 'selected', site_selection: 'selected', configuration: { apiKey: 'old-key', sampling: 10 }, externalIds: [] },
    sites: [{ site: 'site_docs', configuration: { trackingId: 'G-1' } }],
    spaces: [{ space: 'space_api', configuration: {} }],
  },
  { integration: 'slack', installation: { id: 'inst_s', space_selection: 'all', site_selection: 'selected', configuration: {}, externalIds: ['T1'] } },
];

type Row = [string, string, ...string[]];
const rows = (kp: ReturnType<typeof planKind>): Row[] =>
  kp.steps.map((s) => [s.address, s.action, ...s.requests.map((r) => `${r.method} ${r.path}${r.body === undefined ? '' : ` ${JSON.stringify(r.body)}`}`)] as Row);

const cases: Array<{ name: string; config: OrgConfigInput; installations: Row[]; targets: Row[]; unmanaged?: number }> = [
  {
    name: 'plans nothing when the configuration, selections and targets say the same',
    config: {
      installations: [
        { integration: 'acme-analytics', configuration: { apiKey: 'old-key', sampling: 10 }, sites: [{ site: 'site_docs', configuration: { trackingId: 'G-1' } }], spaces: [{ space: 'space_api' }] },
        { integration: 'slack', spaces: 'all', externalIds: ['T1'] },
      ],
    },
    installations: [],
    targets: [],
  },
  {
    name: 'installs a new integration, then configures it through the id the install returns',
    config: { installations: [{ integration: 'intercom', configuration: { appId: 'x1' }, sites: [{ site: 'site_docs', configuration: { position: 'left' } }] }] },
    installations: [
      [
        'installations["intercom"]',
        'create',
        'POST /v1/integrations/intercom/installations {"organization":"org_acme"}',
        'PATCH /v1/integrations/intercom/installations/{{ref:org_acme/installations["intercom"]}} {"configuration":{"appId":"x1"},"site_selection":"selected"}',
      ],
    ],
    targets: [
      [
        'installations["intercom"].sites["site_docs"]',
        'create',
        'POST /v1/integrations/intercom/installations/{{ref:org_acme/installations["intercom"]}}/sites {"siteId":"site_docs"}',
        'PATCH /v1/integrations/intercom/installations/{{ref:org_acme/installations["intercom"]}}/sites/site_docs {"configuration":{"position":"left"}}',
      ],
    ],
    unmanaged: 2,
  },
  {
    name: 'sends only what differs: a configuration (whole), a selection',
    config: { installations: [{ integration: 'acme-analytics', configuration: { apiKey: 'new-key', sampling: 10 } }, { integration: 'slack', spaces: [] }] },
    installations: [
      ['installations["acme-analytics"]', 'update', 'PATCH /v1/integrations/acme-analytics/installations/inst_a {"configuration":{"apiKey":"new-key","sampling":10}}'],
      ['installations["slack"]', 'update', 'PATCH /v1/integrations/slack/installations/inst_s {"space_selection":"selected"}'],
    ],
    targets: [],
  },
  {
    name: 'a list of spaces or sites is the whole truth: installs, configures and uninstalls',
    config: { installations: [{ integration: 'acme-analytics', sites: [{ site: 'site_docs', configuration: { trackingId: 'G-2' } }, { site: 'site_help' }], spaces: [] }] },
    installations: [],
    targets: [
      ['installations["acme-analytics"].spaces["space_api"]', 'delete', 'DELETE /v1/integrations/acme-analytics/installations/inst_a/spaces/space_api'],
      ['installations["acme-analytics"].sites["site_docs"]', 'update', 'PATCH /v1/integrations/acme-analytics/installations/inst_a/sites/site_docs {"configuration":{"trackingId":"G-2"}}'],
      ['installations["acme-analytics"].sites["site_help"]', 'create', 'POST /v1/integrations/acme-analytics/installations/inst_a/sites {"siteId":"site_help"}'],
    ],
    unmanaged: 1,
  },
  {
    name: 'uninstalls what the config leaves out when pruned, and leaves it unmanaged otherwise',
    config: { installations: [{ integration: 'slack' }], prune: ['installations'] },
    installations: [['installations["acme-analytics"]', 'delete', 'DELETE /v1/integrations/acme-analytics/installations/inst_a']],
    targets: [],
  },
];

describe('installations', () => {
  it.each(cases)('$name', (c) => {
    const desired = orgConfig(c.config);
    const kp = planKind(installationsModule, desired, remote);
    expect(rows(kp)).toEqual(c.installations);
    expect(kp.unmanaged).toHaveLength(c.unmanaged ?? 0);
    expect(Object.keys(kp.fingerprints).sort()).toEqual(kp.steps.map((s) => s.address).sort());
    const targets = planKind(installationTargetsModule, desired, remote);
    expect(rows(targets)).toEqual(c.targets);
  });

  it('never shows the API’s configuration values: a plan shows each string as (sensitive)', () => {
    const kp = planKind(installationsModule, orgConfig({ installations: [{ integration: 'acme-analytics', configuration: { apiKey: 'new-key', sampling: 10 } }] }), remote);
    expect(kp.steps[0].before).toEqual({ configuration: { apiKey: '(sensitive)', sampling: 10 } });
    expect(JSON.stringify(kp.steps[0].before)).not.toContain('old-key');
    const deleted = planKind(installationsModule, orgConfig({ installations: [], prune: ['installations'] }), remote);
    expect(JSON.stringify(deleted.steps.map((s) => s.before))).not.toContain('old-key');
  });

  it('waits for the integration when the config publishes it, and for a space the config names', () => {
    const desired = orgConfig({
      integrations: [{ name: 'intercom', title: 'Intercom', description: '', script: 'x', scopes: ['site:script:inject'] }],
      spaces: [{ id: 'space_new' }] as OrgConfigInput['spaces'],
      installations: [{ integration: 'intercom', spaces: [{ space: 'space_new' }] }],
    });
    expect(planKind(installationsModule, desired, remote).steps[0].needs).toEqual(['integrations["intercom"]']);
    expect(planKind(installationTargetsModule, desired, remote).steps[0].needs).toEqual(['installations["intercom"]', 'spaces["space_new"]']);
  });
});
