/**
 * The token and the config's secret values never appear in anything docplane writes: plan in every
 * format, the saved plan file, apply (of a plan file and directly, text and JSON, with --verbose).
 * The secret values must still reach the API.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoState, ROOT, sandbox, type CliResult, type Sandbox } from './cli-helpers.js';

const TOKEN = 'tok-known-4d7f9e2c11';
const KEY = 'sk-known-analytics-5e8a1b';
const CERT_LINE = readFileSync(join(ROOT, 'examples/certs/okta.pem'), 'utf8').split('\n')[1];

let boxes: Sandbox[] = [];
afterEach(async () => {
  for (const b of boxes) await b.close();
  boxes = [];
});

async function box(): Promise<Sandbox> {
  const b = await sandbox({ state: demoState([{ token: TOKEN, access: 'write' }]), token: TOKEN });
  boxes.push(b);
  return b;
}

function expectClean(what: string, text: string): void {
  expect(text, `${what} shows the token`).not.toContain(TOKEN);
  expect(text, `${what} shows the integration secret`).not.toContain(KEY);
  expect(text, `${what} shows the certificate`).not.toContain(CERT_LINE);
}

const both = (r: CliResult) => `${r.stdout}\n${r.stderr}`;

describe('secrets in the output of plan and apply (CLI)', () => {
  it('never shows the token or a secret value, and still sends the secrets to the API', async () => {
    expect(CERT_LINE.length).toBeGreaterThan(20);
    const env = { ANALYTICS_KEY: KEY };
    const b = await box();
    const file = join(b.dir, 'plan.json');
    for (const args of [
      ['plan', '-c', b.config, '--verbose'],
      ['plan', '-c', b.config, '--format', 'json'],
      ['plan', '-c', b.config, '--format', 'markdown'],
      ['plan', '-c', b.config, '--out', file],
    ]) {
      const res = await b.cli(args, env);
      expect(res.code, res.stderr).toBe(0);
      expectClean(args.join(' '), both(res));
    }
    const saved = readFileSync(file, 'utf8');
    expectClean('the plan file', saved);
    expect(saved).toContain('{{secret:env:ANALYTICS_KEY}}');

    const applied = await b.cli(['apply', file, '--verbose'], env);
    expect(applied.code, applied.stderr).toBe(0);
    expectClean('apply PLANFILE --verbose', both(applied));
    expectClean('the applied plan file', readFileSync(file, 'utf8'));
    // The placeholders were filled in from the config before sending.
    expect(b.emulator.world.integrations.get('acme-analytics')?.secrets).toEqual({ API_KEY: KEY });

    const direct = await box();
    const json = await direct.cli(['apply', '-c', direct.config, '--auto-approve', '--format', 'json', '--verbose'], env);
    expect(json.code, json.stderr).toBe(0);
    expectClean('apply --format json --verbose', both(json));
    expect(JSON.parse(json.stdout).summary.failed).toBe(0);
    expect(direct.emulator.world.integrations.get('acme-analytics')?.secrets).toEqual({ API_KEY: KEY });
  });
});
