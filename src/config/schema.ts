/**
 * The zod schema of a config document, composed from the registry: each kind's unit gives the schema
 * of its entries; this file adds what belongs to the document as a whole (version, api, prune,
 * safety, protect, policies). Every field keeps the API's name and limits, so that a value the API would refuse
 * is a config error. The JSON Schema in schemas/ is generated from it with z.toJSONSchema.
 */
import { z } from 'zod';
import { addressProblem, PRUNABLE, UNITS } from '../kinds/index.js';
import type { KindUnit } from '../kinds/kind.js';
import type { DesiredLists, DesiredOrganization } from '../model/desired.js';
import { PolicyList } from '../policy/schema.js';

export const Safety = z
  .strictObject({
    maxDeletes: z.number().int().min(0).default(10).describe('Deletes per organization that apply accepts without --force'),
    maxDeletePercent: z
      .number()
      .min(0)
      .max(100)
      .default(25)
      .describe('Share of a kind (with at least 10 remote resources) that apply deletes without --force'),
    keepSsoMembers: z.boolean().default(true).describe('Members provisioned by SSO are never pruned'),
  })
  .describe('Rules that make apply refuse (exit 3) unless --force');

/** A unit's list: compiled by zod when the unit asks (its entries are many and small). */
function listSchema(unit: KindUnit): z.ZodType {
  const list = z.array(unit.schema);
  return unit.compiled ? z.compile(list) : list;
}

const DocumentSchema = z
  .strictObject({
    version: z.literal(1),
    api: z.strictObject({ url: z.url({ protocol: /^https?$/ }).describe('Base URL of the API') }).optional(),
    ...Object.fromEntries(UNITS.map((u) => [u.configKey, u.list ? listSchema(u).optional() : u.schema])),
    prune: z
      .union([z.literal('all'), z.array(z.enum([...PRUNABLE, 'all'] as unknown as [string, ...string[]]))], {
        error: `must be "all" or a list of kinds (${PRUNABLE.join(', ')})`,
      })
      .optional()
      .describe('Kinds for which this config is the whole truth: remote resources it does not mention are deleted'),
    safety: Safety.optional(),
    protect: z
      .array(
        z
          .string()
          .min(1)
          .superRefine((value, ctx) => {
            const problem = addressProblem(value);
            if (problem) ctx.addIssue({ code: 'custom', message: `is not an address or glob: ${problem}` });
          }),
      )
      .optional()
      .describe('Addresses or globs (`*` within a key, `**` anything) that are never deleted, such as teams["Legacy"]'),
    policies: PolicyList.optional(),
  })
  .describe('A docplane config document');

/** A config document: what belongs to the document as a whole, the organization, and each kind's list. */
export type ConfigDocumentT = z.infer<typeof DocumentSchema> & DesiredLists & { organization: DesiredOrganization };

/** The schema of a config document (typed with every kind's list, which the registry adds at run time). */
export const ConfigDocument = DocumentSchema as unknown as z.ZodType<ConfigDocumentT>;
