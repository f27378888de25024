/** What docplane relies on in the API's answers about integration installations (checked by the client as they arrive). */
import { z } from 'zod';

const Configuration = z.record(z.string(), z.json());

/** An installation of the organization's list (`GET ORG/installations`): the integration and the installation. */
export const OrgInstallationAnswer = z.looseObject({
  integration: z.looseObject({ name: z.string() }),
  installation: z.looseObject({
    id: z.string(),
    space_selection: z.string().optional(),
    site_selection: z.string().optional(),
    configuration: Configuration.optional(),
    externalIds: z.array(z.string()).optional(),
  }),
});

const Ref = z.union([z.string(), z.looseObject({ id: z.string() })]);

/** One space or site an installation covers (`GET …/installations/ID/spaces` and `…/sites`). */
export const TargetInstallationAnswer = {
  spaces: z.looseObject({ space: Ref, configuration: Configuration.optional() }),
  sites: z.looseObject({ site: Ref, configuration: Configuration.optional() }),
} as const;
