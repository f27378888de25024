/** What docplane relies on in the API's answers about sites (checked by the client as they arrive). */
import { z } from 'zod';


/** An item of a site's structure: a section, a group, an external link or a site space. */
const StructureItem = z.looseObject({ id: z.string(), object: z.string().optional() });

/** A site's structure (`GET SITE/structure`): sections and groups, or root site spaces. */
export const StructureAnswer = z.looseObject({ type: z.string(), structure: z.array(StructureItem) });

/** A share link (`GET SITE/share-links`). */
export const ShareLinkAnswer = z.looseObject({ id: z.string(), name: z.string().nullish(), active: z.boolean().nullish() });

/** A redirect (`GET SITE/redirects`). */
export const RedirectAnswer = z.looseObject({ id: z.string(), source: z.string(), destination: z.looseObject({}) });

/** A site's customization (`GET SITE/customization`): an object of settings. */
export const CustomizationAnswer = z.looseObject({});

/** A site's publishing authentication (`GET SITE/publishing/auth`). */
export const PublishingAuthAnswer = z.looseObject({
  backend: z.string().nullish(),
  fallbackURL: z.string().nullish(),
  logoutURL: z.string().nullish(),
  integration: z.string().nullish(),
});

/** A site's agent settings (`GET SITE/agent-settings`). */
export const AgentSettingsAnswer = z.looseObject({ object: z.string().optional() });

/** An MCP server of a site (`GET SITE/mcp-servers`). */
export const McpServerAnswer = z.looseObject({ id: z.string(), name: z.string(), url: z.string(), headers: z.record(z.string(), z.unknown()).nullish() });

/** A site's adaptive schema (`GET SITE/adaptive-schema`). */
export const AdaptiveSchemaAnswer = z.looseObject({ jsonSchema: z.looseObject({}) });
