/**
 * runApply (the function behind `docplane apply`) in-process against the emulator: the parts that
 * need a terminal (the confirmation) or are quicker to show without spawning the CLI.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { outcomeError, runApply, type ApplyNotice, type RunApplyOptions } from '../../src/apply/run.js';
import { DocplaneError } from '../../src/core/errors.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { demoState } from './cli-helpers.js';

let emulator: RunningEmulator | undefined;
let dir: string | undefined;
afterEach(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  emulator = undefined;
  dir = undefined;
});

async function setup(config: string) {
  emulator = await startEmulator({ port: 0, state: demoState(), seed: 5 });
  dir = mkdtempSync(join(tmpdir(), 'docplane-run-'));
  const path = join(dir, 'docplane.yaml');
  writeFileSync(path, config);
  const notices: ApplyNotice[] = [];
  const url = emulator.url;
  const options = (extra: Partial<RunApplyOptions> = {}): RunApplyOptions => ({
    configPath: path,
    autoApprove: false,
    force: false,
    targets: [],
    toolVersion: '0.1.0',
    concurrency: 4,
    notify: (n) => void notices.push(n),
    progress: { stream: new PassThrough(), interactive: false, color: false },
    interactive: true,
    confirm: async () => true,
    connect: async () => createClient({ baseUrl: url, token: 'dev-token', backoffBaseMs: 2 }),
    ...extra,
  });
  return { options, notices, teams: () => [...emulator!.world.orgs.get('org_acme')!.teams.values()].map((t) => t.title).sort() };
}

const MINIMAL = `version: 1
organization: { id: org_acme, title: Acme }
teams:
  - title: Engineering
    members: [alice@acme.com, bob@acme.com]
  - title: Support
`;

describe('runApply', () => {
  it('on a terminal, asks before applying: "yes" applies, anything else cancels', async () => {
    const s = await setup(MINIMAL);
    const questions: number[] = [];
    await expect(runApply(s.options({ confirm: async (n) => (questions.push(n), false) }))).rejects.toThrow('apply cancelled: nothing was changed');
    expect(questions).toEqual([2]);
    expect(s.notices.map((n) => n.type)).toEqual(['plan']);
    expect(s.teams()).toEqual(['Legacy']);

    const report = await runApply(s.options({ confirm: async () => true }));
    expect(report.result?.applied.map((o) => o.address)).toEqual(['teams["Engineering"]', 'teams["Support"]']);
    expect(report.convergence).toEqual({ converged: true, remaining: 0, addresses: [] });
    expect(outcomeError(report)).toBeUndefined();
    expect(s.teams()).toEqual(['Engineering', 'Legacy', 'Support']);
  });

  it('--auto-approve does not ask; --target limits what is applied', async () => {
    const s = await setup(MINIMAL);
    const report = await runApply(s.options({ autoApprove: true, targets: ['teams["Support"]'], confirm: async () => { throw new Error('asked'); } }));
    expect(report.result?.applied.map((o) => o.address)).toEqual(['teams["Support"]']);
    expect(s.teams()).toEqual(['Legacy', 'Support']);
  });

  it('--no-verify applies without the convergence check, which reads nothing then', async () => {
    const s = await setup(MINIMAL);
    const checked = await runApply(s.options({ autoApprove: true, targets: ['teams["Support"]'] }));
    expect(checked.convergence?.converged).toBe(true);
    const before = emulator!.requestCount();
    const report = await runApply(s.options({ autoApprove: true, verify: false }));
    expect(report.result?.applied.map((o) => o.address)).toEqual(['teams["Engineering"]']);
    expect(report.convergence).toBeUndefined();
    // The plan's reads and the one write, no read after it: as many requests as a plan afterwards
    // sends (the same lists, and the new team's membership).
    const sent = emulator!.requestCount() - before;
    const again = await runApply(s.options({ autoApprove: true }));
    expect(again.result).toBeUndefined();
    expect(sent).toBe(emulator!.requestCount() - before - sent);
  });

  it('a plan with problems is refused before anything is sent', async () => {
    const s = await setup(`version: 1
organization: { id: org_acme, title: Acme }
members:
  - { user: u_nobody, role: admin }      # a user id names no member (an email would be invited)
teams:
  - title: Engineering
`);
    const err = await runApply(s.options({ autoApprove: true })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocplaneError);
    expect((err as DocplaneError).code).toBe('PLAN_PROBLEMS');
    expect((err as DocplaneError).message).toMatch(/^the plan has 1 problem; nothing was applied \(first: \S+docplane\.yaml:\d+:\d+: members\["u_nobody"\]: /);
    expect(s.teams()).toEqual(['Legacy']);
  });

  it('no changes: says so and applies nothing', async () => {
    const s = await setup(`version: 1
organization: { id: org_acme, title: Acme }
`);
    const report = await runApply(s.options({ interactive: false }));
    expect(report.result).toBeUndefined();
    expect(s.notices.map((n) => n.type)).toEqual(['plan', 'nothing']);
    expect(outcomeError(report)).toBeUndefined();
  });

  it('reports a failed step as exit-1 failure with the API message, and the rest applied', async () => {
    const s = await setup(`version: 1
organization: { id: org_acme, title: Acme }
teams:
  - title: Engineering
  - title: Support
`);
    // The API refuses the Support create (its body is emptied on the way), the Engineering one goes through.
    const report = await runApply(
      s.options({
        autoApprove: true,
        connect: async () => {
          const client = createClient({ baseUrl: emulator!.url, token: 'dev-token', backoffBaseMs: 2 });
          return {
            ...client,
            request: (method, path, opts) =>
              // A bad request on purpose, marked so that the conformance check leaves it out (docs/conformance.md).
              client.request(
                method,
                path,
                method === 'PUT' && (opts?.body as { title?: string })?.title === 'Support'
                  ? { ...opts, body: { title: '' }, headers: { ...opts?.headers, 'x-conformance': 'skip' } }
                  : opts,
              ),
            paginate: client.paginate.bind(client),
            listAll: client.listAll.bind(client),
            stats: client.stats.bind(client),
            close: client.close.bind(client),
          };
        },
      }),
    );
    expect(report.result?.applied.map((o) => o.address)).toEqual(['teams["Engineering"]']);
    expect(report.result?.failed).toEqual([expect.objectContaining({ address: 'teams["Support"]', message: expect.stringMatching(/^PUT \/v1\/orgs\/org_acme\/teams → 400: title/) })]);
    const err = outcomeError(report)!;
    expect(err.message).toBe('1 step failed and 0 steps skipped; the rest was applied');
    expect(err.exitCode).toBe(1);
  });
});
