import { describe, expect, it } from 'vitest';
import { orgConfig, planKind, type OrgConfigInput } from '../plan/fixtures.js';
import { samlModule, type RemoteSaml } from '../../src/kinds/saml/saml.js';

const CERT = '-----BEGIN CERTIFICATE-----\nMIIBszCCAV2gAwIBAgIU\n-----END CERTIFICATE-----\n';
const remote = (withCert = false): RemoteSaml => ({
  providers: [
    { id: 'p_okta', label: 'Okta', entityID: 'urn:okta', ssoURL: 'https://okta/sso', defaultRole: 'read', defaultTeam: { id: 't_eng', title: 'Engineering' }, ...(withCert ? { certificate: CERT } : {}) },
    { id: 'p_old', label: 'Old IdP', entityID: 'urn:old', ssoURL: 'https://idp.example/sso', defaultTeam: null },
  ],
  teams: [
    { id: 't_eng', title: 'Engineering' },
    { id: 't_ops', title: 'Ops' },
  ],
});

type Row = [string, string, string, unknown?];
const rows = (kp: ReturnType<typeof planKind>): Row[] =>
  kp.steps.map((s) => [s.address, s.action, `${s.requests[0].method} ${s.requests[0].path}`, ...(s.requests[0].body === undefined ? [] : [s.requests[0].body])] as Row);

const okta = { label: 'Okta', entityID: 'urn:okta', ssoURL: 'https://okta/sso', defaultRole: 'read' as const, defaultTeam: 'Engineering' };

const cases: Array<{ name: string; config: OrgConfigInput; remote?: RemoteSaml; replace?: string[]; steps: Row[]; problems?: string[]; notes?: string[] }> = [
  { name: 'plans nothing when the provider matches', config: { saml: [okta] }, steps: [] },
  {
    name: 'PATCHes differing fields, the default team by id',
    config: { saml: [{ ...okta, defaultTeam: 'Ops', defaultRole: null }] },
    steps: [['saml["Okta"]', 'update', 'PATCH /v1/orgs/org_acme/saml/p_okta', { defaultRole: null, defaultTeam: 't_ops' }]],
  },
  {
    name: 'creates a provider naming a team the plan creates, through a ref',
    config: { teams: [{ title: 'Security' }], saml: [{ label: 'Azure', ssoURL: 'https://azure/sso', certificate: CERT, defaultTeam: 'Security' }] },
    steps: [
      ['saml["Azure"]', 'create', 'POST /v1/orgs/org_acme/saml', { label: 'Azure', ssoURL: 'https://azure/sso', certificate: CERT, defaultTeam: '{{ref:org_acme/teams["Security"]}}' }],
    ],
  },
  {
    name: 'renames by renamedFrom and clears the default team with null',
    config: { saml: [{ label: 'Legacy IdP', renamedFrom: 'Old IdP', defaultTeam: null }] },
    steps: [['saml["Legacy IdP"]', 'update', 'PATCH /v1/orgs/org_acme/saml/p_old', { label: 'Legacy IdP' }]],
  },
  {
    name: 'a default team the live service cannot clear (null on a provider that has one) is a problem, and nothing is sent',
    config: { saml: [{ ...okta, defaultTeam: null }] },
    steps: [],
    problems: [
      'saml["Okta"]: defaultTeam: null would clear the default team ("Engineering"), which the API cannot do; name a team, or remove defaultTeam from the config to leave it unmanaged',
    ],
  },
  {
    name: 'reports a default team that exists nowhere',
    config: { saml: [{ ...okta, defaultTeam: 'Nobody' }] },
    steps: [],
    problems: ['saml["Okta"]: defaultTeam "Nobody" names no team, neither in the config nor in organization org_acme'],
  },
  {
    name: 'reports a default team that the plan prunes',
    config: { teams: [{ title: 'Engineering' }], prune: ['teams'], saml: [{ ...okta, defaultTeam: 'Ops' }] },
    steps: [],
    problems: ['saml["Okta"]: defaultTeam "Ops" is not in the config, and teams are pruned: the plan deletes that team'],
  },
  {
    name: 'does not compare a certificate the API does not return, and says so',
    config: { saml: [{ ...okta, certificate: CERT }] },
    steps: [],
    notes: [`saml["Okta"]: the API does not return the certificate, so it is not compared; to send it anyway, plan with --replace 'saml["Okta"]'`],
  },
  {
    name: 'sends the certificate when --replace names the provider',
    config: { saml: [{ label: 'Okta', certificate: CERT }] },
    replace: ['saml["Okta"]'],
    steps: [['saml["Okta"]', 'update', 'PATCH /v1/orgs/org_acme/saml/p_okta', { label: 'Okta', certificate: CERT }]],
  },
  {
    name: 'compares a returned certificate by content (whitespace aside)',
    config: { saml: [{ ...okta, certificate: CERT.replace(/\n/g, '\r\n') }] },
    remote: remote(true),
    steps: [],
  },
  {
    name: 'updates a returned certificate that differs',
    config: { saml: [{ label: 'Okta', certificate: 'NEW' }] },
    remote: remote(true),
    steps: [['saml["Okta"]', 'update', 'PATCH /v1/orgs/org_acme/saml/p_okta', { certificate: 'NEW' }]],
  },
  {
    name: 'deletes providers the config leaves out when pruned',
    config: { saml: [okta], prune: ['saml'] },
    steps: [['saml["Old IdP"]', 'delete', 'DELETE /v1/orgs/org_acme/saml/p_old']],
  },
];

describe('saml', () => {
  it.each(cases)('$name', (c) => {
    const kp = planKind(samlModule, orgConfig(c.config), c.remote ?? remote(), { replace: c.replace });
    expect(rows(kp)).toEqual(c.steps);
    expect(kp.problems.map((p) => `${p.address}: ${p.message}`)).toEqual(c.problems ?? []);
    expect(kp.notes ?? []).toEqual(c.notes ?? []);
    expect(Object.keys(kp.fingerprints).sort()).toEqual(kp.steps.map((s) => s.address).sort());
  });

  it('makes the provider wait for a team of the config, shows the team by title, and looks a create up by label', () => {
    const kp = planKind(samlModule, orgConfig({ teams: [{ title: 'Ops' }], saml: [{ ...okta, defaultTeam: 'Ops' }, { label: 'New' }] }), remote());
    expect(kp.steps[0]).toMatchObject({ needs: ['teams["Ops"]'], before: { defaultTeam: 'Engineering' }, after: { defaultTeam: 'Ops' } });
    expect(kp.steps[1].requests[0]).toMatchObject({ capture: true, lookup: { path: '/v1/orgs/org_acme/saml', match: { label: 'New' } } });
    expect(kp.unmanaged).toHaveLength(1);
  });
});
