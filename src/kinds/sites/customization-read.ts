/**
 * A site's customization (`customization:` on a site): the fields of the description's
 * `SiteCustomizationSettings` (every one optional in the config: it sets what it names, the rest is
 * kept as the site has it), and the read (`GET SITE/customization`, only for a site whose config has
 * the block). Unknown keys are config errors.
 *
 * Per site-space overrides are not managed: `GET …/site-spaces/{id}/customization` answers the
 * effective settings (the site's values where no override is set), so an override equal to the
 * site's value cannot be told from an inherited one, and a plan could not say what is overridden.
 */
import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import type { JsonObject } from '../../model/step.js';
import type { Reader } from '../kind.js';
import { CustomizationAnswer } from './answers.js';

const Color = z.string().regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, { message: 'a color is #rgb or #rrggbb' });
const Themed = <T extends z.ZodType>(t: T) => z.strictObject({ light: t, dark: t });
const Url = z.url().max(2048);
const Localized = (max: number) => z.record(z.string(), z.string().max(max));
const CodeTheme = z.string().min(1).describe('A code theme of the description (github-light, dracula, …)');

const DefaultFont = z.enum(['ABCFavorit', 'Inter', 'Roboto', 'RobotoSlab', 'OpenSans', 'SourceSansPro', 'Lato', 'Ubuntu', 'Raleway', 'Merriweather', 'Overpass', 'NotoSans', 'IBMPlexSerif', 'Poppins', 'FiraSans']);
const MonospaceFont = z.enum(['FiraCode', 'IBMPlexMono', 'JetBrainsMono', 'SourceCodePro', 'RobotoMono', 'SpaceMono', 'DMMono', 'Inconsolata']);
const CustomFont = z.strictObject({
  id: z.string().min(1),
  custom: z.boolean(),
  fontFamily: z.string().min(1).max(50),
  fontFaces: z.array(z.strictObject({ weight: z.number().int().min(1).max(1000), sources: z.array(z.strictObject({ url: Url, format: z.enum(['woff2', 'woff']).optional() })) })),
});

/** A custom font named by its family: a font of the config's `fonts`, or one the organization has. */
const FontByFamily = z.strictObject({ customFont: z.string().min(1).max(50).describe('The fontFamily of a custom font (fonts: in the config, or the organization\'s)') });

/** `ContentRef`: what a link points to (`{ kind: url, url }`, `{ kind: page, page, space }`, …). */
const ContentRef = z.looseObject({
  kind: z.enum(['file', 'url', 'page', 'anchor', 'user', 'collection', 'space', 'reusable-content', 'tag', 'openapi']),
});
const ContentLink = z.strictObject({ title: z.string().max(64), localizedTitle: Localized(64).optional(), to: ContentRef });

const Styling = z.strictObject({
  theme: z.enum(['clean', 'muted', 'bold', 'gradient']),
  primaryColor: Themed(Color),
  tint: z.strictObject({ color: Themed(Color) }),
  infoColor: Themed(Color),
  successColor: Themed(Color),
  warningColor: Themed(Color),
  dangerColor: Themed(Color),
  corners: z.enum(['straight', 'rounded', 'circular']),
  depth: z.enum(['subtle', 'flat']),
  links: z.enum(['default', 'accent']),
  font: z.union([DefaultFont, CustomFont, FontByFamily]),
  headingFont: z.union([DefaultFont, CustomFont, FontByFamily]).nullable(),
  monospaceFont: z.union([MonospaceFont, CustomFont, FontByFamily]),
  background: z.enum(['plain', 'match']).meta({ deprecated: true, description: 'Deprecated in the API: use tint' }),
  icons: z.enum(['regular', 'solid', 'duotone', 'light', 'thin']),
  codeTheme: z.strictObject({ default: Themed(CodeTheme), openapi: Themed(CodeTheme) }).partial(),
  sidebar: z.strictObject({ background: z.enum(['default', 'filled']), list: z.enum(['default', 'pill', 'line']) }).partial(),
  search: z.enum(['prominent', 'subtle']),
});

export const Customization = z.strictObject({
  title: z.string().min(2).max(128),
  localizedTitle: Localized(128),
  styling: Styling.partial(),
  internationalization: z.strictObject({
    locale: z.enum(['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru']).meta({ deprecated: true, description: 'Deprecated in the API' }),
  }),
  favicon: z.union([z.strictObject({ icon: Themed(Url) }), z.strictObject({ emoji: z.string().max(50) }), z.strictObject({})]),
  header: z
    .strictObject({
      preset: z.enum(['default', 'bold', 'contrast', 'custom', 'none']).meta({ deprecated: true, description: 'Deprecated in the API: use styling.theme' }),
      logo: Themed(Url),
      primaryLink: ContentRef,
      backgroundColor: Themed(Color).meta({ deprecated: true, description: 'Deprecated in the API: use the styling colors' }),
      linkColor: Themed(Color).meta({ deprecated: true, description: 'Deprecated in the API: use the styling colors' }),
      links: z.array(
        z.strictObject({
          title: z.string(),
          localizedTitle: z.record(z.string(), z.string()).optional(),
          style: z.enum(['link', 'button-primary', 'button-secondary']).optional(),
          to: ContentRef.nullable(),
          links: z.array(ContentLink),
          condition: z.string().max(1024).optional(),
        }),
      ),
    })
    .partial(),
  footer: z
    .strictObject({
      logo: Themed(Url),
      groups: z.array(z.strictObject({ title: z.string(), localizedTitle: z.record(z.string(), z.string()).optional(), links: z.array(ContentLink) })),
      copyright: z.string().max(512),
    })
    .partial(),
  announcement: z.strictObject({
    enabled: z.boolean(),
    message: z.string().min(2).max(128),
    localizedMessage: Localized(128).optional(),
    link: ContentLink.optional(),
    style: z.enum(['info', 'warning', 'danger', 'success']),
  }),
  themes: z.strictObject({ default: z.enum(['light', 'dark', 'system']), toggeable: z.boolean() }).partial(),
  feedback: z.strictObject({ enabled: z.boolean() }),
  ai: z
    .strictObject({
      mode: z.enum(['none', 'search', 'assistant']),
      greeting: z.string().max(256),
      localizedGreeting: Localized(128),
      suggestions: z.array(z.string().min(3).max(64)).max(5),
      instructions: z.string().max(10000),
    })
    .partial(),
  advancedCustomization: z.strictObject({ enabled: z.boolean() }),
  pageActions: z.strictObject({ items: z.array(z.enum(['assistant', 'external-ai', 'markdown', 'mcp', 'git', 'pdf'])) }),
  externalLinks: z.strictObject({ target: z.enum(['self', 'blank']) }),
  pagination: z.strictObject({ enabled: z.boolean() }),
  trademark: z.strictObject({ enabled: z.boolean() }),
  privacyPolicy: z.strictObject({ url: Url.optional() }),
  socialPreview: z.strictObject({ url: Url.optional() }),
  socialAccounts: z
    .array(
      z.strictObject({
        platform: z.enum(['twitter', 'instagram', 'facebook', 'linkedin', 'github', 'discord', 'slack', 'youtube', 'tiktok', 'reddit', 'bluesky', 'mastodon', 'threads', 'medium']),
        handle: z.string().min(1).max(128),
        display: z.strictObject({ footer: z.boolean(), header: z.boolean() }),
      }),
    )
    .max(10),
  insights: z.strictObject({ trackingCookie: z.boolean() }),
}).partial();
export type CustomizationT = z.infer<typeof Customization>;

/**
 * Paths whose value is replaced whole rather than merged key by key: one-of objects (a favicon is
 * an icon or an emoji, a font a name or a definition, a link one kind of reference) and maps whose
 * keys the config owns (localized strings).
 */
export const ATOMIC_PATHS: ReadonlySet<string> = new Set([
  'localizedTitle',
  'favicon',
  'styling.font',
  'styling.headingFont',
  'styling.monospaceFont',
  'header.primaryLink',
  'announcement',
  'ai.localizedGreeting',
]);

/** The styling fields that may name a custom font. */
export const FONT_FIELDS = ['font', 'headingFont', 'monospaceFont'] as const;

/** The families a customization names with `customFont`. */
export function customFontsNamed(c: CustomizationT | undefined): string[] {
  const styling = c?.styling ?? {};
  return FONT_FIELDS.flatMap((f) => {
    const v = styling[f];
    return v && typeof v === 'object' && 'customFont' in v ? [v.customFont] : [];
  });
}

/** Small maps import writes on one line (themed colors and URLs, code themes, toggles). */
export const CUSTOMIZATION_FLOW_MAPS = [
  ...['primaryColor', 'infoColor', 'successColor', 'warningColor', 'dangerColor', 'tint', 'tint.color', 'codeTheme.default', 'codeTheme.openapi', 'sidebar'].map((f) => `styling.${f}`),
  'header.logo',
  'header.backgroundColor',
  'header.linkColor',
  'footer.logo',
  'favicon.icon',
  ...['internationalization', 'themes', 'feedback', 'advancedCustomization', 'pageActions', 'externalLinks', 'pagination', 'trademark', 'privacyPolicy', 'socialPreview', 'insights'],
];

/** Fields of the answer that the PUT body does not take (`SiteCustomizationSettingsInput`). */
export const READ_ONLY_FIELDS = ['updatedAt'] as const;

/** The document as read, without its read-only fields; undefined when not asked. */
export async function readCustomization(ctx: Pick<Reader, 'client'>, base: string, wanted: { customization?: CustomizationT }): Promise<JsonObject | undefined> {
  if (wanted.customization === undefined) return undefined;
  try {
    const { body } = await ctx.client.request('GET', `${base}/customization`, { schema: CustomizationAnswer });
    const doc = { ...((body && typeof body === 'object' ? body : {}) as JsonObject) };
    for (const f of READ_ONLY_FIELDS) delete doc[f];
    return doc;
  } catch (err) {
    // The structure read says whether the site exists.
    if (err instanceof ApiError && err.status === 404) return {};
    throw err;
  }
}
