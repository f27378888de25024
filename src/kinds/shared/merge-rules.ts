/**
 * Review rules (`mergeRules`) of the organization and of a space, in the live description's shape:
 * `{type: rules, rules: [...]}` (every rule must pass to merge a change request) or `{type: none}`;
 * a space may also `{type: inherit}` the organization's.
 */
import { z } from 'zod';
import { stableStringify } from '../../core/json.js';
import type { JsonValue, PlanProblem } from '../../model/step.js';
import { child, type Origin } from '../../source/origin.js';
import type { ResolveContext } from '../kind.js';
import { prunedList } from './access.js';
import type { Draft } from '../common/import.js';
import { userProblem } from '../common/text.js';

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
  z.strictObject({
    rule: z.enum(RULES_WITH_USERS),
    users: z.array(z.string().min(1)).describe('The reviewers: member emails or user ids (the API takes user ids; docplane resolves emails through the members list)'),
  }),
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
 * left out), each reviewer by the member's email, or undefined with a warning when the API answers a
 * shape the config cannot hold.
 */
export function importMergeRules(
  value: unknown,
  schema: typeof MergeRules | typeof SpaceMergeRules,
  address: string,
  warn: (message: string) => void,
  emailOf: (id: string) => string | undefined = () => undefined,
): Draft | undefined {
  if (value === undefined || value === null) return undefined;
  // Reviewers by email where the member is known (the user id where not).
  const parsed = schema.safeParse(strip(reviewersShown(value, emailOf)));
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

/** The users a rule names, by rule: `[[rule index, users]]` of the rules that name some. */
function rulesWithUsers(value: unknown): Array<[number, string[]]> {
  const rules = value && typeof value === 'object' ? (value as { rules?: unknown }).rules : undefined;
  if (!Array.isArray(rules)) return [];
  return rules.flatMap((r: unknown, i): Array<[number, string[]]> => {
    const users = r && typeof r === 'object' ? (r as { users?: unknown }).users : undefined;
    return Array.isArray(users) ? [[i, users.map(String)]] : [];
  });
}

/** Whether review rules name any user (the plan then reads the members list to resolve them). */
export function namesReviewers(value: unknown): boolean {
  return rulesWithUsers(value).some(([, users]) => users.length > 0);
}

/**
 * The reviewers of a config's rules, checked when the config loads: a malformed email is an error
 * at its place; a person the config's `members` does not list is left to the plan (the members list
 * says whether they are a member).
 */
export function resolveReviewers(value: unknown, address: string, origin: Origin, ctx: ResolveContext): void {
  for (const [i, users] of rulesWithUsers(value)) {
    users.forEach((user, j) => {
      const at = child(origin, 'rules', i, 'users', j);
      const problem = userProblem(user);
      if (problem !== undefined) ctx.problems.at(at, problem);
      else ctx.reference({ kind: 'members', key: user, from: address, field: 'mergeRules', origin: at, ...prunedList(ctx, 'members', 'members', 'member') });
    });
  }
}

/** A member as review rules need one: the user id the API takes, the label a plan shows, the invite step to wait for. */
export interface Reviewer {
  id: string;
  label: string;
  invite?: string;
}

/** Review rules with every named user replaced by `map` (rules without users as they are). */
function mapUsers(value: unknown, map: (user: string) => string): JsonValue {
  if (!namesReviewers(value)) return (value ?? null) as JsonValue;
  const v = value as { rules: unknown[] };
  return {
    ...(value as object),
    rules: v.rules.map((r) => (r && typeof r === 'object' && Array.isArray((r as { users?: unknown }).users) ? { ...(r as object), users: (r as { users: unknown[] }).users.map((u) => map(String(u))) } : r)),
  } as JsonValue;
}

/**
 * The config's review rules in the API's terms: each reviewer (an email or a user id) as the user id
 * of the member it names (a ref to the invite when this plan invites them), for the body and the
 * comparison; as the member's label (the email) for the plan's display. A person who is not a member
 * is a problem at their place in the config.
 */
export function reviewersToIds(
  value: unknown,
  memberOf: (user: string) => Reviewer | undefined,
  org: string,
  address: string,
): { body: JsonValue; shown: JsonValue; needs: string[]; problems: PlanProblem[] } {
  const needs = new Set<string>();
  const problems: PlanProblem[] = [];
  for (const [, users] of rulesWithUsers(value)) {
    for (const user of users) {
      const m = memberOf(user);
      if (m?.invite) needs.add(m.invite);
      if (m) continue;
      problems.push({
        org,
        address,
        message: `mergeRules ${JSON.stringify(user)} is not a member of organization ${org}: a reviewer must be a member (list their email under members to invite them), or remove them from the rule`,
        reference: { field: 'mergeRules', key: user },
      });
    }
  }
  return {
    body: mapUsers(value, (u) => memberOf(u)?.id ?? u),
    shown: mapUsers(value, (u) => memberOf(u)?.label ?? u),
    needs: [...needs].sort(),
    problems,
  };
}

/** A user id → the member's email (lower-case), for review rules as import writes them and plans show them. */
export function emailsOf(members: ReadonlyArray<{ id: string; user?: { email?: string } }> | undefined): (id: string) => string | undefined {
  const byId = new Map((members ?? []).map((m) => [m.id, m.user?.email?.toLowerCase()]));
  return (id) => byId.get(id);
}

/** The API's review rules with each user id shown as the member's label (the email), when known. */
export function reviewersShown(value: unknown, labelOf: (id: string) => string | undefined): JsonValue {
  return mapUsers(value, (id) => labelOf(id) ?? id);
}
