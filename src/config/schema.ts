/**
 * The zod schemas of a config document (DESIGN §3). Every field keeps the API's name and limits
 * (API document §2 and §8), so that a value the API would refuse is a config error. The JSON Schema
 * in schemas/ is generated from these with z.toJSONSchema.
 */
import { z } from 'zod';
import { addressSyntaxProblem } from './address.js';

export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export const Role = z.enum(ROLES).describe('Organization role');
/** `defaultLevel` also accepts `inherit` (DESIGN §10). */
export const Level = z.enum([...ROLES, 'inherit']).describe('Content level');

const Id = z.string().min(1);

/**
 * A check for resources matched by `renamedFrom`: naming the resource's own key is surely a mistake
 * (the rename was already done, or the wrong field was copied).
 */
function renamedFromNotOwn(keyField: string) {
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
const RenamedFrom = z.string().min(1).describe('Natural key of the remote resource this one was called before');

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
export interface RichTextBlockT {
  object: string;
  type?: string;
  key?: string;
  isVoid?: boolean;
  data?: Record<string, unknown>;
  nodes?: RichTextBlockT[];
  leaves?: Record<string, unknown>[];
  [k: string]: unknown;
}

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

export const Organization = z
  .strictObject({
    id: Id.describe('The organization to manage (the API cannot create one)'),
    title: z.string().min(2).max(255).optional(),
    emailDomains: z.array(z.string().min(1)).optional(),
    hostname: z.string().min(3).max(32).optional(),
    defaultRole: Role.nullable().optional(),
    sso: z.boolean().optional(),
    ai: z.boolean().optional(),
    inviteLinks: z.boolean().optional(),
    agentInstructions: Instructions.nullable().optional(),
  })
  .describe('Organization settings');

export const Member = z.strictObject({
  user: z.string().min(1).describe('Email or user id of an existing member (the API cannot invite)'),
  role: Role.nullable().describe('Role, or null for a guest'),
});

export const TeamRole = z.enum(['owner', 'member']);
export const TeamMember = z.union(
  [
    z.string().min(1).describe('Email or user id; role member'),
    z.strictObject({ user: z.string().min(1), role: TeamRole.default('member') }),
  ],
  { error: 'must be an email or user id, or {user, role}' },
);

export const Team = z
  .strictObject({
    id: Id.optional(),
    renamedFrom: RenamedFrom.optional(),
    title: z.string().min(1).max(64),
    members: z.array(TeamMember).optional().describe('The whole membership when present; unmanaged when absent'),
  })
  .superRefine(renamedFromNotOwn('title'));

export interface CollectionT {
  id?: string;
  renamedFrom?: string;
  title: string;
  description?: string | null;
  defaultLevel?: z.infer<typeof Level> | null;
  collections?: CollectionT[];
}
export const Collection: z.ZodType<CollectionT> = z.lazy(() =>
  z
    .strictObject({
      id: Id.optional(),
      renamedFrom: RenamedFrom.optional().describe('Path of the remote collection this one was called before'),
      // A "/" would make the collection's path (its natural key, `Product/API`) ambiguous.
      title: z.string().min(1).max(50).regex(/^[^/]*$/, { error: 'must not contain "/" (collection paths use it to separate titles)' }),
      description: z.string().max(100).nullable().optional(),
      defaultLevel: Level.nullable().optional(),
      collections: z.array(Collection).optional().describe('Child collections'),
    }),
  // The id names the recursive definition in the JSON Schema ($defs/Collection).
).meta({ id: 'Collection' });

export const Space = z.strictObject({
  id: Id.describe('An existing space (the API has no create)'),
  title: z.string().min(1).optional(),
  emoji: z.string().optional(),
  editMode: z.enum(['live', 'locked']).optional(),
  defaultLevel: Level.nullable().optional(),
  language: z.string().min(1).optional(),
  collection: z.string().min(1).nullable().optional().describe('Path of collection titles (A/B), or null for the top level'),
});

export const SiteSpace = z.strictObject({
  id: Id.optional(),
  space: Id.describe('The space shown'),
  path: z.string().min(1).max(100).optional(),
  condition: z.string().max(1024).nullable().optional(),
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
    siteSpaces: z.array(SiteSpace).optional().describe('Further spaces in the section, in order; the whole truth when present'),
  })
  .superRefine(renamedFromNotOwn('path'));

export const SectionGroup = z
  .strictObject({
    id: Id.optional(),
    renamedFrom: RenamedFrom.optional(),
    title: z.string().min(1).max(100),
    icon: z.string().max(50).nullable().optional(),
    sections: z.array(z.string().min(1)).optional().describe('Section paths, in order'),
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

export const Site = z.strictObject({
  id: Id.describe('An existing site (the API has no list or create of sites)'),
  sections: z.array(Section).optional(),
  sectionGroups: z.array(SectionGroup).optional(),
  shareLinks: z.array(ShareLink).optional(),
});

export const SamlProvider = z
  .strictObject({
    id: Id.optional(),
    renamedFrom: RenamedFrom.optional(),
    label: z.string().min(1).max(30),
    entityID: z.string().max(1024).optional(),
    ssoURL: z.url({ protocol: /^https?$/ }).max(2048).optional(),
    certificate: z.string().max(10000).optional(),
    /*
     * A team title. When the config defines that team, the SAML provider's step waits for it; when the
     * config names no such team (teams managed by hand, or `teams` absent), the loader records it in
     * `OrgConfig.deferred` as "to be checked at plan time" and the planner reports a problem if no
     * remote team has that title. A title that names no config team while `teams` is pruned is an
     * error at once: the plan would delete that team.
     */
    defaultTeam: z.string().min(1).nullable().optional().describe('Team title (a team of this config, or an existing team)'),
    defaultRole: Role.nullable().optional(),
  })
  .superRefine(renamedFromNotOwn('label'));

const IntegrationName = z
  .string()
  .min(1)
  .max(100)
  // The API's pattern ^[a-zA-Z0-9-_.]+$, with "-" moved last so that it also reads as a literal in
  // the unicode regular expressions of JSON Schema validators.
  .regex(/^[a-zA-Z0-9_.-]+$/, { error: 'must hold only letters, digits, "-", "_" and "."' });

export const Integration = z.strictObject({
  name: IntegrationName,
  title: z.string().min(2).max(30),
  description: z.string().max(100),
  summary: z.string().max(2048).optional(),
  script: z.string().min(1).describe('Script content, usually ${file:…}'),
  runtime: z.string().min(1).optional(),
  visibility: z.string().min(1).optional(),
  target: z.string().min(1).optional(),
  scopes: z.array(z.string().min(1)).min(1),
  categories: z.array(z.string().min(1)).optional(),
  externalLinks: z.array(z.strictObject({ url: z.url({ protocol: /^https?$/ }), label: z.string().min(1) })).optional(),
  contentSecurityPolicy: z.string().optional(),
  secrets: z.record(z.string(), z.string()).optional().describe('Secret values (masked in every output); usually ${env:…}'),
});

export const Translation = z
  .strictObject({
    id: Id.optional(),
    source: z.strictObject({ space: Id.describe('The space translated'), language: z.string().min(1).describe('Its language') }),
    language: z.string().min(1).describe('The target language'),
    instructions: Instructions.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.language.toLowerCase() === value.source.language.toLowerCase()) {
      ctx.addIssue({ code: 'custom', path: ['language'], message: `is the source's own language (${value.source.language}); a translation needs another language` });
    }
  });

/** Kinds that `prune` accepts. */
export const PRUNABLE = [
  'members',
  'teams',
  'collections',
  'sections',
  'siteSpaces',
  'sectionGroups',
  'shareLinks',
  'saml',
  'translations',
] as const;
export const PrunableKind = z.enum(PRUNABLE);

export const Safety = z
  .strictObject({
    maxDeletes: z.number().int().min(0).default(10).describe('Deletes per organization that apply accepts without --force'),
    maxDeletePercent: z
      .number()
      .min(0)
      .max(100)
      .default(25)
      .describe('Share of a kind (with at least 10 remote resources) that apply deletes without --force'),
    keepSsoMembers: z.boolean().default(true).describe('Members provisioned by SSO are never pruned'),
  })
  .describe('Rules that make apply refuse (exit 3) unless --force');

export const ConfigDocument = z
  .strictObject({
    version: z.literal(1),
    api: z.strictObject({ url: z.url({ protocol: /^https?$/ }).describe('Base URL of the API') }).optional(),
    organization: Organization,
    members: z.array(Member).optional(),
    teams: z.array(Team).optional(),
    collections: z.array(Collection).optional(),
    spaces: z.array(Space).optional(),
    sites: z.array(Site).optional(),
    saml: z.array(SamlProvider).optional(),
    integrations: z.array(Integration).optional(),
    translations: z.array(Translation).optional(),
    prune: z
      .union([z.literal('all'), z.array(z.enum([...PRUNABLE, 'all']))], {
        error: `must be "all" or a list of kinds (${PRUNABLE.join(', ')})`,
      })
      .optional()
      .describe('Kinds for which this config is the whole truth: remote resources it does not mention are deleted'),
    safety: Safety.optional(),
    protect: z
      .array(
        z
          .string()
          .min(1)
          .superRefine((value, ctx) => {
            const problem = addressSyntaxProblem(value);
            if (problem) ctx.addIssue({ code: 'custom', message: `is not an address or glob: ${problem}` });
          }),
      )
      .optional()
      .describe('Addresses or globs (`*` within a key, `**` anything) that are never deleted, such as teams["Legacy"]'),
  })
  .describe('A docplane config document');

export type ConfigDocumentT = z.infer<typeof ConfigDocument>;
export type OrganizationT = z.infer<typeof Organization>;
export type MemberT = z.infer<typeof Member>;
export type TeamT = z.infer<typeof Team>;
export type TeamMemberT = z.infer<typeof TeamMember>;
export type SpaceT = z.infer<typeof Space>;
export type SiteT = z.infer<typeof Site>;
export type SectionT = z.infer<typeof Section>;
export type SiteSpaceT = z.infer<typeof SiteSpace>;
export type SectionGroupT = z.infer<typeof SectionGroup>;
export type ShareLinkT = z.infer<typeof ShareLink>;
export type SamlProviderT = z.infer<typeof SamlProvider>;
export type IntegrationT = z.infer<typeof Integration>;
export type TranslationT = z.infer<typeof Translation>;
export type PrunableKindT = z.infer<typeof PrunableKind>;
export type RoleT = z.infer<typeof Role>;
export type LevelT = z.infer<typeof Level>;
export type RichTextDocumentT = z.infer<typeof RichTextDocument>;
