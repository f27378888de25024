/**
 * Review rules (`mergeRules`) of the organization and of a space, in the live description's shape:
 * `{type: rules, rules: [...]}` (every rule must pass to merge a change request) or `{type: none}`;
 * a space may also `{type: inherit}` the organization's.
 */
import { z } from 'zod';
import { stableStringify } from '../../core/json.js';
import type { JsonValue } from '../../model/step.js';
import { Id } from './fields.js';
import type { Draft } from './import.js';

/** Rules that name the users they apply to. */
export const RULES_WITH_USERS = ['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass'] as const;
/** Rules without parameters. */
export const PLAIN_RULES = [
  'require_at_least_one_review',
  'require_at_least_one_approved_review',
  'require_all_reviews_approved',
  'require_agent_review',
  'require_up_to_date_change_request',
  'require_change_request_subject',
  'require_change_request_description',
  'require_author_to_merge',
] as const;

const RULES = [...RULES_WITH_USERS, ...PLAIN_RULES, 'custom'];

export const MergeRule = z.discriminatedUnion('rule', [
  z.strictObject({ rule: z.enum(RULES_WITH_USERS), users: z.array(Id).describe('User ids') }),
  z.strictObject({ rule: z.enum(PLAIN_RULES) }),
  z.strictObject({
    rule: z.literal('custom'),
    expression: z.string().max(1024).describe('An expression in the advanced custom syntax'),
    message: z.string().optional().describe('Shown when the expression evaluates to false'),
  }),
], { error: `must be one of ${RULES.join(', ')}` });

const Rules = z.strictObject({ type: z.literal('rules'), rules: z.array(MergeRule).describe('Rules that must all pass') });
const None = z.strictObject({ type: z.literal('none') }).describe('Change requests merge without review');

/** The organization's review rules (MergeRulesStandaloneConfiguration). */
export const MergeRules = z.discriminatedUnion('type', [Rules, None], { error: 'must be one of rules, none' }).describe('Review rules for merging change requests');

/** A space's review rules (MergeRulesSpaceConfiguration): its own, or the organization's. */
export const SpaceMergeRules = z
  .discriminatedUnion('type', [z.strictObject({ type: z.literal('inherit') }).describe("The organization's rules"), Rules, None], { error: 'must be one of inherit, rules, none' })
  .describe('Review rules for merging change requests');

/**
 * Review rules as compared: rules must all pass, so their order does not count, nor the order of
 * the users a rule names.
 */
export function normalizeMergeRules(value: unknown): JsonValue {
  if (value === undefined || value === null || typeof value !== 'object') return (value ?? null) as JsonValue;
  const v = value as { type?: unknown; rules?: unknown };
  if (v.type !== 'rules' || !Array.isArray(v.rules)) return value as JsonValue;
  const rules = v.rules.map((r: unknown) => {
    if (!r || typeof r !== 'object' || !Array.isArray((r as { users?: unknown }).users)) return r as JsonValue;
    const rule = r as { users: unknown[] };
    return { ...rule, users: [...new Set(rule.users.map(String))].sort() } as JsonValue;
  });
  const keyed = rules.map((r) => [stableStringify(r), r] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { ...(value as object), rules: keyed.map(([, r]) => r) } as JsonValue;
}

/**
 * Review rules as an import writes them: what the config schema accepts (the API's own extra keys
 * left out), or undefined with a warning when the API answers a shape the config cannot hold.
 */
export function importMergeRules(value: unknown, schema: typeof MergeRules | typeof SpaceMergeRules, address: string, warn: (message: string) => void): Draft | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = schema.safeParse(strip(value));
  if (parsed.success) return parsed.data as Draft;
  warn(`${address}: its review rules (mergeRules) have a shape docplane does not know, so they are left unmanaged`);
  return undefined;
}

/** Only the keys the config knows, so that a key the API adds does not make a rule unknown. */
function strip(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const { type, rules } = value as { type?: unknown; rules?: unknown };
  if (type !== 'rules' || !Array.isArray(rules)) return { type };
  return {
    type,
    rules: rules.map((r: unknown) => {
      if (!r || typeof r !== 'object') return r;
      const { rule, users, expression, message } = r as Record<string, unknown>;
      return Object.fromEntries(Object.entries({ rule, users, expression, message }).filter(([, v]) => v !== undefined));
    }),
  };
}
