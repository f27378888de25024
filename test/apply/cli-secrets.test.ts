/**
 * The token and the config's secret values never appear in anything docplane writes: plan in every
 * format, the saved plan file, apply (of a plan file and directly, text and JSON, with --verbose).
 * The secret values must still reach the API.
 */
import { readFileSync, writeFileSync } from 'node:fs';
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
    const saved = readFileSync(file, "utf8");
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

/** The sandbox's config with one more team, whose title is `title`; the line of that title. */
function withTeam(b: Sandbox, title: string): number {
  const text = readFileSync(b.config, 'utf8');
  const at = text.indexOf('\nteams:\n');
  writeFileSync(b.config, text.replace('\nteams:\n', `\nteams:\n  - title: "${title}"\n`));
  return text.slice(0, at).split('\n').length + 2;
}

describe('secrets in the wrong place (CLI)', () => {
  it('refuses a config that reads the token, at its position', async () => {
    const b = await box();
    const line = withTeam(b, '${env:DOCPLANE_TOKEN}');
    const res = await b.cli(['plan', '-c', b.config]);
    expect(res.code).toBe(1);
    expect(res.stderr.split('\n')[0]).toBe(
      `docplane.yaml:${line}:12: teams[0].title: \${env:DOCPLANE_TOKEN} reads the API token into the config: docplane sends the token only in the Authorization header, never in a field`,
    );
    expectClean('plan', both(res));
    // Its value through another variable is refused too.
    writeFileSync(b.config, readFileSync(b.config, 'utf8').replace('${env:DOCPLANE_TOKEN}', '${env:COPY}'));
    const copy = await b.cli(['plan', '-c', b.config], { COPY: TOKEN });
    expect(copy.code).toBe(1);
    expect(copy.stderr.split('\n')[0]).toContain(`:${line}:12: teams[0].title: this string holds the API token (env DOCPLANE_TOKEN)`);
    expectClean('plan', both(copy));
  });

  it('refuses a secret too short to mask', async () => {
    const b = await box();
    const line = withTeam(b, 'Team ${env:SHORT}');
    const res = await b.cli(['plan', '-c', b.config], { SHORT: 'abc' });
    expect(res.code).toBe(1);
    expect(res.stderr.split('\n')[0]).toContain(`:${line}:12: teams[0].title: the value of \${env:SHORT} has 3 characters: a secret under 6 characters cannot be masked safely`);
    expect(both(res)).not.toContain('abc');
  });

  it('keeps a secret used as a key out of every output and the plan file (fingerprints too), and applies it', async () => {
    const b = await box();
    const name = 'Team "Quoted" 7c1e9a';
    const escaped = JSON.stringify(name).slice(1, -1);
    withTeam(b, '${env:TEAM_NAME}');
    const env = { ANALYTICS_KEY: KEY, TEAM_NAME: name };
    const file = join(b.dir, 'plan.json');
    for (const args of [['plan', '-c', b.config], ['plan', '-c', b.config, '--format', 'json'], ['plan', '-c', b.config, '--format', 'markdown', '--out', file]]) {
      const res = await b.cli(args, env);
      expect(res.code, res.stderr).toBe(0);
      for (const form of [name, escaped, '7c1e9a']) expect(both(res), args.join(' ')).not.toContain(form);
    }
    const saved = readFileSync(file, "utf8");
    for (const form of [name, escaped, '7c1e9a']) expect(saved).not.toContain(form);
    expect(Object.keys(JSON.parse(saved).fingerprints as Record<string, string>).some((k) => k.includes('{{secret-json:env:TEAM_NAME}}'))).toBe(true);
    const applied = await b.cli(["apply", file], env);
    expect(applied.code, applied.stderr).toBe(0);
    expect(both(applied)).not.toContain('7c1e9a');
    expect([...b.emulator.world.orgs.get('org_acme')!.teams.values()].map((t) => t.title)).toContain(name);
  });
});

