/**
 * Branding through the emulator: custom fonts (created, named by a site customization in the same
 * plan, updated, pruned), the organization's logo and default content, a space's icon and a site's
 * style guide. Each desired state is applied and then plans no changes; what is changed behind
 * docplane's back is planned and restored; import plans no changes; every exchange of these
 * endpoints passes the conformance check against the live description.
 */
import { describe, expect, it } from 'vitest';
import { convertOrg, fileNamer } from '../../src/import/convert.js';
import { readOrgState } from '../../src/import/read.js';
import { configYaml } from '../../src/import/yaml.js';
import { client as testClient } from '../emulator/helpers.js';
import { emulatorScenario } from './scenario.js';

const STATE = {
  tokens: [{ token: 'dev-token', access: 'write', user: 'u_alice' }],
  users: [{ id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' }],
  organizations: [
    {
      id: 'org_acme',
      title: 'Acme',
      members: [{ user: 'u_alice', role: 'admin' }],
      spaces: [
        { id: 'space_guides', title: 'Guides', emoji: '📘' },
        { id: 'space_style', title: 'Style guide' },
      ],
      sites: [{ id: 'site_docs', title: 'Docs', customization: { title: 'Docs' } }],
      fonts: [{ id: 'font_old', fontFamily: 'Old Serif', fontFaces: [{ weight: 400, storageKey: 'fonts/old-400.woff2' }] }],
    },
  ],
};

const STAGE_1 = `version: 1
organization:
  id: org_acme
  logo: https://cdn.acme.test/logo.png
  defaultContent: { site: site_docs }
fonts:
  - fontFamily: Acme Sans
    fontFaces:
      - { weight: 400, storageKey: fonts/acme-400.woff2 }
      - { weight: 700, storageKey: fonts/acme-700.woff2 }
spaces:
  - id: space_guides
    icon: https://cdn.acme.test/guides.png
sites:
  - id: site_docs
    styleguide: space_style
    customization:
      styling:
        font: { customFont: Acme Sans }
`;

describe('branding through the emulator', () => {
  const sc = emulatorScenario(STATE, 'branding');
  const { recorder } = sc;
  const planFor = sc.planFor;

  const rowsOf = (plan: Awaited<ReturnType<typeof planFor>>['plan']) => plan.steps.map((s) => `${s.action} ${s.address}`);

  const converge = sc.converge;

  const org = () => sc.emulator.world.orgs.get('org_acme')!;
  const fontByFamily = (family: string) => [...org().fonts.values()].find((f) => f.fontFamily === family);
  const customization = () => (org().sites.get('site_docs')!.customization as unknown as { doc: { styling: { font: unknown } } }).doc;

  it('creates a font and names it in a customization in one plan; sets the logo, default content, icon and style guide', async () => {
    const plan = await converge(STAGE_1);
    expect(rowsOf(plan)).toEqual(
      expect.arrayContaining([
        'update organization',
        'create fonts["Acme Sans"]',
        'update spaces["space_guides"]',
        'update sites["site_docs"]',
        'update sites["site_docs"].customization',
      ]),
    );
    const custom = plan.steps.find((s) => s.address === 'sites["site_docs"].customization')!;
    expect(custom.dependsOn).toContain('org_acme/fonts["Acme Sans"]:create');
    const font = fontByFamily('Acme Sans')!;
    expect([...font.faces.keys()].sort()).toEqual([400, 700]);
    expect(customization().styling.font).toMatchObject({ id: font.id, custom: true, fontFamily: 'Acme Sans' });
    expect(org().logo).toBe('https://cdn.acme.test/logo.png');
    expect(org().defaultContent).toEqual({ type: 'site', site: 'site_docs' });
    expect(sc.emulator.world.spaces.get('space_guides')).toMatchObject({ icon: 'https://cdn.acme.test/guides.png', emoji: undefined });
    expect(org().sites.get('site_docs')!.settings.styleguide).toBe('space_style');
    // Unpruned: the other font is left alone.
    expect(fontByFamily('Old Serif')).toBeDefined();
  });

  it('plans and restores what changed behind its back', async () => {
    const api = testClient(sc.emulator);
    const font = fontByFamily('Acme Sans')!;
    expect((await api.post(`/v1/orgs/org_acme/fonts/${font.id}`, { fontFaces: [{ weight: 700, storageKey: null }] })).status).toBe(201);
    expect((await api.patch('/v1/orgs/org_acme', { logo: null })).status).toBe(200);
    expect((await api.patch('/v1/spaces/space_guides', { emoji: '📗' })).status).toBe(200);
    expect((await api.patch('/v1/orgs/org_acme/sites/site_docs', { styleguide: null })).status).toBe(200);
    const { plan } = await planFor(STAGE_1);
    expect(plan.steps.map((s) => [s.address, s.changes.map((c) => c.path).sort()])).toEqual([
      ['organization', ['logo']],
      ['spaces["space_guides"]', ['icon']],
      ['fonts["Acme Sans"]', ['fontFaces.700']],
      ['sites["site_docs"]', ['styleguide']],
    ]);
    await converge(STAGE_1);
    expect([...fontByFamily('Acme Sans')!.faces.keys()].sort()).toEqual([400, 700]);
  });

  it('updates a face whose file changed and removes a weight the list leaves out', async () => {
    const yaml = STAGE_1.replace('      - { weight: 700, storageKey: fonts/acme-700.woff2 }\n', '').replace('fonts/acme-400.woff2', 'fonts/acme-400-v2.woff2');
    const plan = await converge(yaml);
    const step = plan.steps.find((s) => s.address === 'fonts["Acme Sans"]')!;
    expect(step.requests[0].body).toEqual({ fontFaces: [{ weight: 400, storageKey: 'fonts/acme-400-v2.woff2' }, { weight: 700, storageKey: null }] });
    expect(fontByFamily('Acme Sans')!.faces).toEqual(new Map([[400, 'fonts/acme-400-v2.woff2']]));
  });

  it('imports fonts, logo, default content, icon and style guide; the import plans no changes', async () => {
    const written = convertOrg(await readOrgState(sc.client, 'org_acme', []), fileNamer());
    const doc = written.document as Record<string, unknown> & { organization: Record<string, unknown>; fonts: unknown[] };
    expect(doc.organization).toMatchObject({ logo: 'https://cdn.acme.test/logo.png', defaultContent: { site: 'site_docs' } });
    expect(doc.fonts).toEqual([
      { id: fontByFamily('Acme Sans')!.id, fontFamily: 'Acme Sans', fontFaces: [{ weight: 400 }] },
      { id: 'font_old', fontFamily: 'Old Serif', fontFaces: [{ weight: 400 }] },
    ]);
    expect(JSON.stringify(doc.fonts)).not.toContain('storageKey');
    const { plan } = await planFor(configYaml('org_acme', written.document));
    expect(plan.problems).toEqual([]);
    expect(rowsOf(plan)).toEqual([]);
  });

  it('deletes a font the config leaves out when fonts are pruned', async () => {
    const plan = await converge(`${STAGE_1}prune: [fonts]\n`);
    expect(rowsOf(plan)).toContain('delete fonts["Old Serif"]');
    expect(fontByFamily('Old Serif')).toBeUndefined();
  });

  it('reports a customization naming no font, and a new face without its file, as plan problems', async () => {
    const { plan } = await planFor(STAGE_1.replace('{ customFont: Acme Sans }', '{ customFont: Nope Sans }').replace('spaces:\n', '      - { weight: 900 }\nspaces:\n'));
    expect(plan.problems.map((p) => p.message)).toEqual(
      expect.arrayContaining([expect.stringContaining('customFont "Nope Sans" names no font'), expect.stringContaining('weight 900 is new and has no storageKey')]),
    );
  });

  it('reads the fonts list only when the config names fonts', async () => {
    const from = recorder.exchanges.length;
    await planFor('version: 1\norganization: { id: org_acme }\nspaces:\n  - id: space_guides\n');
    expect(recorder.exchanges.slice(from).filter((e) => e.path.includes('/fonts'))).toEqual([]);
  });

  const OWN = /\/fonts|^PATCH \/orgs\/\{organizationId\}$|^PATCH \/spaces\/\{spaceId\}$|^PATCH \/orgs\/\{organizationId\}\/sites\/\{siteId\}$|customization/;

  it('sent and received only what the live description allows', () => {
    const own = recorder.problemCounts({ collapseIndices: true }).filter((p) => OWN.test(p.endpoint));
    expect(own.map((p) => `${p.endpoint}: ${p.problem.message}`)).toEqual([]);
    expect(recorder.summary().unknown).toBe(0);
  });
});
