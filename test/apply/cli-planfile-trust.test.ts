/**
 * A saved plan is not trusted: `apply PLANFILE` plans again from the config and the remote objects
 * the plan touches and refuses a file that shows anything else, sending nothing. One test per way of
 * editing a plan file that used to be executed as written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorLines, sandbox, type Sandbox } from './cli-helpers.js';

let box: Sandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

type PlanJson = { steps: Array<{ id: string; requests: Array<Record<string, unknown>>; after: Record<string, unknown> | null }>; violations: unknown[] };

async function savePlan(b: Sandbox): Promise<{ file: string; plan: PlanJson }> {
  const file = join(b.dir, 'plan.json');
  const res = await b.cli(['plan', '-c', b.config, '--out', file]);
  expect(res.code, res.stderr).toBe(0);
  return { file, plan: JSON.parse(readFileSync(file, 'utf8')) as PlanJson };
}

const stepOf = (plan: PlanJson, id: string) => {
  const step = plan.steps.find((s) => s.id === id);
  if (!step) throw new Error(`no step ${id}`);
  return step;
};

const ENGINEERING = 'org_acme/teams["Engineering"]:create';

/** Each edit of the saved plan, and the step and field the refusal names. */
const TAMPERED: Array<[string, (p: PlanJson) => void, RegExp]> = [
  [
    'a request added to a step that shows something else',
    (p) => stepOf(p, ENGINEERING).requests.push({ method: 'PATCH', path: '/v1/orgs/org_acme', body: { title: 'pwned' } }),
    /teams\["Engineering"\]:create: requests\.length differs/,
  ],
  [
    'a body changed under an unchanged after',
    (p) => ((stepOf(p, ENGINEERING).requests[0].body as Record<string, unknown>).title = 'pwned'),
    /teams\["Engineering"\]:create: requests\[0\]\.body\.title differs/,
  ],
  [
    "a create's request replaced by a DELETE of a site",
    (p) => (stepOf(p, ENGINEERING).requests = [{ method: 'DELETE', path: '/v1/orgs/org_acme/sites/site_docs' }]),
    /teams\["Engineering"\]:create: requests\[0\]\.\w+ differs/,
  ],
  [
    'a secret placeholder put into another field',
    (p) => ((stepOf(p, ENGINEERING).requests[0].body as Record<string, unknown>).title = '{{secret:env:ANALYTICS_KEY}}'),
    /teams\["Engineering"\]:create: requests\[0\]\.body\.title differs/,
  ],
  [
    'a path changed to another resource',
    (p) => (stepOf(p, 'org_acme/members["frank@acme.com"]:update').requests[0].path = '/v1/orgs/org_acme/members/u_alice'),
    /members\["frank@acme\.com"\]:update: requests\[0\]\.path differs/,
  ],
];

describe('apply PLANFILE refuses an edited plan file and sends nothing', () => {
  it.each(TAMPERED)('%s', async (_what, edit, field) => {
    box = await sandbox();
    const { file, plan } = await savePlan(box);
    edit(plan);
    writeFileSync(file, JSON.stringify(plan));
    const before = box.exchanges.length;
    const apply = await box.cli(['apply', file, '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(1);
    const [line] = errorLines(apply.stderr);
    expect(line).toMatch(/^error: the plan \S+ does not match what the config and the organization give now \(.*\); nothing was sent$/);
    expect(line).toMatch(field);
    expect(box.writes(before)).toEqual([]);
    // The secret's value is never printed.
    expect(apply.stdout + apply.stderr).not.toContain('demo-analytics-key');
  });

  it('a safety violation removed from the file: refused (exit 1, not 3), nothing sent; the reviewed file applies with --force', async () => {
    box = await sandbox();
    writeFileSync(box.config, readFileSync(box.config, 'utf8').replace(/safety:.*\n/, '') + '\nsafety: { maxDeletes: 0 }\n');
    const { file, plan } = await savePlan(box);
    expect(plan.violations.length).toBeGreaterThan(0);
    writeFileSync(file, JSON.stringify({ ...plan, violations: [] }));
    const before = box.exchanges.length;
    const apply = await box.cli(['apply', file, '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(1);
    expect(errorLines(apply.stderr)[0]).toMatch(/does not match what the config and the organization give now \(\(the plan\): violations: maxDeletes differs\)/);
    expect(box.writes(before)).toEqual([]);
    // --force does not make an edited file acceptable either.
    const forced = await box.cli(['apply', file, '--force']);
    expect(forced.code, forced.stderr).toBe(1);
    expect(box.writes(before)).toEqual([]);
  });

  it('--replace is kept in the saved plan and honoured by its apply', async () => {
    box = await sandbox();
    const first = await box.cli(['apply', '-c', box.config, '--auto-approve']);
    expect(first.code, first.stderr).toBe(0);
    const file = join(box.dir, 'replace.json');
    const planned = await box.cli(['plan', '-c', box.config, '--replace', 'integrations["acme-analytics"]', '--out', file]);
    expect(planned.code, planned.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as PlanJson & { replace?: string[] };
    expect(saved.replace).toEqual(['integrations["acme-analytics"]']);
    expect(saved.steps.map((s) => s.id)).toEqual(['org_acme/integrations["acme-analytics"]:publish']);
    // A forced resend is applied only when apply's own command line asks for it too.
    const before = box.exchanges.length;
    const unconfirmed = await box.cli(['apply', file]);
    expect(unconfirmed.code, unconfirmed.stderr).toBe(1);
    expect(errorLines(unconfirmed.stderr)).toEqual([
      `error: the plan ${file} is not applied: it was made with --replace integrations["acme-analytics"], which apply's own command line does not confirm; nothing was sent`,
    ]);
    expect(box.writes(before)).toEqual([]);
    const apply = await box.cli(['apply', file, '--replace', 'integrations["acme-analytics"]']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(box.writes(before).map((e) => `${e.method} ${e.path}`)).toEqual(['POST /v1/integrations/acme-analytics']);
    // Its secrets are the config's, where the config places them.
    const sent = box.writes(before)[0].requestBody as { secrets?: Record<string, string>; title?: string };
    expect(sent.title).toBe('Acme Analytics');
    expect(JSON.stringify(sent)).not.toContain('{{secret:');
  });
});
