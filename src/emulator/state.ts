/**
 * The emulator's state file (DESIGN §7): the world the API cannot create (tokens, users, members,
 * spaces, sites) and, optionally, resources as if made earlier through the API. YAML or JSON.
 * Field names are the API's; anything left out gets the value the API would give.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { DocplaneError } from '../core/errors.js';
import { describeIssue } from './http.js';

const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export const RoleSchema = z.enum(ROLES);
export const LevelSchema = z.enum([...ROLES, 'inherit']);

const Id = z.string().min(1);
const Timestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date-time');

/** A rich-text document, kept as given (the emulator adds block keys). */
const Doc = z.looseObject({ object: z.literal('document'), data: z.record(z.string(), z.unknown()).optional(), nodes: z.array(z.unknown()) });

const TokenSeed = z.strictObject({
  token: z.string().min(1),
  access: z.enum(['read', 'write']),
  /** The user the token acts for; when given, the token reaches only that user's organizations. */
  user: Id.optional(),
});

const UserSeed = z.strictObject({
  id: Id,
  email: z.string().min(3),
  displayName: z.string().optional(),
  photoURL: z.string().optional(),
});

const MemberSeed = z.strictObject({
  /** User id or email. */
  user: Id,
  role: RoleSchema.nullable(),
  sso: z.boolean().optional(),
  disabled: z.boolean().optional(),
  joinedAt: Timestamp.optional(),
  lastSeenAt: Timestamp.optional(),
});

const SpaceSeed = z.strictObject({
  id: Id.optional(),
  title: z.string().min(1),
  emoji: z.string().optional(),
  visibility: z.enum(['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private']).optional(),
  editMode: z.enum(['live', 'locked']).optional(),
  defaultLevel: LevelSchema.nullable().optional(),
  language: z.string().min(1).optional(),
  /** Parent collection by id. */
  parent: Id.optional(),
  /** Parent collection by path of titles (`Archive/2023`). */
  collection: z.string().min(1).optional(),
  createdAt: Timestamp.optional(),
  deletedAt: Timestamp.optional(),
});

const SiteSpaceSeed = z.strictObject({
  id: Id.optional(),
  space: Id,
  path: z.string().min(1).max(100).optional(),
  condition: z.string().max(1024).optional(),
  draft: z.boolean().optional(),
  default: z.boolean().optional(),
});

const SectionSeed = z.strictObject({
  id: Id.optional(),
  title: z.string().min(2).max(128),
  path: z.string().min(1).max(100).optional(),
  description: z.string().max(256).optional(),
  condition: z.string().max(1024).optional(),
  icon: z.string().max(50).optional(),
  draft: z.boolean().optional(),
  default: z.boolean().optional(),
  siteSpaces: z.array(SiteSpaceSeed).default([]),
});

const SectionGroupSeed = z.strictObject({
  id: Id.optional(),
  title: z.string().min(1).max(100),
  icon: z.string().max(50).optional(),
  draft: z.boolean().optional(),
  /** Section paths (or ids), in order. */
  sections: z.array(z.string().min(1)).default([]),
});

const ShareLinkSeed = z.strictObject({
  id: Id.optional(),
  name: z.string().min(1).max(50),
  active: z.boolean().optional(),
  createdAt: Timestamp.optional(),
});

const SiteSeed = z.strictObject({
  id: Id.optional(),
  title: z.string().min(1),
  sections: z.array(SectionSeed).default([]),
  sectionGroups: z.array(SectionGroupSeed).default([]),
  shareLinks: z.array(ShareLinkSeed).default([]),
  /** Site spaces at the root of a site that has no sections. */
  siteSpaces: z.array(SiteSpaceSeed).default([]),
});

const TeamMemberSeed = z.union([Id, z.strictObject({ user: Id, role: z.enum(['owner', 'member']).default('member') })]);

const TeamSeed = z.strictObject({
  id: Id.optional(),
  title: z.string().min(1).max(64),
  members: z.array(TeamMemberSeed).default([]),
  createdAt: Timestamp.optional(),
});

export interface CollectionSeedInput {
  id?: string;
  title: string;
  description?: string;
  defaultLevel?: z.infer<typeof LevelSchema> | null;
  collections?: CollectionSeedInput[];
}
export interface CollectionSeed {
  id?: string;
  title: string;
  description?: string;
  defaultLevel?: z.infer<typeof LevelSchema> | null;
  collections: CollectionSeed[];
}
const CollectionSeedSchema: z.ZodType<CollectionSeed, CollectionSeedInput> = z.lazy(() =>
  z.strictObject({
    id: Id.optional(),
    title: z.string().min(1).max(50),
    description: z.string().max(100).optional(),
    defaultLevel: LevelSchema.nullable().optional(),
    collections: z.array(CollectionSeedSchema).default([]),
  }),
);

const SamlSeed = z.strictObject({
  id: Id.optional(),
  label: z.string().min(1).max(30),
  entityID: z.string().max(1024).optional(),
  ssoURL: z.string().max(2048).optional(),
  certificate: z.string().max(10000).optional(),
  /** Team title or id. */
  defaultTeam: z.string().min(1).nullable().optional(),
  defaultRole: RoleSchema.nullable().optional(),
  status: z.string().optional(),
});

const TranslationSeed = z.strictObject({
  id: Id.optional(),
  language: z.string().min(1),
  source: z.strictObject({ space: Id, language: z.string().min(1) }),
  instructions: z.union([z.string(), Doc]).optional(),
});

const IntegrationSeed = z.strictObject({
  name: z.string().min(1).max(100).regex(/^[a-zA-Z0-9-_.]+$/),
  title: z.string().min(2).max(30),
  description: z.string().max(100),
  summary: z.string().max(2048).optional(),
  version: z.number().int().min(1).optional(),
  target: z.string().optional(),
  visibility: z.string().optional(),
  scopes: z.array(z.string()).default([]),
  categories: z.array(z.string()).default([]),
  script: z.string().default(''),
  secrets: z.record(z.string(), z.string()).optional(),
  verified: z.boolean().optional(),
});

const OrganizationSeed = z.strictObject({
  id: Id.optional(),
  title: z.string().min(2).max(255),
  createdAt: Timestamp.optional(),
  emailDomains: z.array(z.string()).default([]),
  hostname: z.string().min(3).max(32).optional(),
  type: z.string().optional(),
  useCase: z.string().optional(),
  communityType: z.string().optional(),
  defaultRole: RoleSchema.nullable().optional(),
  defaultContent: z.strictObject({ type: z.literal('site'), site: Id }).nullable().optional(),
  sso: z.boolean().optional(),
  ai: z.boolean().optional(),
  inviteLinks: z.boolean().optional(),
  plan: z.string().optional(),
  mergeRules: z.record(z.string(), z.unknown()).optional(),
  customHostname: z.string().optional(),
  logo: z.string().optional(),
  members: z.array(MemberSeed).default([]),
  spaces: z.array(SpaceSeed).default([]),
  sites: z.array(SiteSeed).default([]),
  teams: z.array(TeamSeed).default([]),
  collections: z.array(CollectionSeedSchema).default([]),
  saml: z.array(SamlSeed).default([]),
  translations: z.array(TranslationSeed).default([]),
  /** Integrations this organization published. */
  integrations: z.array(IntegrationSeed).default([]),
  /** Plain text (paragraphs separated by a blank line) or a rich-text document. */
  agentInstructions: z.union([z.string(), Doc]).nullable().optional(),
});

export const EmulatorStateSchema = z.strictObject({
  /** Default: `dev-token` (write) and `read-token` (read). */
  tokens: z.array(TokenSeed).optional(),
  users: z.array(UserSeed).default([]),
  organizations: z.array(OrganizationSeed).default([]),
});

/** A state as written (defaults optional): what `startEmulator({state})` accepts. */
export type EmulatorState = z.input<typeof EmulatorStateSchema>;
/** A state after validation, every default filled in. */
export type ParsedEmulatorState = z.output<typeof EmulatorStateSchema>;
export type OrganizationSeedT = z.output<typeof OrganizationSeed>;
export type SiteSeedT = z.output<typeof SiteSeed>;

export const DEFAULT_TOKENS = [
  { token: 'dev-token', access: 'write' as const },
  { token: 'read-token', access: 'read' as const },
];

/** Validates a state object; `source` names where it came from in the error. */
export function parseEmulatorState(input: unknown, source = 'emulator state'): ParsedEmulatorState {
  const result = EmulatorStateSchema.safeParse(input ?? {});
  if (result.success) return result.data;
  const lines = result.error.issues.slice(0, 5).map((issue) => describeIssue(issue, input ?? {}).replace(/^body:/, '(top level):'));
  const more = result.error.issues.length > 5 ? ` (and ${result.error.issues.length - 5} more)` : '';
  throw new DocplaneError('EMULATOR_STATE_INVALID', `${source}: ${lines.join('; ')}${more}`, {
    hint: 'Fix the state file; its format is described in src/emulator/README.md.',
  });
}

/** Reads and validates a state file, YAML or JSON (JSON is YAML). Errors name the file. */
export function loadEmulatorState(file: string): ParsedEmulatorState {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new DocplaneError('EMULATOR_STATE_UNREADABLE', `cannot read the emulator state file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, {
      hint: 'Check the path given to --state.',
      cause: err,
    });
  }
  let data: unknown;
  try {
    data = parseYaml(text, { prettyErrors: true });
  } catch (err) {
    const message = (err as Error).message.split('\n')[0];
    throw new DocplaneError('EMULATOR_STATE_INVALID', `${file}: not valid YAML or JSON: ${message}`, {
      hint: 'Fix the syntax of the state file.',
      cause: err,
    });
  }
  return parseEmulatorState(data, file);
}
