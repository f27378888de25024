/**
 * A member's removal that the API only accepts (202: a request sent to the admins) is reported as
 * requested, not done; the member is still there, so the check after apply says so.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { applyPlan } from '../../src/apply/executor.js';
import { renderApplySummary } from '../../src/apply/summary.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { planOrgs } from '../../src/plan/run.js';
import { loaded, orgConfig } from '../plan/fixtures.js';

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

describe('a removal the API only accepts (202)', () => {
  it('is applied as requested, not done, in text and json; the next plan still shows it', async () => {
    emu = await startEmulator({
      state: {
        tokens: [{ token: 'dev-token', access: 'write' }],
        users: [
          { id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' },
          { id: 'u_bob', email: 'bob@acme.com', displayName: 'Bob' },
        ],
        organizations: [{ id: 'org_acme', title: 'Acme', memberRemoval: 'request', members: [{ user: 'u_alice', role: 'admin' }, { user: 'u_bob', role: 'read' }] }],
      },
    });
    const client = createClient({ baseUrl: emu.url, token: 'dev-token' });
    try {
      const config = loaded([orgConfig({ members: [{ user: 'alice@acme.com', role: 'admin' }], prune: ['members'] })]);
      const plan = await planOrgs(config, client, { toolVersion: 'test' });
      expect(plan.steps.map((s) => `${s.action} ${s.address}`)).toEqual(['delete members["bob@acme.com"]']);
      const result = await applyPlan(plan, client, { concurrency: 4 });
      expect(result.applied.map((o) => [o.address, o.accepted])).toEqual([['members["bob@acme.com"]', true]]);
      const text = renderApplySummary(result, { format: 'text', secrets: [], color: false });
      expect(text).toContain('Requested, not done yet (the API accepted them for approval, 202):\n  … delete members["bob@acme.com"]');
      const json = JSON.parse(renderApplySummary(result, { format: 'json', secrets: [], color: false }));
      expect(json.applied[0].accepted).toBe(true);
      // The member is still there until an admin approves: the next plan proposes the removal again.
      expect(emu.world.orgs.get('org_acme')!.members.has('u_bob')).toBe(true);
      const again = await planOrgs(config, client, { toolVersion: 'test' });
      expect(again.steps.map((s) => s.address)).toEqual(['members["bob@acme.com"]']);
    } finally {
      await client.close();
    }
  });
});
