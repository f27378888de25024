/** What docplane relies on in the API's answers about custom fonts (checked by the client as they arrive). */
import { z } from 'zod';

/** A font definition (`GET ORG/fonts`, CustomizationFontDefinition). */
export const FontAnswer = z.looseObject({
  id: z.string(),
  custom: z.boolean().optional(),
  fontFamily: z.string(),
  fontFaces: z.array(z.looseObject({ weight: z.number(), sources: z.array(z.looseObject({ url: z.string(), format: z.string().optional() })) })),
});

/** The list (`GET ORG/fonts`): one answer, no paging. */
export const FontListAnswer = z.looseObject({ items: z.array(FontAnswer) });
