/**
 * Unpublishing an integration the config no longer lists, in-process against the emulator (every
 * exchange checked against the live description): kept (unmanaged) without prune; with `prune:
 * [integrations]` a delete that needs --force, then unpublished, its installations gone with it, and
 * the next plan has nothing to do.
 */
import { describe, expect, it } from 'vitest';
import { emulatorScenario } from './scenario.js';

const STATE = {
  tokens: [{ token: 'dev-token', access: 'write' }],
  users: [{ id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' }],
  organizations: [
    {
      id: 'org_acme',
      title: 'Acme',
      members: [{ user: 'u_alice', role: 'admin' }],
      integrations: [
        { name: 'acme-kept', title: 'Kept', description: 'Kept', scopes: ['space:content:read'], script: 'export default {}' },
        { name: 'acme-old', title: 'Old', description: 'Old', scopes: ['space:content:read'], script: 'export default {}' },
      ],
      installations: [{ integration: 'acme-old' }],
    },
  ],
};

const KEPT = `version: 1
organization: { id: org_acme }
integrations:
  - { name: acme-kept, title: Kept, description: Kept, scopes: [space:content:read], script: "export default {}" }
`;

const s = emulatorScenario(STATE, 'integrations-prune');

describe('unpublishing an integration (in-process, emulator)', () => {
  it('without prune, an integration the config leaves out is unmanaged', async () => {
    const { plan } = await s.planFor(KEPT);
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged.org_acme.integrations).toEqual(['integrations["acme-old"]']);
  });

  it('with prune, it is unpublished (its installations go with it), and the next plan has nothing to do', async () => {
    // It reaches beyond this organization: apply refuses it without --force.
    const { plan } = await s.planFor(`${KEPT}prune: [integrations]\n`);
    expect(plan.violations.map((v) => v.message)).toEqual([
      'org_acme: deleting integrations["acme-old"] needs --force (unpublishing an integration removes it from every organization that installed it)',
    ]);
    const applied = await s.converge(`${KEPT}prune: [integrations]\n`);
    expect(applied.steps.map((x) => `${x.action} ${x.address}`)).toEqual(['delete integrations["acme-old"]']);
    const list = await s.client.listAll<{ name: string }>('/v1/integrations', { owner: 'org_acme' });
    expect(list.map((i) => i.name)).toEqual(['acme-kept']);
    const installations = await s.client.listAll<{ integration: unknown }>('/v1/orgs/org_acme/installations');
    expect(installations).toEqual([]);
  });

  it('publishes the blocks, content sources, configuration forms, icon and preview images it lists; the next plan compares what the API returns', async () => {
    const yaml = `version: 1
organization: { id: org_acme }
integrations:
  - name: acme-kept
    title: Kept
    description: Kept
    scopes: [space:content:read]
    script: "export default {}"
    icon: aWNvbg==
    previewImages: [cHJldmlldw==]
    blocks:
      - { id: status-badge, title: Status badge, description: Shows a status, urlUnfurl: ["https://status.acme.test/*"] }
    contentSources:
      - { id: tickets, title: Tickets, configuration: { componentId: configure } }
    configurations:
      account: { properties: { token: { type: string } } }
`;
    const applied = await s.converge(yaml);
    const body = applied.steps[0].requests[0].body as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(expect.arrayContaining(['icon', 'previewImages', 'blocks', 'contentSources', 'configurations']));
    // The icon and preview images are not returned as sent: a change to them alone is not seen.
    expect((applied.steps[0].notes ?? []).join('\n')).toContain('the API does not return script and icon and previewImages, so they are not compared');
    const { plan } = await s.planFor(yaml.replace('Shows a status', 'Shows the status'));
    expect(plan.steps.map((x) => x.changes.map((c) => c.path))).toEqual([['blocks["status-badge"].description']]);
  });
});
