/**
 * An invite link's id lets anyone who holds it join the organization: the built CLI never prints it,
 * logs it, or writes it into a plan file or an import, through plan (text, --verbose), a saved
 * plan applied with --verbose, a direct apply in JSON, a plan of no changes, show and import. The
 * saved plan carries a placeholder where the id goes, and apply fills it in by reading the list again.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorState } from '../../src/emulator/server.js';
import { INVITE_LINKS_STATE, SEEDED_LINK_IDS } from '../kinds/invite-links-state.js';
import { sandbox, type CliResult, type Sandbox } from './cli-helpers.js';

const STATE = INVITE_LINKS_STATE as unknown as EmulatorState;

const CONFIG = `version: 1
organization: { id: org_acme }
inviteLinks:
  - role: edit
  - { space: space_guides, level: comment }
  - { collection: Archive, level: read }
prune: [inviteLinks]
`;

let box: Sandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

const both = (r: CliResult) => `${r.stdout}\n${r.stderr}`;

describe('invite link ids in the output of plan, apply and import (CLI)', () => {
  it('never shows an id, and a saved plan finds its links again', async () => {
    box = await sandbox({ state: STATE });
    const b = box;
    const config = join(b.dir, 'invites.yaml');
    writeFileSync(config, CONFIG);
    const org = () => b.emulator.world.orgs.get('org_acme')!;
    const seen = new Set<string>(SEEDED_LINK_IDS);
    const outputs: Array<[string, string]> = [];
    const run = async (args: string[], code = 0) => {
      const res = await b.cli(args);
      expect(res.code, res.stderr).toBe(code);
      outputs.push([args.join(' '), both(res)]);
      for (const id of org().linkInvites.keys()) seen.add(id);
      return res;
    };

    const file = join(b.dir, 'plan.json');
    // The JSON and markdown renderings are checked in process (test/kinds/invite-links.test.ts).
    await run(['plan', '-c', config, '--verbose']);
    const planned = await run(['plan', '-c', config, '--out', file]);
    expect(planned.stdout).toContain('~ inviteLinks["organization"]');
    expect(planned.stdout).toContain('- inviteLinks["space:space_old"]');
    const saved = readFileSync(file, 'utf8');
    outputs.push(['the plan file', saved]);
    expect(saved).toMatch(/"path": "\/v1\/orgs\/org_acme\/link-invites\/\{\{secret:invite-link:org_acme\/organization#[0-9a-f]{8}\}\}"/);
    await run(['show', file, '--verbose']);

    const applied = await run(['apply', file, '-c', config, '--verbose']);
    expect(applied.stdout).toContain('converged');
    expect([...org().linkInvites.values()].map((l) => l.role ?? l.level).sort()).toEqual(['comment', 'edit', 'read']);
    // A link changed behind docplane's back, and one deleted: an apply of the config in JSON sets them back.
    const guides = [...org().linkInvites.values()].find((l) => l.space === 'space_guides')!;
    guides.level = 'admin';
    org().linkInvites.delete([...org().linkInvites.values()].find((l) => l.collection !== undefined)!.id);
    await run(['apply', '-c', config, '--auto-approve', '--format', 'json', '--verbose']);
    await run(['plan', '-c', config, '--detailed-exitcode', '--verbose']);

    const out = join(b.dir, 'imported');
    await run(['import', '--org', 'org_acme', '--out', out, '--verbose']);
    const imported = readdirSync(out).map((f) => readFileSync(join(out, f), 'utf8')).join('\n');
    outputs.push(['the import', imported]);
    expect(imported).toContain('inviteLinks:');
    expect(imported).toContain('space: space_guides');

    expect(seen.size).toBeGreaterThanOrEqual(5);
    for (const [what, text] of outputs) for (const id of seen) expect(text, `${what} shows an invite link id`).not.toContain(id);
  });
});
