/**
 * Git Sync installations (`/git/installations/{id}`): spaces and sites synchronised with a repository.
 * Connecting a repository needs the Git provider's authorization, which the emulator has no part of:
 * installations are seeded (`gitSync:` of an organization in the state file). A synchronised space or
 * site carries `gitSync` (GitSyncState) in its Space or Site object; getGitSyncInstallationById reads
 * an installation and updateGitSyncInstallationById changes its configuration, as the live description
 * says (a site installation whose project directory holds no gitbook-docs.yaml answers 409).
 */
import { z } from 'zod';
import { HttpError, badRequest, bodyObject, created, deleted, notFound, ok, validate, type Reply, type RouteRequest } from '../http.js';
import { SeedError, defineKind } from '../kind.js';
import type { OrgRec, World } from '../model.js';
import { canReach, nowIso, viewCtx } from '../routing.js';
import { apiUrl, compact } from '../views.js';
import type { Obj, ViewContext } from '../views.js';

type Provider = 'github' | 'gitlab';
type Target = { type: 'space'; spaceId: string; siteId?: string } | { type: 'site'; siteId: string };

export interface GitSyncRec {
  id: string;
  org: string;
  target: Target;
  provider: Provider;
  /** `owner/name`. */
  repository: string;
  /** The provider's repository (GitHub) or project (GitLab) id. */
  repositoryId: number;
  branch: string;
  projectDirectory?: string;
  commitMessageTemplate?: string;
  priority: 'git' | 'gitbook';
  previewExternalBranches?: boolean;
  agentInstructions?: string[];
  /** The site installation a space installation belongs to. */
  parentInstallationId?: string;
  /** Directories of the repository holding a gitbook-docs.yaml; every directory when absent. */
  siteConfigDirectories?: string[];
  createdAt: string;
  updatedAt: string;
}

declare module '../model.js' {
  interface World {
    /** Git Sync installations by id. */
    gitSync: Map<string, GitSyncRec>;
  }
}

const Priority = z.enum(['git', 'gitbook']);
const AgentInstructions = z.array(z.enum(['agents', 'claude']));
const Branch = z.string().regex(/^refs\/heads\/.+$/, 'must match ^refs/heads/.+$');

const GitSyncSeed = z
  .strictObject({
    space: z.string().min(1).optional(),
    site: z.string().min(1).optional(),
    provider: z.enum(['github', 'gitlab']).default('github'),
    repository: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'must be owner/name'),
    branch: Branch.default('refs/heads/main'),
    projectDirectory: z.string().optional(),
    commitMessageTemplate: z.string().optional(),
    priority: Priority.default('git'),
    previewExternalBranches: z.boolean().optional(),
    agentInstructions: AgentInstructions.optional(),
    siteConfigDirectories: z.array(z.string()).optional(),
  })
  .refine((s) => s.space !== undefined || s.site !== undefined, { message: 'give the space or the site synchronised (both: a space synchronised through its site)' });

const Setup = z.object({
  projectDirectory: z.string().optional(),
  commitMessageTemplate: z.string().optional(),
  previewExternalBranches: z.boolean().optional(),
  agentInstructions: AgentInstructions.optional(),
  priority: Priority.optional(),
  childInstallationProjectDirectories: z.record(z.string(), z.string()).optional(),
});
const UpdateGitHub = Setup.extend({
  provider: z.literal('github'),
  providerConfiguration: z.strictObject({ repositoryId: z.number().optional(), branch: Branch.optional() }),
}).strict();
const UpdateGitLab = Setup.extend({
  provider: z.literal('gitlab'),
  providerConfiguration: z.strictObject({
    projectId: z.number().optional(),
    accessToken: z.string().optional(),
    customInstanceURL: z.string().nullable().optional(),
    branch: Branch.optional(),
  }),
}).strict();
const UpdateInstallation = z.discriminatedUnion('provider', [UpdateGitHub, UpdateGitLab]);
const Install = z.looseObject({
  provider: z.enum(['github', 'gitlab']),
  target: z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('space'), spaceId: z.string().min(1), siteId: z.string().min(1).optional() }),
    z.looseObject({ type: z.literal('site'), siteId: z.string().min(1) }),
  ]),
});

/** The installation of a space or site, or undefined when it is not synchronised. */
function installationOf(world: World, target: { space?: string; site?: string }): GitSyncRec | undefined {
  for (const i of world.gitSync.values()) {
    if (target.space !== undefined && i.target.type === 'space' && i.target.spaceId === target.space) return i;
    if (target.space === undefined && target.site !== undefined && i.target.type === 'site' && i.target.siteId === target.site) return i;
  }
  return undefined;
}

const repositoryUrl = (i: GitSyncRec): string => `https://${i.provider === 'github' ? 'github.com' : 'gitlab.com'}/${i.repository}`;

/** `gitSync` of a Space or Site object (GitSyncState); undefined when it is not synchronised. */
export function gitSyncState(world: World, target: { space: string } | { site: string }): Obj | undefined {
  const i = installationOf(world, target);
  if (!i) return undefined;
  return compact({
    repoName: i.repository,
    installationStatus: 'active',
    installationProvider: i.provider,
    installationId: i.id,
    parentInstallationId: i.parentInstallationId,
    url: `${repositoryUrl(i)}/tree/${i.branch.slice('refs/heads/'.length)}${i.projectDirectory ? `/${i.projectDirectory}` : ''}`,
    updatedAt: i.updatedAt,
  });
}

function installationView(ctx: ViewContext, i: GitSyncRec): Obj {
  return compact({
    object: 'git-sync-installation',
    id: i.id,
    provider: i.provider,
    providerConfiguration: i.provider === 'github' ? { repositoryId: i.repositoryId, branch: i.branch } : { projectId: i.repositoryId, branch: i.branch },
    projectDirectory: i.projectDirectory,
    commitMessageTemplate: i.commitMessageTemplate,
    previewExternalBranches: i.previewExternalBranches,
    agentInstructions: i.agentInstructions ? [...i.agentInstructions] : undefined,
    priority: i.priority,
    parentInstallationId: i.parentInstallationId,
    target: { ...i.target },
    status: 'active',
    repositoryConnection: {
      object: 'git-repository-connection',
      id: `conn_${i.id}`,
      provider: i.provider,
      repositoryId: String(i.repositoryId),
      repositoryName: i.repository,
      repositoryUrl: repositoryUrl(i),
      defaultBranch: 'main',
      authState: 'active',
      capabilities: { pullRequests: true, commitStatuses: true },
      createdAt: i.createdAt,
      updatedAt: i.updatedAt,
    },
    createdAt: i.createdAt,
    createdBy: 'u_seed',
    updatedAt: i.updatedAt,
    urls: { location: apiUrl(ctx, `/git/installations/${i.id}`) },
  });
}

function reachable(req: RouteRequest): GitSyncRec {
  const i = req.world.gitSync.get(req.params.installation);
  const org = i ? req.world.orgs.get(i.org) : undefined;
  if (!i || !org || !canReach(req, org)) throw notFound(`no Git Sync installation ${req.params.installation}`);
  return i;
}

/** The 409 of updateGitSyncInstallationById for a site whose project directory holds no gitbook-docs.yaml. */
function missingSiteConfig(i: GitSyncRec, directory: string): Reply {
  const path = directory === '' ? 'gitbook-docs.yaml' : `${directory.replace(/\/+$/, '')}/gitbook-docs.yaml`;
  const branch = i.branch.slice('refs/heads/'.length);
  return {
    status: 409,
    body: {
      error: {
        code: 409,
        message: `the site's Git Sync configuration ${path} is missing from ${i.repository} (branch ${branch})`,
        type: 'missing_site_git_sync_config',
        details: { path, branch, prompt: `Create ${path} on branch ${branch} of ${i.repository}, describing the site's structure, and commit it.` },
      },
    },
  };
}

export const gitSyncKind = defineKind({
  name: 'gitSync',
  orgSeed: {
    /** Spaces and sites synchronised with a repository (connected in the app). */
    gitSync: z.array(GitSyncSeed).default([]),
  },
  initWorld(world) {
    world.gitSync = new Map();
  },
  seedOrg(ctx, org, seed, place) {
    const { world } = ctx;
    // Sites first: a space synchronised through its site belongs to the site's installation.
    const order = seed.gitSync.map((s, n) => ({ s, n })).sort((a, b) => Number(a.s.space !== undefined) - Number(b.s.space !== undefined));
    for (const { s, n } of order) {
      const at = `${place}.gitSync[${n}]`;
      if (s.site !== undefined && !org.sites.has(s.site)) throw new SeedError(`${at}.site`, `no site ${s.site} in ${org.id}`);
      if (s.space !== undefined && world.spaces.get(s.space)?.org !== org.id) throw new SeedError(`${at}.space`, `no space ${s.space} in ${org.id}`);
      if (installationOf(world, s)) throw new SeedError(at, `${s.space ?? s.site} is synchronised twice`);
      const parent = s.space !== undefined && s.site !== undefined ? installationOf(world, { site: s.site }) : undefined;
      if (s.space !== undefined && s.site !== undefined && !parent) throw new SeedError(`${at}.site`, `site ${s.site} is not synchronised: seed its own installation too (an entry with the site and no space)`);
      const stamp = ctx.stamp();
      const id = world.newId('gitsync');
      const target: Target = s.space !== undefined ? { type: 'space', spaceId: s.space, ...(s.site ? { siteId: s.site } : {}) } : { type: 'site', siteId: s.site ?? '' };
      world.gitSync.set(id, {
        id,
        org: org.id,
        target,
        provider: s.provider,
        repository: s.repository,
        repositoryId: 1000 + world.gitSync.size,
        branch: s.branch,
        ...(s.projectDirectory !== undefined ? { projectDirectory: s.projectDirectory } : {}),
        ...(s.commitMessageTemplate !== undefined ? { commitMessageTemplate: s.commitMessageTemplate } : {}),
        priority: s.priority,
        ...(s.previewExternalBranches !== undefined ? { previewExternalBranches: s.previewExternalBranches } : {}),
        ...(s.agentInstructions !== undefined ? { agentInstructions: [...s.agentInstructions] } : {}),
        ...(parent ? { parentInstallationId: parent.id } : {}),
        ...(s.siteConfigDirectories !== undefined ? { siteConfigDirectories: [...s.siteConfigDirectories] } : {}),
        createdAt: stamp,
        updatedAt: stamp,
      });
    }
  },
  // A GitLab access token sent to connect a project.
  secretFields: [{ field: 'accessToken', holds: 'value' }],
  routes(router) {
    // installGitSyncProviderOnTarget: an installation without a repository until an update names one
    // (a GitLab project: projectId and accessToken; a GitHub repository needs the app, which the
    // emulator has no part of).
    router.add('POST', '/v1/git/installations', (req) => {
      const body = validate(Install, bodyObject(req));
      const t = body.target;
      let org: OrgRec | undefined;
      if (t.type === 'space') {
        const space = req.world.spaces.get(t.spaceId);
        org = space ? req.world.orgs.get(space.org) : undefined;
        if (!space || !org || !canReach(req, org)) throw notFound(`no space ${t.spaceId}`);
      } else {
        org = [...req.world.orgs.values()].find((o) => o.sites.has(t.siteId) && canReach(req, o));
        if (!org) throw notFound(`no site ${t.siteId}`);
      }
      const target: Target = t.type === 'space' ? { type: 'space', spaceId: t.spaceId, ...(t.siteId ? { siteId: t.siteId } : {}) } : { type: 'site', siteId: t.siteId };
      if (installationOf(req.world, t.type === 'space' ? { space: t.spaceId } : { site: t.siteId })) throw new HttpError(409, `${t.type === 'space' ? t.spaceId : t.siteId} is synchronised already`);
      const stamp = nowIso(req);
      const i: GitSyncRec = { id: req.world.newId('gitsync'), org: org.id, target, provider: body.provider, repository: 'unconnected/repository', repositoryId: 0, branch: 'refs/heads/main', priority: 'git', createdAt: stamp, updatedAt: stamp };
      req.world.gitSync.set(i.id, i);
      return created(installationView(viewCtx(req), i));
    });
    router.add('DELETE', '/v1/git/installations/:installation', (req) => {
      const i = reachable(req);
      req.world.gitSync.delete(i.id);
      for (const [id, child] of req.world.gitSync) if (child.parentInstallationId === i.id) req.world.gitSync.delete(id);
      return deleted(true);
    });
    router.add('GET', '/v1/git/installations/:installation', (req) => ok(installationView(viewCtx(req), reachable(req))));
    router.add('PATCH', '/v1/git/installations/:installation', (req) => {
      const i = reachable(req);
      const body = validate(UpdateInstallation, bodyObject(req));
      if (body.provider !== i.provider) throw badRequest(`provider: the installation's provider is ${i.provider}`);
      if (i.parentInstallationId) {
        for (const f of ['previewExternalBranches', 'agentInstructions'] as const) {
          if (body[f] !== undefined) throw badRequest(`${f}: inherited from the parent installation ${i.parentInstallationId}; it cannot be set on a space installation belonging to it`);
        }
      }
      const projectDirectory = body.projectDirectory ?? i.projectDirectory ?? '';
      const priority = body.priority ?? i.priority;
      if (i.target.type === 'site' && priority === 'git' && i.siteConfigDirectories && !i.siteConfigDirectories.includes(projectDirectory)) return missingSiteConfig(i, projectDirectory);
      if (body.providerConfiguration.branch !== undefined) i.branch = body.providerConfiguration.branch;
      // A GitLab project named by its id: the emulator knows no project's path, so it makes one up.
      if (body.provider === 'gitlab' && body.providerConfiguration.projectId !== undefined && body.providerConfiguration.projectId !== i.repositoryId) {
        i.repositoryId = body.providerConfiguration.projectId;
        i.repository = `gitlab-project/${body.providerConfiguration.projectId}`;
      }
      if (body.projectDirectory !== undefined) i.projectDirectory = body.projectDirectory;
      if (body.commitMessageTemplate !== undefined) i.commitMessageTemplate = body.commitMessageTemplate;
      if (body.priority !== undefined) i.priority = body.priority;
      if (body.previewExternalBranches !== undefined) i.previewExternalBranches = body.previewExternalBranches;
      if (body.agentInstructions !== undefined) i.agentInstructions = [...body.agentInstructions];
      i.updatedAt = nowIso(req);
      return ok(installationView(viewCtx(req), i));
    });
  },
});
