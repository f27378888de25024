/** What docplane relies on in the API's answers about Git Sync installations (checked as they arrive). */
import { z } from 'zod';

/** A Git Sync installation (`GET /git/installations/{id}`). */
export const GitSyncInstallationAnswer = z.looseObject({
  id: z.string(),
  provider: z.string().nullish(),
  providerConfiguration: z.looseObject({ branch: z.string().nullish() }).nullish(),
  projectDirectory: z.string().nullish(),
  commitMessageTemplate: z.string().nullish(),
  priority: z.string().nullish(),
  previewExternalBranches: z.boolean().nullish(),
  agentInstructions: z.array(z.string()).nullish(),
  parentInstallationId: z.string().nullish(),
});
