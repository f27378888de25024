/** zod schemas every kind's config shares: roles, levels, renames, rich text. */
import { z } from 'zod';
import type { RichTextBlockT } from '../../core/richtext.js';

export type { RichTextDocumentT } from '../../core/richtext.js';

export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export const Role = z.enum(ROLES).describe('Organization role');
/** `defaultLevel` also accepts `inherit`. */
export const Level = z.enum([...ROLES, 'inherit']).describe('Content level');

export const Id = z.string().min(1);

/**
 * A check for resources matched by `renamedFrom`: naming the resource's own key is surely a mistake
 * (the rename was already done, or the wrong field was copied).
 */
export function renamedFromNotOwn(keyField: string) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    if (value.renamedFrom !== undefined && value.renamedFrom === value[keyField]) {
      ctx.addIssue({
        code: 'custom',
        path: ['renamedFrom'],
        message: `is this resource's own ${keyField}; give the ${keyField} it had before, or remove renamedFrom`,
      });
    }
  };
}
export const RenamedFrom = z.string().min(1).describe('Natural key of the remote resource this one was called before');

/** A rich-text block; nodes recurse. Unknown properties are kept (the API adds its own). */
export const RichTextBlock: z.ZodType<RichTextBlockT> = z.lazy(() =>
  z
    .looseObject({
    object: z.string(),
    type: z.string().optional(),
    key: z.string().optional(),
    isVoid: z.boolean().optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    nodes: z.array(RichTextBlock).optional(),
    leaves: z.array(z.record(z.string(), z.unknown())).optional(),
    }),
  // The id names the recursive definition in the JSON Schema ($defs/RichTextBlock).
).meta({ id: 'RichTextBlock' });

export const RichTextDocument = z
  .looseObject({
    object: z.literal('document'),
    data: z.record(z.string(), z.unknown()).optional(),
    nodes: z.array(RichTextBlock),
  })
  .describe('A full rich-text document as the API returns it');

/** Plain text or markdown paragraphs, or a full rich-text document. */
export const Instructions = z.union([z.string(), RichTextDocument], {
  error: 'must be text (plain or markdown paragraphs) or a rich-text document ({object: document, nodes: [...]})',
});

export type RoleT = z.infer<typeof Role>;
export type LevelT = z.infer<typeof Level>;

/** The languages the API takes (the language enum of its description). */
export const LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no',
  'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const;
export const Language = z.enum(LANGUAGES).describe('Language code');

/** An emoji, as the API limits it. */
export const Emoji = z.string().min(1).max(50);
