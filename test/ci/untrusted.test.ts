/**
 * What the action takes from a pull request's run is data, not instructions: the plan artifact only
 * from the named plan workflow's run for the pull request's last commit, meta.json checked by a
 * schema, no workflow command written from data, remote text escaped in the comment.
 */
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
/** What the tests read of markdown-it's tokens. */
interface Token {
  type: string;
  content: string;
  children: Token[] | null;
}
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '..', '..', 'action', 'docplane-action.mjs');

interface Lib {
  findReviewedPlan(gh: unknown, o: { repo: string; commit: string; planWorkflow?: string }): Promise<{ problem?: string; runId?: number }>;
  parseMeta(text: string): Record<string, unknown>;
  workflowCommand(kind: string, message: string): string;
  runDocplane(bin: string, args: string[], env: NodeJS.ProcessEnv, write: { out(d: string): void; err(d: string): void }): Promise<{ code: number; stdout: string }>;
  applyResultMarkdown(o: { commit: string; outcome?: unknown; error?: string }): string;
  applyOutcome(stdout: string, code: number): unknown;
  markdownText(text: string): string;
}
const lib = async () => (await import(SCRIPT)) as Lib;

const REPO = 'acme/config';
const HEAD = 'a'.repeat(40);
const MERGE = 'c'.repeat(40);

/** A fake GitHub for findReviewedPlan: one merged pull request, the given artifacts and runs. */
function fakeGitHub(artifacts: unknown[], runs: Record<number, unknown>) {
  return {
    request: (_method: string, path: string) => {
      if (path.includes('/pulls')) return Promise.resolve([{ number: 7, merged_at: 'x', merge_commit_sha: MERGE, head: { sha: HEAD } }]);
      const m = /\/actions\/runs\/(\d+)$/.exec(path);
      if (m) return Promise.resolve(runs[Number(m[1])]);
      throw new Error(`no route ${path}`);
    },
    paginate: () => Promise.resolve(artifacts),
  };
}

const artifact = (id: number, run: number, at: string) => ({ id, name: 'docplane-plan-pr-7', expired: false, created_at: at, workflow_run: { id: run, head_sha: HEAD } });
const run = (path: string, event = 'pull_request') => ({ path, event, head_sha: HEAD, repository: { full_name: REPO } });

describe('the plan artifact comes only from the plan workflow', () => {
  it('skips a newer artifact of the same name that another workflow uploaded for the same commit', async () => {
    const { findReviewedPlan } = await lib();
    const gh = fakeGitHub([artifact(1, 100, '2026-01-01T10:00:00Z'), artifact(2, 200, '2026-01-01T11:00:00Z')], {
      100: run('.github/workflows/docplane-plan.yml'),
      200: run('.github/workflows/lint.yml'),
    });
    expect(await findReviewedPlan(gh, { repo: REPO, commit: MERGE })).toMatchObject({ runId: 100 });
  });

  it('refuses when only another workflow (or a push run) stored one, naming the plan workflow', async () => {
    const { findReviewedPlan } = await lib();
    const gh = fakeGitHub([artifact(2, 200, '2026-01-01T11:00:00Z'), artifact(3, 300, '2026-01-01T09:00:00Z')], {
      200: run('.github/workflows/lint.yml'),
      300: run('.github/workflows/docplane-plan.yml', 'push'),
    });
    const found = await findReviewedPlan(gh, { repo: REPO, commit: MERGE });
    expect(found.problem).toMatch(/none was stored by a run of the plan workflow docplane-plan\.yml/);
  });
});

describe("meta.json is checked before it is used", () => {
  const good = { version: '0.1.0', commit: 'd'.repeat(40), tree: 'e'.repeat(40), pr: 7, headSha: HEAD, config: 'docplane/', exitCode: 2, createdAt: 'now' };

  it('accepts what the plan step writes', async () => {
    expect((await lib()).parseMeta(JSON.stringify(good))).toMatchObject({ version: '0.1.0', pr: 7 });
  });

  it.each([
    ['a version with a workflow command', { version: '0.1.0\n::warning::pwned' }, /`version` is not a semver/],
    ['a pr that walks to another repository', { pr: '1/../../../other-repo/issues/5' }, /`pr` is not a pull-request number/],
    ['a fractional pr', { pr: 1.5 }, /`pr` is not a pull-request number/],
    ['a commit that is not a sha', { commit: 'HEAD' }, /`commit` is not 40 hex digits/],
  ])('refuses %s', async (_what, change, message) => {
    const parse = lib().then((l) => l.parseMeta(JSON.stringify({ ...good, ...change })));
    await expect(parse).rejects.toThrow(message);
    await expect(parse).rejects.toThrow(/^meta\.json of the plan artifact is refused: /);
  });
});

describe('no workflow command from data', () => {
  it('a message with line breaks stays one command', async () => {
    const line = (await lib()).workflowCommand('warning', 'could not post (x\r\n::error::pwned %0A)');
    expect(line).toBe('::warning::could not post (x%0D%0A::error::pwned %250A)');
    expect(line.split(/\r|\n/)).toHaveLength(1);
  });

  it("docplane's output is echoed between ::stop-commands:: and its end token", async () => {
    const { runDocplane } = await lib();
    let log = '';
    const r = await runDocplane(process.execPath, ['-e', 'console.log("::warning::from a title")'], process.env, { out: (d) => (log += String(d)), err: () => {} });
    expect(r.code).toBe(0);
    const m = /^::stop-commands::([0-9a-f]{32})\n::warning::from a title\n\n::\1::\n$/.exec(log);
    expect(m, log).not.toBeNull();
  });
});

// GitHub's autolinks (GFM): `www.` and `http(s)://` links, as markdown-it's linkify finds them without
// bare domains; e-mail addresses in ASCII, checked on the text below (linkify would also take
// Unicode domains, which GFM does not).
const md = new MarkdownIt({ html: true, linkify: true });
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
const GFM_EMAIL = /[A-Za-z0-9._+-]+@[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+/;
const flat = (tokens: Token[]): Token[] => tokens.flatMap((t) => [t, ...flat(t.children ?? [])]);

function forbidden(markdown: string): string[] {
  const found: string[] = [];
  for (const t of flat(md.parse(markdown, {}) as Token[])) {
    if (t.type === 'link_open' || t.type === 'image' || t.type.startsWith('html') || t.type === 'fence') found.push(t.type);
    if (t.type === 'text' && /(^|[^\w`])@[A-Za-z0-9]/.test(t.content)) found.push(`mention in ${JSON.stringify(t.content)}`);
    if (t.type === 'text' && GFM_EMAIL.test(t.content)) found.push(`e-mail link in ${JSON.stringify(t.content)}`);
  }
  return found;
}

describe("remote text in the apply's comment", () => {
  it("a failed step's line (which quotes a title) makes no heading, link, HTML or mention (fuzzed)", async () => {
    const { applyResultMarkdown, applyOutcome } = await lib();
    const pieces = fc.constantFrom('\r', '```', '## ', '[ok](https://e.x/)', '![i](https://e.x/i)', '@victim', '<img src=x>', 'https://e.x', ' ', 'Ops');
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string({ maxLength: 3 })), { maxLength: 10 }), (parts) => {
        const title = parts.join('').replace(/\n/g, '');
        const stdout = `  ✗ teams[x] ${title}\nApply: 0 applied, 1 failed, 0 skipped.\n`;
        const body = applyResultMarkdown({ commit: MERGE, outcome: applyOutcome(stdout, 1) });
        const headings = flat(md.parse(body, {}) as Token[]).filter((t) => t.type === 'heading_open');
        expect(headings).toHaveLength(1);
        expect(forbidden(body)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe("a pull request's plan is applied against the base the push event gives, not the one the artifact names", () => {
  const pin = async (plan: unknown, event: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), 'docplane-pin-'));
    writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
    const { pinnedBase } = (await import(SCRIPT)) as { pinnedBase(file: string, event: unknown, cwd: string, log: (l: string) => void): { args?: string[]; problem?: string } };
    return pinnedBase(join(dir, 'plan.json'), event, dir, () => {});
  };
  const recorded = { base: { from: HEAD, commit: HEAD, configHash: 'x' } };

  it('a whole plan gets no --base (its apply reads the whole organization)', async () => {
    expect(await pin({ steps: [] }, { before: MERGE })).toEqual({ args: [] });
  });

  it.each([
    ['no push event', {}],
    ['a push that created the branch', { before: '0'.repeat(40) }],
    ['a before that is not a commit id', { before: 'HEAD~1' }],
  ])('a --base plan with %s is refused', async (_what, event) => {
    expect((await pin(recorded, event)).problem).toMatch(/no base of its own/);
  });
});
