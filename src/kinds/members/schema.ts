/** A `members` entry: the role of a member, by email or user id (an email not in the organization is invited). */
import { z } from 'zod';
import { Role } from '../common/fields.js';

export const Member = z.strictObject({
  user: z.string().min(1).describe('Email or user id of a member; an email that is not a member yet is invited'),
  role: Role.nullable().describe('Role, or null for a guest'),
  sso: z
    .boolean()
    .optional()
    .describe('Whether the member signs in with SSO: true makes them an SSO member (one-way: the API cannot unset it; false is only checked); absent: unmanaged'),
});


export type MemberT = z.infer<typeof Member>;

declare module '../../model/desired.js' {
  interface DesiredLists {
    members?: MemberT[];
  }
}
