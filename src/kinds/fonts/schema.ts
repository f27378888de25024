/** A `fonts` entry: a custom font of the organization, by family, with one face per weight. */
import { z } from 'zod';
import { Id, RenamedFrom, renamedFromNotOwn } from '../common/fields.js';

export const FontFace = z.strictObject({
  weight: z.number().int().min(1).max(1000).describe('400 regular, 500 medium, 700 bold, 900 black'),
  storageKey: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .describe('The storage key of the uploaded woff2/woff file (generateStorageUploadURL, kind customization_font); absent: the face exists and its file is unmanaged'),
});

export const Font = z
  .strictObject({
    id: Id.optional(),
    renamedFrom: RenamedFrom.optional(),
    fontFamily: z.string().min(1).max(50).describe('The CSS font-family name, the font\'s key'),
    fontFaces: z.array(FontFace).min(1).describe('The whole truth: a weight the font has and the list lacks is removed'),
  })
  .superRefine(renamedFromNotOwn('fontFamily'))
  .superRefine((value, ctx) => {
    const seen = new Set<number>();
    value.fontFaces.forEach((f, i) => {
      if (seen.has(f.weight)) ctx.addIssue({ code: 'custom', path: ['fontFaces', i, 'weight'], message: `weight ${f.weight} is listed twice` });
      seen.add(f.weight);
    });
    // The API refuses a font without its regular face (412).
    if (!seen.has(400)) ctx.addIssue({ code: 'custom', path: ['fontFaces'], message: 'a font needs a face of weight 400 (regular)' });
  });

export type FontT = z.infer<typeof Font>;

declare module '../../model/desired.js' {
  interface DesiredLists {
    fonts?: FontT[];
  }
}
