/**
 * The customization a site space overrides, in-process against the emulator (every exchange checked
 * against the live description): plan → apply → plan (no changes), compared through the effective
 * values the API answers; drift restored; a dropped override (null) and `customization: null`; the
 * bad configs at file:line.
 */
import { describe, expect, it } from 'vitest';
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
      spaces: [{ id: 'space_en', title: 'Docs' }, { id: 'space_fr', title: 'Docs FR' }],
      sites: [
        {
          id: 'site_docs',
          title: 'Docs',
          customization: { styling: { corners: 'rounded', theme: 'clean' } },
          sections: [{ id: 'sec_docs', title: 'Docs', path: 'docs', siteSpaces: [{ space: 'space_en', path: 'en' }, { space: 'space_fr', path: 'fr' }] }],
        },
      ],
    },
  ],
};

const HEAD = 'version: 1\norganization: { id: org_acme }\nsites:\n  - id: site_docs\n    sections:\n      - path: docs\n        title: Docs\n        space: space_en\n        siteSpaces:\n          - { space: space_en, path: en }\n';
const FR = (customization: string) => `${HEAD}          - { space: space_fr, path: fr, customization: ${customization} }\n`;

const s = emulatorScenario(STATE, 'variants');
const effective = async () => {
  const structure = (await s.client.request('GET', '/v1/orgs/org_acme/sites/site_docs/structure')).body as { structure: Array<{ siteSpaces: Array<{ id: string; space: { id: string } }> }> };
  const fr = structure.structure[0].siteSpaces.find((x) => x.space.id === 'space_fr')!;
  return (await s.client.request('GET', `/v1/orgs/org_acme/sites/site_docs/site-spaces/${fr.id}/customization`)).body as { title: string; styling: Record<string, unknown> };
};

describe('the customization a site space overrides (in-process, emulator)', () => {
  it('plan, apply, plan again: no changes', async () => {
    const plan = await s.converge(FR('{ title: Docs en français, styling: { corners: straight } }'));
    expect(plan.steps.map((x) => ({ address: x.address, changes: x.changes.map((c) => `${c.path}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`) }))).toEqual([
      { address: 'sites["site_docs"].sections["docs"].siteSpaces["space_fr"].customization', changes: ['title: "Docs" → "Docs en français"', 'styling.corners: "rounded" → "straight"'] },
    ]);
    expect(await effective()).toMatchObject({ title: 'Docs en français', styling: { corners: 'straight', theme: 'clean' } });
  });

  it('a dropped override (null) is compared with the site\'s value', async () => {
    await s.converge(FR('{ title: Docs en français, styling: { corners: null } }'));
    expect((await effective()).styling.corners).toBe('rounded');
  });

  it('an override changed behind docplane\'s back is planned exactly and restored', async () => {
    const yaml = FR('{ title: Docs en français, styling: { corners: straight } }');
    await s.converge(yaml);
    const structure = (await s.client.request('GET', '/v1/orgs/org_acme/sites/site_docs/structure')).body as { structure: Array<{ siteSpaces: Array<{ id: string; space: { id: string } }> }> };
    const fr = structure.structure[0].siteSpaces.find((x) => x.space.id === 'space_fr')!;
    await s.client.request('PATCH', `/v1/orgs/org_acme/sites/site_docs/site-spaces/${fr.id}/customization`, { body: { styling: { corners: 'circular' } } });
    const { plan } = await s.planFor(yaml);
    expect(plan.steps.map((x) => x.changes.map((c) => `${c.path}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`))).toEqual([['styling.corners: "circular" → "straight"']]);
    await s.converge(yaml);
  });

  it('customization: null removes the overrides when the styling shows one', async () => {
    await s.converge(FR('{ styling: { theme: bold } }'));
    const plan = await s.converge(FR('null'));
    expect(plan.steps.map((x) => `${x.action} ${x.address}`)).toEqual(['delete sites["site_docs"].sections["docs"].siteSpaces["space_fr"].customization']);
    expect((await effective()).styling.theme).toBe('clean');
  });

  it('bad configs: a styling field a variant cannot override, a title too short', async () => {
    const problems = await withFiles({ 'docplane.yaml': FR('{ title: X, styling: { font: Inter } }') }, (t) => problemsOf({ cwd: t.dir }));
    expect(problems).toEqual([
      "docplane.yaml:11:66: sites[0].sections[0].siteSpaces[1].customization.title: must be at least 2 characters (the API's limit)",
      'docplane.yaml:11:80: sites[0].sections[0].siteSpaces[1].customization.styling.font: unknown key "font"',
    ]);
  });
});
