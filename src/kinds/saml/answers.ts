/** What docplane relies on in the API's answers about SAML providers (checked by the client as they arrive). */
import { z } from 'zod';

/** A SAML provider (`GET ORG/saml`). */
export const SamlProviderAnswer = z.looseObject({
  id: z.string(),
  label: z.string(),
  entityID: z.string().nullish(),
  ssoURL: z.string().nullish(),
  certificate: z.string().nullish(),
  defaultTeam: z.looseObject({ id: z.string() }).nullish(),
  defaultRole: z.string().nullish(),
});
