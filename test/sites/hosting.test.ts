/**
 * A site's custom hostname and its visitor-auth key, in-process against the emulator (every exchange
 * checked against the live description): `customHostname: null` removes the hostname, then plans no
 * changes; a hostname the config names that the site lacks is a plan problem (the API sets none);
 * `prune: [customHostnames]` removes one a listed site's entry leaves out; `--replace` on the key's
 * address rotates it (and a site's address alone does not); the new key in no rendering.
 */
import { describe, expect, it } from 'vitest';
import { maskPlan, renderJson } from '../../src/render/index.js';
import { planOrgs } from '../../src/plan/run.js';
import { loadConfig } from '../../src/config/load.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyPlan } from '../../src/apply/executor.js';
import { problemsOf, withFiles } from '../config/helpers.js';
import { emulatorScenario } from '../kinds/scenario.js';

const STATE = {
  tokens: [{ token: 'dev-token', access: 'write' }],
  users: [{ id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' }],
  organizations: [
    {
      id: 'org_acme',
      title: 'Acme',
      members: [{ user: 'u_alice', role: 'admin' }],
      sites: [
        { id: 'site_docs', title: 'Docs', visibility: 'visitor-auth', publishingAuth: { backend: 'custom' } },
        { id: 'site_help', title: 'Help' },
      ],
      customHostnames: [
        { hostname: 'docs.acme.test', site: 'site_docs' },
        { hostname: 'help.acme.test', site: 'site_help' },
      ],
    },
  ],
};

const s = emulatorScenario(STATE, 'hosting');
const hostnameOf = async (site: string) => ((await s.client.request('GET', `/v1/orgs/org_acme/sites/${site}`)).body as { hostname?: string }).hostname;
const keyOf = async () => ((await s.client.request('GET', '/v1/orgs/org_acme/sites/site_docs/publishing/auth')).body as { privateKey: string }).privateKey;

describe('a site\'s hosting (in-process, emulator)', () => {
  it('a hostname the config names is compared; another one is a plan problem (the API sets none)', async () => {
    const same = await s.planFor('version: 1\norganization: { id: org_acme }\nsites:\n  - { id: site_docs, customHostname: docs.acme.test }\n');
    expect(same.plan.steps).toEqual([]);
    const other = await s.planFor('version: 1\norganization: { id: org_acme }\nsites:\n  - { id: site_docs, customHostname: www.acme.test }\n');
    expect(other.plan.problems.map((p) => p.message)).toEqual([
      'site site_docs has the custom hostname docs.acme.test; the API cannot set one (connect www.acme.test in the app, where its DNS is checked), only remove one (customHostname: null)',
    ]);
  });

  it('customHostname: null removes it, and the next plan has nothing to do', async () => {
    const plan = await s.converge('version: 1\norganization: { id: org_acme }\nsites:\n  - { id: site_docs, customHostname: null }\n');
    expect(plan.steps.map((x) => ({ address: x.address, action: x.action, requests: x.requests }))).toEqual([
      { address: 'sites["site_docs"].customHostname', action: 'delete', requests: [{ method: 'DELETE', path: '/v1/custom-hostnames/docs.acme.test' }] },
    ]);
    expect(await hostnameOf('site_docs')).toBeUndefined();
    expect(await hostnameOf('site_help')).toBe('help.acme.test');
  });

  it('prune: [customHostnames] removes the hostname of a listed site whose entry leaves it out', async () => {
    const plan = await s.converge('version: 1\norganization: { id: org_acme }\nsites:\n  - { id: site_help, title: Help }\nprune: [customHostnames]\n');
    expect(plan.steps.map((x) => `${x.action} ${x.address}`)).toEqual(['delete sites["site_help"].customHostname']);
    expect(await hostnameOf('site_help')).toBeUndefined();
  });

  it('--replace on the key\'s address rotates the visitor-auth key; the new key is shown nowhere', async () => {
    const yaml = 'version: 1\norganization: { id: org_acme }\nsites:\n  - id: site_docs\n    publishingAuth: { backend: custom }\n';
    const path = join(s.dir, 'docplane.yaml');
    writeFileSync(path, yaml);
    const config = await loadConfig({ path });
    expect((await planOrgs(config, s.client, { toolVersion: 'test', replace: ['sites["site_docs"]'] })).steps).toEqual([]);
    const address = 'sites["site_docs"].publishingAuth.privateKey';
    const plan = await planOrgs(config, s.client, { toolVersion: 'test', replace: [address] });
    expect(plan.steps.map((x) => ({ address: x.address, requests: x.requests }))).toEqual([
      { address, requests: [{ method: 'POST', path: '/v1/orgs/org_acme/sites/site_docs/publishing/auth/regenerate' }] },
    ]);
    const before = await keyOf();
    const result = await applyPlan(plan, s.client, { concurrency: 8, backoffBaseMs: 2 });
    expect(result.failed).toEqual([]);
    const after = await keyOf();
    expect(after).not.toBe(before);
    expect(renderJson(maskPlan(plan, config.secrets))).not.toContain(after);
    // Without --replace there is nothing to do.
    expect((await planOrgs(config, s.client, { toolVersion: 'test' })).steps).toEqual([]);
  });
});

describe('bad configs', () => {
  it('a custom hostname that is not a host name', async () => {
    const problems = await withFiles({ 'docplane.yaml': 'version: 1\norganization: { id: org_acme }\nsites:\n  - { id: site_docs, customHostname: Docs.Acme }\n' }, (t) => problemsOf({ cwd: t.dir }));
    expect(problems).toEqual(['docplane.yaml:4:38: sites[0].customHostname: must be a lower-case host name such as docs.acme.com']);
  });
});

describe('the default site space of a site without sections (in-process, emulator)', () => {
  const state = {
    tokens: [{ token: 'dev-token', access: 'write' }],
    users: [{ id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' }],
    organizations: [
      {
        id: 'org_acme',
        title: 'Acme',
        members: [{ user: 'u_alice', role: 'admin' }],
        spaces: [{ id: 'space_a', title: 'A' }, { id: 'space_b', title: 'B' }, { id: 'space_c', title: 'C' }],
        sites: [{ id: 'site_root', title: 'Root', siteSpaces: [{ space: 'space_a', path: 'a' }, { space: 'space_b', path: 'b' }] }],
      },
    ],
  };
  const r = emulatorScenario(state, 'default-site-space');
  const defaultOf = async () => {
    const body = (await r.client.request('GET', '/v1/orgs/org_acme/sites/site_root/structure')).body as { structure: Array<{ space: { id: string }; default?: boolean }> };
    return body.structure.find((ss) => ss.default)?.space.id;
  };

  it('sets an existing root site space as the default, then plans no changes', async () => {
    const plan = await r.converge('version: 1\norganization: { id: org_acme }\nsites:\n  - id: site_root\n    defaultSiteSpace: space_b\n');
    expect(plan.steps.map((x) => `${x.action} ${x.address}`)).toEqual(['update sites["site_root"].defaultSiteSpace']);
    expect(await defaultOf()).toBe('space_b');
  });

  it('a space this plan adds at the root: its site space is made, then made the default', async () => {
    await r.converge('version: 1\norganization: { id: org_acme }\nsites:\n  - id: site_root\n    defaultSiteSpace: space_c\n    siteSpaces: [{ space: space_c, path: c }, { space: space_a, path: a }, { space: space_b, path: b }]\n');
    expect(await defaultOf()).toBe('space_c');
  });

  it('bad configs: not the first of the listed site spaces; on a site with sections', async () => {
    const problems = await withFiles(
      {
        'docplane.yaml':
          'version: 1\norganization: { id: org_acme }\nsites:\n  - id: site_root\n    defaultSiteSpace: space_b\n    siteSpaces: [{ space: space_a }, { space: space_b }]\n  - id: site_x\n    defaultSiteSpace: space_a\n    sections: [{ path: g, title: Guides, space: space_a }]\n',
      },
      (t) => problemsOf({ cwd: t.dir }),
    );
    expect(problems).toEqual([
      'docplane.yaml:5:23: sites[0].defaultSiteSpace: the default site space is shown first: list space_b first under siteSpaces',
      'docplane.yaml:8:23: sites[1].defaultSiteSpace: a site with sections has a default site space per section: set defaultSiteSpace on the section',
    ]);
  });
});
