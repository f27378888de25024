/** A `teams` entry: a team by title, and its members when listed. */
import { z } from 'zod';
import { Id, RenamedFrom, renamedFromNotOwn } from '../common/fields.js';

export const TeamRole = z.enum(['owner', 'member']);
export const TeamMember = z.union(
  [
    z.string().min(1).describe('Email or user id; role member'),
    z.strictObject({ user: z.string().min(1), role: TeamRole.default('member') }),
  ],
  { error: 'must be an email or user id, or {user, role}' },
);

export const Team = z
  .strictObject({
    id: Id.optional(),
    renamedFrom: RenamedFrom.optional(),
    title: z.string().min(1).max(64),
    members: z.array(TeamMember).optional().describe('The whole membership when present; unmanaged when absent'),
  })
  .superRefine(renamedFromNotOwn('title'));


export type TeamT = z.infer<typeof Team>;
export type TeamMemberT = z.infer<typeof TeamMember>;

declare module '../../model/desired.js' {
  interface DesiredLists {
    teams?: TeamT[];
  }
}
