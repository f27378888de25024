/** What docplane relies on in the API's answers about members (checked by the client as they arrive). */
import { z } from 'zod';

/** An organization member (`GET ORG/members`): its id, role and user. */
export const MemberAnswer = z.looseObject({
  id: z.string(),
  role: z.string().nullable(),
  user: z.looseObject({ id: z.string(), email: z.string().nullish(), displayName: z.string().nullish() }),
  sso: z.boolean().nullish(),
  disabled: z.boolean().nullish(),
});
