/** A `sites` entry: a site's own fields, its sections, site spaces, section groups, external links and share links. */
import { z } from 'zod';
import { Access } from '../shared/access-schema.js';
import { Id, Language, RenamedFrom, renamedFromNotOwn } from '../common/fields.js';
import { AdaptiveSchema, AgentSettings, McpServer } from './ai-read.js';
import { Customization } from './customization-read.js';
import { PublishingAuth } from './publishing-auth-read.js';
import { Redirect } from './redirects-read.js';
import { siteFields, siteIdentity } from './site-schema.js';
import { GitSync } from '../shared/git-sync-schema.js';
import { Channels, ContextConnections, Topics } from './agent/schema.js';
import { CustomHostname, DefaultSiteSpace } from './hosting/schema.js';
import { VariantCustomization } from './variants/schema.js';

/** `LocalizedString128/256`: title or description overrides for languages other than the site's default. */
const Localized = (max: number) => z.partialRecord(Language, z.string().max(max)).describe('Overrides by language code');

export const SiteSpace = z.strictObject({
  id: Id.optional(),
  space: Id.describe('The space shown'),
  path: z.string().min(1).max(100).optional(),
  condition: z.string().max(1024).nullable().optional(),
  draft: z.boolean().optional().describe('Kept in draft (not live)'),
  hidden: z.boolean().optional().describe("Left out of the site's navigation"),
  // A variant's own customization (src/kinds/sites/variants/).
  customization: VariantCustomization.nullable().optional(),
});

export const Section = z
  .strictObject({
    id: Id.optional(),
    renamedFrom: RenamedFrom.optional(),
    path: z.string().min(1).max(100),
    title: z.string().min(2).max(128),
    space: Id.describe('The space the section is created with'),
    description: z.string().max(256).nullable().optional(),
    icon: z.string().max(50).nullable().optional(),
    condition: z.string().max(1024).nullable().optional(),
    draft: z.boolean().optional().describe('Kept in draft (not live)'),
    defaultSiteSpace: Id.optional().describe('The space (one of its site spaces) shown by default'),
    localizedTitle: Localized(128).optional(),
    localizedDescription: Localized(256).optional(),
    siteSpaces: z.array(SiteSpace).optional().describe('Further spaces in the section, in order; the whole truth when present'),
  })
  .superRefine(renamedFromNotOwn('path'));

/** One item of an explicit order: a section by path, a group or an external link by title. */
export const OrderItem = z.union([
  z.strictObject({ section: z.string().min(1) }),
  z.strictObject({ group: z.string().min(1) }),
  z.strictObject({ link: z.string().min(1) }),
]);
const Order = z
  .array(OrderItem)
  .describe('The order of the items at this level, when the default rule does not give it (items it leaves out follow, in the default order)');

export const SectionGroup = z
  .strictObject({
    id: Id.optional(),
    renamedFrom: RenamedFrom.optional(),
    title: z.string().min(1).max(100),
    icon: z.string().max(50).nullable().optional(),
    parent: z.string().min(1).nullable().optional().describe('The title of the section group holding it (null: the top level)'),
    draft: z.boolean().optional().describe('Kept in draft (not live)'),
    localizedTitle: Localized(128).optional(),
    sections: z.array(z.string().min(1)).optional().describe('Section paths, in order'),
    order: Order.optional(),
  })
  .superRefine(renamedFromNotOwn('title'));

export const ExternalLink = z
  .strictObject({
    id: Id.optional(),
    renamedFrom: RenamedFrom.optional(),
    title: z.string().min(2).max(128),
    url: z.url({ protocol: /^https?$/ }).max(2048).describe('Absolute HTTP or HTTPS URL'),
    group: z.string().min(1).nullable().optional().describe('The title of the section group holding it (null: the top level)'),
    description: z.string().max(256).nullable().optional(),
    icon: z.string().max(50).nullable().optional(),
    condition: z.string().max(1024).nullable().optional(),
    draft: z.boolean().optional().describe('Kept in draft (not live)'),
    localizedTitle: Localized(128).optional(),
    localizedDescription: Localized(256).optional(),
  })
  .superRefine(renamedFromNotOwn('title'));

export const ShareLink = z
  .strictObject({
    id: Id.optional(),
    renamedFrom: RenamedFrom.optional(),
    name: z.string().min(1).max(50),
    active: z.boolean().optional(),
  })
  .superRefine(renamedFromNotOwn('name'));

export const Site = z
  .strictObject({
    ...siteFields,
    sections: z.array(Section).optional(),
    sectionGroups: z.array(SectionGroup).optional(),
    shareLinks: z.array(ShareLink).optional(),
    access: Access.optional(),
    siteSpaces: z.array(SiteSpace).optional().describe('Site spaces at the root of a site without sections, in order'),
    externalLinks: z.array(ExternalLink).optional().describe('External links in the structure, by title'),
    order: Order.optional(),
    // Redirects, customization and publishing auth: each read only when present.
    redirects: z.array(Redirect).optional().describe('Redirects by source; the whole truth when present'),
    customization: Customization.optional().describe('The fields set; the others are kept as the site has them'),
    publishingAuth: PublishingAuth.optional().describe("Visitor authentication (the site's visibility must be visitor-auth)"),
    gitSync: GitSync.optional().describe("Its Git Sync installation's configuration (a site synchronised with a repository in the app); absent: unmanaged"),
    // AI and adaptive content: each read only when present.
    agentSettings: AgentSettings.optional().describe("The AI agent's settings; the parts left out are kept as the site has them"),
    mcpServers: z.array(McpServer).optional().describe('MCP servers offered to the site\'s AI assistant, by name; the whole truth when present'),
    adaptiveSchema: AdaptiveSchema.optional().describe('The claims of visitors that conditions may name (the JSON schema of adaptive content)'),
    // The site agent (src/kinds/sites/agent/): each read only when present.
    channels: Channels.optional(),
    contextConnections: ContextConnections.optional(),
    topics: Topics.optional(),
    // The site's hosting (src/kinds/sites/hosting/).
    customHostname: CustomHostname.optional(),
    defaultSiteSpace: DefaultSiteSpace.optional(),
  })
  .superRefine(siteIdentity);


export type SiteT = z.infer<typeof Site>;
export type SectionT = z.infer<typeof Section>;
export type SiteSpaceT = z.infer<typeof SiteSpace>;
export type SectionGroupT = z.infer<typeof SectionGroup>;
export type ShareLinkT = z.infer<typeof ShareLink>;
export type ExternalLinkT = z.infer<typeof ExternalLink>;
export type OrderItemT = z.infer<typeof OrderItem>;
export type LocalizedT = Partial<Record<string, string>>;
export type { RedirectT } from './redirects-read.js';
export type { CustomizationT } from './customization-read.js';
export type { PublishingAuthT } from './publishing-auth-read.js';
export type { AdaptiveSchemaT, AgentSettingsT, McpServerT } from './ai-read.js';

declare module '../../model/desired.js' {
  interface DesiredLists {
    sites?: SiteT[];
  }
}


/** The config key of a site, for the unit's own files (the layer below holds it: other units name sites too). */
export { siteKey } from '../shared/sites.js';
