/**
 * The pull-request comment as the action posts it (action/docplane-action.mjs): the largest plan cut
 * between blocks (every fence and `<details>` closed, the "N more steps not shown" line kept, under
 * GitHub's limit with the action's header and footer), a plan with deletes and revocations named at
 * the top, and a failed plan posting every problem on a line of its own. Golden files: rewrite with
 * `UPDATE_GOLDEN=1 npx vitest run test/render/comment.test.ts` and review the diff.
 */
import { markdownText } from '../../src/render/escape.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Action, JsonObject, Kind, Plan, Step } from '../../src/plan/types.js';
import { renderPlan } from '../../src/render/index.js';
import { emptyPlan, manyStepsPlan } from './fixtures/big-plan.js';

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const ACTION = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'action', 'docplane-action.mjs');

interface ActionLib {
  planComment(input: { config: string; exitCode: number; markdown: string; error: string; commit: string; artifact: string; runUrl?: string }): string;
  markdownBlocks(text: string): string[];
  GITHUB_BODY_LIMIT: number;
}
const lib = (await import(ACTION)) as ActionLib;

function golden(file: string, actual: string): void {
  const path = join(GOLDEN, file);
  if (UPDATE) writeFileSync(path, actual);
  expect(existsSync(path), `${file} is missing: run with UPDATE_GOLDEN=1 to write it`).toBe(true);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

function step(address: string, kind: Kind, action: Action, before: JsonObject | null, after: JsonObject | null, org = 'org_acme'): Step {
  return { id: `${org}/${address}:${action}`, org, address, kind, action, before, after, changes: [], requests: [], dependsOn: [] };
}

const markdown = (plan: Plan) => renderPlan(plan, { format: 'markdown', color: false, secrets: [] });

/** Every fence and `<details>` of a markdown text closed: the open ones left at its end. */
function unclosed(text: string): { fence: boolean; details: number } {
  let fence: string | undefined;
  let details = 0;
  for (const line of text.split('\n')) {
    if (fence !== undefined) {
      if (new RegExp(`^\`{${fence.length},}\\s*$`).test(line)) fence = undefined;
      continue;
    }
    const open = /^(`{3,})/.exec(line);
    if (open) fence = open[1];
    else details += (line.match(/<details[\s>]/g) ?? []).length - (line.match(/<\/details>/g) ?? []).length;
  }
  return { fence: fence !== undefined, details };
}

const COMMIT = 'a'.repeat(40);

describe('the pull-request comment', () => {
  it('the largest plan: cut between blocks, every fence and <details> closed, the steps-not-shown line kept, under 65,536 characters', () => {
    const big = manyStepsPlan(6000);
    const md = markdown(big);
    // The renderer fills its own limit; the action's header and footer push it over.
    expect(md.length).toBeGreaterThan(lib.GITHUB_BODY_LIMIT - 300);
    const body = lib.planComment({ config: 'docplane/', exitCode: 2, markdown: md, error: '', commit: COMMIT, artifact: 'docplane-plan-pr-7', runUrl: 'https://github.example/run/1' });
    expect(body.length).toBeLessThan(lib.GITHUB_BODY_LIMIT);
    expect(unclosed(body)).toEqual({ fence: false, details: 0 });
    expect(body).toMatch(/^> … \d+ more steps not shown/m);
    expect(body).toContain("cut to fit GitHub's comment limit");
    expect(body.trimEnd().endsWith('</sub>')).toBe(true);
  });

  it('three new large sites (site-new-three.md) as a comment: well-formed and under the limit', () => {
    const md = readFileSync(join(GOLDEN, 'site-new-three.md'), 'utf8');
    const body = lib.planComment({ config: 'docplane/', exitCode: 2, markdown: md, error: '', commit: COMMIT, artifact: 'docplane-plan-pr-8' });
    expect(body.length).toBeLessThan(lib.GITHUB_BODY_LIMIT);
    expect(unclosed(body)).toEqual({ fence: false, details: 0 });
    expect(body.match(/```mermaid/g)).toHaveLength(3);
    expect(body).toMatch(/^> … \d+ more steps not shown/m);
  });

  it('a plan with deletes and revocations names each at the top (plan-deletes-revocations.md)', () => {
    const plan = emptyPlan({
      steps: [
        step('teams["Legacy"]', 'teams', 'delete', { title: 'Legacy' }, null),
        step('members["carol@acme.com"]', 'members', 'update', { role: 'admin' }, { role: 'read' }),
        step('members["dave@acme.com"]', 'members', 'delete', { role: 'edit' }, null),
        step('collections["Product"].access.teams["Support"]', 'collectionAccess', 'delete', { role: 'edit' }, null),
        step('spaces["space_api"].access.users["erin@acme.com"]', 'spaceAccess', 'update', { role: 'admin' }, { role: 'comment' }),
        step('spaces["space_api"].access.users["frank@acme.com"]', 'spaceAccess', 'update', { role: 'read' }, { role: 'edit' }),
        step('sites["site_docs"].shareLinks["partner-acme"]', 'shareLinks', 'delete', { name: 'partner-acme', active: true }, null),
      ],
      violations: [{ rule: 'maxDeletes', message: '4 deletions in org_acme, more than safety.maxDeletes (3)', steps: [] }],
      notes: ['org_acme: warning: teams["Legacy"] (delete): teams are archived, not deleted (policy no-team-deletes)'],
      duplicates: ['org_acme/teams["Writers"]#team_2'],
      unmanaged: { org_acme: { spaces: ['spaces["space_old"]'] } },
      access: [
        {
          org: 'org_acme',
          address: 'collections["Product"]',
          title: 'Product',
          rows: [
            { who: 'team', name: 'Engineering', before: 'admin', after: 'admin', members: ['alice@acme.com', 'erin@acme.com'] },
            { who: 'team', name: 'Support', before: 'edit', after: null },
          ],
        },
        {
          org: 'org_acme',
          address: 'spaces["space_api"]',
          title: 'API reference',
          rows: [
            { who: 'team', name: 'Writers', before: 'read', after: 'read', memberCount: 3 },
            { who: 'user', name: 'erin@acme.com', before: 'admin', after: 'comment' },
            { who: 'user', name: 'frank@acme.com', before: 'read', after: 'edit' },
          ],
        },
      ],
    });
    const md = `${markdown(plan)}\n`;
    golden('plan-deletes-revocations.md', md);
    // Access as it will be: every grant, the changed ones marked, members through a team as such.
    expect(md).toContain('| team Support | **—** |  | **revoked** (was edit) |');
    expect(md).toContain('| ↳ erin@\u200bacme.com | admin | through team Engineering |  |');
    expect(md).toContain('| ↳ its 3 members (the config does not list them) | read | through team Writers |  |');
    expect(md).toContain('| user erin@\u200bacme.com | **comment** | direct | **lowered** from admin |');
    expect(md).toContain('| user frank@\u200bacme.com | **edit** | direct | **raised** from read |');
    const attention = md.slice(md.indexOf('**Needs attention**'), md.indexOf('| Kind |'));
    for (const wanted of ['delete **Legacy**', 'lower **carol@\u200bacme.com** (admin → read)', 'remove **dave@\u200bacme.com** (edit → none)', 'revoke **Support** (edit → none)', 'lower **erin@\u200bacme.com** (admin → comment)', 'delete **partner-acme**', '**safety rule maxDeletes**', '**policy warning**', '**twin**']) {
      expect(attention).toContain(wanted);
    }
    expect(attention).not.toContain('frank');
    // The counts table leaves out the row of unmanaged spaces alone.
    expect(md).not.toMatch(/^\| spaces \|/m);
  });

  it('a failed plan posts every problem on a line of its own (plan-failed-three-problems.md)', () => {
    const plan = emptyPlan({
      problems: [
        { org: 'org_acme', address: 'members["zoe@acme.com"]', message: 'zoe@acme.com is not a member of the organization and the API cannot invite; invite them first, then plan again', location: { file: 'docplane/org.yaml', line: 12, column: 5 } },
        { org: 'org_acme', address: 'sites["site_docs"].sections["api"]', field: 'space', message: 'no space space_gone in the organization' },
        { org: 'org_acme', address: 'teams["Writers"]', message: 'two remote teams are titled Writers: give the config an id' },
      ],
    });
    const md = markdown(plan);
    const error = 'Error: the plan has 3 problems; first: docplane/org.yaml:12:5: members["zoe@acme.com"]: zoe@acme.com is not a member\nFix the config (or the organization) and plan again; no plan file was written.\n';
    const body = `${lib.planComment({ config: 'docplane/', exitCode: 1, markdown: md, error, commit: COMMIT, artifact: 'x' })}\n`;
    golden('plan-failed-three-problems.md', body);
    for (const p of plan.problems) expect(body.split('\n').filter((l) => l.startsWith('- **problem**') && l.includes(markdownText(p.message).slice(0, 30)))).toHaveLength(1);
    expect(body).not.toContain('```\nError');
    expect(unclosed(body)).toEqual({ fence: false, details: 0 });
  });
});
