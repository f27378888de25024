/**
 * The GitHub Action's script (action/docplane-action.mjs) as the action runs it: a child process with
 * the environment the runner gives (GITHUB_*, INPUT_*), the built CLI as `docplane`, the emulator
 * seeded with the demo world as the platform, and a fake GitHub REST API on 127.0.0.1 (comments with
 * Link paging, pull requests of a commit, artifacts, workflow runs, issues). The checkout is a real
 * git repository in a temporary folder, so commits and trees are real.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEmulatorState, startEmulator } from '../../src/emulator/server.js';
import type { RunningEmulator } from '../../src/emulator/server.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, 'action', 'docplane-action.mjs');
const BIN = join(ROOT, 'bin', 'run.js');
const REPO = 'acme/config';
const GH_TOKEN = 'gh-test-token';
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface Comment {
  id: number;
  body: string;
}
interface Issue {
  number: number;
  title: string;
  body: string;
  state?: string;
  comments?: string[];
}
interface Run {
  id: number;
  run_number: number;
  workflow_id: number;
  status: string;
  /** The workflow file, the event and the commit of the run (what the apply checks of a plan's run). */
  path?: string;
  event?: string;
  head_sha?: string;
}

/** The part of GitHub's REST API the action uses, in memory; comments come two to a page. */
class FakeGitHub {
  comments = new Map<number, Comment[]>();
  issues: Issue[] = [];
  pulls = new Map<string, unknown[]>();
  artifacts: unknown[] = [];
  runs: Run[] = [];
  /** Called before each answer to a list of a workflow's runs (a test changes the runs there). */
  onRunsListed?: () => void;
  requests: string[] = [];
  url = '';
  private nextId = 1000;
  private server: Server = createServer((req, res) => void this.handle(req, res));

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', this.url);
    this.requests.push(`${req.method} ${url.pathname}`);
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${GH_TOKEN}`) return send(401, { message: 'Bad credentials' });
    const body = raw ? (JSON.parse(raw) as Record<string, string>) : {};
    const p = url.pathname.replace(`/repos/${REPO}`, '');
    let m: RegExpExecArray | null;
    if ((m = /^\/issues\/(\d+)\/comments$/.exec(p)) && req.method === 'GET') {
      const all = this.comments.get(Number(m[1])) ?? [];
      const page = Number(url.searchParams.get('page') ?? 1);
      const next = page * 2 < all.length ? { link: `<${this.url}${url.pathname}?per_page=100&page=${page + 1}>; rel="next"` } : undefined;
      return send(200, all.slice((page - 1) * 2, page * 2), next);
    }
    if ((m = /^\/issues\/(\d+)\/comments$/.exec(p)) && req.method === 'POST') {
      const comment = { id: this.nextId++, body: body.body };
      this.issues.find((i) => i.number === Number(m![1]))?.comments?.push(body.body);
      this.comments.set(Number(m[1]), [...(this.comments.get(Number(m[1])) ?? []), comment]);
      return send(201, comment);
    }
    if ((m = /^\/issues\/comments\/(\d+)$/.exec(p)) && req.method === 'PATCH') {
      const comment = [...this.comments.values()].flat().find((c) => c.id === Number(m![1]));
      if (!comment) return send(404, { message: 'Not Found' });
      comment.body = body.body;
      return send(200, comment);
    }
    if ((m = /^\/commits\/([0-9a-f]+)\/pulls$/.exec(p))) return send(200, this.pulls.get(m[1]) ?? []);
    if (p === '/actions/artifacts') {
      const name = url.searchParams.get('name');
      const list = this.artifacts.filter((a) => (a as { name: string }).name === name);
      return send(200, { total_count: list.length, artifacts: list });
    }
    if ((m = /^\/actions\/runs\/(\d+)$/.exec(p))) {
      const run = this.runs.find((r) => r.id === Number(m![1]));
      return run ? send(200, run) : send(404, { message: 'Not Found' });
    }
    if ((m = /^\/actions\/workflows\/(\d+)\/runs$/.exec(p))) {
      this.onRunsListed?.();
      const list = this.runs.filter((r) => r.workflow_id === Number(m![1]));
      return send(200, { total_count: list.length, workflow_runs: list });
    }
    if (p === '/issues' && req.method === 'GET') return send(200, this.issues.filter((i) => url.searchParams.get('state') !== 'open' || i.state !== 'closed'));
    if (p === '/issues' && req.method === 'POST') {
      const issue = { number: this.issues.length + 1, title: body.title, body: body.body, state: 'open', comments: [] };
      this.issues.push(issue);
      return send(201, issue);
    }
    if ((m = /^\/issues\/(\d+)$/.exec(p)) && req.method === 'PATCH') {
      const issue = this.issues.find((i) => i.number === Number(m![1]));
      if (!issue) return send(404, { message: 'Not Found' });
      Object.assign(issue, body);
      return send(200, issue);
    }
    return send(404, { message: `no route for ${req.method} ${url.pathname}` });
  }
}

let work: string;
let checkout: string;
let github: FakeGitHub;
let emulator: RunningEmulator;
const HEAD_SHA = 'a'.repeat(40); // the pull request's head; the checkout is the merge commit

function git(...args: string[]): string {
  return execFileSync('git', args, {
    cwd: checkout,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: work },
  }).trim();
}

/** Runs one step of the action's script as the runner would; resolves with its exit code, output and GITHUB_OUTPUT. */
async function step(name: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string; outputs: Record<string, string> }> {
  const outFile = join(work, `output-${Math.random().toString(36).slice(2)}`);
  writeFileSync(outFile, '');
  const child = spawn(process.execPath, [SCRIPT, name], {
    cwd: checkout,
    env: {
      PATH: process.env.PATH,
      HOME: work,
      GITHUB_API_URL: github.url,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_REPOSITORY: REPO,
      GITHUB_TOKEN: GH_TOKEN,
      GITHUB_WORKSPACE: checkout,
      GITHUB_OUTPUT: outFile,
      GITHUB_RUN_ID: '100',
      DOCPLANE_BIN: BIN,
      INPUT_API_URL: emulator.url,
      INPUT_TOKEN: 'dev-token',
      INPUT_CONFIG: 'docplane/',
      // The drift tests above the schedule's own read everything, each time.
      INPUT_FULL_CHECK: 'always',
      INPUT_DRIFT_STATE_DIR: join(work, 'drift-state'),
      ...env,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number>((resolve) => child.once('close', (c) => resolve(c ?? -1)));
  const outputs = Object.fromEntries(
    readFileSync(outFile, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { code, stdout, stderr, outputs };
}

function prEvent(headRepo = REPO): string {
  const file = join(work, `event-${headRepo.replace('/', '-')}.json`);
  writeFileSync(file, JSON.stringify({ pull_request: { number: 7, head: { sha: HEAD_SHA, repo: { full_name: headRepo } } } }));
  return file;
}

const planComments = () => (github.comments.get(7) ?? []).filter((c) => c.body.startsWith('<!-- docplane-plan'));

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'docplane-action-'));
  checkout = join(work, 'checkout');
  mkdirSync(checkout);
  github = new FakeGitHub();
  await github.start();
  emulator = await startEmulator({ port: 0, state: loadEmulatorState(join(ROOT, 'examples/emulator-state.yaml')), seed: 5 });
  // The repository under review: the demo organization imported, plus a new team. (Asynchronously:
  // the emulator answers from this process.)
  await promisify(execFile)(process.execPath, [BIN, 'import', '--org', 'org_acme', '--site', 'site_docs', '--out', join(checkout, 'docplane')], {
    env: { ...process.env, DOCPLANE_API_URL: emulator.url, DOCPLANE_TOKEN: 'dev-token', NO_COLOR: '1' },
  });
  const file = join(checkout, 'docplane', 'org_acme.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^teams:$/m, 'teams:\n  - title: Writers\n    members: [ bob@acme.com ]'));
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'config');
  // Two comments by others, so that finding ours pages through the Link header.
  github.comments.set(7, [
    { id: 1, body: 'Looks good' },
    { id: 2, body: 'One question' },
  ]);
});

afterAll(async () => {
  await emulator?.close();
  await github?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the action script: plan', () => {
  it('posts one comment with the plan, stores plan.json with the version and the commit, writes the plan to the job summary, and updates the comment on the next run', async () => {
    const dir = join(work, 'plan-1');
    const summary = join(work, 'summary-plan.md');
    writeFileSync(summary, '');
    const first = await step('plan', { GITHUB_EVENT_PATH: prEvent(), INPUT_DIR: dir, GITHUB_STEP_SUMMARY: summary });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    // The job summary: the plan (markdown), as stored beside plan.json.
    const plan = readFileSync(join(dir, 'plan.md'), 'utf8');
    expect(plan).toMatch(/^### /);
    expect(readFileSync(summary, 'utf8')).toBe(`${plan.replace(/\n+$/, '')}\n\n`);
    expect(first.outputs).toMatchObject({ 'exit-code': '2', saved: 'true', 'artifact-name': 'docplane-plan-pr-7' });
    expect(planComments()).toHaveLength(1);
    const [comment] = planComments();
    expect(comment.body).toContain('Writers');
    // The team's entry links to its line in the pull request's head commit (not the merge commit).
    expect(comment.body).toMatch(new RegExp(`<summary>team <b>Writers</b> · 1 to (?:create|update)[^<]* · <a href="https://github\\.example/${REPO.replace('/', '\\/')}/blob/${HEAD_SHA}/docplane/org_acme\\.yaml#L\\d+">docplane/org_acme\\.yaml:\\d+</a></summary>`));
    expect(comment.body).toContain('docplane-plan-pr-7');
    expect(first.stdout).toContain(`plan comment created (id ${comment.id}) on pull request #7`);
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8'));
    expect(meta).toMatchObject({ version: VERSION, commit: git('rev-parse', 'HEAD'), tree: git('rev-parse', 'HEAD^{tree}'), pr: 7, headSha: HEAD_SHA, exitCode: 2 });
    expect(JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8'))).toBeTypeOf('object');

    const second = await step('plan', { GITHUB_EVENT_PATH: prEvent(), INPUT_DIR: join(work, 'plan-2') });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`plan comment updated (id ${comment.id})`);
    expect(planComments()).toHaveLength(1);
    expect(github.comments.get(7)).toHaveLength(3);
    expect(github.requests.filter((r) => r.startsWith('PATCH'))).toEqual([`PATCH /repos/${REPO}/issues/comments/${comment.id}`]);
  });

  it('replaces the comment with the error when the plan fails, and stores no plan', async () => {
    const dir = join(work, 'plan-failed');
    const r = await step('plan', { GITHUB_EVENT_PATH: prEvent(), INPUT_DIR: dir, INPUT_TOKEN: 'revoked-token' });
    expect(r.code).toBe(1);
    expect(r.outputs).toMatchObject({ 'exit-code': '1', saved: 'false' });
    expect(planComments()).toHaveLength(1);
    const body = planComments()[0].body;
    expect(body).toContain('docplane plan failed (exit 1)');
    expect(body).toMatch(/401/);
    expect(body).not.toContain('Writers');
    expect(body).toContain('the apply would find no reviewed plan, send nothing');
  });

  it('says on the pull request that a fork gets no token', async () => {
    const r = await step('plan', { GITHUB_EVENT_PATH: prEvent('someone/fork'), INPUT_DIR: join(work, 'plan-fork'), INPUT_TOKEN: '' });
    expect(r.code).toBe(1);
    expect(planComments()[0].body).toContain('pull requests from forks get no secrets');
  });

  it("plans only what the pull request changes since its base commit (plan --base), unless the base input is false", async () => {
    // The base: the checked-out config without the new team, as a commit that is not checked out.
    const file = 'docplane/org_acme.yaml';
    const before = readFileSync(join(checkout, file), 'utf8').replace('\n  - title: Writers\n    members: [ bob@acme.com ]', '');
    const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: checkout, input: before, encoding: 'utf8' }).trim();
    const index = join(work, 'base-index');
    const env = { ...process.env, GIT_INDEX_FILE: index, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
    const inIndex = (...args: string[]) => execFileSync('git', args, { cwd: checkout, encoding: 'utf8', env }).trim();
    inIndex('read-tree', 'HEAD');
    inIndex('update-index', '--cacheinfo', `100644,${blob},${file}`);
    const base = inIndex('commit-tree', inIndex('write-tree'), '-p', 'HEAD', '-m', 'base');
    const event = join(work, 'event-base.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 7, base: { sha: base }, head: { sha: HEAD_SHA, repo: { full_name: REPO } } } }));

    const dir = join(work, 'plan-base');
    const r = await step('plan', { GITHUB_EVENT_PATH: event, INPUT_DIR: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const body = planComments()[0].body;
    expect(body).toContain('Writers');
    expect(body).toMatch(new RegExp(`\\d+ entries unchanged since ${base} were not read; the drift check reads everything`));
    expect(JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8'))).toMatchObject({ targets: ['org_acme/teams["Writers"]'], base: { from: base } });

    const whole = await step('plan', { GITHUB_EVENT_PATH: event, INPUT_DIR: join(work, 'plan-no-base'), INPUT_BASE: 'false' });
    expect(whole.code).toBe(0);
    expect(planComments()[0].body).not.toContain('entries unchanged since');
    expect(JSON.parse(readFileSync(join(work, 'plan-no-base', 'plan.json'), 'utf8')).base).toBeUndefined();
  });

  it("compares the merge commit GitHub checks out with its first parent, else with the event's base", async () => {
    const lib = (await import(SCRIPT)) as { baseOf(event: unknown, cwd: string): string | undefined };
    const repo = join(work, 'merge-repo');
    mkdirSync(repo);
    const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: work };
    const g = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', env }).trim();
    g('init', '-q', '-b', 'main');
    g('commit', '-q', '--allow-empty', '-m', 'main');
    const main = g('rev-parse', 'HEAD');
    const head = g('commit-tree', 'HEAD^{tree}', '-m', 'pull request');
    g('reset', '-q', '--soft', g('commit-tree', 'HEAD^{tree}', '-p', main, '-p', head, '-m', 'merge'));
    expect(lib.baseOf({ pull_request: { base: { sha: 'b'.repeat(40) } } }, repo)).toBe(main);
    expect(lib.baseOf({ pull_request: { base: { sha: 'b'.repeat(40) } } }, work)).toBe('b'.repeat(40));
    expect(lib.baseOf({ merge_group: { base_sha: 'c'.repeat(40) } }, repo)).toBe('c'.repeat(40));
    expect(lib.baseOf({}, repo)).toBeUndefined();
  });
});

describe('the action script: apply on merge', () => {
  let planCommit: string;
  let planDir: string;

  beforeAll(async () => {
    // The plan reviewed on the pull request's last push (stored as its artifact).
    planDir = join(work, 'reviewed');
    const r = await step('plan', { GITHUB_EVENT_PATH: prEvent(), INPUT_DIR: planDir });
    expect(r.code).toBe(0);
    planCommit = git('rev-parse', 'HEAD');
    github.artifacts.push(
      { id: 1, name: 'docplane-plan-pr-7', expired: false, created_at: '2026-01-01T10:00:00Z', workflow_run: { id: 90, head_sha: 'b'.repeat(40) } },
      { id: 2, name: 'docplane-plan-pr-7', expired: false, created_at: '2026-01-01T11:00:00Z', workflow_run: { id: 100, head_sha: HEAD_SHA } },
    );
    // The runs that uploaded them: the plan workflow's, on the pull request.
    github.runs.push(
      { id: 90, run_number: 1, workflow_id: 8, status: 'completed', path: '.github/workflows/docplane-plan.yml', event: 'pull_request', head_sha: 'b'.repeat(40) },
      { id: 100, run_number: 2, workflow_id: 8, status: 'completed', path: '.github/workflows/docplane-plan.yml', event: 'pull_request', head_sha: HEAD_SHA },
    );
  });

  function merged(sha: string): void {
    github.pulls.set(sha, [{ number: 7, merged_at: '2026-01-01T12:00:00Z', merge_commit_sha: sha, head: { sha: HEAD_SHA } }]);
  }

  it('finds the merged pull request and the plan made for its last commit', async () => {
    merged(planCommit);
    const r = await step('find-plan', { GITHUB_EVENT_NAME: 'push' });
    expect(r.code, r.stdout).toBe(0);
    expect(r.outputs).toMatchObject({ mode: 'reviewed', 'run-id': '100', 'artifact-name': 'docplane-plan-pr-7', pr: '7', 'pr-head-sha': HEAD_SHA });
  });

  it('refuses a plan made on another commit, sends nothing, and says what to do', async () => {
    writeFileSync(join(checkout, 'README.md'), 'main moved on\n');
    git('add', '.');
    git('commit', '-q', '-m', 'another pull request, merged meanwhile');
    merged(git('rev-parse', 'HEAD'));
    const before = emulator.requestCount();
    const r = await step('apply', { GITHUB_EVENT_NAME: 'push', INPUT_DIR: planDir, INPUT_MODE: 'reviewed', INPUT_PR_HEAD_SHA: HEAD_SHA });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error::docplane action: the reviewed plan of pull request #7 is not applied: it was made on [0-9a-f]{12}, and the checked-out commit [0-9a-f]{12} has other files/m);
    expect(r.stdout).toContain('Next: run the apply workflow by hand on main');
    expect(emulator.requestCount()).toBe(before);
  });

  it('applies the plan on a merge commit with the files the plan was made on', async () => {
    // GitHub's merge of an up-to-date branch: a new commit id, the tree the plan job checked out.
    const mergeCommit = git('commit-tree', `${planCommit}^{tree}`, '-p', 'HEAD', '-m', 'Merge pull request #7');
    git('checkout', '-q', mergeCommit);
    merged(mergeCommit);
    const found = await step('find-plan', { GITHUB_EVENT_NAME: 'push' });
    expect(found.outputs.mode).toBe('reviewed');
    const r = await step('apply', { GITHUB_EVENT_NAME: 'push', INPUT_DIR: planDir, INPUT_MODE: 'reviewed', INPUT_PR_HEAD_SHA: found.outputs['pr-head-sha'] });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Apply: 1 applied, 0 failed, 0 skipped.');
  });

  it('refuses a plan that is not the pull request\'s last, and a push that merged no pull request', async () => {
    const other = await step('apply', { GITHUB_EVENT_NAME: 'push', INPUT_DIR: planDir, INPUT_MODE: 'reviewed', INPUT_PR_HEAD_SHA: 'c'.repeat(40) });
    expect(other.code).toBe(1);
    expect(other.stdout).toContain("not for the pull request's last commit cccccccccccc");
    github.pulls.clear();
    const direct = await step('find-plan', { GITHUB_EVENT_NAME: 'push' });
    expect(direct.code).toBe(1);
    expect(direct.stdout).toMatch(/is not the merge of a pull request \(a direct push\?\), so there is no reviewed plan to apply\. Next: /);
  });

  it('by hand (workflow_dispatch), plans and applies the checked-out commit', async () => {
    const found = await step('find-plan', { GITHUB_EVENT_NAME: 'workflow_dispatch' });
    expect(found.outputs.mode).toBe('current');
    const r = await step('apply', { GITHUB_EVENT_NAME: 'workflow_dispatch', INPUT_MODE: 'current' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('waits for earlier runs of the workflow instead of letting GitHub drop a queued one', async () => {
    github.runs = [
      { id: 98, run_number: 3, workflow_id: 9, status: 'completed' },
      { id: 99, run_number: 4, workflow_id: 9, status: 'in_progress' },
      { id: 100, run_number: 5, workflow_id: 9, status: 'in_progress' },
      { id: 101, run_number: 6, workflow_id: 9, status: 'queued' },
    ];
    // This run is #5; #4 finishes while it waits, after its second look.
    let listed = 0;
    github.onRunsListed = () => {
      listed++;
      if (listed === 3) github.runs[1].status = 'completed';
    };
    try {
      const r = await step('wait-turn', { INPUT_POLL_MS: '10' });
      expect(r.code, r.stdout).toBe(0);
      // It looked until no earlier run was left, and no more.
      expect(listed).toBe(3);
      expect(r.stdout.match(/waiting for earlier runs to finish: .*/g)).toEqual([
        'waiting for earlier runs to finish: #4 (in_progress)',
        'waiting for earlier runs to finish: #4 (in_progress)',
      ]);
      expect(r.stdout).not.toContain('#6');
    } finally {
      github.onRunsListed = undefined;
    }
  });
});

describe('the action script: drift', () => {
  it('opens one issue on drift, then updates it; or fails the job', async () => {
    const file = join(checkout, 'docplane', 'org_acme.yaml');
    cpSync(file, join(work, 'org_acme.yaml.bak'));
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^teams:$/m, 'teams:\n  - title: Drifters\n    members: [ bob@acme.com ]'));
    const first = await step('drift', { INPUT_ON_DRIFT: 'issue' });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toContain('drift: issue #1 created');
    const second = await step('drift', { INPUT_ON_DRIFT: 'issue' });
    expect(second.stdout).toContain('drift: issue #1 updated');
    expect(github.issues).toHaveLength(1);
    expect(github.issues[0].body).toContain('Drifters');
    const failing = await step('drift', { INPUT_ON_DRIFT: 'fail' });
    expect(failing.code).toBe(2);
    expect(failing.stdout).toContain('::error::the organization drifted from docplane/');
    cpSync(join(work, 'org_acme.yaml.bak'), file);
  });
});

describe('the action script: pieces', () => {
  it('keeps the comment within GitHub\'s limit, fences errors safely, and checks the inputs', async () => {
    const lib = (await import(SCRIPT)) as {
      planComment(o: Record<string, unknown>): string;
      checkInputs(env: Record<string, string>): void;
      checkReviewedPlan(meta: Record<string, unknown>, now: Record<string, string>): { ok: boolean; message?: string };
      GITHUB_BODY_LIMIT: number;
    };
    // The merge queue: the plan was made on the very commit main moved to.
    const meta = { version: '0.1.0', commit: 'c1', tree: 't1', pr: 3, headSha: 'q1' };
    expect(lib.checkReviewedPlan(meta, { commit: 'c1', tree: 't1', version: '0.1.0', prHeadSha: 'h1' })).toEqual({ ok: true });
    expect(lib.checkReviewedPlan(meta, { commit: 'c2', tree: 't1', version: '0.1.0', prHeadSha: 'q1' })).toEqual({ ok: true });
    expect(lib.checkReviewedPlan(meta, { commit: 'c1', tree: 't1', version: '0.1.1', prHeadSha: 'h1' }).message).toMatch(/made by docplane 0\.1\.0, and this run installed 0\.1\.1/);
    const markdown = `## Plan\n\n${'| teams | + | a long line of the plan |\n'.repeat(4000)}`;
    const body = lib.planComment({ config: 'docplane/', exitCode: 2, markdown, error: '', commit: 'f'.repeat(40), artifact: 'docplane-plan-pr-1' });
    expect(markdown.length).toBeGreaterThan(lib.GITHUB_BODY_LIMIT);
    expect(body.length).toBeLessThanOrEqual(lib.GITHUB_BODY_LIMIT);
    expect(body).toContain("cut to fit GitHub's comment limit");
    const failed = lib.planComment({ config: 'docplane/', exitCode: 1, markdown: '', error: 'bad ``` fence\n', commit: 'f'.repeat(40), artifact: 'x' });
    expect(failed).toContain('> bad \\`\\`\\` fence');
    for (const version of ['0.1', '^0.1.0', 'latest', '']) {
      expect(() => lib.checkInputs({ INPUT_COMMAND: 'plan', INPUT_VERSION: version }), version).toThrow(/not an exact docplane version/);
    }
    expect(() => lib.checkInputs({ INPUT_COMMAND: 'deploy', INPUT_VERSION: '0.1.0' })).toThrow(/command "deploy" is not one of plan, apply, drift/);
    expect(() => lib.checkInputs({ INPUT_COMMAND: 'drift', INPUT_VERSION: '0.1.0', INPUT_ON_DRIFT: 'issue' })).not.toThrow();
  });
});

describe('the action script: the loop closes', () => {
  const summaryFile = (name: string) => {
    const file = join(work, `summary-${name}.md`);
    writeFileSync(file, '');
    return file;
  };

  it('after apply on merge, puts the result on the pull request\'s comment (and the job summary), replacing an earlier result', async () => {
    git('checkout', '-q', 'main');
    const file = join(checkout, 'docplane', 'org_acme.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^teams:$/m, 'teams:\n  - title: Reviewers\n    members: [ bob@acme.com ]'));
    git('add', '.');
    git('commit', '-q', '-m', 'a team of reviewers');
    const commit = git('rev-parse', 'HEAD');
    const dir = join(work, 'plan-loop');
    expect((await step('plan', { GITHUB_EVENT_PATH: prEvent(), INPUT_DIR: dir })).code).toBe(0);
    github.pulls.set(commit, [{ number: 7, merged_at: '2026-01-02T12:00:00Z', merge_commit_sha: commit, head: { sha: HEAD_SHA } }]);

    const summary = summaryFile('apply');
    const r = await step('apply', { GITHUB_EVENT_NAME: 'push', INPUT_DIR: dir, INPUT_MODE: 'reviewed', INPUT_PR_HEAD_SHA: HEAD_SHA, GITHUB_STEP_SUMMARY: summary });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const result = `### ✓ Applied at \`${commit.slice(0, 12)}\`: 1 step applied · [run](https://github.example/${REPO}/actions/runs/100)`;
    const [comment] = planComments();
    expect(comment.body).toContain('Reviewers');
    expect(comment.body).toContain(`\n\n---\n<!-- docplane-apply -->\n${result}`);
    expect(r.stdout).toContain(`apply result added to the plan comment (id ${comment.id}) on pull request #7`);
    // The summary: the reviewed plan as the pull request showed it, then the result.
    const written = readFileSync(summary, 'utf8');
    expect(written).toContain('Reviewers');
    expect(written).toContain(result);

    // Applied again (a re-run of the job), the plan is already applied: nothing is sent, and the
    // comment's result says so, in place of the first.
    const again = await step('apply', { GITHUB_EVENT_NAME: 'push', INPUT_DIR: dir, INPUT_MODE: 'reviewed', INPUT_PR_HEAD_SHA: HEAD_SHA });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const body = planComments()[0].body;
    expect(body.match(/<!-- docplane-apply/g)).toHaveLength(1);
    expect(body).toMatch(/### ✓ Applied at `[0-9a-f]{12}`: nothing to apply/);
  });

  it('drift: counts unmanaged resources when asked, and closes the drift issue with a comment once no drift is left', async () => {
    const summary = summaryFile('drift');
    const open = () => github.issues.filter((i) => i.state !== 'closed');
    // The earlier drift test left an issue open; the organization now matches the config.
    expect(open()).toHaveLength(1);
    const clean = await step('drift', { INPUT_ON_DRIFT: 'issue', GITHUB_STEP_SUMMARY: summary });
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    expect(clean.stdout).toContain('no drift: issue #1 closed');
    expect(open()).toHaveLength(0);
    expect(github.issues[0].comments?.[0]).toMatch(/^No drift any more: docplane plan of `docplane\/` at `[0-9a-f]{12}` finds the organization as the config says \(\[run\]\(https:\/\/github\.example\/acme\/config\/actions\/runs\/100\)\)\. Closing\.$/);
    expect(readFileSync(summary, 'utf8')).toMatch(/^### No changes/);
    // The imported config names one site of the organization's: the rest is unmanaged.
    const unmanaged = await step('drift', { INPUT_ON_DRIFT: 'issue', INPUT_UNMANAGED_IS_DRIFT: 'true' });
    expect(unmanaged.stdout).toContain('drift: issue #2 created');
    expect(github.issues[1].body).toMatch(/Unmanaged/);
  });

  it('installs docplane from the registry when it holds the version, else from the action\'s checkout', async () => {
    const { installSource } = (await import(pathToFileURL(SCRIPT).href)) as { installSource: (env: Record<string, string>, onRegistry: (v: string) => boolean) => { spec: string; pack: boolean } };
    expect(installSource({ INPUT_VERSION: '0.1.0', GITHUB_ACTION_PATH: ROOT }, () => true)).toEqual({ spec: 'docplane@0.1.0', pack: false });
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(installSource({ INPUT_VERSION: version, GITHUB_ACTION_PATH: ROOT }, () => false)).toEqual({ spec: ROOT, pack: true });
    expect(() => installSource({ INPUT_VERSION: '9.9.9', GITHUB_ACTION_PATH: ROOT }, () => false)).toThrow(/docplane@9\.9\.9 is not on the npm registry/);
  });

  it('installs docplane from the version, a tarball or folder, or a git reference', async () => {
    const tarball = join(work, 'docplane-9.9.9.tgz');
    writeFileSync(tarball, '');
    const spec = async (env: Record<string, string>) => {
      const r = await step('install-spec', env);
      return r.code === 0 ? r.outputs.spec : r.stdout.trim();
    };
    expect(await spec({ INPUT_INSTALL: '../docplane-9.9.9.tgz' })).toBe(tarball);
    expect(await spec({ INPUT_INSTALL: 'docplane' })).toBe(join(checkout, 'docplane'));
    expect(await spec({ INPUT_INSTALL: 'github:someone/docplane#fix-1' })).toBe('github:someone/docplane#fix-1');
    expect(await spec({ INPUT_INSTALL: 'someone/docplane#v0.2.0' })).toBe('github:someone/docplane#v0.2.0');
    expect(await spec({ INPUT_INSTALL: 'git+https://git.example/docplane.git#main' })).toBe('git+https://git.example/docplane.git#main');
    expect(await spec({ INPUT_INSTALL: 'nowhere.tgz' })).toMatch(/^::error::docplane action: install "nowhere.tgz" is neither a git reference .* nor an existing tarball or folder/);
    expect(await spec({ INPUT_VERSION: '^0.1' })).toMatch(/not an exact docplane version/);
    // With install empty and the version not on the registry (here: a registry that cannot be reached),
    // the action builds its own checkout when that is the version asked for; another version is one line.
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const offline = { npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0', GITHUB_ACTION_PATH: ROOT };
    const fromCheckout = await step('install-spec', { ...offline, INPUT_VERSION: version });
    expect(fromCheckout.code, fromCheckout.stdout).toBe(0);
    expect(fromCheckout.outputs).toMatchObject({ spec: ROOT, pack: 'true' });
    expect(await spec({ ...offline, INPUT_VERSION: '9.9.9' })).toMatch(
      new RegExp(`^::error::docplane action: docplane@9\\.9\\.9 is not on the npm registry, and the action's checkout holds docplane ${version.replaceAll('.', '\\.')}: `),
    );
    // The inputs are checked before anything is installed.
    expect((await step('check-inputs', { INPUT_COMMAND: 'plan', INPUT_VERSION: '0.1.0', INPUT_INSTALL: 'github:someone/docplane#fix-1' })).code).toBe(0);
    expect((await step('check-inputs', { INPUT_COMMAND: 'plan', INPUT_VERSION: '0.1.0', INPUT_INSTALL: 'nowhere.tgz' })).code).toBe(1);
    expect((await step('check-inputs', { INPUT_COMMAND: 'drift', INPUT_VERSION: '0.1.0', INPUT_UNMANAGED_IS_DRIFT: 'yes' })).stdout).toContain('unmanaged-is-drift "yes" is not true or false');
  });
});

describe("the action script: the apply pins a pull request's base (push event's before)", () => {
  // main before the merge (B), the pull request's first commit (P: a team Basepin One) and its last
  // (H: a team Basepin Two too), squashed onto B as the merged commit M (H's files).
  let base: string;
  let prCommit: string;
  let merged: string;
  const file = () => join(checkout, 'docplane', 'org_acme.yaml');
  const addTeam = (title: string) => writeFileSync(file(), readFileSync(file(), 'utf8').replace(/^teams:$/m, `teams:\n  - title: ${title}\n    members: [ bob@acme.com ]`));

  beforeAll(() => {
    git('checkout', '-q', 'main');
    base = git('rev-parse', 'HEAD');
    addTeam('Basepin One');
    git('commit', '-q', '-am', 'pull request: one team');
    prCommit = git('rev-parse', 'HEAD');
    addTeam('Basepin Two');
    git('commit', '-q', '-am', 'pull request: another team');
    merged = git('commit-tree', 'HEAD^{tree}', '-p', base, '-m', 'Squashed pull request #7');
  });

  /** The pull request's plan made on its head (main here) against `against` (as an uploader could make it), stored in a folder of its own. */
  async function planAgainst(against: string, name: string): Promise<string> {
    git('checkout', '-q', 'main');
    const dir = join(work, name);
    const event = join(work, `${name}-event.json`);
    writeFileSync(event, JSON.stringify({ pull_request: { number: 7, base: { sha: against }, head: { sha: HEAD_SHA, repo: { full_name: REPO } } } }));
    const r = await step('plan', { GITHUB_EVENT_PATH: event, INPUT_DIR: dir, INPUT_COMMENT: 'false' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8'))).toMatchObject({ base: { commit: against } });
    return dir;
  }

  async function applyOnMerge(dir: string, event: Record<string, unknown>) {
    git('checkout', '-q', merged);
    const path = join(work, `push-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, JSON.stringify(event));
    const r = await step('apply', { GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: path, INPUT_DIR: dir, INPUT_MODE: 'reviewed', INPUT_PR_HEAD_SHA: HEAD_SHA, INPUT_COMMENT: 'false' });
    git('checkout', '-q', 'main');
    return r;
  }

  it("refuses an artifact whose plan names one of the pull request's own commits as its base, sending nothing", async () => {
    const hostile = await planAgainst(prCommit, 'plan-hostile-base');
    // Compared with P, the plan holds Basepin Two alone: applied as the file says, Basepin One would be dropped.
    expect(JSON.parse(readFileSync(join(hostile, 'plan.json'), 'utf8')).targets).toEqual(['org_acme/teams["Basepin Two"]']);
    const sent = emulator.requestCount();
    const r = await applyOnMerge(hostile, { before: base, after: merged });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(`against the base ${base.slice(0, 12)} (main before this push)`);
    expect(r.stdout + r.stderr).toContain(`it was compared with the base ${prCommit}, whose config is not that of apply's --base ${base}`);
    expect(r.stdout).not.toContain('Apply: ');
    expect(emulator.requestCount()).toBe(sent);
  });

  it('refuses a pull request\'s plan when the run has no base of its own (no push event\'s before)', async () => {
    const honest = await planAgainst(base, 'plan-no-before');
    const sent = emulator.requestCount();
    const r = await applyOnMerge(honest, { after: merged });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error::docplane action: the reviewed plan of pull request #7 is not applied: it is a pull request's plan \(made with --base\), and this run has no base of its own/m);
    expect(emulator.requestCount()).toBe(sent);
  });

  it('applies the honest plan, made against main before the merge, with --base that commit', async () => {
    const honest = await planAgainst(base, 'plan-honest-base');
    expect([...JSON.parse(readFileSync(join(honest, 'plan.json'), 'utf8')).targets].sort()).toEqual(['org_acme/teams["Basepin One"]', 'org_acme/teams["Basepin Two"]']);
    const r = await applyOnMerge(honest, { before: base, after: merged });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`against the base ${base.slice(0, 12)} (main before this push)`);
    expect(r.stdout).toContain('Apply: 2 applied, 0 failed, 0 skipped.');
  });
});

describe('the action script: the drift job\'s schedule', () => {
  it('reads everything first, then only what the audit log says changed, and lists who changed what by person', async () => {
    const state = join(work, 'drift-schedule');
    const env = { INPUT_FULL_CHECK: '7d', INPUT_DRIFT_STATE_DIR: state };
    // The issues of the earlier tests are theirs: this one starts with none open.
    for (const issue of github.issues) issue.state = 'closed';
    const first = await step('drift', { ...env, INPUT_ON_DRIFT: 'fail' });
    expect(first.stdout).toContain('drift: reading everything (no earlier complete check is recorded)');
    expect([0, 2]).toContain(first.code);
    const quiet = await step('drift', { ...env, INPUT_ON_DRIFT: 'issue' });
    expect(quiet.code, quiet.stdout + quiet.stderr).toBe(0);
    expect(quiet.stdout).toMatch(/drift: checking what changed since \d{4}-\d\d-\d\dT.*Z \(the last complete check, less 15 minutes\)/);
    expect(quiet.stdout).toContain('the drift issue, if any, stays as the last full check left it');

    // Bob changes a member's role in the app.
    emulator.world.tokens.set('bob-app', { token: 'bob-app', access: 'write', user: 'u_bob', source: 'ui' });
    const patch = (token: string, role: string) =>
      fetch(`${emulator.url}/v1/orgs/org_acme/members/u_judy`, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ role }) });
    const was = (await (await fetch(`${emulator.url}/v1/orgs/org_acme/members/u_judy`, { headers: { authorization: 'Bearer dev-token' } })).json()) as { role: string };
    expect((await patch('bob-app', was.role === 'admin' ? 'read' : 'admin')).status).toBe(200);
    try {
      const found = await step('drift', { ...env, INPUT_ON_DRIFT: 'issue' });
      expect(found.code, found.stdout + found.stderr).toBe(0);
      expect(found.stdout).toContain('drift: changes found since the last check; reading everything for the drift issue');
      const issue = github.issues.find((i) => i.state === 'open')!;
      expect(issue.body).toContain('### Who changed what');
      expect(issue.body).toMatch(/\*\*Bob\*\*\n\n- `members\["judy@acme\.com"\]` \(update\), changed in the app, \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      expect(issue.body).toContain('members["judy@acme.com"]  (changed in the app by Bob,');
    } finally {
      expect((await patch('dev-token', was.role)).status).toBe(200);
    }
  });

  it('decides from the last complete check, the period and the config', async () => {
    const lib = (await import(SCRIPT)) as {
      driftMode(state: unknown, o: { now: Date; every: number; digest: string }): { mode: string; why?: string; since?: string };
      fullCheckEvery(text: string | undefined): number;
      whoChangedWhat(steps: unknown[]): string;
    };
    const day = 86_400_000;
    const now = new Date('2026-11-28T12:00:00Z');
    const state = { at: '2026-11-28T11:00:00.000Z', fullAt: '2026-11-25T06:00:00.000Z', digest: 'd1' };
    expect(lib.fullCheckEvery(undefined)).toBe(7 * day);
    expect(lib.fullCheckEvery('24h')).toBe(day);
    expect(lib.fullCheckEvery('always')).toBe(0);
    expect(() => lib.fullCheckEvery('weekly')).toThrow(/full-check "weekly" is not "always" nor a period/);
    expect(lib.driftMode(state, { now, every: 7 * day, digest: 'd1' })).toEqual({ mode: 'since', since: '2026-11-28T10:45:00.000Z' });
    expect(lib.driftMode(state, { now, every: 2 * day, digest: 'd1' })).toEqual({ mode: 'full', why: 'the last full check was at 2026-11-25T06:00:00.000Z' });
    expect(lib.driftMode(state, { now, every: 7 * day, digest: 'd2' })).toEqual({ mode: 'full', why: 'the config changed since the last check' });
    expect(lib.driftMode(undefined, { now, every: 7 * day, digest: 'd1' }).mode).toBe('full');
    const who = (by: string, label: string, source: string, at: string) => ({ by, source, at, action: 'x', actor: { type: by === 'integration' ? 'integration' : 'user', id: label, label } });
    const text = lib.whoChangedWhat([
      { address: 'spaces["a"]', action: 'update', changedBy: who('integration', 'Acme Bot', 'integration', '2026-11-28T10:00:00Z') },
      { address: 'teams["W"].members', action: 'update', changedBy: who('person', 'Ana Lima', 'ui', '2026-11-28T09:00:00Z') },
      { address: 'spaces["b"]', action: 'update', changedBy: who('person', 'Ana Lima', 'ui', '2026-11-28T09:05:00Z') },
      { address: 'spaces["c"]', action: 'update', changedBy: who('docplane', 'Alice', 'api', '2026-11-28T09:10:00Z') },
      { address: 'spaces["d"]', action: 'update' },
    ]);
    expect(text).toBe(
      [
        '### Who changed what',
        '',
        '**Ana Lima**',
        '',
        '- `teams["W"].members` (update), changed in the app, 2026-11-28 09:00 UTC',
        '- `spaces["b"]` (update), changed in the app, 2026-11-28 09:05 UTC',
        '',
        '**Acme Bot** (an integration or tool)',
        '',
        '- `spaces["a"]` (update), changed by an integration, 2026-11-28 10:00 UTC',
        '',
        "**docplane's own applies (as Alice)**",
        '',
        '- `spaces["c"]` (update), applied, 2026-11-28 09:10 UTC',
        '',
        "1 entry not named by the audit log's window.",
        '',
      ].join('\n'),
    );
    expect(lib.whoChangedWhat([{ address: 'x', action: 'update' }])).toBe('');
  });
});
