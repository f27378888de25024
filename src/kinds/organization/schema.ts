/** The `organization` mapping of a config: the organization's settings and its agent instructions. */
import { z } from 'zod';
import { Id, Instructions, Role } from '../common/fields.js';
import { MergeRules } from '../shared/merge-rules.js';

export const Organization = z
  .strictObject({
    id: Id.describe('The organization to manage (the API cannot create one)'),
    title: z.string().min(2).max(255).optional(),
    emailDomains: z.array(z.string().min(1)).optional(),
    hostname: z.string().min(3).max(32).optional(),
    defaultRole: Role.nullable().optional(),
    sso: z.boolean().optional(),
    ai: z.boolean().optional(),
    inviteLinks: z.boolean().optional(),
    mergeRules: MergeRules.optional(),
    logo: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional().describe('URL of the organization\'s logo, or null for none'),
    defaultContent: z
      .strictObject({ site: Id.describe('An existing site, by id') })
      .nullable()
      .optional()
      .describe('The site members land on, or null for none'),
    agentInstructions: Instructions.nullable().optional(),
  })
  .describe('Organization settings');


export type OrganizationT = z.infer<typeof Organization>;

declare module '../../model/desired.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DesiredOrganization extends Omit<OrganizationT, 'id'> {}
}
