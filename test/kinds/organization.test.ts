import { describe, expect, it } from 'vitest';
import { textToDocument } from '../../src/core/richtext.js';
import { fakeClient, orgConfig, planKind, readContext } from '../plan/fixtures.js';
import { agentInstructionsModule } from '../../src/kinds/organization/agent-instructions.js';
import { organizationModule } from '../../src/kinds/organization/organization.js';

const remoteOrg = { id: 'org_acme', title: 'Acme', emailDomains: ['acme.com', 'acme.io'], defaultRole: 'read', inviteLinks: true, ai: false, plan: 'pro_2024', createdAt: 'x' };

describe('organization settings', () => {
  const cases: Array<[string, Parameters<typeof orgConfig>[0], Record<string, unknown> | null]> = [
    ['nothing managed, nothing planned', {}, null],
    ['the same values (email domains as a set)', { organization: { title: 'Acme', emailDomains: ['ACME.io', 'acme.com'], ai: false } }, null],
    ['only the differing fields', { organization: { title: 'Acme Inc', ai: false, inviteLinks: false } }, { title: 'Acme Inc', inviteLinks: false }],
    ['null clears the default role', { organization: { defaultRole: null } }, { defaultRole: null }],
    ['a field the remote lacks reads as null', { organization: { sso: true } }, { sso: true }],
  ];
  it.each(cases)('%s', (_name, config, body) => {
    const kp = planKind(organizationModule, orgConfig(config), { organization: remoteOrg });
    if (body === null) {
      expect(kp.steps).toEqual([]);
      return;
    }
    expect(kp.steps.map((s) => [s.address, s.action, s.requests])).toEqual([['organization', 'update', [{ method: 'PATCH', path: '/v1/orgs/org_acme', body }]]]);
    expect(kp.fingerprints.organization).toMatch(/^[0-9a-f]{64}$/);
  });

  it('shows before and after of the differing fields', () => {
    const kp = planKind(organizationModule, orgConfig({ organization: { title: 'Acme Inc', ai: false } }), { organization: remoteOrg });
    expect(kp.steps[0]).toMatchObject({ before: { title: 'Acme' }, after: { title: 'Acme Inc' }, changes: [{ path: 'title', kind: 'change', before: 'Acme', after: 'Acme Inc' }] });
  });
});

describe('agent instructions', () => {
  const keyed = (text: string) => {
    const d = textToDocument(text);
    return { ...d, nodes: d.nodes.map((n, i) => ({ ...n, key: `gen${i}` })) };
  };
  it('compares by content, so generated block keys make no difference', () => {
    const cfg = orgConfig({ organization: { agentInstructions: 'Be kind.\n\nBe brief.' } });
    expect(planKind(agentInstructionsModule, cfg, { instructions: keyed('Be kind.\n\nBe brief.') }).steps).toEqual([]);
  });

  it('replaces differing instructions with PUT, showing the text', () => {
    const cfg = orgConfig({ organization: { agentInstructions: 'Be kind.' } });
    const kp = planKind(agentInstructionsModule, cfg, { instructions: keyed('Be rude.') });
    expect(kp.steps).toMatchObject([
      {
        address: 'organization.agentInstructions',
        action: 'update',
        before: { instructions: 'Be rude.' },
        after: { instructions: 'Be kind.' },
        requests: [{ method: 'PUT', path: '/v1/orgs/org_acme/agent-instructions', body: { instructions: textToDocument('Be kind.') } }],
      },
    ]);
  });

  it('clears with an empty document for null, and plans nothing when there are none', () => {
    const cfg = orgConfig({ organization: { agentInstructions: null } });
    expect(planKind(agentInstructionsModule, cfg, { instructions: null }).steps).toEqual([]);
    expect(planKind(agentInstructionsModule, cfg, { instructions: { object: 'document', nodes: [] } }).steps).toEqual([]);
    const kp = planKind(agentInstructionsModule, cfg, { instructions: keyed('Old.') });
    expect(kp.steps[0].requests[0].body).toEqual({ instructions: { object: 'document', data: { schemaVersion: 1 }, nodes: [] } });
    expect(kp.steps[0].changes).toEqual([{ path: 'instructions', kind: 'remove', before: 'Old.' }]);
  });

  it('reads nothing when the config does not manage them, and a 404 as none', async () => {
    const none = fakeClient({});
    expect(await agentInstructionsModule.read(readContext(orgConfig(), none))).toBeUndefined();
    expect(none.calls).toEqual([]);
    const missing = fakeClient({});
    expect(await agentInstructionsModule.read(readContext(orgConfig({ organization: { agentInstructions: 'x' } }), missing))).toEqual({ instructions: null });
    const failing = fakeClient({}, { '/v1/orgs/org_acme/agent-instructions': 500 });
    await expect(agentInstructionsModule.read(readContext(orgConfig({ organization: { agentInstructions: 'x' } }), failing))).rejects.toThrow(/500/);
  });
});
