/**
 * Members' roles (`members["alice@acme.com"]`). A member in the config who is not in the organization
 * is invited by email (POST ORG/invites, inviteUsersToOrganization: the invited user is listed as a
 * member at once, so the next plan does not invite again); a user id that names no member is a plan
 * problem. Members are matched by email (case-insensitive) or user id; pruned members are removed,
 * except SSO members while `safety.keepSsoMembers`; the organization always keeps an admin.
 */
import { fingerprint } from '../../core/json.js';
import { matchesAny, key } from '../../model/address.js';
import type { JsonObject } from '../../model/step.js';
import { emptyKindPlan, type KindPlan, type KindSpec } from '../kind.js';
import { deleteAddresses } from '../common/skeleton.js';
import { enc, orgPath } from '../common/paths.js';
import { step } from '../common/step.js';
import { findMember, indexMembers, memberLabel, notAMemberMessage, readMembers, type RemoteMember } from '../shared/members.js';

function normalized(m: RemoteMember): JsonObject {
  return { id: m.id, email: m.user?.email?.toLowerCase() ?? null, role: m.role ?? null, sso: m.sso === true };
}

export const membersModule: KindSpec<RemoteMember[] | undefined> = {
  kind: 'members',
  label: { one: 'member', many: 'members' },
  prunable: true,
  count: (org) => org.members?.length ?? 0,

  async read(ctx) {
    if (ctx.desired.members === undefined) return undefined;
    return readMembers(ctx);
  },

  plan(ctx, remote): KindPlan {
    const kp = emptyKindPlan();
    const desired = ctx.desired.members;
    if (desired === undefined || remote === undefined) return kp;
    kp.remoteCount = remote.length;
    const index = indexMembers(remote);
    const fingerprints: Record<string, string> = {};
    const matched = new Map<RemoteMember, string>(); // remote → the config `user` that named it
    const desiredRole = new Map<RemoteMember, string | null>(); // remote → the role the config gives it
    const removed = new Set<RemoteMember>();
    const addressOf = (user: string) => `members${key(user)}`;
    const kept: string[] = []; // SSO members the config leaves out and safety.keepSsoMembers keeps

    for (const d of desired) {
      const m = findMember(index, d.user);
      if (!m && d.user.includes('@')) {
        const address = addressOf(d.user);
        const after: JsonObject = { user: d.user.toLowerCase(), role: d.role };
        kp.steps.push(step({
          address,
          kind: 'members',
          action: 'create',
          before: null,
          after,
          // The invited user is listed as a member at once: after an unclear answer, the list tells whether it went through.
          requests: [
            {
              method: 'POST',
              path: `${orgPath(ctx.org)}/invites`,
              body: { emails: [{ email: d.user, role: d.role }], sso: false },
              // The answer names the user id (`users`), which team memberships and grants of this plan take.
              capture: true,
              lookup: { path: `${orgPath(ctx.org)}/members`, match: { 'user.email': d.user } },
            },
          ],
          needs: [],
          notes: [
            `invite: sends ${d.user} an invitation to organization ${ctx.org}; they are listed as a member from then on and not invited again`,
            `steps of this plan that name ${d.user} take the user id the invite answers; if the API leaves the invitation pending, they are not sent and the next apply completes them`,
          ],
        }));
        fingerprints[address] = fingerprint(null);
        continue;
      }
      if (!m) {
        kp.problems.push({ org: ctx.org, address: addressOf(d.user), message: notAMemberMessage(d.user, ctx.org) });
        continue;
      }
      const earlier = matched.get(m);
      if (earlier !== undefined) {
        kp.problems.push({ org: ctx.org, address: addressOf(d.user), message: `${d.user} names the same member as ${earlier}` });
        continue;
      }
      matched.set(m, d.user);
      desiredRole.set(m, d.role);
      if ((m.role ?? null) === d.role) continue;
      const address = addressOf(d.user);
      const before = { role: m.role ?? null };
      const after = { role: d.role };
      kp.steps.push(step({
        address,
        kind: 'members',
        action: 'update',
        before,
        after,
        requests: [{ method: 'PATCH', path: `${orgPath(ctx.org)}/members/${enc(m.id)}`, body: { role: d.role } }],
        remoteId: m.id }));
      fingerprints[address] = fingerprint(normalized(m));
    }

    const prune = ctx.prunes('members');
    const deleteAddress = deleteAddresses(addressOf, kp.steps.map((s) => s.address));
    for (const m of remote) {
      if (matched.has(m)) continue;
      const address = deleteAddress(memberLabel(m), m.id);
      if (!prune) {
        kp.unmanaged.push(address);
        continue;
      }
      if (m.sso === true && ctx.desired.safety.keepSsoMembers) {
        kp.unmanaged.push(address);
        kept.push(memberLabel(m));
        continue;
      }
      // A protected member stays (the builder leaves the delete out); count it as staying here too.
      if (!matchesAny(ctx.desired.protect, ctx.org, address)) removed.add(m);
      kp.steps.push(step({
        address,
        kind: 'members',
        action: 'delete',
        before: { user: memberLabel(m), role: m.role ?? null, sso: m.sso === true },
        after: null,
        changes: [],
        requests: [{ method: 'DELETE', path: `${orgPath(ctx.org)}/members/${enc(m.id)}` }],
        remoteId: m.id,
        // The live description (node_modules/@gitbook/api/spec/openapi.json): a member's DELETE may answer 202, a request sent to the admins.
        notes: ['the service may answer 202: the removal is then requested from the organization\'s admins, not done, and the member stays until they accept'] }));
      fingerprints[address] = fingerprint(normalized(m));
    }

    const adminsBefore = remote.filter((m) => m.role === 'admin').length;
    const adminsAfter = remote.filter((m) => !removed.has(m) && (desiredRole.has(m) ? desiredRole.get(m) : (m.role ?? null)) === 'admin').length;
    if (adminsBefore > 0 && adminsAfter === 0) {
      kp.problems.push({
        org: ctx.org,
        address: 'members',
        message: `the plan would leave organization ${ctx.org} without an admin; keep at least one member with role admin` });
    }
    if (kept.length > 0) {
      const shown = kept.sort().slice(0, 5).join(', ') + (kept.length > 5 ? ` and ${kept.length - 5} more` : '');
      kp.notes = [`safety.keepSsoMembers keeps ${kept.length} SSO member${kept.length === 1 ? '' : 's'} that prune: [members] would remove (${shown}); set safety.keepSsoMembers: false to remove them`];
    }
    kp.fingerprints = fingerprints;
    return kp;
  },
};

