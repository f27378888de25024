import { describe, expect, it } from 'vitest';
import { fakeClient, orgConfig, planKind, readContext } from '../plan/fixtures.js';
import type { IntegrationT } from '../../src/kinds/integrations/schema.js';
import { integrationsModule, SCRIPT_STUB_MARKER, type RemoteIntegration } from '../../src/kinds/integrations/integrations.js';

const desired: IntegrationT = {
  name: 'acme-analytics',
  title: 'Acme Analytics',
  description: 'Page analytics',
  script: 'export default {}',
  scopes: ['space:content:read', 'site:views:read'],
  secrets: { API_KEY: 'sk-123456789' },
};
const remoteOne: RemoteIntegration = { name: 'acme-analytics', version: 3, title: 'Acme Analytics', description: 'Page analytics', scopes: ['site:views:read', 'space:content:read'], visibility: 'private' };
const other: RemoteIntegration = { name: 'acme-other', version: 1, title: 'Other', description: 'x', scopes: [] };

describe('integrations', () => {
  it('an integration the config leaves out is unmanaged, or unpublished when integrations are pruned', () => {
    expect(planKind(integrationsModule, orgConfig({ integrations: [desired] }), [remoteOne, other]).unmanaged).toEqual(['integrations["acme-other"]']);
    const kp = planKind(integrationsModule, orgConfig({ integrations: [desired], prune: ['integrations'] }), [remoteOne, other]);
    expect(kp.unmanaged).toEqual([]);
    expect(kp.steps).toEqual([
      expect.objectContaining({
        address: 'integrations["acme-other"]',
        action: 'delete',
        before: { version: 1, title: 'Other', visibility: null },
        requests: [{ method: 'DELETE', path: '/v1/integrations/acme-other' }],
        notes: ['unpublished: the integration is removed from every organization that installed it'],
      }),
    ]);
    expect(Object.keys(kp.fingerprints)).toEqual(['integrations["acme-other"]']);
  });

  it('publishes a new integration with the whole body, script and secrets included', () => {
    const kp = planKind(integrationsModule, orgConfig({ integrations: [desired] }), [other]);
    expect(kp.steps).toHaveLength(1);
    expect(kp.steps[0]).toMatchObject({
      address: 'integrations["acme-analytics"]',
      action: 'publish',
      before: null,
      requests: [
        {
          method: 'POST',
          path: '/v1/integrations/acme-analytics',
          body: { title: 'Acme Analytics', description: 'Page analytics', scopes: desired.scopes, script: 'export default {}', organization: 'org_acme', secrets: { API_KEY: 'sk-123456789' } },
          capture: true,
        },
      ],
      notes: ['new integration: published for the first time'],
    });
    expect(kp.unmanaged).toHaveLength(1);
  });

  it('a new integration whose title looks like one the organization owns warns, naming both', () => {
    const kp = planKind(integrationsModule, orgConfig({ integrations: [{ ...desired, name: 'acme-analytics-2', title: 'Acme Analytics\u200b' }] }), [remoteOne]);
    expect(kp.steps[0]?.notes).toEqual([
      'new integration: published for the first time',
      'warning: integration title "Acme Analytics\u200b" is new, but looks the same as the existing integration title "Acme Analytics": they differ only by invisible or look-alike characters or whitespace; check the title is not a copy with a stray character',
    ]);
  });

  it('plans nothing when the comparable fields match (scopes as a set), and says script and secrets are not compared', () => {
    const kp = planKind(integrationsModule, orgConfig({ integrations: [desired] }), [remoteOne, other]);
    expect(kp.steps).toEqual([]);
    expect(kp.notes).toEqual([
      `integrations["acme-analytics"]: the API does not return an integration's script and secrets, so a change to them alone is not seen; to publish anyway, plan with --replace 'integrations["acme-analytics"]'`,
    ]);
  });

  it('publishes when a comparable field differs, noting fields the publish resets', () => {
    const kp = planKind(integrationsModule, orgConfig({ integrations: [{ ...desired, title: 'Analytics' }] }), [remoteOne]);
    expect(kp.steps[0].changes).toEqual([{ path: 'title', kind: 'change', before: 'Acme Analytics', after: 'Analytics' }]);
    expect(kp.steps[0].before).toMatchObject({ title: 'Acme Analytics', version: 3 });
    expect(kp.steps[0].notes).toEqual([
      "the API does not return script and secrets, so they are not compared; publishing sends the config's values",
      'publishing replaces the whole integration: visibility (not in the config) will be reset',
    ]);
  });

  it('publishes an unchanged integration when --replace names it', () => {
    const kp = planKind(integrationsModule, orgConfig({ integrations: [desired] }), [remoteOne], { replace: ['integrations["acme-analytics"]'] });
    expect(kp.steps.map((s) => [s.action, s.changes.length])).toEqual([['publish', 0]]);
    expect(kp.steps[0].notes?.[0]).toBe('published because of --replace');
    expect(kp.notes).toBeUndefined();
  });

  it('refuses to publish the script stub an import wrote', () => {
    const stub = { ...desired, script: `${SCRIPT_STUB_MARKER} of integration "acme-analytics".\n` };
    const kp = planKind(integrationsModule, orgConfig({ integrations: [stub] }), [remoteOne], { replace: ['integrations["acme-analytics"]'] });
    expect(kp.problems.map((p) => p.address)).toEqual(['integrations["acme-analytics"]']);
    expect(kp.problems[0].message).toMatch(/still the stub/);
    // Not published, and so no problem, while nothing asks for a publish.
    expect(planKind(integrationsModule, orgConfig({ integrations: [stub] }), [remoteOne]).problems).toEqual([]);
  });

  it('never deletes, even an integration the config leaves out', () => {
    const kp = planKind(integrationsModule, orgConfig({ integrations: [], prune: ['teams'] }), [remoteOne, other]);
    expect(kp.steps).toEqual([]);
    expect(kp.unmanaged).toHaveLength(2);
  });

  it('reads the integrations the organization owns', async () => {
    const client = fakeClient({ '/v1/integrations': [remoteOne] });
    await integrationsModule.read(readContext(orgConfig({ integrations: [desired] }), client));
    expect(client.calls).toEqual(['GET /v1/integrations?owner=org_acme']);
  });
});
