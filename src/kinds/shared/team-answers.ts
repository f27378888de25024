/** What docplane relies on in the API's answers about teams (checked by the client as they arrive). */
import { z } from 'zod';

/** A team (`GET ORG/teams`). */
export const TeamAnswer = z.looseObject({ id: z.string(), title: z.string() });

/**
 * A team's member (`GET ORG/teams/TEAM/members`): the organization member and the team role. Only
 * these fields are kept of each (a plan reads every team's list): a field docplane starts to read is
 * added here.
 */
export const TeamMemberAnswer = z.object({
  organization: z.object({ id: z.string(), user: z.object({ id: z.string(), email: z.string().nullish() }) }),
  team: z.object({ role: z.string() }),
});
