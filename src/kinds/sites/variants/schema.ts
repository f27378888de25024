/**
 * The customization a site space overrides (`customization` of a site space entry: a language or
 * version variant of the site): the fields of SiteSpaceCustomizationSettings the config manages — its
 * title, localized titles and styling — each `null` to drop the override (the site's value applies).
 */
import { z } from 'zod';
import { Customization } from '../customization-read.js';

/** The styling fields a site space may override (the description's list, without the deprecated `background`: use `tint`). */
export const VARIANT_STYLING = ['theme', 'primaryColor', 'infoColor', 'successColor', 'warningColor', 'dangerColor', 'tint', 'corners', 'depth', 'links', 'icons', 'sidebar', 'search', 'codeTheme'] as const;

const siteStyling = Customization.shape.styling.unwrap().shape as Record<string, z.ZodType>;

export const VariantCustomization = z
  .strictObject({
    title: Customization.shape.title.unwrap().nullable().optional().describe("The variant's title; null: the content's"),
    localizedTitle: Customization.shape.localizedTitle.unwrap().nullable().optional().describe('Titles by language; null: none'),
    styling: z
      .strictObject(Object.fromEntries(VARIANT_STYLING.filter((k) => k in siteStyling).map((k) => [k, (siteStyling[k] as z.ZodOptional<z.ZodType>).unwrap().nullable().optional()])))
      .optional()
      .describe("Styling fields the variant overrides; null: the site's"),
  })
  .describe("The site's customization this site space overrides (the fields given; null drops an override); null: no override at all");

export type VariantCustomizationT = z.infer<typeof VariantCustomization>;
