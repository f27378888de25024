/**
 * The organization's members as every unit that names a person reads them (members, teams, access,
 * spaces, the organization): one list read per plan, indexed by id and email, and how a config's
 * `user` (email or user id) is named in requests.
 */
import { key, ref } from '../../model/address.js';
import type { Reader } from '../kind.js';
import { orgPath } from '../common/paths.js';
import { lowerIfEmailAddress } from '../common/text.js';
import { MemberAnswer } from './member-answers.js';

/** Emails compare case-insensitively; user ids as given. */
export function lowerIfEmail(user: string): string {
  return lowerIfEmailAddress(user);
}

export interface RemoteMember {
  id: string;
  role: string | null;
  user: { id: string; email?: string; displayName?: string };
  sso?: boolean;
  disabled?: boolean;
}

/** Every member of the organization, read once per plan (and shared with every kind that names a member). */
export function readMembers(ctx: Reader): Promise<RemoteMember[]> {
  return ctx.shared('members', () => ctx.client.listAll<RemoteMember>(`${orgPath(ctx.org)}/members`, {}, { schema: MemberAnswer }));
}

export interface MemberIndex {
  byId: Map<string, RemoteMember>;
  byEmail: Map<string, RemoteMember>;
}

/** Each member list's index: a plan's kinds share one list read (readMembers), so it is indexed once. */
const indexes = new WeakMap<readonly RemoteMember[], MemberIndex>();

/** The members by id and by email (lower-case). A list read is never changed after: its index is kept. */
export function indexMembers(members: readonly RemoteMember[]): MemberIndex {
  const known = indexes.get(members);
  if (known) return known;
  const byId = new Map<string, RemoteMember>();
  const byEmail = new Map<string, RemoteMember>();
  for (const m of members) {
    byId.set(m.id, m);
    if (m.user?.email) byEmail.set(m.user.email.toLowerCase(), m);
  }
  const index = { byId, byEmail };
  indexes.set(members, index);
  return index;
}

/** The member a config `user` (email or user id) names, if any. */
export function findMember(index: MemberIndex, user: string): RemoteMember | undefined {
  return index.byId.get(user) ?? index.byEmail.get(user.toLowerCase());
}

/** How a member is shown and keyed in diffs: the email (lower-case) when known, else the user id. */
export function memberLabel(m: Pick<RemoteMember, 'id' | 'user'>): string {
  return m.user?.email ? m.user.email.toLowerCase() : m.id;
}

export function notAMemberMessage(user: string, org: string): string {
  return user.includes('@')
    ? `${user} is not a member of organization ${org}; list their email under members (this plan then invites them and uses them at once), or remove them from the config`
    : `${user} is not a member of organization ${org}; a user id cannot be invited: list the person's email under members to invite them, or remove them from the config`;
}


/**
 * How a config's `user` (email or user id) is named in requests: the member's id, or, for a person
 * this plan invites (listed under `members` by email), a ref to the invite's answer and the invite's
 * address to wait for. Undefined when the person is neither a member nor invited.
 */
export interface MemberRef {
  id: string;
  /** How the member is shown and keyed in diffs (memberLabel). */
  label: string;
  /** The invite step this reference waits for, when the plan invites the person. */
  invite?: string;
  /** The member, when it exists. */
  member?: RemoteMember;
}

export function memberRefs(org: string, desired: readonly { user: string }[] | undefined, index: MemberIndex): (user: string) => MemberRef | undefined {
  const invited = new Map<string, string>();
  for (const d of desired ?? []) if (d.user.includes('@') && !findMember(index, d.user) && !invited.has(d.user.toLowerCase())) invited.set(d.user.toLowerCase(), d.user);
  return (user) => {
    const m = findMember(index, user);
    if (m) return { id: m.id, label: memberLabel(m), member: m };
    const written = invited.get(user.toLowerCase());
    if (written === undefined) return undefined;
    const address = `members${key(written)}`;
    return { id: ref(org, address, 'users.0|id'), label: written.toLowerCase(), invite: address };
  };
}
