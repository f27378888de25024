#!/usr/bin/env node
// The logic of the docplane GitHub Action (action.yml at the repository's root), kept out of the
// action's shell steps so that it can be tested against a fake GitHub API (test/ci/action.test.ts).
// No dependencies: Node 20's fetch and child_process. docs/ci/github-actions.md describes the
// behaviour; each exported function is one decision, `main` wires them to the action's environment.
//
//   node docplane-action.mjs check-inputs  command, version (exact) and on-drift
//   node docplane-action.mjs install-spec  what `npm install --global` installs: the version, the `install` input,
//                                        or the action's own checkout when the version is not on the registry
//   node docplane-action.mjs plan        plan (--base: the pull request's base), store plan.json + meta.json, post/update the PR comment
//   node docplane-action.mjs wait-turn   wait until earlier runs of this workflow have finished
//   node docplane-action.mjs find-plan   find the merged pull request's reviewed plan artifact
//   node docplane-action.mjs apply       apply that plan if made on the checked-out commit, else explain;
//                                        the result goes on the pull request's comment
//   node docplane-action.mjs drift       plan --detailed-exitcode, --since the last complete check (with an
//                                        overlap) or everything on its own schedule (full-check); on 2 fail,
//                                        or open/update one issue listing who changed what; on 0 (a full
//                                        check) close that issue
// Every step that plans or applies writes the plan (markdown) to the job summary ($GITHUB_STEP_SUMMARY).
import { randomBytes } from 'node:crypto';
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

/** GitHub's limit on the body of a comment or an issue, in characters. */
export const GITHUB_BODY_LIMIT = 65_536;
export const PLAN_MARKER = '<!-- docplane-plan';
export const DRIFT_MARKER = '<!-- docplane-drift';
export const APPLY_MARKER = '<!-- docplane-apply';
const EXACT_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/**
 * A workflow command (`::warning::…`, `::error::…`) whose message may hold data: `%`, CR and LF
 * escaped as the runner reads them, so no text can end the line and start a command of its own.
 */
export function workflowCommand(kind, message) {
  const data = String(message).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  return `::${kind}::${data}`;
}

/** Text on one log line: line endings shown as `\r` and `\n`, so data cannot start a workflow command. */
export function logData(text) {
  return String(text).replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

/**
 * Remote or uploaded text as inline markdown (the same escaping as docplane's src/render/escape.ts,
 * which the action cannot import: it runs from its own folder without docplane's modules): HTML as
 * entities, markdown punctuation backslash-escaped, `@`, `#` and bare URLs broken by a zero-width
 * space, on one line.
 */
export function markdownText(text) {
  return String(text)
    .replace(/\r\n|[\r\n\u2028\u2029]/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]()|!#~])/g, '\\$1')
    .replace(/([@#])/g, '$1\u200b')
    .replace(/:\/\//g, ':\u200b//')
    .replace(/www\./gi, (m) => `${m.slice(0, 3)}\u200b.`);
}

/** A user-facing failure: printed as one `::error::` line, exit 1. */
export class ActionError extends Error {}

/** The hidden marker that finds the comment (or issue) again; one per config path. */
export function marker(kind, config) {
  return `${kind} config=${config.replace(/-->/g, '')} -->`;
}

/** `1.2.3` or `1.2.3-rc.1`: a range or a tag would let plan and apply run different versions. */
export function checkVersion(version) {
  if (!EXACT_VERSION.test(version ?? '')) {
    throw new ActionError(`version "${version ?? ''}" is not an exact docplane version (such as 0.1.0): a range or a tag could install another version for apply than for plan, and apply refuses a plan made by another version`);
  }
  return version;
}

/** The artifact that holds a pull request's plans (one per plan run; apply takes the right one). */
export function artifactName(pr) {
  return `docplane-plan-pr-${pr}`;
}

/**
 * What the install step hands to `npm install --global`: `docplane@VERSION`, or the `install` input —
 * whose docplane then runs under the `version` given (a plan file names the version that made it, and
 * apply on merge refuses a plan made by another) —
 * a tarball or a folder (made absolute, from the workspace) or a git reference (`github:owner/docplane#ref`,
 * `git+https://…#ref`, `owner/docplane#ref`), given as npm reads it, so that the action works before
 * a release and for forks of docplane.
 */
export function installSpec(env) {
  const given = (env.INPUT_INSTALL ?? '').trim();
  if (given === '') return `docplane@${checkVersion(env.INPUT_VERSION)}`;
  if (/^(github:|gitlab:|bitbucket:|git\+|git:\/\/|https?:\/\/)/.test(given)) return given;
  if (/^[\w.-]+\/[\w.-]+#.+$/.test(given) && !existsSync(resolve(env.GITHUB_WORKSPACE || process.cwd(), given))) return `github:${given}`;
  const path = resolve(env.GITHUB_WORKSPACE || process.cwd(), given);
  if (!existsSync(path)) {
    throw new ActionError(`install "${given}" is neither a git reference (github:owner/docplane#ref, git+https://…#ref) nor an existing tarball or folder (looked for ${path})`);
  }
  return path;
}

/**
 * Where the install step takes docplane from, for `install` left empty: `docplane@VERSION` from the
 * registry when it holds that version, else the action's own checkout (`uses: owner/docplane@ref`
 * checks the repository out) when its package.json is docplane at that version — so that the
 * documented workflow runs as written before a release reaches the registry. `onRegistry(version)`
 * says whether the registry holds the version (`npm view`; any failure counts as no).
 */
export function installSource(env, onRegistry) {
  const given = (env.INPUT_INSTALL ?? '').trim();
  if (given !== '') return { spec: installSpec(env), pack: false };
  const version = checkVersion(env.INPUT_VERSION);
  if (onRegistry(version)) return { spec: `docplane@${version}`, pack: false };
  const checkout = env.GITHUB_ACTION_PATH;
  let held;
  try {
    held = checkout ? JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) : undefined;
  } catch {
    held = undefined;
  }
  if (held?.name === 'docplane' && held.version === version) return { spec: checkout, pack: true };
  throw new ActionError(
    `docplane@${version} is not on the npm registry, and the action's checkout holds ${held?.name === 'docplane' ? `docplane ${held.version}` : 'no docplane'}: use the action at the ref of that version, or give install: (a tarball, a folder or a git reference)`,
  );
}

/** Whether the npm registry holds docplane at `version` (npm's own client, so its config applies). */
function registryHas(version) {
  try {
    const out = execFileSync('npm', ['view', `docplane@${version}`, 'version', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 60_000 });
    return out.includes(version);
  } catch {
    return false;
  }
}

/** Appends markdown to the job's summary page, when the runner gives one. */
export function writeSummary(env, markdown) {
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `${markdown.replace(/\n+$/, '')}\n\n`);
}

// ---------------------------------------------------------------------------------------------
// GitHub REST

/** A small client of GitHub's REST API: JSON in and out, errors with method, path and status. */
export function github({ apiUrl, token, fetchImpl = globalThis.fetch }) {
  const base = apiUrl.replace(/\/$/, '');
  async function request(method, path, body) {
    const res = await fetchImpl(path.startsWith('http') ? path : `${base}${path}`, {
      method,
      headers: {
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'docplane-action',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) {
      const err = new ActionError(`GitHub API: ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
      err.status = res.status;
      throw err;
    }
    return { data: text === '' ? undefined : JSON.parse(text), link: res.headers.get('link') ?? '' };
  }
  return {
    request: async (method, path, body) => (await request(method, path, body)).data,
    /** Every item of a list, following `Link: rel="next"`; `key` names the array in an envelope. */
    async paginate(path, key) {
      const items = [];
      let next = path;
      for (let page = 0; next && page < 50; page++) {
        const { data, link } = await request('GET', next);
        items.push(...(key ? data[key] : data));
        next = /<([^>]+)>;\s*rel="next"/.exec(link)?.[1];
      }
      return items;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Plan: the comment

/** Cuts `text` at a line boundary so that it fits in `room` characters, with a note when it was cut. */
function fit(text, room, note) {
  if (text.length <= room) return text;
  const cut = text.slice(0, Math.max(0, room - note.length - 2));
  return `${cut.slice(0, Math.max(0, cut.lastIndexOf('\n')))}\n\n${note}`;
}

/**
 * The top-level blocks of a markdown text, each with the blank line that ends it: a block ends at a
 * blank line outside every fence and every `<details>`, so that a cut between blocks leaves no fence
 * or `<details>` open.
 */
export function markdownBlocks(text) {
  const blocks = [];
  let current = [];
  let fence;
  let depth = 0;
  for (const line of text.split('\n')) {
    current.push(line);
    if (fence !== undefined) {
      if (new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(line)) fence = undefined;
    } else {
      const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
      if (open) fence = open[1];
      else depth = Math.max(0, depth + (line.match(/<details[\s>]/g) ?? []).length - (line.match(/<\/details>/g) ?? []).length);
    }
    if (fence === undefined && depth === 0 && line.trim() === '') {
      blocks.push(current.join('\n'));
      current = [];
    }
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}

/** The renderer's own line saying how many steps it left out: kept whatever else is cut. */
const STEPS_NOT_SHOWN = /^> … \d+ more steps? not shown/;

/**
 * Cuts a markdown plan between top-level blocks so that it fits in `room` characters: every fence and
 * `<details>` stays closed, the line saying how many steps are not shown stays, and `note` says why.
 */
export function fitMarkdown(text, room, note) {
  if (text.length <= room) return text;
  const blocks = markdownBlocks(text);
  const tail = blocks.filter((b) => STEPS_NOT_SHOWN.test(b.trim()));
  const ending = [note, ...tail.map((b) => b.trim())].join('\n\n');
  const out = [];
  let size = ending.length + 2;
  for (const b of blocks) {
    if (tail.includes(b)) continue;
    if (size + b.length + 1 > room) break;
    out.push(b);
    size += b.length + 1;
  }
  return `${out.join('\n')}${out.length > 0 ? '\n' : ''}${ending}`;
}

/** Text on one markdown line, read as text (not as markup). */
function escapeLine(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/([\\`*_[\]|#])/g, '\\$1');
}

/** A fenced block that no line of `text` can close early. */
function fenced(text) {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text.replace(/\n$/, '')}\n${fence}`;
}

/**
 * The pull-request comment: the markdown plan when the plan ran (exit 0 or 2), the error when it did
 * not, so that a failed run never leaves the previous push's plan standing as if it were current.
 */
export function planComment({ config, exitCode, markdown, error, commit, runUrl, artifact, limit = GITHUB_BODY_LIMIT }) {
  const head = `${marker(PLAN_MARKER, config)}\n`;
  const where = `\`${config}\` on ${commit.slice(0, 12)}${runUrl ? ` · [run](${runUrl})` : ''}`;
  if (exitCode === 0 || exitCode === 2) {
    const foot = `\n\n<sub>docplane plan of ${where}; the plan file is the artifact \`${artifact}\`, applied on merge.</sub>`;
    const room = limit - head.length - foot.length;
    const note = `> The plan was cut to fit GitHub's comment limit; the whole plan is in the artifact \`${artifact}\` and the run's log.`;
    return `${head}${fitMarkdown(markdown, room, note)}${foot}`;
  }
  // The error, each line of it on a line of its own (no code block to scroll sideways); then the plan
  // as docplane rendered it before refusing it, whose "Needs attention" lists every problem.
  const title = `### docplane plan failed (exit ${exitCode})\n\n`;
  const after = `\n\nNo plan was saved for this commit: if the pull request were merged now, the apply would find no reviewed plan, send nothing and ask for a run by hand. Fix the error and push again.\n\n<sub>${where}</sub>`;
  const lines = (error ?? '').trim().split('\n').filter((l) => l.trim() !== '');
  const errorText = lines.length === 0 ? '> (docplane printed nothing on stderr)' : lines.map((l) => `> ${escapeLine(l)}`).join('\n');
  const plan = (markdown ?? '').trim().startsWith('### ') ? `\n\n${markdown.trim()}` : '';
  const room = limit - head.length - title.length - after.length;
  const shownError = fit(errorText, Math.floor(room / 2), '> … (cut; the whole output is in the run\'s log)');
  const shownPlan = plan === '' ? '' : fitMarkdown(plan, room - shownError.length, '> The plan was cut to fit GitHub\'s comment limit; the whole plan is in the run\'s log.');
  return `${head}${title}${shownError}${shownPlan}${after}`;
}

/** Creates the one comment that carries `mark`, or updates it; returns what it did. */
export async function upsertComment(gh, { repo, issue, mark, body }) {
  const comments = await gh.paginate(`/repos/${repo}/issues/${issue}/comments?per_page=100`);
  const mine = comments.find((c) => typeof c.body === 'string' && c.body.startsWith(mark));
  if (mine) {
    await gh.request('PATCH', `/repos/${repo}/issues/comments/${mine.id}`, { body });
    return { action: 'updated', id: mine.id };
  }
  const created = await gh.request('POST', `/repos/${repo}/issues/${issue}/comments`, { body });
  return { action: 'created', id: created.id };
}

/** The pull request a plan run belongs to: the pull_request event's, or the merge queue's `pr-N`. */
export function pullRequestOf(event) {
  if (event?.pull_request?.number) return { number: event.pull_request.number, headSha: event.pull_request.head.sha, fromMergeQueue: false };
  const ref = event?.merge_group?.head_ref ?? '';
  const m = /\/pr-(\d+)-[0-9a-f]+$/.exec(ref);
  if (m) return { number: Number(m[1]), headSha: event.merge_group.head_sha, fromMergeQueue: true };
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Apply: choosing the plan

/**
 * The reviewed plan of the pull request merged as `commit`: the newest unexpired plan artifact made
 * for the pull request's last head (or by the merge queue on `commit` itself, which is better).
 */
export async function findReviewedPlan(gh, { repo, commit, planWorkflow = DEFAULT_PLAN_WORKFLOW }) {
  const pulls = await gh.request('GET', `/repos/${repo}/commits/${commit}/pulls?per_page=100`);
  const merged = (pulls ?? []).filter((p) => p.merged_at);
  const pr = merged.find((p) => p.merge_commit_sha === commit) ?? merged[0];
  if (!pr) {
    return { problem: `commit ${commit.slice(0, 12)} is not the merge of a pull request (a direct push?), so there is no reviewed plan to apply` };
  }
  const name = artifactName(pr.number);
  const artifacts = await gh.paginate(`/repos/${repo}/actions/artifacts?name=${encodeURIComponent(name)}&per_page=100`, 'artifacts');
  const live = artifacts.filter((a) => a.name === name && !a.expired).sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
  const chosen = await firstFromPlanWorkflow(gh, repo, planWorkflow, [
    ...live.filter((a) => a.workflow_run?.head_sha === commit),
    ...live.filter((a) => a.workflow_run?.head_sha === pr.head.sha && pr.head.sha !== commit),
  ]);
  if (!chosen) {
    const why =
      live.length === 0
        ? 'none is stored (the plan failed, never ran, or its artifact expired)'
        : `none was stored by a run of the plan workflow ${planWorkflow} for its last commit ${pr.head.sha.slice(0, 12)} (its last plan failed or is still running, or another workflow uploaded the artifact)`;
    return { pr: pr.number, problem: `no plan of pull request #${pr.number} can be applied: ${why}` };
  }
  return { pr: pr.number, prHeadSha: pr.head.sha, runId: chosen.workflow_run.id, artifact: name, artifactId: chosen.id };
}

const SHA = /^[0-9a-f]{40}$/;

/**
 * meta.json of a plan artifact, checked field by field before any of it is used: it is uploaded by a
 * pull request's run, which the pull request's author can influence. `version` a semver, `pr` a
 * pull-request number (or null), commits and trees as 40 hex digits. Returns the checked object.
 */
export function parseMeta(text) {
  let meta;
  try {
    meta = JSON.parse(text);
  } catch {
    throw new ActionError('meta.json of the plan artifact is not JSON; the artifact is not a plan this action stored');
  }
  const problems = [];
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) problems.push('it is not an object');
  else {
    if (typeof meta.version !== 'string' || !EXACT_VERSION.test(meta.version) || meta.version.length > 64) problems.push('`version` is not a semver such as 0.1.0');
    if (meta.pr !== null && !(Number.isSafeInteger(meta.pr) && meta.pr > 0)) problems.push('`pr` is not a pull-request number');
    for (const field of ['commit', 'tree', 'headSha']) if (typeof meta[field] !== 'string' || !SHA.test(meta[field])) problems.push(`\`${field}\` is not 40 hex digits`);
    if (typeof meta.config !== 'string' || meta.config.length > 1000) problems.push('`config` is not a path');
    if (!Number.isSafeInteger(meta.exitCode)) problems.push('`exitCode` is not an integer');
  }
  if (problems.length > 0) throw new ActionError(`meta.json of the plan artifact is refused: ${problems.join('; ')}. ${NEXT_STEP}`);
  return { version: meta.version, pr: meta.pr, commit: meta.commit, tree: meta.tree, headSha: meta.headSha, config: meta.config, exitCode: meta.exitCode };
}

/** The plan workflow's file name under .github/workflows/ when the `plan-workflow` input is not given. */
export const DEFAULT_PLAN_WORKFLOW = 'docplane-plan.yml';

/**
 * The first artifact uploaded by a run of the named plan workflow of this repository, started by a
 * pull request or the merge queue, for the commit the artifact says: a plan another workflow uploaded
 * under the same name (any workflow of the pull request's branch can) is never taken.
 */
async function firstFromPlanWorkflow(gh, repo, planWorkflow, candidates) {
  const wanted = `.github/workflows/${planWorkflow.replace(/^\.github\/workflows\//, '')}`;
  for (const a of candidates) {
    const run = await gh.request('GET', `/repos/${repo}/actions/runs/${encodeURIComponent(String(a.workflow_run.id))}`);
    const path = String(run?.path ?? '').replace(/@.*$/, '');
    const fromRepo = run?.repository?.full_name === undefined || run.repository.full_name === repo;
    if (path === wanted && fromRepo && run.head_sha === a.workflow_run.head_sha && ['pull_request', 'pull_request_target', 'merge_group'].includes(run.event)) return a;
  }
  return undefined;
}

/** What to do when the reviewed plan cannot be applied: the same advice wherever it is printed. */
export const NEXT_STEP =
  'Next: run the apply workflow by hand on main (Actions → the workflow → Run workflow): it plans main as it is now and applies it. Or push a pull request and review its plan first. To make this rare, require branches to be up to date before merging, or use a merge queue (docs/ci/github-actions.md).';

/**
 * Whether the stored plan may be applied to the checked-out commit, by the docplane version installed
 * now: made on that very commit (the merge queue's case), or else on a commit with the same files
 * (GitHub's merge of an up-to-date branch has the tree the plan job checked out, under a new commit
 * id) and for the pull request's last push.
 */
export function checkReviewedPlan(meta, { commit, tree, version, prHeadSha }) {
  const problems = [];
  if (meta.commit !== commit) {
    if (meta.tree !== tree) problems.push(`it was made on ${String(meta.commit).slice(0, 12)}, and the checked-out commit ${commit.slice(0, 12)} has other files (main changed after the plan was made)`);
    if (prHeadSha && meta.headSha !== prHeadSha) problems.push(`it was made for ${String(meta.headSha).slice(0, 12)}, not for the pull request's last commit ${prHeadSha.slice(0, 12)}`);
  }
  if (meta.version !== version) problems.push(`it was made by docplane ${meta.version}, and this run installed ${version}`);
  if (problems.length === 0) return { ok: true };
  return { ok: false, message: `the reviewed plan of pull request #${meta.pr} is not applied: ${problems.join('; ')}. ${NEXT_STEP}` };
}

/**
 * Waits until no earlier run of this workflow is unfinished. GitHub's concurrency groups keep one
 * pending run and cancel the others, so the apply workflow has no group: its runs queue here, in
 * run-number order, and none is dropped.
 */
export async function waitForTurn(gh, { repo, runId, pollMs = 15_000, timeoutMs = 6 * 3600_000, log = console.log }) {
  const me = await gh.request('GET', `/repos/${repo}/actions/runs/${runId}`);
  const started = Date.now();
  for (;;) {
    const { workflow_runs: runs } = await gh.request('GET', `/repos/${repo}/actions/workflows/${me.workflow_id}/runs?per_page=100`);
    const earlier = runs.filter((r) => r.id !== me.id && r.run_number < me.run_number && r.status !== 'completed');
    if (earlier.length === 0) return { waitedMs: Date.now() - started };
    if (Date.now() - started > timeoutMs) throw new ActionError(`waited ${Math.round(timeoutMs / 60_000)} minutes for earlier runs (${earlier.map((r) => `#${r.run_number}`).join(', ')}) to finish; re-run this job once they have`);
    log(`waiting for earlier runs to finish: ${earlier.map((r) => `#${r.run_number} (${r.status})`).join(', ')}`);
    await sleep(pollMs);
  }
}

// ---------------------------------------------------------------------------------------------
// Apply: the result on the pull request

/** The counts and failures of an apply, from its text output (`Apply: N applied, …` and `✗` lines). */
export function applyOutcome(stdout, code) {
  const m = /Apply: (\d+) applied, (\d+) failed, (\d+) skipped\./.exec(stdout);
  const failures = [...stdout.matchAll(/^\s*✗ (.+)$/gm)].map((f) => f[1]);
  return {
    code,
    applied: m ? Number(m[1]) : 0,
    failed: m ? Number(m[2]) : 0,
    skipped: m ? Number(m[3]) : 0,
    nothing: /Nothing to apply\./.test(stdout),
    failures,
  };
}

/** The apply's result as a section of the pull request's comment: commit, steps, failures, the run. */
export function applyResultMarkdown({ commit, outcome, error, runUrl }) {
  const at = `\`${commit.slice(0, 12)}\``;
  const run = runUrl ? ` · [run](${runUrl})` : '';
  if (outcome === undefined) return `### ✗ Not applied at ${at}\n\n${markdownText(error ?? 'the apply did not run')}${run}`;
  const steps = `${outcome.applied} ${outcome.applied === 1 ? 'step' : 'steps'} applied`;
  const head =
    outcome.code === 0
      ? `### ✓ Applied at ${at}: ${outcome.nothing && outcome.applied === 0 ? 'nothing to apply' : steps}${run}`
      : `### ✗ Apply at ${at} failed (exit ${outcome.code}): ${steps}, ${outcome.failed} failed, ${outcome.skipped} skipped${run}`;
  const lines = [head];
  if (outcome.failures.length > 0) {
    lines.push('', ...outcome.failures.slice(0, 20).map((f) => `- ${markdownText(f)}`));
    if (outcome.failures.length > 20) lines.push(`- … and ${outcome.failures.length - 20} more (see the run's log)`);
  }
  if (outcome.code !== 0 && error) lines.push('', fenced(error.trim().split('\n').slice(-5).join('\n')));
  return lines.join('\n');
}

/**
 * Puts the apply's result on the pull request: into the plan's comment (replacing the result of an
 * earlier attempt), or, when that comment is gone or would grow past GitHub's limit, as a reply.
 */
export async function reportApply(gh, { repo, pr, config, result }) {
  const mark = marker(PLAN_MARKER, config);
  const section = `${APPLY_MARKER} -->\n${result}`;
  const comments = await gh.paginate(`/repos/${repo}/issues/${pr}/comments?per_page=100`);
  const mine = comments.find((c) => typeof c.body === 'string' && c.body.startsWith(mark));
  if (mine) {
    const plan = mine.body.split(`\n\n---\n${APPLY_MARKER}`)[0];
    const body = `${plan}\n\n---\n${section}`;
    if (body.length <= GITHUB_BODY_LIMIT) {
      await gh.request('PATCH', `/repos/${repo}/issues/comments/${mine.id}`, { body });
      return { action: 'updated', id: mine.id };
    }
  }
  const created = await gh.request('POST', `/repos/${repo}/issues/${pr}/comments`, { body: `${section}\n\n<sub>docplane apply of \`${config}\`</sub>` });
  return { action: 'replied', id: created.id };
}

// ---------------------------------------------------------------------------------------------
// Drift

/** Opens the one drift issue for `config`, or updates it; returns what it did. */
export async function upsertDriftIssue(gh, { repo, config, markdown, runUrl }) {
  const mark = marker(DRIFT_MARKER, config);
  const body = `${mark}\nThe organization differs from \`${config}\` (docplane plan exit 2)${runUrl ? `; [run](${runUrl})` : ''}. To keep the change, edit the config; to undo it, apply the config.\n\n${markdown}`;
  const issues = await gh.paginate(`/repos/${repo}/issues?state=open&per_page=100`);
  const mine = issues.find((i) => !i.pull_request && typeof i.body === 'string' && i.body.startsWith(mark));
  const fitted = fit(body, GITHUB_BODY_LIMIT, '> Cut to fit GitHub\'s limit; the whole plan is in the run\'s log.');
  if (mine) {
    await gh.request('PATCH', `/repos/${repo}/issues/${mine.number}`, { body: fitted });
    return { action: 'updated', number: mine.number };
  }
  const created = await gh.request('POST', `/repos/${repo}/issues`, { title: `docplane: drift in ${config}`, body: fitted });
  return { action: 'created', number: created.number };
}

/** Closes the open drift issue of `config`, with a comment saying that a run found no drift; returns what it did. */
export async function closeDriftIssue(gh, { repo, config, runUrl, commit }) {
  const mark = marker(DRIFT_MARKER, config);
  const issues = await gh.paginate(`/repos/${repo}/issues?state=open&per_page=100`);
  const mine = issues.find((i) => !i.pull_request && typeof i.body === 'string' && i.body.startsWith(mark));
  if (!mine) return { action: 'none' };
  const where = commit ? ` of \`${config}\` at \`${commit.slice(0, 12)}\`` : ` of \`${config}\``;
  await gh.request('POST', `/repos/${repo}/issues/${mine.number}/comments`, {
    body: `No drift any more: docplane plan${where} finds the organization as the config says${runUrl ? ` ([run](${runUrl}))` : ''}. Closing.`,
  });
  await gh.request('PATCH', `/repos/${repo}/issues/${mine.number}`, { state: 'closed', state_reason: 'completed' });
  return { action: 'closed', number: mine.number };
}

// ---------------------------------------------------------------------------------------------
// The action's steps

/** Runs docplane; stdout and stderr captured, and echoed to the job's log as they come. */
export function runDocplane(bin, args, env, write = { out: (d) => process.stdout.write(d), err: (d) => process.stderr.write(d) }) {
  // docplane's output holds remote text: the runner reads no workflow command in it.
  const stop = randomBytes(16).toString('hex');
  write.out(`::stop-commands::${stop}\n`);
  return new Promise((done, fail) => {
    const child = spawn(bin, args, { env, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      write.out(d);
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      write.err(d);
    });
    child.once('error', (e) => {
      write.out(`\n::${stop}::\n`);
      fail(e);
    });
    child.once('close', (code) => {
      write.out(`\n::${stop}::\n`);
      done({ code: code ?? 1, stdout, stderr });
    });
  });
}

function git(args, cwd) {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

function output(env, name, value) {
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, `${name}=${value}\n`);
}

async function installedVersion(bin, env) {
  const { code, stdout } = await runDocplane(bin, ['--version'], env);
  const m = /docplane\/(\S+)/.exec(stdout);
  if (code !== 0 || !m) throw new ActionError(`\`${bin} --version\` failed (exit ${code}); is docplane installed?`);
  return m[1];
}

/** The version of docplane that made a saved plan: the plan file says it (`toolVersion`), as `docplane --version` would. */
function planVersion(file) {
  const version = JSON.parse(readFileSync(file, 'utf8')).toolVersion;
  if (typeof version !== 'string') throw new ActionError(`${file} does not say which docplane made it (toolVersion); is docplane installed?`);
  return version;
}

/** The inputs of every step, from the environment the action's steps set. */
export function inputsFrom(env) {
  const repo = env.GITHUB_REPOSITORY;
  return {
    env,
    repo,
    config: env.INPUT_CONFIG || 'docplane/',
    dir: resolve(env.INPUT_DIR || 'docplane-plan'),
    bin: env.DOCPLANE_BIN || 'docplane',
    cwd: env.GITHUB_WORKSPACE || process.cwd(),
    event: env.GITHUB_EVENT_PATH && existsSync(env.GITHUB_EVENT_PATH) ? JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) : {},
    runUrl: env.GITHUB_RUN_ID ? `${env.GITHUB_SERVER_URL || 'https://github.com'}/${repo}/actions/runs/${env.GITHUB_RUN_ID}` : undefined,
    gh: github({ apiUrl: env.GITHUB_API_URL || 'https://api.github.com', token: env.GITHUB_TOKEN }),
  };
}

/** The docplane process's environment: the action's, with the `token` and `api-url` inputs when given. */
export function docplaneEnv(env) {
  const out = { ...env, NO_COLOR: '1' };
  if (env.INPUT_TOKEN !== undefined) out.DOCPLANE_TOKEN = env.INPUT_TOKEN;
  if (env.INPUT_API_URL) out.DOCPLANE_API_URL = env.INPUT_API_URL;
  if (!out.DOCPLANE_TOKEN) delete out.DOCPLANE_TOKEN;
  if (!out.DOCPLANE_API_URL) delete out.DOCPLANE_API_URL;
  return out;
}

const COMMANDS = ['plan', 'apply', 'drift'];

/** The action's inputs that a typo would turn into a silent no-op. */
export function checkInputs(env) {
  if (!COMMANDS.includes(env.INPUT_COMMAND)) throw new ActionError(`command "${env.INPUT_COMMAND ?? ''}" is not one of ${COMMANDS.join(', ')}`);
  if (!['fail', 'issue'].includes(env.INPUT_ON_DRIFT || 'fail')) throw new ActionError(`on-drift "${env.INPUT_ON_DRIFT}" is not one of fail, issue`);
  if (env.INPUT_COMMAND === 'drift') fullCheckEvery(env.INPUT_FULL_CHECK);
  if (!['true', 'false', ''].includes(env.INPUT_UNMANAGED_IS_DRIFT ?? '')) throw new ActionError(`unmanaged-is-drift "${env.INPUT_UNMANAGED_IS_DRIFT}" is not true or false`);
  checkVersion(env.INPUT_VERSION);
  installSpec(env);
}

/**
 * The commit a pull request's plan is compared with: the first parent of the merge commit checked out
 * (main as the merge was made; its parent lines are in the commit even in a shallow clone), else the
 * event's base (the pull request's, or the merge queue's).
 */
export function baseOf(event, cwd) {
  if (event?.pull_request) {
    try {
      const parents = git(['cat-file', '-p', 'HEAD'], cwd).split('\n').filter((l) => l.startsWith('parent ')).map((l) => l.slice(7));
      if (parents.length === 2) return parents[0];
    } catch {
      // Not a git checkout: the event's base.
    }
  }
  return event?.pull_request?.base?.sha ?? event?.merge_group?.base_sha ?? undefined;
}

/**
 * `--base SHA` for a pull request's plan, unless the `base` input is false: the plan then reads only
 * what the pull request changes (docs/pull-request-plans.md). A shallow checkout does not hold the
 * base commit, so it is fetched (that one commit); when it cannot be, the plan reads everything.
 */
export function baseArgs(i, log = console.log) {
  if (i.env.INPUT_BASE === 'false') return [];
  const sha = baseOf(i.event, i.cwd);
  if (!sha) return [];
  try {
    git(['cat-file', '-e', `${sha}^{commit}`], i.cwd);
  } catch {
    try {
      git(['fetch', '--no-tags', '--depth=1', 'origin', sha], i.cwd);
    } catch (e) {
      log(workflowCommand('warning', `could not fetch the base commit ${sha.slice(0, 12)} (${String(e.message).split('\n')[0]}); the plan reads everything`));
      return [];
    }
  }
  return ['--base', sha];
}

/**
 * The base a pull request's plan (--base) is applied against, pinned by the apply job itself: the
 * push event's `before`, main as it was before the push that merged the pull request. GitHub writes
 * it, not the pull request's run, and it is the plan's base for every way of merging: a merge commit's
 * and a squash's first parent, the commit a rebase merge's commits were replayed onto, the base of a
 * merge queue's group. The base the plan file records is the uploader's word: a file naming one of
 * the pull request's own commits would narrow the scope apply derives, so apply gets `--base` with
 * this commit and refuses a file compared with another base (docs/saved-plans.md). A plan made
 * without --base gets no pin: its apply reads the whole organization. A shallow checkout does not
 * hold the commit, so it is fetched (that one commit).
 * Returns `{ args }` for `docplane apply`, or `{ problem }` when no base can be pinned.
 */
export function pinnedBase(planFile, event, cwd, log = console.log) {
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(planFile, 'utf8')).base;
  } catch {
    // Not JSON: docplane's apply says so.
    return { args: [] };
  }
  if (recorded === undefined || recorded === null) return { args: [] };
  const before = event?.before;
  if (typeof before !== 'string' || !SHA.test(before) || /^0+$/.test(before)) {
    return { problem: "it is a pull request's plan (made with --base), and this run has no base of its own to apply it against: only a push to the branch says what the branch was before the merge (the push event's `before`)" };
  }
  try {
    git(['cat-file', '-e', `${before}^{commit}`], cwd);
  } catch {
    try {
      git(['fetch', '--no-tags', '--depth=1', 'origin', before], cwd);
    } catch {
      log(workflowCommand('warning', `could not fetch the base commit ${before.slice(0, 12)}; the apply says why it cannot derive the plan's scope`));
    }
  }
  return { args: ['--base', before] };
}

/**
 * Where the pull request's config files are on the web at its head commit (not the merge commit
 * the job checks out, which no one can open): the plan's blocks link each entry's file:line there.
 * Given as DOCPLANE_SOURCE_URL, which a docplane without the option ignores.
 */
export function sourceUrl(env, repo, pr, commit) {
  return `${(env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '')}/${repo}/blob/${pr?.headSha ?? commit}`;
}

export async function planStep(i, log = console.log) {
  const { env, config, dir, bin, cwd, event, gh, repo } = i;
  const pr = pullRequestOf(event);
  mkdirSync(dir, { recursive: true });
  const commit = git(['rev-parse', 'HEAD'], cwd);
  const tree = git(['rev-parse', 'HEAD^{tree}'], cwd);
  let result;
  if (!docplaneEnv(env).DOCPLANE_TOKEN) {
    const fork = event?.pull_request && event.pull_request.head?.repo?.full_name !== repo;
    result = {
      code: 1,
      stdout: '',
      stderr: `docplane: no API token (the action's \`token\` input is empty)${fork ? ': pull requests from forks get no secrets, so they cannot be planned here' : ''}. ${fork ? 'A maintainer can push the branch to this repository to plan it.' : 'Set the secret the workflow passes as `token`.'}\n`,
    };
    process.stderr.write(result.stderr);
  } else {
    const planEnv = { ...docplaneEnv(env), DOCPLANE_SOURCE_URL: sourceUrl(env, repo, pr, commit) };
    result = await runDocplane(bin, ['plan', '-c', config, ...baseArgs(i, log), '--format', 'markdown', '--out', join(dir, 'plan.json'), '--detailed-exitcode'], planEnv);
  }
  writeFileSync(join(dir, 'plan.md'), result.stdout);
  writeSummary(env, result.code === 0 || result.code === 2 ? result.stdout : `### docplane plan failed (exit ${result.code})\n\n${fenced(result.stderr.trim() || '(docplane printed nothing on stderr)')}`);
  const version = result.code === 0 || result.code === 2 ? planVersion(join(dir, 'plan.json')) : undefined;
  const artifact = pr ? artifactName(pr.number) : 'docplane-plan';
  if (version) {
    const meta = { version, commit, tree, pr: pr?.number ?? null, headSha: pr?.headSha ?? commit, config, exitCode: result.code, createdAt: new Date().toISOString() };
    writeFileSync(join(dir, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
  }
  output(env, 'exit-code', result.code);
  output(env, 'artifact-name', artifact);
  output(env, 'saved', version ? 'true' : 'false');
  if (pr && !pr.fromMergeQueue && env.INPUT_COMMENT !== 'false') {
    const body = planComment({ config, exitCode: result.code, markdown: result.stdout, error: result.stderr, commit, runUrl: i.runUrl, artifact });
    try {
      const done = await upsertComment(gh, { repo, issue: pr.number, mark: marker(PLAN_MARKER, config), body });
      log(`plan comment ${done.action} (id ${done.id}) on pull request #${pr.number}`);
      output(env, 'comment-id', done.id);
    } catch (e) {
      // A fork's GITHUB_TOKEN is read-only: the plan still stands in the log.
      if (e.status !== 403 && e.status !== 404) throw e;
      log(workflowCommand('warning', `could not post the plan comment (${e.message}); a pull request from a fork gets a read-only token`));
    }
  }
  // Exit 2 (changes) is what a pull request is for: the comment shows them.
  return result.code === 2 ? 0 : result.code;
}

export async function findPlanStep(i, log = console.log) {
  const { env, gh, repo } = i;
  if (env.GITHUB_EVENT_NAME === 'workflow_dispatch') {
    log('started by hand: planning and applying the checked-out commit as it is');
    output(env, 'mode', 'current');
    return 0;
  }
  const commit = git(['rev-parse', 'HEAD'], i.cwd);
  const found = await findReviewedPlan(gh, { repo, commit, planWorkflow: env.INPUT_PLAN_WORKFLOW || DEFAULT_PLAN_WORKFLOW });
  if (found.problem) throw new ActionError(`${found.problem}. ${NEXT_STEP}`);
  log(`applying the reviewed plan of pull request #${found.pr} (artifact ${found.artifact} of run ${found.runId})`);
  output(env, 'mode', 'reviewed');
  output(env, 'run-id', found.runId);
  output(env, 'artifact-name', found.artifact);
  output(env, 'pr', found.pr);
  output(env, 'pr-head-sha', found.prHeadSha);
  return 0;
}

export async function applyStep(i, log = console.log) {
  const { env, config, dir, bin, cwd } = i;
  if (env.INPUT_MODE === 'current') {
    const r = await runDocplane(bin, ['apply', '-c', config, '--auto-approve', '--format', 'text'], docplaneEnv(env));
    writeSummary(env, `### docplane apply of \`${config}\` (started by hand): exit ${r.code}\n\n${fenced(`${r.stdout}${r.stderr}`.trim() || '(no output)')}`);
    return r.code;
  }
  const metaFile = join(dir, 'meta.json');
  if (!existsSync(metaFile) || !existsSync(join(dir, 'plan.json'))) throw new ActionError(`no reviewed plan in ${dir} (meta.json and plan.json): the plan artifact was not downloaded. ${NEXT_STEP}`);
  const meta = parseMeta(readFileSync(metaFile, 'utf8'));
  const verdict = checkReviewedPlan(meta, {
    commit: git(['rev-parse', 'HEAD'], cwd),
    tree: git(['rev-parse', 'HEAD^{tree}'], cwd),
    version: await installedVersion(bin, docplaneEnv(env)),
    prHeadSha: env.INPUT_PR_HEAD_SHA || undefined,
  });
  const commit = git(['rev-parse', 'HEAD'], cwd);
  // The reviewed plan, as the pull request showed it (no request: `show` reads the file).
  const shown = await runDocplane(bin, ['show', join(dir, 'plan.json'), '--format', 'markdown'], docplaneEnv(env));
  if (shown.code === 0) writeSummary(env, shown.stdout);
  if (!verdict.ok) {
    writeSummary(env, applyResultMarkdown({ commit, error: verdict.message, runUrl: i.runUrl }));
    await reportApplyOnPullRequest(i, meta, applyResultMarkdown({ commit, error: verdict.message, runUrl: i.runUrl }), log);
    throw new ActionError(verdict.message);
  }
  const pin = pinnedBase(join(dir, 'plan.json'), i.event, cwd, log);
  if (pin.problem) {
    const message = `the reviewed plan of pull request #${meta.pr} is not applied: ${pin.problem}. ${NEXT_STEP}`;
    writeSummary(env, applyResultMarkdown({ commit, error: message, runUrl: i.runUrl }));
    await reportApplyOnPullRequest(i, meta, applyResultMarkdown({ commit, error: message, runUrl: i.runUrl }), log);
    throw new ActionError(message);
  }
  log(`the plan of pull request #${meta.pr} was made on ${meta.commit.slice(0, 12)}: applying it${pin.args.length > 0 ? ` against the base ${pin.args[1].slice(0, 12)} (main before this push)` : ''}`);
  const r = await runDocplane(bin, ['apply', join(dir, 'plan.json'), '-c', config, ...pin.args, '--format', 'text'], docplaneEnv(env));
  const result = applyResultMarkdown({ commit, outcome: applyOutcome(r.stdout, r.code), error: r.stderr, runUrl: i.runUrl });
  writeSummary(env, result);
  await reportApplyOnPullRequest(i, meta, result, log);
  return r.code;
}

/** The apply's result on the pull request the plan came from; a failure to post it is a warning, not a failed apply. */
async function reportApplyOnPullRequest(i, meta, result, log) {
  if (!meta.pr || i.env.INPUT_COMMENT === 'false') return;
  try {
    const done = await reportApply(i.gh, { repo: i.repo, pr: meta.pr, config: i.config, result });
    log(`apply result ${done.action === 'updated' ? 'added to the plan comment' : 'posted as a reply'} (id ${done.id}) on pull request #${meta.pr}`);
  } catch (e) {
    if (!(e instanceof ActionError)) throw e;
    log(workflowCommand('warning', `could not put the apply result on pull request #${meta.pr} (${e.message})`));
  }
}

/** The overlap of a `--since` check with the last one: an event recorded late is still seen. */
export const DRIFT_OVERLAP_MS = 15 * 60_000;
const EVERY = /^(\d+)([hdw])$/;
const UNIT_MS = { h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** The `full-check` input: `always`, or how often the drift job reads everything (`7d`, `24h`, `2w`); 0 for always. */
export function fullCheckEvery(text) {
  const t = (text || '7d').trim();
  if (t === 'always') return 0;
  const m = EVERY.exec(t);
  if (!m || Number(m[1]) < 1) throw new ActionError(`full-check "${text}" is not "always" nor a period such as 7d, 24h or 2w`);
  return Number(m[1]) * UNIT_MS[m[2]];
}

/** A digest of the config's files (a file, or every file under a folder): a config changed since the last check needs a full one. */
export function configDigest(cwd, config) {
  const root = resolve(cwd, config);
  const hash = createHash('sha256');
  const walk = (path) => {
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      for (const name of readdirSync(path).sort()) if (!name.startsWith('.')) walk(join(path, name));
    } else {
      hash.update(`${relative(root, path)}\0`).update(readFileSync(path)).update('\0');
    }
  };
  walk(root);
  return hash.digest('hex');
}

/**
 * What this drift check reads: everything (with why) when there is no last complete check, when the
 * full check's period has passed since the last full one, or when the config changed since; else
 * `--since` the last complete check's start, less the overlap.
 */
export function driftMode(state, { now, every, digest }) {
  if (every === 0) return { mode: 'full', why: 'full-check: always' };
  if (!state || typeof state.at !== 'string' || typeof state.fullAt !== 'string') return { mode: 'full', why: 'no earlier complete check is recorded' };
  if (now.getTime() - Date.parse(state.fullAt) >= every) return { mode: 'full', why: `the last full check was at ${state.fullAt}` };
  if (state.digest !== digest) return { mode: 'full', why: 'the config changed since the last check' };
  return { mode: 'since', since: new Date(Date.parse(state.at) - DRIFT_OVERLAP_MS).toISOString() };
}

/** Where the drift job keeps the time of its last complete check (the action caches the folder between runs). */
export function driftStatePath(i) {
  const dir = i.env.INPUT_DRIFT_STATE_DIR || (i.env.RUNNER_TEMP ? join(i.env.RUNNER_TEMP, 'docplane-drift') : join(i.cwd, '.docplane-drift'));
  return join(dir, `${createHash('sha256').update(i.config).digest('hex').slice(0, 16)}.json`);
}

function readDriftState(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

const SOURCE_WORDS = { ui: 'in the app', api: 'through the API', integration: 'by an integration', webhook: 'by a webhook', workflow: 'by a workflow', script: 'by a script', support: 'by support' };

/** `2026-11-27 10:32 UTC`. */
function utc(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`;
}

/** Backticks in remote text cannot end the code span they are shown in. */
function code(text) {
  return `\`${String(text).replace(/`/g, "'")}\``;
}

/**
 * The drift issue's "who changed what": the plan file's steps grouped by who changed each last
 * (`changedBy`, from the audit log), people first, then integrations and tools, then docplane's own
 * applies, then the entries the log did not name. Empty when no step names anyone.
 */
export function whoChangedWhat(steps) {
  const groups = new Map();
  let unknown = 0;
  for (const s of steps) {
    const c = s.changedBy;
    if (!c) {
      unknown++;
      continue;
    }
    const name = c.by === 'docplane' ? `docplane's own applies (as ${c.actor.label ?? c.actor.id})` : (c.actor.label ?? c.actor.id);
    const key = `${c.by === 'person' ? 0 : c.by === 'integration' ? 1 : 2}\0${name}`;
    if (!groups.has(key)) groups.set(key, { name, by: c.by, lines: [] });
    groups.get(key).lines.push(`- ${code(s.address)} (${s.action}), ${c.by === 'docplane' ? 'applied' : `changed ${SOURCE_WORDS[c.source] ?? `from ${c.source}`}`}, ${utc(c.at)}`);
  }
  if (groups.size === 0) return '';
  const out = ['### Who changed what', ''];
  for (const key of [...groups.keys()].sort()) {
    const g = groups.get(key);
    out.push(`**${g.name.replace(/[*_`<>[\]]/g, '')}**${g.by === 'integration' ? ' (an integration or tool)' : ''}`, '', ...g.lines, '');
  }
  if (unknown > 0) out.push(`${unknown} ${unknown === 1 ? 'entry' : 'entries'} not named by the audit log's window.`, '');
  return out.join('\n');
}

/** One run of docplane plan for the drift job, with the plan file it saves (for who changed what). */
async function driftPlan(i, extra) {
  const { env, config, bin } = i;
  const issueMode = env.INPUT_ON_DRIFT === 'issue';
  const format = issueMode || env.GITHUB_STEP_SUMMARY ? 'markdown' : 'text';
  mkdirSync(i.dir, { recursive: true });
  const planFile = join(i.dir, 'drift-plan.json');
  const args = ['plan', '-c', config, '--format', format, '--detailed-exitcode', '--out', planFile, ...extra, ...(env.INPUT_UNMANAGED_IS_DRIFT === 'true' ? ['--unmanaged-is-drift'] : [])];
  const result = await runDocplane(bin, args, docplaneEnv(env));
  let steps = [];
  if (result.code === 0 || result.code === 2) {
    try {
      steps = JSON.parse(readFileSync(planFile, 'utf8')).steps ?? [];
    } catch {
      steps = [];
    }
  }
  return { ...result, steps };
}

export async function driftStep(i, log = console.log) {
  const { env, config, gh, repo } = i;
  const issueMode = env.INPUT_ON_DRIFT === 'issue';
  const startedAt = new Date();
  const every = fullCheckEvery(env.INPUT_FULL_CHECK);
  const statePath = driftStatePath(i);
  const state = readDriftState(statePath);
  const digest = configDigest(i.cwd, config);
  const chosen = driftMode(state, { now: startedAt, every, digest });
  // A full check names who changed what from the log over the period since the last full one.
  const attribute = ['--attribute', state?.fullAt ?? new Date(startedAt.getTime() - (every || UNIT_MS.w)).toISOString()];
  let full = chosen.mode === 'full';
  log(full ? `drift: reading everything (${chosen.why})` : `drift: checking what changed since ${chosen.since} (the last complete check, less ${DRIFT_OVERLAP_MS / 60_000} minutes)`);
  let result = await driftPlan(i, full ? attribute : ['--since', chosen.since]);
  if (!full && result.code === 2 && issueMode) {
    // The issue says the whole drift, not only this window's: a change found is confirmed by a full read.
    log('drift: changes found since the last check; reading everything for the drift issue');
    result = await driftPlan(i, attribute);
    full = true;
  }
  if (result.code === 0 || result.code === 2) {
    mkdirSync(join(statePath, '..'), { recursive: true });
    writeFileSync(statePath, `${JSON.stringify({ at: startedAt.toISOString(), fullAt: full ? startedAt.toISOString() : state?.fullAt, digest }, null, 2)}\n`);
  }
  const who = whoChangedWhat(result.steps);
  const report = who === '' ? result.stdout : `${result.stdout.trimEnd()}\n\n${who}`;
  output(env, 'exit-code', result.code);
  writeSummary(env, result.code === 0 || result.code === 2 ? report : `### docplane drift check failed (exit ${result.code})\n\n${fenced(result.stderr.trim() || '(no output)')}`);
  if (result.code === 0 && issueMode && !full) {
    log(`no change since ${chosen.since}: the drift issue, if any, stays as the last full check left it`);
    return 0;
  }
  if (result.code === 0 && issueMode) {
    const done = await closeDriftIssue(gh, { repo, config, runUrl: i.runUrl, commit: git(['rev-parse', 'HEAD'], i.cwd) });
    if (done.action === 'closed') log(`no drift: issue #${done.number} closed`);
    return 0;
  }
  if (result.code === 2 && issueMode) {
    const done = await upsertDriftIssue(gh, { repo, config, markdown: report, runUrl: i.runUrl });
    log(`drift: issue #${done.number} ${done.action}`);
    return 0;
  }
  if (result.code === 2) log(workflowCommand('error', `the organization drifted from ${config} (docplane plan exit 2); the plan is above`));
  return result.code;
}

export async function main(argv = process.argv.slice(2), env = process.env) {
  const step = argv[0];
  const i = inputsFrom(env);
  try {
    switch (step) {
      case 'check-inputs':
        checkInputs(env);
        return 0;
      case 'install-spec': {
        const source = installSource(env, registryHas);
        output(env, 'spec', source.spec);
        output(env, 'pack', String(source.pack));
        return 0;
      }
      case 'plan':
        return await planStep(i);
      case 'wait-turn':
        await waitForTurn(i.gh, { repo: i.repo, runId: env.GITHUB_RUN_ID, pollMs: Number(env.INPUT_POLL_MS || 15_000) });
        return 0;
      case 'find-plan':
        return await findPlanStep(i);
      case 'apply':
        return await applyStep(i);
      case 'drift':
        return await driftStep(i);
      default:
        throw new ActionError(`unknown step "${step ?? ''}" (check-inputs, install-spec, plan, wait-turn, find-plan, apply, drift)`);
    }
  } catch (e) {
    if (!(e instanceof ActionError)) throw e;
    console.log(workflowCommand('error', `docplane action: ${e.message}`));
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
