/**
 * Two applies of one config at once. The API has no conditional create, so both can create what
 * neither saw; docplane's promise is to be loud about it: the apply that finishes last reports the
 * twin in its convergence check (exit 1), and every plan afterwards names each duplicate as
 * `KEY#ID` with a note, never reads "No changes", and `plan --detailed-exitcode` exits 2.
 *
 * The two runs are made to overlap by a proxy in front of the emulator that holds every write until
 * both runs have sent one (each run plans fully before its first write): an event, not a delay.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/server.js';
import { demoState, runCli } from './cli-helpers.js';

const CONFIG = `version: 1
organization:
  id: org_acme
teams:
  - title: Platform
collections:
  - title: Handbooks
sites:
  - id: site_docs
    shareLinks:
      - { name: launch-partner }
`;

/** A loopback proxy to `target` that holds writes until each of `tokens` has one waiting. */
async function overlappingWrites(target: string, tokens: readonly string[]): Promise<{ url: string; close(): Promise<void> }> {
  const held: Array<() => void> = [];
  const waiting = new Set<string>();
  let open = false;
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => () => {
    const up = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const go = forward(req, res, Buffer.concat(chunks));
      if (open || req.method === 'GET') return go();
      held.push(go);
      waiting.add(String(req.headers.authorization));
      if (tokens.every((t) => waiting.has(`Bearer ${t}`))) {
        open = true;
        for (const h of held.splice(0)) h();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('two applies of one config at once', () => {
  it('are loud: the later one reports the twins, and every plan after names them and exits 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docplane-concurrent-'));
    writeFileSync(join(dir, 'docplane.yaml'), CONFIG);
    const emulator = await startEmulator({
      port: 0,
      seed: 5,
      state: demoState([
        { token: 'token-a', access: 'write' },
        { token: 'token-b', access: 'write' },
      ] as never),
    });
    const proxy = await overlappingWrites(emulator.url, ['token-a', 'token-b']);
    try {
      // Two processes: runs in the test worker take turns (test/cli-run.ts).
      const apply = (token: string) => runCli(['apply', '--auto-approve'], { DOCPLANE_API_URL: proxy.url, DOCPLANE_TOKEN: token }, dir, { spawn: true });
      const [a, b] = await Promise.all([apply('token-a'), apply('token-b')]);
      const org = emulator.world.orgs.get('org_acme')!;
      expect([...org.teams.values()].filter((t) => t.title === 'Platform')).toHaveLength(2);

      // The run that finished last saw both creates: it is not converged, and says why.
      const loud = [a, b].filter((r) => r.code === 1 && /not converged: .*duplicate/.test(r.stdout));
      expect(loud.length, `${a.stdout}\n${a.stderr}\n${b.stdout}\n${b.stderr}`).toBeGreaterThanOrEqual(1);
      expect(loud[0].stderr).toMatch(/^error: the apply finished, but \d+ resources? it manages now (has a twin|have twins) with the same key: /m);
      for (const r of [a, b]) if (r.code === 0) expect(r.stdout).toContain('converged: no changes left');

      const plan = await runCli(['plan', '--detailed-exitcode'], { DOCPLANE_API_URL: emulator.url, DOCPLANE_TOKEN: 'token-a' }, dir);
      expect(plan.code, plan.stdout + plan.stderr).toBe(2);
      expect(plan.stdout).not.toContain('No changes');
      expect(plan.stdout).toMatch(/^Plan: 3 duplicates to resolve \(see the notes\); nothing to create, update or delete; \d+ unmanaged\.$/m);
      for (const twin of [/teams\["Platform#[^"\]]+"\]/, /collections\["Handbooks#[^"\]]+"\]/, /sites\["site_docs"\]\.shareLinks\["launch-partner#[^"\]]+"\]/]) {
        expect(plan.stdout).toMatch(twin);
      }
      expect(plan.stdout).toMatch(/teams\["Platform"\] matches \S+, but \S+ has the same key \(shown as teams\["Platform#\S+"\], unmanaged\): pin the one to manage/);
    } finally {
      await proxy.close();
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
