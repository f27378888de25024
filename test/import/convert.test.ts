/**
 * convertOrg and configYaml on hand-made remote states: what the platform holds that needs care
 * (a "${" in a string, rich-text documents, duplicates the config cannot key, missing pieces), and
 * that what is written reads back, through the real config loader, as the platform's values.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ConfigDocument } from '../../src/config/schema.js';
import { convertOrg, fileNamer, slug, type FileNamer, type OrgImport } from '../../src/import/convert.js';
import { configYaml } from '../../src/import/yaml.js';
import type { RemoteCollection } from '../../src/kinds/shared/collections.js';
import type { RemoteIntegration } from '../../src/kinds/integrations/integrations.js';
import type { RemoteMember } from '../../src/kinds/shared/members.js';
import type { RemoteAgentInstructions } from '../../src/kinds/organization/agent-instructions.js';
import type { RemoteOrganization } from '../../src/kinds/organization/organization.js';
import type { RemoteSamlProvider } from '../../src/kinds/saml/saml.js';
import type { RemoteSite } from '../../src/kinds/sites/remote.js';
import type { RemoteSpace } from '../../src/kinds/shared/space-list.js';
import type { RemoteTeamMember } from '../../src/kinds/teams/team-members.js';
import type { RemoteTeam } from '../../src/kinds/shared/teams.js';
import type { RemoteTranslation } from '../../src/kinds/translations/translations.js';

/** One organization's remote state, flat, as the tests write it. */
interface RemoteOrgState {
  org: string;
  organization: RemoteOrganization;
  agentInstructions: RemoteAgentInstructions;
  members: RemoteMember[];
  teams: RemoteTeam[];
  teamMembers: Record<string, RemoteTeamMember[]>;
  collections: RemoteCollection[];
  spaces: RemoteSpace[];
  sites: RemoteSite[];
  missingSites: string[];
  saml: RemoteSamlProvider[];
  integrations: RemoteIntegration[];
  translations: RemoteTranslation[];
}

/** convertOrg on a flat state: each unit's state as its importer reads it. */
function convert(s: RemoteOrgState, files: FileNamer): OrgImport {
  const states = new Map<string, unknown>([
    ['organization', { org: s.org, organization: s.organization, agentInstructions: s.agentInstructions }],
    ['members', s.members],
    ['teams', { teams: s.teams, members: s.members, lists: s.teamMembers }],
    ['collections', s.collections],
    ['spaces', { spaces: s.spaces, collections: s.collections }],
    ['sites', { list: [], missing: [], sites: [...s.sites.map((site) => ({ id: site.id, site })), ...s.missingSites.map((id) => ({ id, site: null }))] }],
    ['saml', { providers: s.saml, teams: s.teams }],
    ['fonts', []],
    ['integrations', s.integrations],
    ['installations', []],
    ['translations', s.translations],
    ['glossary', []],
    ['openapiSpecs', { specs: [], texts: {} }],
    ['inviteLinks', { links: [], collections: [] }],
    ['siteAds', []],
  ]);
  return convertOrg({ org: s.org, states, notFound: s.missingSites }, files);
}

function member(id: string, email: string | undefined, role: string | null) {
  return { id, role, user: { id, ...(email ? { email } : {}) } };
}

function baseState(): RemoteOrgState {
  return {
    org: 'org_t',
    organization: { id: 'org_t', title: 'Test', emailDomains: ['b.test', 'A.test'], inviteLinks: false },
    agentInstructions: { instructions: null },
    members: [member('u_b', 'b@t.test', 'read'), member('u_a', 'A@T.test', 'admin'), member('u_noemail', undefined, null)],
    teams: [],
    teamMembers: {},
    collections: [],
    spaces: [],
    sites: [],
    missingSites: [],
    saml: [],
    integrations: [],
    translations: [],
  };
}

const section = (id: string, path: string, spaces: Array<{ id: string; space: string; path?: string | null; condition?: string | null }>) => ({
  id,
  title: `Section ${path}`,
  path,
  description: null,
  icon: null,
  condition: null,
  draft: false,
  localizedTitle: null,
  localizedDescription: null,
  siteSpaces: spaces.map((s) => ({ path: null, condition: null, draft: false, hidden: false, default: false, ...s })),
});

describe('convertOrg', () => {
  it('writes members by email (lower-case) where known, else by user id, sorted; domains sorted; no prune', () => {
    const out = convert(baseState(), fileNamer());
    expect(out.document.members).toEqual([
      { user: 'a@t.test', role: 'admin' },
      { user: 'b@t.test', role: 'read' },
      { user: 'u_noemail', role: null },
    ]);
    expect((out.document.organization as Record<string, unknown>).emailDomains).toEqual(['A.test', 'b.test']);
    expect((out.document.organization as Record<string, unknown>).agentInstructions).toBeNull();
    expect(out.document).not.toHaveProperty('prune');
    expect(out.document).not.toHaveProperty('sites');
    expect(ConfigDocument.safeParse(out.document).success).toBe(true);
  });

  it('writes a plain document as text and any other document without the platform\'s block keys', () => {
    const state = baseState();
    state.agentInstructions = {
      instructions: {
        object: 'document',
        data: { schemaVersion: 1 },
        nodes: [
          { object: 'block', type: 'paragraph', key: 'k1', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'One.', marks: [] }] }] },
          { object: 'block', type: 'paragraph', key: 'k2', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Two.', marks: [] }] }] },
        ],
      },
    };
    state.translations = [
      {
        id: 'tr_1',
        language: 'fr',
        source: { space: 'space_a', language: 'en' },
        instructions: { object: 'document', nodes: [{ object: 'block', type: 'heading-1', key: 'random', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hi' }] }] }] },
      },
      { id: 'tr_2', language: 'de', source: { space: 'space_a', language: 'en' }, instructions: { object: 'document', nodes: [] } },
    ];
    const out = convert(state, fileNamer());
    expect((out.document.organization as Record<string, unknown>).agentInstructions).toBe('One.\n\nTwo.');
    expect(out.document.translations).toEqual([
      { id: 'tr_2', source: { space: 'space_a', language: 'en' }, language: 'de' },
      {
        id: 'tr_1',
        source: { space: 'space_a', language: 'en' },
        language: 'fr',
        instructions: { object: 'document', nodes: [{ object: 'block', type: 'heading-1', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hi' }] }] }] },
      },
    ]);
    expect(JSON.stringify(out.document)).not.toContain('random');
  });

  it('keeps one of each natural key the config cannot tell apart, and says which', () => {
    const state = baseState();
    state.members.push(member('u_a2', 'a@t.test', 'read'));
    state.teams = [
      { id: 'team_2', title: 'Docs' },
      { id: 'team_1', title: 'Docs' },
    ];
    state.collections = [
      { id: 'col_b', title: 'Same' },
      { id: 'col_a', title: 'Same' },
      { id: 'col_slash', title: 'A/B' },
      { id: 'col_child', title: 'Child', parent: 'col_slash' },
    ];
    state.spaces = [{ id: 'space_x', title: 'X', parent: 'col_child' }];
    state.sites = [
      {
        id: 'site_s',
        sections: [section('sec_empty', 'empty', []), section('sec_twice', 'twice', [{ id: 'ss_1', space: 'space_x' }, { id: 'ss_2', space: 'space_x' }])],
        groups: [],
        links: [],
        rootSiteSpaces: [],
        shareLinks: [
          { id: 'link_2', name: null, active: true },
          { id: 'link_1', name: 'n', active: true },
        ],
        top: [],
      },
    ];
    const out = convert(state, fileNamer());
    expect(out.document.teams).toEqual([{ id: 'team_1', title: 'Docs', members: [] }]);
    expect((out.document.collections as Array<{ id: string }>).map((c) => c.id)).toEqual(['col_a']);
    expect((out.document.spaces as Array<Record<string, unknown>>)[0]).not.toHaveProperty('collection');
    const site = (out.document.sites as Array<{ sections: Array<{ id: string; siteSpaces: unknown[] }>; shareLinks: unknown[] }>)[0];
    expect(site.sections.map((s) => s.id)).toEqual(['sec_twice']);
    expect(site.sections[0].siteSpaces).toEqual([{ id: 'ss_1', space: 'space_x', condition: null }]);
    expect(site.shareLinks).toEqual([{ id: 'link_1', name: 'n', active: true }]);
    expect(out.warnings).toEqual([
      'members: u_a2 and u_a share the email a@t.test; only u_a is written',
      'teams["Docs"]: teams team_1 and team_2 have the same title; the config names teams by title, so only team_1 is written (rename one in the app and import again)',
      'collections["Same"]: collections col_a and col_b have the same path; only col_a is written, with its children',
      'collections["A/B"]: collection col_slash has a "/" in its title, which the config\'s collection paths cannot hold; it is not written, nor its children',
      'spaces["space_x"]: its collection col_child is not written (see above), so the space\'s collection is left unmanaged',
      'sites["site_s"].sections["empty"]: section sec_empty holds no site space, and the config gives every section a space; it is not written (it stays unmanaged)',
      'sites["site_s"].sections["twice"].siteSpaces["space_x"]: the section shows this space twice; only the first site space is written (ss_2 is not)',
      'sites["site_s"].shareLinks: share link link_2 has no name, and the config names share links; it is not written',
    ]);
  });

  it('names SAML default teams by title, certificates and scripts by unique files, and the API\'s silences as warnings', () => {
    const state = baseState();
    state.teams = [{ id: 'team_1', title: 'Writers' }];
    state.saml = [
      { id: 's1', label: 'Okta', certificate: 'CERT', defaultTeam: { id: 'team_1' }, defaultRole: 'read' },
      { id: 's2', label: 'OKTA!', defaultTeam: { id: 'team_gone' } },
    ];
    state.integrations = [{ name: 'Tool', title: 'Tool', description: 'd', scopes: [] }];
    const files = fileNamer();
    files.claim('certs', 'okta', '.pem'); // taken by another organization of the same run
    const out = convert(state, files);
    expect(out.document.saml).toEqual([
      { id: 's2', label: 'OKTA!', defaultRole: null },
      { id: 's1', label: 'Okta', certificate: '${file:certs/okta-2.pem}', defaultTeam: 'Writers', defaultRole: 'read' },
    ]);
    expect(out.files.map((f) => [f.path, f.kind, f.address])).toEqual([
      ['certs/okta-2.pem', 'certificate', 'saml["Okta"]'],
      ['integrations/Tool.js', 'script', 'integrations["Tool"]'],
    ]);
    expect(out.warnings).toEqual([
      'saml["OKTA!"]: the API returned no certificate (none is set, or the API does not show it): the provider is imported without its certificate, which stays unmanaged (add certificate: ${file:…} to manage it)',
      'saml["OKTA!"]: its default team team_gone is not in the organization\'s team list; defaultTeam is left out (unmanaged)',
      'integrations["Tool"]: the API lists no scopes, and the config requires at least one; add them before planning',
    ]);
  });

  it('slugs and file names', () => {
    expect(slug('Azure AD (prod)', 'saml')).toBe('azure-ad-prod');
    expect(slug('Ünïcödé', 'saml')).toBe('unicode');
    expect(slug('!!!', 'saml')).toBe('saml');
    const names = fileNamer();
    expect([names.claim('certs', 'a', '.pem'), names.claim('certs', 'A', '.pem'), names.claim('certs', 'a', '.pem')]).toEqual(['certs/a.pem', 'certs/A-2.pem', 'certs/a-3.pem']);
  });
});

describe('what import writes reads back as the platform\'s values', () => {
  it('strings holding "${" or "$${" survive interpolation; titles that look like numbers stay strings', async () => {
    const tricky = ['visitor.claims.plan == "${pro}"', 'a $${b} c', 'ends with $', '$$${x}', 'plain'];
    const state = baseState();
    state.spaces = [{ id: 'space_x', title: '2023' }];
    state.collections = [{ id: 'col_1', title: '1.0', description: '${not a reference}' }];
    state.sites = [
      {
        id: 'site_s',
        sections: [section('sec_1', 'p', tricky.map((condition, i) => ({ id: `ss_${i}`, space: `space_${i}`, condition })))],
        groups: [],
        links: [],
        rootSiteSpaces: [],
        shareLinks: [],
        top: [],
      },
    ];
    const out = convert(state, fileNamer());
    const dir = mkdtempSync(join(tmpdir(), 'docplane-import-readback-'));
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'org_t.yaml'), configYaml('org_t', out.document));
      const config = await loadConfig({ path: dir, cwd: dir, env: {} });
      const org = config.orgs[0];
      expect(org.sites?.[0].sections?.[0].siteSpaces?.map((s) => s.condition)).toEqual(tricky);
      expect(org.collections?.[0]).toMatchObject({ title: '1.0', description: '${not a reference}' });
      expect(org.spaces?.[0].title).toBe('2023');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
