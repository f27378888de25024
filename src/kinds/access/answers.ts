/** What docplane relies on in the API's answers about permissions (checked by the client as they arrive). */
import { z } from 'zod';

const permission = z.string().nullable();

/** A team's grant on an object (`GET …/permissions/teams`). Only these fields are kept (a plan reads the grants of every object). */
export const TeamGrantAnswer = z.object({ permission, team: z.object({ id: z.string(), title: z.string().nullish() }) });

/** A user's grant on an object (`GET …/permissions/users`). Only these fields are kept. */
export const UserGrantAnswer = z.object({ permission, user: z.object({ id: z.string(), email: z.string().nullish() }) });

/** A user's effective role on an object (`GET …/permissions/aggregate`). */
export const AggregateAnswer = z.looseObject({
  permission: permission.optional(),
  user: z.looseObject({ id: z.string(), email: z.string().nullish() }).optional(),
  origin: z.looseObject({}).nullish(),
});

/** A site as the access report names it (`GET ORG/sites`). */
export const SiteNameAnswer = z.looseObject({ id: z.string(), title: z.string().nullish() });
