/**
 * Git Sync against the emulator over HTTP, in process: a site synchronised with a repository refuses
 * the config's edits to what its gitbook-docs.yaml owns (a problem at the field's file:line, nothing
 * sent); the installations' configuration (`gitSync` on a space or a site) plans, applies and plans no
 * changes, drift is restored, import writes it back; bad configs and blocks the API cannot take.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import { applyPlan } from '../../src/apply/executor.js';
import { loadConfig } from '../../src/config/load.js';
import { startEmulator, type EmulatorState, type RunningEmulator } from '../../src/emulator/server.js';
import { runImport } from '../../src/import/run.js';
import { assertApplicable, problemText } from '../../src/plan/refusal.js';
import { planOrgs } from '../../src/plan/run.js';
import type { Plan } from '../../src/plan/types.js';
import { maskPlan, renderJson } from '../../src/render/index.js';
import { ownedSiteProblems } from '../../src/kinds/shared/git-sync-owned.js';
import { demoState } from '../apply/cli-helpers.js';
import { problemsOf, withFiles } from '../config/helpers.js';

const HEAD = 'version: 1\norganization:\n  id: org_acme\n';

/**
 * The demo world with site_docs synchronised from acme/docs (and space_guides through it), and
 * space_api synchronised on its own from acme/api.
 */
function state(): EmulatorState {
  const s = structuredClone(demoState()) as { organizations: Array<Record<string, unknown>> };
  const acme = s.organizations.find((o) => o.id === 'org_acme')!;
  acme.gitSync = [
    { site: 'site_docs', repository: 'acme/docs', projectDirectory: 'docs', siteConfigDirectories: ['docs', 'site'], previewExternalBranches: false },
    { site: 'site_docs', space: 'space_guides', repository: 'acme/docs', projectDirectory: 'docs/guides' },
    { space: 'space_api', repository: 'acme/api', provider: 'gitlab', commitMessageTemplate: 'docs: {{ title }}', priority: 'gitbook' },
  ];
  return s as unknown as EmulatorState;
}

let emulator: RunningEmulator;
let client: ApiClient;
let dir: string;
let writes: string[] = [];

const shown = (plan: Plan) => plan.steps.map((s) => `${s.action} ${s.address}`);

async function plan(yaml: string) {
  writeFileSync(join(dir, 'docplane.yaml'), yaml);
  const config = await loadConfig({ path: join(dir, 'docplane.yaml'), env: {} });
  return planOrgs(config, client, { toolVersion: 'test' });
}

async function converge(yaml: string): Promise<string[]> {
  const p = await plan(yaml);
  expect(p.problems.map((x) => problemText(x, false))).toEqual([]);
  const result = await applyPlan(p, client, { concurrency: 4, backoffBaseMs: 2 });
  expect(result.failed).toEqual([]);
  expect(shown(await plan(yaml))).toEqual([]);
  return shown(p);
}

const installation = (target: string) => [...emulator.world.gitSync.values()].find((i) => (i.target.type === 'space' ? i.target.spaceId : i.target.siteId) === target && (target.startsWith('site_') ? i.target.type === 'site' : true))!;

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    state: state(),
    seed: 3,
    onExchange: (e) => {
      if (e.method !== 'GET') writes.push(`${e.method} ${e.path}`);
    },
  });
  client = createClient({ baseUrl: emulator.url, token: 'dev-token', backoffBaseMs: 2, maxAttempts: 4 });
  dir = mkdtempSync(join(tmpdir(), 'docplane-git-sync-'));
});

beforeEach(() => {
  writes = [];
});

afterAll(async () => {
  await client?.close();
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const SYNCED = `${HEAD}spaces:
  - id: space_api
    gitSync:
      branch: refs/heads/release
      commitMessageTemplate: "docs(api): {{ title }}"
  - id: space_guides
    gitSync: { projectDirectory: docs/handbook }
sites:
  - id: site_docs
    title: Docs
    visibility: unlisted
    gitSync:
      projectDirectory: site
      priority: git
      agentInstructions: [claude, agents]
      previewExternalBranches: true
`;

describe('Git Sync against the emulator', () => {
  it('refuses what gitbook-docs.yaml owns, at the field, naming the repository and the file, and sends nothing', async () => {
    const yaml = `${HEAD}sites:
  - id: site_docs
    title: Documentation
    visibility: unlisted
    sections:
      - { path: guides, title: Guides, space: space_guides }
    defaultSection: guides
`;
    const p = await plan(yaml);
    expect(p.problems.map((x) => problemText(x, false))).toEqual([
      expect.stringMatching(/docplane\.yaml:6:5: sites\["site_docs"\]\.title: owned by Git Sync \(repository acme\/docs, gitbook-docs\.yaml\): the site's title is "Docs"; change it there, or give that title here$/),
      expect.stringMatching(/docplane\.yaml:8:5: sites\["site_docs"\]\.sections: owned by Git Sync \(repository acme\/docs, gitbook-docs\.yaml\); edit it there, or remove it from the config$/),
      expect.stringMatching(/docplane\.yaml:10:5: sites\["site_docs"\]\.defaultSection: owned by Git Sync \(repository acme\/docs, gitbook-docs\.yaml\); edit it there, or remove it from the config$/),
    ]);
    expect(p.steps.filter((s) => ['sections', 'siteSpaces', 'sectionGroups', 'externalLinks'].includes(s.kind))).toEqual([]);
    expect(() => assertApplicable(p, { force: false })).toThrow(/^the plan has 3 problems; nothing was applied \(first: .*docplane\.yaml:6:5: sites\["site_docs"\]\.title: owned by Git Sync/);
    expect(writes).toEqual([]);
  });

  it('keeps managing what Git Sync does not own (visibility), and plans no structure for a synchronised site without it', async () => {
    const yaml = `${HEAD}sites:\n  - id: site_docs\n    title: Docs\n    visibility: unlisted\n    shareLinks: []\nprune: [sections, siteSpaces, shareLinks]\n`;
    expect(await converge(yaml)).toEqual(['update sites["site_docs"]', 'delete sites["site_docs"].shareLinks["old-link"]']);
    expect(writes.every((w) => !w.includes('/sections') && !w.includes('/site-spaces') && !w.includes('/structure'))).toBe(true);
  });

  it('plans, applies, then plans no changes for the installations\' configuration', async () => {
    const p = await plan(SYNCED);
    expect(shown(p)).toEqual(['update spaces["space_api"].gitSync', 'update spaces["space_guides"].gitSync', 'update sites["site_docs"].gitSync']);
    const bodies = Object.fromEntries(p.steps.map((s) => [s.address, s.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body)}`)]));
    expect(bodies['spaces["space_api"].gitSync']).toEqual([
      `PATCH /v1/git/installations/${installation('space_api').id} {"provider":"gitlab","providerConfiguration":{"projectId":${installation('space_api').repositoryId},"branch":"refs/heads/release"},"commitMessageTemplate":"docs(api): {{ title }}"}`,
    ]);
    // The branch does not change: the provider configuration still names the repository and its
    // branch as they are, so that a service that replaces the object keeps them.
    expect(bodies['sites["site_docs"].gitSync']).toEqual([
      `PATCH /v1/git/installations/${installation('site_docs').id} {"provider":"github","providerConfiguration":{"repositoryId":${installation('site_docs').repositoryId},"branch":"refs/heads/main"},"projectDirectory":"site","previewExternalBranches":true,"agentInstructions":["agents","claude"]}`,
    ]);
    await converge(SYNCED);
    expect(installation('space_api')).toMatchObject({ branch: 'refs/heads/release', commitMessageTemplate: 'docs(api): {{ title }}', priority: 'gitbook' });
    expect(installation('site_docs')).toMatchObject({ projectDirectory: 'site', previewExternalBranches: true, agentInstructions: ['agents', 'claude'] });
  });

  it('restores drift made behind its back', async () => {
    installation('space_api').branch = 'refs/heads/main';
    installation('site_docs').agentInstructions = ['agents'];
    expect(await converge(SYNCED)).toEqual(['update spaces["space_api"].gitSync', 'update sites["site_docs"].gitSync']);
    expect(installation('space_api').branch).toBe('refs/heads/release');
  });

  it('imports the blocks and leaves the synchronised site\'s structure out; the import plans no changes', async () => {
    const out = join(dir, 'imported');
    const result = await runImport({ orgs: ['org_acme'], out, connect: async () => createClient({ baseUrl: emulator.url, token: 'dev-token' }) });
    const text = readFileSync(join(out, 'org_acme.yaml'), 'utf8');
    expect(text).toContain('gitSync:');
    expect(text).toContain('commitMessageTemplate: "docs(api): {{ title }}"');
    expect(result.warnings).toContain('org_acme: sites["site_docs"]: synchronised with Git Sync (repository acme/docs): its structure is owned by gitbook-docs.yaml there and is not written');
    const config = await loadConfig({ path: join(out, 'org_acme.yaml'), env: {} });
    const docs = config.orgs[0].sites?.find((s) => s.id === 'site_docs');
    expect(docs?.sections).toBeUndefined();
    expect(docs?.gitSync).toEqual({ branch: 'refs/heads/main', projectDirectory: 'site', priority: 'git', previewExternalBranches: true, agentInstructions: ['agents', 'claude'] });
    // A space synchronised through its site inherits previews and agent files: not written.
    expect(config.orgs[0].spaces?.find((s) => s.id === 'space_guides')?.gitSync).toEqual({ branch: 'refs/heads/main', projectDirectory: 'docs/handbook', priority: 'git' });
    const again = await planOrgs(config, client, { toolVersion: 'test' });
    expect(again.problems).toEqual([]);
    expect(again.steps.filter((s) => s.kind.endsWith('GitSync') || s.address.startsWith('sites["site_docs"]')).map((s) => s.address)).toEqual([]);
  });

  it('refuses a block the API cannot take: an unsynchronised space, a field a site installation gives its spaces', async () => {
    const yaml = `${HEAD}spaces:\n  - id: space_old\n    gitSync: { priority: git }\n  - id: space_guides\n    gitSync:\n      agentInstructions: [agents]\n`;
    const p = await plan(yaml);
    expect(p.problems.map((x) => problemText(x, false)).sort()).toEqual([
      expect.stringMatching(/docplane\.yaml:6:5: spaces\["space_old"\]\.gitSync: space space_old is not synchronised with a repository: connecting a GitHub repository needs the GitHub app's authorization in the app \(a GitLab project connects with provider: gitlab, projectId and accessToken\); remove gitSync, or connect the repository first$/),
      expect.stringMatching(/docplane\.yaml:9:7: spaces\["space_guides"\]\.gitSync\.agentInstructions: space space_guides is synchronised through its site's installation gitsync_\w+, from which it inherits agentInstructions: set it on the site's gitSync, or remove it here$/),
    ]);
  });

  it('a site whose project directory holds no gitbook-docs.yaml: the apply fails with the API\'s 409, and nothing changes', async () => {
    const p = await plan(`${HEAD}sites:\n  - id: site_docs\n    gitSync: { projectDirectory: elsewhere }\n`);
    const result = await applyPlan(p, client, { concurrency: 4, backoffBaseMs: 2 });
    expect(result.failed.map((f) => f.message)).toEqual([expect.stringMatching(/PATCH \/v1\/git\/installations\/\w+ → 409: .*elsewhere\/gitbook-docs\.yaml is missing from acme\/docs/)]);
    expect(installation('site_docs').projectDirectory).toBe('site');
  });
});

describe('connecting Git Sync (against the emulator)', () => {
  const TOKEN = 'glpat-secret-token-7788';
  const CONNECT = `${HEAD}spaces:\n  - id: space_old\n    gitSync: { provider: gitlab, projectId: 4242, accessToken: ${TOKEN}, branch: refs/heads/main, priority: git }\n`;

  it('connects a GitLab project to a space: install, then the project and token, in one step; the next plan has nothing to do', async () => {
    const p = await plan(CONNECT);
    expect(p.steps.map((x) => ({ address: x.address, action: x.action, requests: x.requests.map((r) => `${r.method} ${r.path}`) }))).toEqual([
      { address: 'spaces["space_old"].gitSync', action: 'create', requests: ['POST /v1/git/installations', 'PATCH /v1/git/installations/{{ref:org_acme/spaces["space_old"].gitSync}}'] },
    ]);
    expect(p.steps[0].requests[0].body).toEqual({ provider: 'gitlab', target: { type: 'space', spaceId: 'space_old' } });
    await converge(CONNECT);
    expect(installation('space_old')).toMatchObject({ provider: 'gitlab', repositoryId: 4242, branch: 'refs/heads/main' });
  });

  it('the token is masked in every rendering of the plan', async () => {
    const yaml = CONNECT.replace('space_old', 'space_changelog');
    writeFileSync(join(dir, 'docplane.yaml'), yaml);
    const config = await loadConfig({ path: join(dir, 'docplane.yaml'), env: {} });
    const p = await planOrgs(config, client, { toolVersion: 'test' });
    expect(p.steps).toHaveLength(1);
    expect(renderJson(maskPlan(p, config.secrets))).not.toContain(TOKEN);
  });

  it('refuses GitHub clearly: the app must authorize the repository', async () => {
    const p = await plan(`${HEAD}spaces:\n  - id: space_changelog\n    gitSync: { provider: github, branch: refs/heads/main }\n`);
    expect(p.problems.map((x) => x.message)).toEqual([
      'space space_changelog is not synchronised with a repository, and docplane cannot connect a GitHub repository: the GitHub app must be authorized for it in the app; connect it there, or remove gitSync',
    ]);
  });

  it('prune: [spaceGitSync] uninstalls the installation of a listed space whose entry gives no gitSync', async () => {
    const yaml = `${HEAD}spaces:\n  - id: space_old\nprune: [spaceGitSync]\n`;
    expect(await converge(yaml)).toEqual(['delete spaces["space_old"].gitSync']);
    expect(installation('space_old')).toBeUndefined();
  });
});

describe('bad gitSync configs', () => {
  const cases: Array<[string, string, string]> = [
    ['a branch that is not a ref', `${HEAD}spaces:\n  - id: space_api\n    gitSync: { branch: main }\n`, 'docplane.yaml:6:24: spaces[0].gitSync.branch: must be a branch ref, such as refs/heads/main'],
    ['an unknown priority', `${HEAD}sites:\n  - id: site_docs\n    gitSync:\n      priority: github\n`, 'docplane.yaml:7:17: sites[0].gitSync.priority: must be one of git, gitbook'],
    ['an agent file the API does not know', `${HEAD}sites:\n  - id: site_docs\n    gitSync: { agentInstructions: [cursor] }\n`, 'docplane.yaml:6:36: sites[0].gitSync.agentInstructions[0]: must be one of agents, claude'],
    ['the repository, which is connected in the app', `${HEAD}spaces:\n  - id: space_api\n    gitSync: { repository: acme/api }\n`, 'docplane.yaml:6:16: spaces[0].gitSync.repository: unknown key "repository"'],
  ];
  it.each(cases)('%s', async (_name, yaml, expected) => {
    const problems = await withFiles({ 'docplane.yaml': yaml }, (t) => problemsOf({ path: t.dir, cwd: t.dir }));
    expect(problems).toEqual([expect.stringContaining(expected)]);
  });
});

describe('the emulator\'s Git Sync routes', () => {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${emulator.url}${path}`, {
      method,
      headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as { error?: { message: string } } & Record<string, unknown> };
  };

  it('answers 404 for an unknown installation, 400 for another provider or a field a space inherits', async () => {
    expect((await call('GET', '/v1/git/installations/gitsync_nope')).status).toBe(404);
    const api = installation('space_api').id;
    const other = await call('PATCH', `/v1/git/installations/${api}`, { provider: 'github', providerConfiguration: {} });
    expect([other.status, other.body.error?.message]).toEqual([400, 'provider: the installation\'s provider is gitlab']);
    const guides = installation('space_guides').id;
    const inherited = await call('PATCH', `/v1/git/installations/${guides}`, { provider: 'github', providerConfiguration: {}, previewExternalBranches: true });
    expect(inherited.status).toBe(400);
    const read = await call('GET', `/v1/spaces/space_guides`);
    expect(read.body.gitSync).toMatchObject({ installationId: guides, repoName: 'acme/docs', parentInstallationId: installation('site_docs').id });
  });
});

describe('what a synchronised site\'s repository owns (ownedSiteProblems)', () => {
  const base = { org: 'org_acme', address: 'sites["site_docs"]', title: 'Docs', gitSync: { installationId: 'gs_1' }, locations: {}, structureSteps: 0 };
  const problems = (input: Partial<Parameters<typeof ownedSiteProblems>[0]>) => ownedSiteProblems({ ...base, entry: {}, ...input }).map((p) => `${p.field ?? ''}: ${p.message}`);

  it('refuses nothing when the config leaves the structure alone and names the site by its title', () => {
    expect(problems({ entry: { id: 'site_docs', title: 'Docs', visibility: 'public', shareLinks: [], redirects: [] } })).toEqual([]);
  });

  it('names the installation when the API does not name the repository', () => {
    expect(problems({ entry: { order: [] } })).toEqual([
      'order: owned by Git Sync (the repository of Git Sync installation gs_1, gitbook-docs.yaml); edit it there, or remove it from the config',
    ]);
  });

  it('refuses any structure step the plan would still hold (a prune), even without a field of the config', () => {
    expect(problems({ entry: { id: 'site_docs' }, structureSteps: 2, gitSync: { installationId: 'gs_1', repoName: 'acme/docs' } })).toEqual([
      ": the plan would change the site's structure, which is owned by Git Sync (repository acme/docs, gitbook-docs.yaml); leave the structure kinds out of prune for this site",
    ]);
  });
});
