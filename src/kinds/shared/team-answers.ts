/** What docplane relies on in the API's answers about teams (checked by the client as they arrive). */
import { z } from 'zod';

/** A team (`GET ORG/teams`). */
export const TeamAnswer = z.looseObject({ id: z.string(), title: z.string() });

/** A team's member (`GET ORG/teams/TEAM/members`): the organization member and the team role. */
export const TeamMemberAnswer = z.looseObject({
  organization: z.looseObject({ id: z.string(), user: z.looseObject({ id: z.string(), email: z.string().nullish() }) }),
  team: z.looseObject({ role: z.string() }),
});
