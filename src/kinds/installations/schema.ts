/**
 * An `installations` entry: an integration installed on this organization (installIntegration), its
 * account-level configuration and the spaces and sites it covers (updateIntegrationInstallation), and
 * its configuration on each space or site (install, update, uninstall on spaces and on sites).
 */
import { z } from 'zod';
import { Id } from '../common/fields.js';

/** IntegrationInstallationConfiguration: any JSON object; its values may be secrets (`${env:…}`). */
const Configuration = z
  .record(z.string(), z.unknown())
  .describe('The configuration the integration asks for (any JSON object); the whole truth when present. Put secrets in ${env:…}');

/** IntegrationInstallationExternalIds. */
const ExternalIds = z.array(z.string().min(1)).max(5).describe('External ids assigned by the integration');

export const SpaceInstallation = z.strictObject({
  space: Id.describe('The space id'),
  configuration: Configuration.optional(),
});

export const SiteInstallation = z.strictObject({
  site: Id.describe('The site id'),
  configuration: Configuration.optional(),
});

export const Installation = z.strictObject({
  integration: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-zA-Z0-9_.-]+$/, { error: 'must hold only letters, digits, "-", "_" and "."' })
    .describe('The name of the integration (one installation per integration and organization)'),
  configuration: Configuration.optional(),
  externalIds: ExternalIds.optional(),
  spaces: z
    .union([z.literal('all'), z.array(SpaceInstallation)])
    .optional()
    .describe('`all`, or the spaces it is installed on (the whole truth: others are uninstalled), each with its configuration'),
  sites: z
    .union([z.literal('all'), z.array(SiteInstallation)])
    .optional()
    .describe('`all`, or the sites it is installed on (the whole truth: others are uninstalled), each with its configuration'),
});

export type InstallationT = z.infer<typeof Installation>;
export type ConfigurationT = NonNullable<InstallationT['configuration']>;

declare module '../../model/desired.js' {
  interface DesiredLists {
    installations?: InstallationT[];
  }
}
