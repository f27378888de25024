/**
 * The configuration of a Git Sync installation (`spaces["ID"].gitSync`, `sites["ID"].gitSync`): the
 * branch, the project directory, the commit message template, the priority and, on an installation of
 * its own, branch previews and agent instruction files. A space or site is synchronised in the app
 * (connecting the Git provider needs its authorization); the Space or Site object then carries
 * `gitSync.installationId`, the installation is read with getGitSyncInstallationById and updated with
 * updateGitSyncInstallationById (PATCH /git/installations/{id}), only the fields that differ.
 */
import { key, ref } from '../../model/address.js';
import { fingerprintEntries } from '../../model/fingerprint.js';
import type { JsonObject, JsonValue, PlanProblem } from '../../model/step.js';
import { readCollections, resolveCollections } from '../shared/collections.js';
import { enc } from '../common/paths.js';
import { step } from '../common/step.js';
import { emptyKindPlan, type KindPlan, type KindSpec, type PlanContext, type Reader, type ReadContext } from '../kind.js';
import { siteKey } from '../shared/sites.js';
import { matchSites, readSiteInfos } from '../shared/sites.js';
import { readSpaceList } from '../shared/space-list.js';
import { matchSpaces, placesInCollections } from '../shared/spaces.js';
import { GitSyncInstallationAnswer } from './answers.js';
import { GIT_SYNC_FIELDS, INHERITED_FIELDS, type GitSyncT } from '../shared/git-sync-schema.js';
import { parseGitSyncState, repositoryOf, type RemoteGitSyncState } from '../shared/git-sync-state.js';

export type GitSyncTarget = 'space' | 'site';

/** An installation as getGitSyncInstallationById answers it, reduced to what a config manages. */
export interface RemoteGitSyncInstallation {
  id: string;
  provider?: string;
  branch?: string;
  projectDirectory?: string;
  commitMessageTemplate?: string;
  priority?: string;
  previewExternalBranches?: boolean;
  agentInstructions?: string[];
  parentInstallationId?: string;
  /**
   * The repository as the installation's `providerConfiguration` names it (GitHub `repositoryId`,
   * GitLab `projectId` and `customInstanceURL`): sent again with every update, so that the update keeps
   * the repository whether the service merges that object or replaces it.
   */
  repository?: Record<string, number | string | null>;
}

/** One config space or site with a `gitSync` block, and what the API has of it. */
export interface GitSyncObject {
  /** `spaces["ID"]` or `sites["ID"]`. */
  address: string;
  desired: GitSyncT;
  /** The space or site id; absent for one the plan creates. */
  id?: string;
  /** The object's `gitSync`; absent when it is not synchronised. */
  state?: RemoteGitSyncState;
  /** The entry gives no gitSync: read only for `prune` (its installation is uninstalled). */
  pruneOnly?: boolean;
  installation?: RemoteGitSyncInstallation;
}

export interface RemoteGitSync {
  target: GitSyncTarget;
  objects: GitSyncObject[];
}

export const gitSyncPath = (installation: string): string => `/v1/git/installations/${enc(installation)}`;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The installation's fields a config manages, from the API's object. */
export function parseInstallation(raw: Record<string, unknown>): RemoteGitSyncInstallation {
  const provider = raw.providerConfiguration;
  const branch = provider && typeof provider === 'object' ? str((provider as Record<string, unknown>).branch) : undefined;
  const out: RemoteGitSyncInstallation = { id: String(raw.id) };
  const set = <K extends keyof RemoteGitSyncInstallation>(k: K, v: RemoteGitSyncInstallation[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  set('provider', str(raw.provider));
  set('branch', branch);
  set('projectDirectory', str(raw.projectDirectory));
  set('commitMessageTemplate', str(raw.commitMessageTemplate));
  set('priority', str(raw.priority));
  set('previewExternalBranches', typeof raw.previewExternalBranches === 'boolean' ? raw.previewExternalBranches : undefined);
  set('agentInstructions', Array.isArray(raw.agentInstructions) ? raw.agentInstructions.filter((x): x is string => typeof x === 'string') : undefined);
  set('parentInstallationId', str(raw.parentInstallationId));
  if (provider && typeof provider === 'object') {
    const p = provider as Record<string, unknown>;
    const repository: Record<string, number | string | null> = {};
    for (const f of ['repositoryId', 'projectId'] as const) if (typeof p[f] === 'number') repository[f] = p[f] as number;
    if (typeof p.customInstanceURL === 'string' || p.customInstanceURL === null) repository.customInstanceURL = p.customInstanceURL as string | null;
    if (Object.keys(repository).length > 0) out.repository = repository;
  }
  return out;
}

/** getGitSyncInstallationById: one installation. */
export async function readInstallation(ctx: Pick<Reader, 'client'>, id: string): Promise<RemoteGitSyncInstallation> {
  const res = await ctx.client.request('GET', gitSyncPath(id), { schema: GitSyncInstallationAnswer });
  return parseInstallation(res.body as Record<string, unknown>);
}

/** The installations of the objects that are synchronised, read concurrently. */
export async function withInstallations(ctx: Pick<Reader, 'client'>, objects: GitSyncObject[]): Promise<GitSyncObject[]> {
  return Promise.all(objects.map(async (o) => (o.state ? { ...o, installation: await readInstallation(ctx, o.state.installationId) } : o)));
}

export const gitSyncAddress = (owner: string): string => `${owner}.gitSync`;

async function readSpaceObjects(ctx: ReadContext): Promise<RemoteGitSync | undefined> {
  const desired = ctx.desired.spaces ?? [];
  const prune = ctx.desired.prune.includes('spaceGitSync');
  if (!desired.some((s) => s.gitSync !== undefined) && !(prune && desired.length > 0)) return undefined;
  const placed = desired.some((s) => s.id === undefined) && placesInCollections(desired);
  const [spaces, collections] = await Promise.all([readSpaceList(ctx), placed ? readCollections(ctx) : Promise.resolve([])]);
  const resolved = resolveCollections(ctx.desired.collections, collections);
  const objects = matchSpaces(desired, spaces, spaces.length, resolved)
    .filter((p) => p.desired.gitSync !== undefined || prune)
    .map((p): GitSyncObject => {
      const state = p.remote ? parseGitSyncState(p.remote.gitSync) : undefined;
      return { address: p.address, desired: p.desired.gitSync ?? {}, ...(p.remote ? { id: p.remote.id } : {}), ...(state ? { state } : {}), ...(p.desired.gitSync === undefined ? { pruneOnly: true } : {}) };
    });
  // An installation to uninstall is not read: its id is in the object.
  const [read, pruned] = [objects.filter((o) => !o.pruneOnly), objects.filter((o) => o.pruneOnly)];
  return { target: 'space', objects: [...(await withInstallations(ctx, read)), ...pruned] };
}

async function readSiteObjects(ctx: ReadContext): Promise<RemoteGitSync | undefined> {
  const prune = ctx.desired.prune.includes('siteGitSync');
  const desired = (ctx.desired.sites ?? []).filter((s) => s.gitSync !== undefined || prune);
  if (desired.length === 0) return undefined;
  const list = await readSiteInfos(ctx);
  const objects = matchSites(desired, list).pairs.map(
    (p): GitSyncObject => ({
      address: `sites${key(siteKey(p.desired))}`,
      desired: p.desired.gitSync ?? {},
      ...(p.remote ? { id: p.remote.id } : {}),
      ...(p.remote?.gitSync ? { state: p.remote.gitSync } : {}),
      ...(p.desired.gitSync === undefined ? { pruneOnly: true } : {}),
    }),
  );
  const [read, pruned] = [objects.filter((o) => !o.pruneOnly), objects.filter((o) => o.pruneOnly)];
  return { target: 'site', objects: [...(await withInstallations(ctx, read)), ...pruned] };
}

/** The installation's value of a field, as the config writes it. */
export function currentOf(i: RemoteGitSyncInstallation, field: (typeof GIT_SYNC_FIELDS)[number]): JsonValue | undefined {
  const v = i[field];
  if (field === 'agentInstructions' && Array.isArray(v)) return [...v].sort();
  return v;
}

const desiredOf = (d: GitSyncT, field: (typeof GIT_SYNC_FIELDS)[number]): JsonValue | undefined => {
  const v = d[field];
  if (field === 'agentInstructions' && Array.isArray(v)) return [...new Set(v)].sort();
  return v;
};

/** What a fingerprint holds of an installation: the fields a config manages. */
function normalInstallation(i: RemoteGitSyncInstallation): JsonObject {
  const out: JsonObject = { id: i.id };
  for (const f of GIT_SYNC_FIELDS) out[f] = currentOf(i, f) ?? null;
  return out;
}

/** One object's problems, or its update step. */
function planObject(ctx: PlanContext, kind: string, target: GitSyncTarget, o: GitSyncObject, kp: KindPlan, prints: Array<[string, unknown]>): void {
  const address = gitSyncAddress(o.address);
  const problem = (message: string, field?: string): void => {
    const location = (field ? ctx.desired.locations[`${address}.${field}`] : undefined) ?? ctx.desired.locations[address];
    const p: PlanProblem = { org: ctx.org, address, message, ...(field ? { field } : {}), ...(location ? { location } : {}) };
    kp.problems.push(p);
  };
  const connect = 'connecting a GitHub repository needs the GitHub app\'s authorization in the app (a GitLab project connects with provider: gitlab, projectId and accessToken); remove gitSync, or connect the repository first';
  if (o.id === undefined) {
    problem(`the ${target} does not exist yet, so it is not synchronised with a repository: ${connect}`);
    return;
  }
  if (!o.state || !o.installation) {
    const d = o.desired;
    if (d.provider === 'gitlab' && d.projectId !== undefined && d.accessToken !== undefined) {
      planConnect(ctx, kind, target, o, kp, prints);
      return;
    }
    if (d.provider === 'gitlab') {
      problem(`${target} ${o.id} is not synchronised with a repository: connecting a GitLab project takes projectId and accessToken`, d.projectId === undefined ? 'projectId' : 'accessToken');
      return;
    }
    if (d.provider === 'github') {
      problem(`${target} ${o.id} is not synchronised with a repository, and docplane cannot connect a GitHub repository: the GitHub app must be authorized for it in the app; connect it there, or remove gitSync`, 'provider');
      return;
    }
    problem(`${target} ${o.id} is not synchronised with a repository: ${connect}`);
    return;
  }
  if (o.desired.provider !== undefined && o.desired.provider !== o.installation.provider) {
    problem(`${target} ${o.id} is synchronised through ${o.installation.provider ?? 'another provider'}, the config says ${o.desired.provider}: a synchronised object is not reconnected by a config (disconnect it in the app first)`, 'provider');
    return;
  }
  const i = o.installation;
  kp.remoteCount += 1;
  const child = i.parentInstallationId ?? o.state.parentInstallationId;
  if (child) {
    const given = INHERITED_FIELDS.filter((f) => o.desired[f] !== undefined);
    for (const f of given) problem(`space ${o.id} is synchronised through its site's installation ${child}, from which it inherits ${f}: set it on the site's gitSync, or remove it here`, f);
    if (given.length > 0) return;
  }
  if (i.provider !== 'github' && i.provider !== 'gitlab') {
    problem(`the Git Sync installation ${i.id} of ${target} ${o.id} (${repositoryOf(o.state)}) is of provider ${i.provider ?? 'unknown'}, which the API does not configure: reconnect it in the app, or remove gitSync`);
    return;
  }
  const before: JsonObject = {};
  const after: JsonObject = {};
  for (const f of GIT_SYNC_FIELDS) {
    const want = desiredOf(o.desired, f);
    if (want === undefined) continue;
    const have = currentOf(i, f);
    if (JSON.stringify(have) === JSON.stringify(want)) continue;
    before[f] = have ?? null;
    after[f] = want;
  }
  prints.push([address, normalInstallation(i)]);
  if (Object.keys(after).length === 0) return;
  // The body is a GitSyncInstallationSetup: the provider and its configuration are required. The
  // description does not say whether the PATCH merges `providerConfiguration` or replaces it, so it
  // carries the repository and the branch as they are (the branch as the config wants it when that
  // differs): a change of priority or commit template never disconnects the repository either way.
  const providerConfiguration: JsonObject = { ...(i.repository ?? {}) };
  const branch = after.branch ?? i.branch;
  if (branch !== undefined) providerConfiguration.branch = branch;
  const body: JsonObject = { provider: i.provider, providerConfiguration };
  for (const [f, v] of Object.entries(after)) if (f !== 'branch') body[f] = v;
  kp.steps.push(
    step({
      address,
      kind,
      action: 'update',
      before,
      after,
      requests: [{ method: 'PATCH', path: gitSyncPath(i.id), body }],
      needs: [`${o.address}:update`],
      remoteId: i.id,
      notes: [
        `the API queues a sync after this update: ${(o.desired.priority ?? i.priority) === 'gitbook' ? 'an export of the content to' : 'an import of the content from'} ${repositoryOf(o.state)}`,
      ],
    }),
  );
}

/**
 * Connects a GitLab project to an object that is not synchronised: installGitSyncProviderOnTarget
 * (`POST /git/installations` with the provider and the target), then updateGitSyncInstallationById on
 * the installation it made, with the project, the token and the block's other fields, in one step.
 */
function planConnect(ctx: PlanContext, kind: string, target: GitSyncTarget, o: GitSyncObject, kp: KindPlan, prints: Array<[string, unknown]>): void {
  const d = o.desired;
  const address = gitSyncAddress(o.address);
  const providerConfiguration: JsonObject = { projectId: d.projectId as number, accessToken: d.accessToken as string };
  if (d.branch !== undefined) providerConfiguration.branch = d.branch;
  if (d.customInstanceURL !== undefined) providerConfiguration.customInstanceURL = d.customInstanceURL;
  const body: JsonObject = { provider: 'gitlab', providerConfiguration };
  const after: JsonObject = { provider: 'gitlab', projectId: d.projectId as number };
  for (const f of GIT_SYNC_FIELDS) {
    if (f === 'branch' || d[f] === undefined) continue;
    body[f] = d[f] as JsonValue;
    after[f] = d[f] as JsonValue;
  }
  if (d.branch !== undefined) after.branch = d.branch;
  const installTarget: JsonObject = target === 'space' ? { type: 'space', spaceId: o.id as string } : { type: 'site', siteId: o.id as string };
  kp.steps.push(
    step({
      address,
      kind,
      action: 'create',
      before: null,
      after,
      requests: [
        { method: 'POST', path: '/v1/git/installations', body: { provider: 'gitlab', target: installTarget }, capture: true },
        { method: 'PATCH', path: `/v1/git/installations/${ref(ctx.org, address)}`, body },
      ],
      needs: [`${o.address}:update`],
      notes: [`connects GitLab project ${d.projectId as number} to ${target} ${o.id as string}; the API then queues a sync (priority ${d.priority ?? 'as the service sets it'})`],
    }),
  );
  prints.push([address, null]);
}

/** Uninstalls the installation of a synchronised object whose entry gives no gitSync, when the kind is pruned. */
function planUninstall(kind: string, o: GitSyncObject, kp: KindPlan, prints: Array<[string, unknown]>): void {
  if (!o.state || o.state.parentInstallationId) return;
  const address = gitSyncAddress(o.address);
  kp.remoteCount += 1;
  kp.steps.push(step({
    address,
    kind,
    action: 'delete',
    before: { repository: repositoryOf(o.state) },
    after: null,
    changes: [],
    requests: [{ method: 'DELETE', path: gitSyncPath(o.state.installationId) }],
    remoteId: o.state.installationId,
    notes: [`disconnects ${repositoryOf(o.state)}: the content stays, and is no longer synchronised`],
  }));
  prints.push([address, { installation: o.state.installationId }]);
}

export function planGitSync(ctx: PlanContext, kind: string, remote: RemoteGitSync | undefined): KindPlan {
  const kp = emptyKindPlan();
  if (!remote) return kp;
  const prints: Array<[string, unknown]> = [];
  for (const o of remote.objects) {
    if (o.pruneOnly) {
      if (ctx.prunes(kind)) planUninstall(kind, o, kp, prints);
      else if (o.state) kp.unmanaged.push(gitSyncAddress(o.address));
      continue;
    }
    planObject(ctx, kind, remote.target, o, kp, prints);
  }
  kp.fingerprints = fingerprintEntries(prints);
  return kp;
}

/** Why an uninstall needs --force: `prune: all` reaches every listed object, and a repository disconnected stays so. */
const GIT_SYNC_DELETE_REASON = 'uninstalling disconnects the repository: its content is no longer synchronised until it is connected again in the app';

const counted = (entries: ReadonlyArray<{ gitSync?: unknown }> | undefined): number => (entries ?? []).filter((e) => e.gitSync !== undefined).length;

export const spaceGitSyncModule: KindSpec<RemoteGitSync | undefined> = {
  kind: 'spaceGitSync',
  label: { one: 'space Git Sync configuration', many: 'space Git Sync configurations' },
  prunable: true,
  deleteNeedsForce: GIT_SYNC_DELETE_REASON,
  count: (org) => counted(org.spaces),
  read: readSpaceObjects,
  plan: (ctx, remote) => planGitSync(ctx, 'spaceGitSync', remote),
};

export const siteGitSyncModule: KindSpec<RemoteGitSync | undefined> = {
  kind: 'siteGitSync',
  label: { one: 'site Git Sync configuration', many: 'site Git Sync configurations' },
  prunable: true,
  deleteNeedsForce: GIT_SYNC_DELETE_REASON,
  count: (org) => counted(org.sites),
  read: readSiteObjects,
  plan: (ctx, remote) => planGitSync(ctx, 'siteGitSync', remote),
};
