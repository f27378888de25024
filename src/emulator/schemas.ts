/** Zod pieces the kinds share, in the state file and in request bodies. */
import { z } from 'zod';

const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export const Role = z.enum(ROLES);
export const Level = z.enum([...ROLES, 'inherit']);

export const Id = z.string().min(1);
export const Timestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date-time');

/** A rich-text document in the state file, kept as given (the emulator adds block keys). */
export const SeedDoc = z.looseObject({ object: z.literal('document'), data: z.record(z.string(), z.unknown()).optional(), nodes: z.array(z.unknown()) });

/** A rich-text document in a request body. */
export const Doc = z.looseObject({
  object: z.literal('document'),
  data: z.record(z.string(), z.unknown()).optional(),
  nodes: z.array(z.looseObject({ object: z.string() })),
});

/** A URI of at most `max` characters (the API's limits on `ssoURL` and `logo`). */
export const Uri = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => URL.canParse(s), 'must be a valid URI');

/** The languages of the live description (its language enum). */
export const LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no',
  'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const;
export const Language = z.enum(LANGUAGES);

/** A document without content, where the live description requires one and none was written. */
export function emptyDocument(): { object: 'document'; data: { schemaVersion: number }; nodes: never[] } {
  return { object: 'document', data: { schemaVersion: 1 }, nodes: [] };
}

/** One merge rule of the live description (MergeRule). */
const MergeRule = z.union([
  z.strictObject({ rule: z.enum(['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass']), users: z.array(z.string()) }),
  z.strictObject({
    rule: z.enum([
      'require_at_least_one_review',
      'require_at_least_one_approved_review',
      'require_all_reviews_approved',
      'require_agent_review',
      'require_up_to_date_change_request',
      'require_change_request_subject',
      'require_change_request_description',
      'require_author_to_merge',
    ]),
  }),
  z.strictObject({ rule: z.literal('custom'), expression: z.string().max(1024), message: z.string().optional() }),
]);
const MergeRulesRules = z.strictObject({ type: z.literal('rules'), rules: z.array(MergeRule) });
const MergeRulesNone = z.strictObject({ type: z.literal('none') });
/** An organization's review rules (MergeRulesStandaloneConfiguration). */
export const MergeRules = z.union([MergeRulesRules, MergeRulesNone]);
/** A space's review rules (MergeRulesSpaceConfiguration): also `inherit`. */
export const SpaceMergeRules = z.union([z.strictObject({ type: z.literal('inherit') }), MergeRulesRules, MergeRulesNone]);
