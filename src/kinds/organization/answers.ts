/** What docplane relies on in the API's answers about the organization (checked by the client as they arrive). */
import { z } from 'zod';

/** The organization (`GET ORG`). */
export const OrganizationAnswer = z.looseObject({ id: z.string() });

/** Its agent instructions (`GET ORG/agent-instructions`): a rich-text document, or none. */
export const AgentInstructionsAnswer = z.looseObject({ instructions: z.looseObject({ nodes: z.array(z.unknown()) }).nullish() }).optional();
