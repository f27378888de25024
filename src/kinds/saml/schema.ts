/** A `saml` entry: a SAML provider by label. */
import { z } from 'zod';
import { Id, RenamedFrom, Role, renamedFromNotOwn } from '../common/fields.js';

export const SamlProvider = z
  .strictObject({
    id: Id.optional(),
    renamedFrom: RenamedFrom.optional(),
    label: z.string().min(1).max(30),
    entityID: z.string().max(1024).optional(),
    ssoURL: z.url({ protocol: /^https?$/ }).max(2048).optional(),
    certificate: z.string().max(10000).optional(),
    /*
     * A team title. When the config defines that team, the SAML provider's step waits for it; when the
     * config names no such team (teams managed by hand, or `teams` absent), the loader records it in
     * `OrgConfig.deferred` as "to be checked at plan time" and the planner reports a problem if no
     * remote team has that title. A title that names no config team while `teams` is pruned is an
     * error at once: the plan would delete that team.
     */
    defaultTeam: z.string().min(1).nullable().optional().describe('Team title (a team of this config, or an existing team)'),
    defaultRole: Role.nullable().optional(),
  })
  .superRefine(renamedFromNotOwn('label'));


export type SamlProviderT = z.infer<typeof SamlProvider>;

declare module '../../model/desired.js' {
  interface DesiredLists {
    saml?: SamlProviderT[];
  }
}
