/**
 * Members' roles (`members["alice@acme.com"]`). A member in the config who is not in the organization
 * is invited by email (POST ORG/invites, inviteUsersToOrganization: the invited user is listed as a
 * member at once, so the next plan does not invite again); a user id that names no member is a plan
 * problem. Members are matched by email (case-insensitive) or user id; pruned members are removed,
 * except SSO members while `safety.keepSsoMembers`; the organization always keeps an admin.
 */
import { matchesAny, key } from '../../model/address.js';
import type { JsonObject, RequestSpec } from '../../model/step.js';
import { emptyKindPlan, type KindPlan, type KindSpec } from '../kind.js';
import { analyse } from '../common/analyse.js';
import { enc, orgPath } from '../common/paths.js';
import { step } from '../common/step.js';
import { memberLabel, notAMemberMessage, readMembers, type RemoteMember } from '../shared/members.js';
import type { MemberT } from './schema.js';

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
    const desired = ctx.desired.members;
    if (desired === undefined || remote === undefined) return emptyKindPlan();
    const addressOf = (user: string) => `members${key(user)}`;
    const keepSso = (m: RemoteMember) => m.sso === true && ctx.desired.safety.keepSsoMembers;
    const ssoNotes: string[] = [];
    const { plan: kp, pairs } = analyse<MemberT, RemoteMember>(ctx.org, desired, remote, {
      kind: 'members',
      what: 'members',
      address: addressOf,
      // A member is named by user id, or by email (case-insensitive).
      addressKey: (d) => d.user,
      desiredId: (d) => (d.user.includes('@') ? undefined : d.user),
      desiredKey: (d) => (d.user.includes('@') ? d.user : ''),
      remoteKey: memberLabel,
      normalize: (k) => k.toLowerCase(),
      remoteId: (m) => m.id,
      prune: ctx.prunes('members'),
      keep: keepSso,
      fingerprint: normalized,
      observe: (m) => ({ user: memberLabel(m), role: m.role ?? null }),
      create(d, address) {
        if (!d.user.includes('@')) return { problems: [{ org: ctx.org, address, message: notAMemberMessage(d.user, ctx.org) }] };
        return [step({
          address,
          kind: 'members',
          action: 'create',
          before: null,
          after: { user: d.user.toLowerCase(), role: d.role, ...(d.sso !== undefined ? { sso: d.sso } : {}) },
          // The invited user is listed as a member at once: after an unclear answer, the list tells whether it went through.
          requests: [
            {
              method: 'POST',
              path: `${orgPath(ctx.org)}/invites`,
              body: { emails: [{ email: d.user, role: d.role }], sso: d.sso === true },
              // The answer names the user id (`users`), which team memberships and grants of this plan take.
              capture: true,
              lookup: { path: `${orgPath(ctx.org)}/members`, match: { 'user.email': d.user } },
            },
          ],
          notes: [
            `invite: sends ${d.user} an invitation to organization ${ctx.org}; they are listed as a member from then on and not invited again`,
            `steps of this plan that name ${d.user} take the user id the invite answers; if the API leaves the invitation pending, they are not sent and the next apply completes them`,
          ],
        })];
      },
      update(d, m, address) {
        // The SSO flag goes one way: setUserAsSSOMemberForOrganization sets it, nothing unsets it.
        if (d.sso === false && m.sso === true) {
          ssoNotes.push(`${address}: sso: false cannot be applied: the API makes a member an SSO member (setUserAsSSOMemberForOrganization) but never undoes it; change it in the app, or remove sso from the entry`);
        }
        const toSso = d.sso === true && m.sso !== true;
        const roleDiffers = (m.role ?? null) !== d.role;
        if (!roleDiffers && !toSso) return [];
        const before: JsonObject = {};
        const after: JsonObject = {};
        const requests: RequestSpec[] = [];
        if (roleDiffers) {
          before.role = m.role ?? null;
          after.role = d.role;
          requests.push({ method: 'PATCH', path: `${orgPath(ctx.org)}/members/${enc(m.id)}`, body: { role: d.role } });
        }
        if (toSso) {
          before.sso = false;
          after.sso = true;
          requests.push({ method: 'POST', path: `${orgPath(ctx.org)}/members/${enc(m.id)}/sso` });
        }
        return [step({
          address,
          kind: 'members',
          action: 'update',
          before,
          after,
          requests,
          remoteId: m.id,
          ...(toSso ? { notes: ['one-way: the API makes the member an SSO member, and cannot make them a non-SSO member again'] } : {}),
        })];
      },
      remove: (m) => ({
        before: { user: memberLabel(m), role: m.role ?? null, sso: m.sso === true },
        requests: [{ method: 'DELETE', path: `${orgPath(ctx.org)}/members/${enc(m.id)}` }],
        // The live description (node_modules/@gitbook/api/spec/openapi.json): a member's DELETE may answer 202, a request sent to the admins.
        notes: ['the service may answer 202: the removal is then requested from the organization\'s admins, not done, and the member stays until they accept'],
      }),
    });
    const desiredRole = new Map(pairs.flatMap((p) => (p.remote ? [[p.remote, p.desired.role] as const] : [])));
    // A protected member stays (the builder leaves the delete out); count it as staying here too.
    const removed = new Set(kp.steps.filter((s) => s.action === 'delete' && !matchesAny(ctx.desired.protect, ctx.org, s.address)).map((s) => s.remoteId));
    const kept = ctx.prunes('members') ? remote.filter((m) => keepSso(m) && !pairs.some((p) => p.remote === m)).map(memberLabel) : [];

    const adminsBefore = remote.filter((m) => m.role === 'admin').length;
    const adminsAfter = remote.filter((m) => !removed.has(m.id) && (desiredRole.has(m) ? desiredRole.get(m) : (m.role ?? null)) === 'admin').length;
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
    if (ssoNotes.length > 0) kp.notes = [...(kp.notes ?? []), ...ssoNotes];
    return kp;
  },
};
