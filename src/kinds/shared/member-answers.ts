/** What docplane relies on in the API's answers about members (checked by the client as they arrive). */
import { z } from 'zod';

/**
 * An organization member (`GET ORG/members`): its id, role and user. Only these fields are kept of
 * each (the list is the organization's every member): a field docplane starts to read is added here.
 */
export const MemberAnswer = z.object({
  id: z.string(),
  role: z.string().nullable(),
  user: z.object({ id: z.string(), email: z.string().nullish(), displayName: z.string().nullish() }),
  sso: z.boolean().nullish(),
  disabled: z.boolean().nullish(),
});
