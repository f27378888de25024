/**
 * A member's SSO flag through the emulator (every exchange checked against the live description):
 * `sso: true` makes a member an SSO member and the next plan has nothing to do; the import writes the
 * flag and plans no changes; `sso: false` on an SSO member is a note, not a step (the API cannot undo it).
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { runImport } from '../../src/import/run.js';
import { emulatorScenario } from './scenario.js';

const STATE = {
  tokens: [{ token: 'dev-token', access: 'write' }],
  users: [
    { id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' },
    { id: 'u_bob', email: 'bob@acme.com', displayName: 'Bob' },
  ],
  organizations: [{ id: 'org_acme', title: 'Acme', members: [{ user: 'u_alice', role: 'admin' }, { user: 'u_bob', role: 'read' }] }],
};

const s = emulatorScenario(STATE, 'members-sso');
const CONFIG = 'version: 1\norganization: { id: org_acme }\nmembers:\n  - { user: bob@acme.com, role: edit, sso: true }\n';

describe('a member\'s SSO flag (in-process, emulator)', () => {
  it('sso: true makes the member an SSO member, and the next plan has nothing to do', async () => {
    const plan = await s.converge(CONFIG);
    expect(plan.steps.map((x) => x.requests.map((r) => `${r.method} ${r.path}`))).toEqual([['PATCH /v1/orgs/org_acme/members/u_bob', 'POST /v1/orgs/org_acme/members/u_bob/sso']]);
    expect(((await s.client.request('GET', '/v1/orgs/org_acme/members/u_bob')).body as { sso: boolean }).sso).toBe(true);
  });

  it('the import writes the flag and plans no changes', async () => {
    const imported = await runImport({ orgs: ['org_acme'], out: 'imported', cwd: s.dir, connect: async () => createClient({ baseUrl: s.emulator.url, token: 'dev-token' }) });
    expect(imported.documents[0].yaml).toContain('- { user: bob@acme.com, role: edit, sso: true }');
    expect((await s.planFor(imported.documents[0].yaml)).plan.steps).toEqual([]);
  });

  it('sso: false on an SSO member is a note: the API cannot undo it', async () => {
    const { plan } = await s.planFor(CONFIG.replace('sso: true', 'sso: false'));
    expect(plan.steps).toEqual([]);
    expect((plan.notes ?? []).join('\n')).toContain('members["bob@acme.com"]: sso: false cannot be applied');
  });
});
