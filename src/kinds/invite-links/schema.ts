/**
 * An `inviteLinks` entry: the organization's invite link to one target — the organization itself
 * (with a `role`), a space or a collection (with a `level`). The target is the link's identity: one
 * link per target.
 */
import { z } from 'zod';
import { ROLES } from '../common/fields.js';

/** MemberRoleOrGuest: a role, or null for a guest. */
const RoleOrGuest = z.enum(ROLES).nullable();

export const InviteLink = z
  .strictObject({
    space: z.string().min(1).optional().describe('The space the link invites to: its id, or Collection/Title of a space the config lists without id'),
    collection: z.string().min(1).optional().describe('The collection the link invites to, by its path of titles ("Product/API")'),
    role: RoleOrGuest.optional().describe('For the organization\'s link: the role it gives (null: guest)'),
    level: RoleOrGuest.optional().describe('For a space\'s or a collection\'s link: the level it gives (null: guest)'),
  })
  .superRefine((value, ctx) => {
    if (value.space !== undefined && value.collection !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['collection'], message: 'an invite link has one target: give space or collection, not both' });
      return;
    }
    const target = value.space !== undefined ? 'space' : value.collection !== undefined ? 'collection' : undefined;
    if (target === undefined) {
      if (value.level !== undefined) ctx.addIssue({ code: 'custom', path: ['level'], message: 'the organization\'s invite link takes role, not level (level is for a space or a collection)' });
      else if (value.role === undefined) ctx.addIssue({ code: 'custom', path: [], message: 'role is missing: the organization\'s invite link gives a role (admin, create, review, edit, comment, read, or null for guests); or give space or collection' });
      return;
    }
    if (value.role !== undefined) ctx.addIssue({ code: 'custom', path: ['role'], message: `a ${target}'s invite link takes level, not role (role is for the organization's link)` });
    else if (value.level === undefined) ctx.addIssue({ code: 'custom', path: [], message: `level is missing: a ${target}'s invite link gives a level (admin, create, review, edit, comment, read, or null for guests)` });
  })
  .describe('An invite link of the organization, to the organization, a space or a collection; its id is a secret and never shown');

export type InviteLinkT = z.infer<typeof InviteLink>;

declare module '../../model/desired.js' {
  interface DesiredLists {
    inviteLinks?: InviteLinkT[];
  }
}
