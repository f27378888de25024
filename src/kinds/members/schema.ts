/** A `members` entry: the role of an existing member, by email or user id. */
import { z } from 'zod';
import { Role } from '../common/fields.js';

export const Member = z.strictObject({
  user: z.string().min(1).describe('Email or user id of an existing member (the API cannot invite)'),
  role: Role.nullable().describe('Role, or null for a guest'),
});


export type MemberT = z.infer<typeof Member>;

declare module '../../model/desired.js' {
  interface DesiredLists {
    members?: MemberT[];
  }
}
