/**
 * Records → the API's objects (API §2 plus the §10 extras: `draft` on site spaces, sections and
 * groups; `sections` and `children` on groups; `sites` on members). Optional fields that are unset
 * are left out, as the live service does; `permissions` follow the token's access.
 */
import { defaultSectionId, defaultSiteSpaceId } from './structure.js';
import type {
  CollectionRec,
  GroupRec,
  IntegrationRec,
  MemberRec,
  OrgRec,
  SamlRec,
  SectionRec,
  ShareLinkRec,
  SiteRec,
  SiteSpaceRec,
  SpaceRec,
  TeamRec,
  TokenAccess,
  TranslationRec,
  UserRec,
  World,
} from './world.js';

export interface ViewContext {
  world: World;
  access: TokenAccess;
}

type Obj = Record<string, unknown>;

/** Leaves out keys whose value is undefined, so that absent fields are absent in the JSON too. */
function compact(o: Obj): Obj {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

function perms(ctx: ViewContext, keys: string[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const k of keys) out[k] = k === 'view' || k === 'access' || ctx.access === 'write';
  return out;
}

const api = (ctx: ViewContext, path: string) => `${ctx.world.baseUrl}/v1${path}`;
const app = (path: string) => `https://app.docplane.test${path}`;
const published = (org: string, path: string) => `https://${org.replace(/[^a-zA-Z0-9-]/g, '-').toLowerCase()}.docs.test${path}`;

export function userView(ctx: ViewContext, user: UserRec): Obj {
  return compact({
    object: 'user',
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    photoURL: user.photoURL,
    urls: { location: api(ctx, `/users/${user.id}`) },
  });
}

export function orgView(ctx: ViewContext, org: OrgRec): Obj {
  return compact({
    object: 'organization',
    id: org.id,
    title: org.title,
    createdAt: org.createdAt,
    emailDomains: [...org.emailDomains],
    hostname: org.hostname,
    type: org.type,
    useCase: org.useCase,
    communityType: org.communityType,
    defaultRole: org.defaultRole,
    defaultContent: org.defaultContent ? { ...org.defaultContent } : null,
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    plan: org.plan,
    mergeRules: structuredClone(org.mergeRules),
    customHostname: org.customHostname,
    urls: compact({ location: api(ctx, `/orgs/${org.id}`), app: app(`/o/${org.id}`), logo: org.logo }),
    trial: { status: 'notapplicable', count: 0 },
    permissions: perms(ctx, [
      'view',
      'admin',
      'ownTeam',
      'createContent',
      'createOpenAPISpec',
      'ingestConversations',
      'viewBilling',
      'listMembers',
      'listTeams',
      'listIntegrations',
      'listInstallations',
      'installIntegration',
    ]),
  });
}

export function memberView(ctx: ViewContext, org: OrgRec, member: MemberRec): Obj {
  const user = ctx.world.users.get(member.userId)!;
  let teams = 0;
  for (const t of org.teams.values()) if (t.members.has(member.userId)) teams++;
  return compact({
    object: 'member',
    id: member.userId,
    role: member.role,
    user: userView(ctx, user),
    disabled: member.disabled,
    joinedAt: member.joinedAt,
    lastSeenAt: member.lastSeenAt,
    sso: member.sso,
    spaces: 0,
    teams,
    sites: [],
  });
}

export function teamView(ctx: ViewContext, org: OrgRec, team: TeamRec): Obj {
  return {
    object: 'team',
    id: team.id,
    title: team.title,
    members: team.members.size,
    spaces: 0,
    createdAt: team.createdAt,
    permissions: perms(ctx, ['admin', 'view']),
    urls: { location: api(ctx, `/orgs/${org.id}/teams/${team.id}`) },
  };
}

export function collectionView(ctx: ViewContext, c: CollectionRec): Obj {
  return compact({
    object: 'collection',
    id: c.id,
    title: c.title,
    description: c.description,
    organization: c.org,
    parent: c.parent,
    defaultLevel: c.defaultLevel,
    urls: { location: api(ctx, `/collections/${c.id}`), app: app(`/o/${c.org}/c/${c.id}`) },
    permissions: perms(ctx, ['view', 'admin', 'viewInviteLinks', 'create']),
  });
}

export function spaceView(ctx: ViewContext, s: SpaceRec): Obj {
  return compact({
    object: 'space',
    id: s.id,
    title: s.title,
    emoji: s.emoji,
    visibility: s.visibility,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    deletedAt: s.deletedAt,
    editMode: s.editMode,
    mergeRules: structuredClone(s.mergeRules),
    urls: {
      location: api(ctx, `/spaces/${s.id}`),
      app: app(`/o/${s.org}/s/${s.id}`),
      published: published(s.org, `/${s.id}`),
    },
    organization: s.org,
    parent: s.parent,
    language: s.language,
    revision: s.revision,
    defaultLevel: s.defaultLevel,
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    permissions: perms(ctx, [
      'view',
      'access',
      'admin',
      'viewInviteLinks',
      'edit',
      'triggerGitSync',
      'comment',
      'merge',
      'review',
      'installIntegration',
    ]),
  });
}

export function siteSpaceView(ctx: ViewContext, site: SiteRec, ss: SiteSpaceRec): Obj {
  const space = ctx.world.spaces.get(ss.space)!;
  const section = ss.section ? site.sections.get(ss.section) : undefined;
  return compact({
    object: 'site-space',
    id: ss.id,
    path: ss.path,
    section: ss.section,
    space: spaceView(ctx, space),
    title: space.title,
    default: defaultSiteSpaceId(site, section) === ss.id,
    condition: ss.condition,
    draft: ss.draft,
    hasAdvancedCustomizationFeature: false,
    urls: { published: published(site.org, `/${site.id}/${section ? `${section.path}/` : ''}${ss.path}`) },
  });
}

export function sectionView(ctx: ViewContext, site: SiteRec, s: SectionRec): Obj {
  return compact({
    object: 'site-section',
    id: s.id,
    title: s.title,
    description: s.description,
    default: defaultSectionId(site) === s.id,
    path: s.path,
    condition: s.condition,
    sectionGroup: s.group,
    icon: s.icon,
    draft: s.draft,
    siteSpaces: s.siteSpaces.map((id) => siteSpaceView(ctx, site, site.siteSpaces.get(id)!)),
    urls: { published: published(site.org, `/${site.id}/${s.path}`) },
  });
}

export function groupView(ctx: ViewContext, site: SiteRec, g: GroupRec): Obj {
  return compact({
    object: 'site-section-group',
    id: g.id,
    title: g.title,
    icon: g.icon,
    draft: g.draft,
    sections: [...g.sections],
    children: g.sections.map((id) => sectionView(ctx, site, site.sections.get(id)!)),
  });
}

export function shareLinkView(_ctx: ViewContext, site: SiteRec, l: ShareLinkRec): Obj {
  return {
    object: 'share-link',
    id: l.id,
    createdAt: l.createdAt,
    name: l.name,
    active: l.active,
    urls: { published: published(site.org, `/${site.id}?share=${l.id}`) },
  };
}

export function samlView(ctx: ViewContext, org: OrgRec, p: SamlRec): Obj {
  const team = p.defaultTeam ? org.teams.get(p.defaultTeam) : undefined;
  return compact({
    object: 'saml-provider',
    id: p.id,
    label: p.label,
    ssoURL: p.ssoURL,
    entityID: p.entityID,
    certificate: p.certificate,
    defaultTeam: team ? teamView(ctx, org, team) : null,
    defaultRole: p.defaultRole,
    createdAt: p.createdAt,
    status: p.status,
    service: {
      acsURL: `https://app.docplane.test/saml/${p.id}/acs`,
      startURL: `https://app.docplane.test/saml/${p.id}/start`,
      entityID: `https://app.docplane.test/saml/${p.id}`,
    },
    urls: { location: api(ctx, `/orgs/${org.id}/saml/${p.id}`) },
  });
}

export function translationView(ctx: ViewContext, org: OrgRec, t: TranslationRec): Obj {
  return compact({
    object: 'translation',
    id: t.id,
    status: 'pending',
    source: { ...t.source },
    language: t.language,
    instructions: t.instructions ? structuredClone(t.instructions) : undefined,
    result: { space: t.resultSpace, revision: t.revision },
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    stats: { runs: t.runs, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 },
    permissions: perms(ctx, ['view', 'edit']),
    urls: { location: api(ctx, `/orgs/${org.id}/translations/${t.id}`) },
  });
}

/** Never `script` nor `secrets`. */
export function integrationView(ctx: ViewContext, it: IntegrationRec): Obj {
  const owner = ctx.world.orgs.get(it.owner);
  return compact({
    object: 'integration',
    name: it.name,
    version: it.version,
    title: it.title,
    description: it.description,
    summary: it.summary,
    previewImages: [...it.previewImages],
    target: it.target,
    verified: it.verified,
    visibility: it.visibility,
    scopes: [...it.scopes],
    categories: [...it.categories],
    blocks: structuredClone(it.blocks),
    contentSources: structuredClone(it.contentSources),
    configurations: structuredClone(it.configurations),
    externalLinks: structuredClone(it.externalLinks),
    owner: owner ? orgView(ctx, owner) : undefined,
    urls: {
      location: api(ctx, `/integrations/${it.name}`),
      icon: `https://integrations.docplane.test/${it.name}/icon.png`,
      app: app(`/integrations/${it.name}`),
      assets: `https://integrations.docplane.test/${it.name}/assets/`,
      publicEndpoint: `https://integrations.docplane.test/v1/integrations/${it.name}/integration`,
    },
    permissions: { admin: ctx.access === 'write' },
    contentSecurityPolicy: it.contentSecurityPolicy,
  });
}

export function agentInstructionsView(ctx: ViewContext, org: OrgRec): Obj {
  const rec = org.agentInstructions;
  return compact({
    object: 'agent-instructions',
    instructions: rec ? structuredClone(rec.instructions) : { object: 'document', data: { schemaVersion: 1 }, nodes: [] },
    updatedAt: rec?.updatedAt,
    updatedBy: rec?.updatedBy,
    urls: { location: api(ctx, `/orgs/${org.id}/agent-instructions`) },
  });
}
