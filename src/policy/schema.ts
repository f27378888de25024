/**
 * The config's `policies:` list (docs/policies.md): rules in CEL over the entries of a config key, or over
 * the steps of a plan. The rule's text is checked here only for being a string; src/policy/compile.ts
 * compiles and type-checks it, and reports what CEL says at the rule's position.
 */
import { z } from 'zod';
import { UNITS } from '../kinds/index.js';

/** What a policy can be about: a config key of a kind (its entries), or `steps` (a plan's steps). */
export const POLICY_RESOURCES = [...UNITS.map((u) => u.configKey), 'steps'] as const;

export const Policy = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, { error: 'must be letters, digits, "-", "_" or "." (starting with a letter or digit)' })
      .describe('Unique name of the policy, shown with each violation'),
    description: z.string().optional().describe('What the policy is for'),
    resource: z
      .enum(POLICY_RESOURCES as unknown as [string, ...string[]], { error: `must be a config key of a kind or "steps" (${POLICY_RESOURCES.join(', ')})` })
      .describe('The config key whose entries the rule checks (`self` is one entry), or `steps` (`self` is one step of the plan)'),
    rule: z.string().min(1).describe('A CEL expression; true means compliant. `self` is the entry or the step; secret values read as "(sensitive)"'),
    message: z.string().min(1).optional().describe('What a violation says (default: the rule)'),
    severity: z.enum(['error', 'warning']).default('error').describe('error: validate, plan and apply fail; warning: printed only'),
  })
  .describe('A rule over the config or the plan, in CEL (docs/policies.md)');

export const PolicyList = z.array(Policy).describe('Rules over the desired state and the plan, in CEL (docs/policies.md)');

export type PolicyT = z.infer<typeof Policy>;
