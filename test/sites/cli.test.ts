/**
 * A site's whole structure through the built CLI against the emulator: a config with nested groups,
 * external links and a site whose spaces sit at its root is applied, and the next plan is empty;
 * import writes every shape back (plan: no changes; import again: the same bytes); a link changed
 * behind docplane's back is planned as exactly that change and restored by apply.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorState, type RunningEmulator } from '../../src/emulator/server.js';
import { api, ensureBuilt, readTree, runCli, type CliResult } from '../import/helpers.js';

const ORG = 'org_tree';
let emulator: RunningEmulator;
let work: string;

const state = {
  tokens: [{ token: 'dev-token', access: 'write' }],
  users: [{ id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' }],
  organizations: [
    {
      id: ORG,
      title: 'Tree',
      members: [{ user: 'u_alice', role: 'admin' }],
      spaces: ['guides', 'api', 'sdk', 'cli', 'v1', 'v2', 'beta'].map((s) => ({ id: `space_${s}`, title: s.toUpperCase() })),
      sites: [
        {
          id: 'site_tree',
          title: 'Tree',
          sections: [
            { id: 'sec_guides', title: 'Guides', path: 'guides', siteSpaces: [{ space: 'space_guides', path: 'guides' }] },
            { id: 'sec_api', title: 'API', path: 'api', siteSpaces: [{ space: 'space_api', path: 'api' }] },
          ],
          sectionGroups: [{ id: 'grp_ref', title: 'Reference', sections: ['api'] }],
          externalLinks: [{ id: 'ext_old', title: 'Old status', url: 'https://old.example.com' }],
        },
        { id: 'site_root', title: 'Root', siteSpaces: [{ id: 'ss_v1', space: 'space_v1', path: 'v1' }] },
        { id: 'site_plain', title: 'Plain', sections: [{ id: 'sec_p', title: 'Plain', path: 'plain', siteSpaces: [{ space: 'space_cli', path: 'cli' }] }] },
      ],
    },
  ],
} as unknown as EmulatorState;

const CONFIG = `version: 1
organization:
  id: ${ORG}
sites:
  - id: site_tree
    sections:
      - { path: guides, title: Guides, space: space_guides, localizedTitle: { fr: Guides FR } }
      - { path: api, title: API, space: space_api }
      - path: sdk
        title: SDK
        space: space_sdk
        draft: true
        defaultSiteSpace: space_beta
        siteSpaces: [{ space: space_sdk, path: sdk }, { space: space_beta, path: beta, hidden: true }]
    sectionGroups:
      - { title: Reference, sections: [api] }
      - { title: Libraries, parent: Reference, sections: [sdk] }
    externalLinks:
      - { title: Status, url: "https://status.example.com", group: Libraries, icon: signal }
      - { title: Community, url: "https://forum.example.com", description: Ask us }
    order: [{ section: guides }, { link: Community }, { group: Reference }]
  - id: site_root
    siteSpaces:
      - { space: space_v2, path: v2 }
      - { space: space_v1, path: v1, draft: true }
prune: [externalLinks]
`;

function cli(args: string[], token = 'dev-token'): Promise<CliResult> {
  return runCli(args, { DOCPLANE_API_URL: emulator.url, DOCPLANE_TOKEN: token }, work);
}

interface JsonPlan {
  steps: Array<{ address: string; action: string; changes: Array<{ path: string; before?: unknown; after?: unknown }> }>;
}

beforeAll(async () => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'docplane-sites-cli-'));
  writeFileSync(join(work, 'docplane.yaml'), CONFIG);
  emulator = await startEmulator({ port: 0, state, seed: 5 });
});

afterAll(async () => {
  await emulator?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('a site\'s whole structure through the CLI', () => {
  it('applies nested groups, links, draft/hidden, defaultSiteSpace and root site spaces; the next plan is empty', async () => {
    const applied = await cli(['apply', '--auto-approve', '-c', 'docplane.yaml']);
    expect(applied.code, applied.stderr + applied.stdout).toBe(0);
    const again = await cli(['plan', '-c', 'docplane.yaml', '--detailed-exitcode']);
    expect(again.stdout + again.stderr).toContain('No changes.');
    expect(again.code).toBe(0);

    const site = emulator.world.orgs.get(ORG)!.sites.get('site_tree')!;
    const name = (t: { type: string; id: string }) =>
      t.type === 'section' ? site.sections.get(t.id)!.path : t.type === 'group' ? site.groups.get(t.id)!.title : site.links.get(t.id)!.title;
    expect(site.top.map(name)).toEqual(['guides', 'Community', 'Reference']);
    const reference = [...site.groups.values()].find((g) => g.title === 'Reference')!;
    const libraries = [...site.groups.values()].find((g) => g.title === 'Libraries')!;
    expect(reference.children.map(name)).toEqual(['api', 'Libraries']);
    expect(libraries.children.map(name)).toEqual(['sdk', 'Status']);
    expect([...site.links.values()].map((l) => l.title).sort()).toEqual(['Community', 'Status']);
    const root = emulator.world.orgs.get(ORG)!.sites.get('site_root')!;
    expect(root.rootSiteSpaces.map((id) => [root.siteSpaces.get(id)!.space, root.siteSpaces.get(id)!.draft])).toEqual([
      ['space_v2', false],
      ['space_v1', true],
    ]);
  });

  it('imports every shape so that plan shows no changes, and a second import gives the same bytes', async () => {
    const sites = ['site_tree', 'site_root', 'site_plain'].flatMap((s) => ['--site', s]);
    const first = await cli(['import', '--org', ORG, ...sites, '--out', 'first']);
    expect(first.code, first.stderr).toBe(0);
    const plan = await cli(['plan', '-c', 'first', '--detailed-exitcode']);
    expect(plan.stdout + plan.stderr).toContain('No changes.');
    expect(plan.code).toBe(0);
    const second = await cli(['import', '--org', ORG, ...sites, '--out', 'second']);
    expect(second.code, second.stderr).toBe(0);
    expect(readTree(join(work, 'second'))).toEqual(readTree(join(work, 'first')));
    const yaml = readTree(join(work, 'first'))[`${ORG}.yaml`];
    expect(yaml).toContain('parent: Reference');
    expect(yaml).toContain('group: Libraries');
    expect(yaml).toContain('defaultSiteSpace: space_beta');
  });

  it('plans a link changed behind docplane\'s back as exactly that change, and apply restores it', async () => {
    const site = emulator.world.orgs.get(ORG)!.sites.get('site_tree')!;
    const status = [...site.links.values()].find((l) => l.title === 'Status')!;
    expect(await api(emulator.url, 'PATCH', `/v1/orgs/${ORG}/sites/site_tree/external-links/${status.id}`, { url: 'https://elsewhere.example.com' })).toBe(200);
    const plan = await cli(['plan', '-c', 'docplane.yaml', '--format', 'json', '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    const steps = (JSON.parse(plan.stdout) as JsonPlan).steps;
    expect(steps.map((s) => [s.action, s.address, s.changes])).toEqual([
      ['update', 'sites["site_tree"].externalLinks["Status"]', [expect.objectContaining({ path: 'url', before: 'https://elsewhere.example.com', after: 'https://status.example.com' })]],
    ]);
    const applied = await cli(['apply', '--auto-approve', '-c', 'docplane.yaml']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(status.url).toBe('https://status.example.com');
    expect((await cli(['plan', '-c', 'docplane.yaml', '--detailed-exitcode'])).code).toBe(0);
  });
});
