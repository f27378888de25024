/**
 * A member invited by email whose invitation is still pending. The live description offers no way to
 * see a pending invitation: `Member` has no pending state, no operation lists invitations by email
 * (`POST ORG/invites` answers only the users added; `listOrganizationInviteLinks` lists invite links,
 * not people). So a plan run while the invitation waits cannot tell the person from one never
 * invited, and invites them again: the API keeps one invitation, and no member is added twice.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { applyPlan } from '../../src/apply/executor.js';
import { loadConfig } from '../../src/config/load.js';
import { acceptInvitations } from '../../src/emulator/kinds/members.js';
import { startEmulator, type EmulatorState } from '../../src/emulator/server.js';
import { planOrgs } from '../../src/plan/run.js';

const STATE = {
  users: [{ id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' }],
  organizations: [{ id: 'org_acme', title: 'Acme', invitations: 'pending', members: [{ user: 'u_alice', role: 'admin' }] }],
} as unknown as EmulatorState;

const CONFIG = 'version: 1\norganization: { id: org_acme }\nmembers:\n  - { user: alice@acme.com, role: admin }\n  - { user: zoe@acme.com, role: edit }\n';

describe('an invitation still pending when the next plan runs', () => {
  it('is invited again (the description lists no pending invitations); the API keeps one, and accepting it makes one member', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docplane-pending-'));
    const emulator = await startEmulator({ port: 0, state: STATE });
    const client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 1 });
    try {
      writeFileSync(join(dir, 'docplane.yaml'), CONFIG, 'utf8');
      const config = await loadConfig({ path: join(dir, 'docplane.yaml'), cwd: dir, env: {} });
      const invites = () => planOrgs(config, client, { toolVersion: 'test' }).then((p) => p.steps.map((s) => `${s.action} ${s.address}`));
      expect(await invites()).toEqual(['create members["zoe@acme.com"]']);
      expect((await applyPlan(await planOrgs(config, client, { toolVersion: 'test' }), client, { concurrency: 2 })).failed).toEqual([]);
      // Pending: nothing the API answers tells this plan that Zoe was invited.
      expect(await invites()).toEqual(['create members["zoe@acme.com"]']);
      expect((await applyPlan(await planOrgs(config, client, { toolVersion: 'test' }), client, { concurrency: 2 })).failed).toEqual([]);
      const org = emulator.world.orgs.get('org_acme')!;
      expect(org.pendingInvitations.size).toBe(1);
      expect(acceptInvitations(emulator.world, org)).toHaveLength(1);
      expect(await invites()).toEqual([]);
      expect(org.members.size).toBe(2);
    } finally {
      await client.close();
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
