/** What docplane relies on in the API's answers about invite links (checked by the client as they arrive). */
import { z } from 'zod';

/**
 * An invite link (OrganizationInviteLink): to the organization (`role`), to a space or to a
 * collection (`level`, and the whole space or collection object). The id is a credential.
 */
export const InviteLinkAnswer = z.looseObject({
  id: z.string(),
  role: z.string().nullable().optional(),
  level: z.string().nullable().optional(),
  space: z.looseObject({ id: z.string() }).optional(),
  collection: z.looseObject({ id: z.string() }).optional(),
});
