/**
 * A site's redirects, customization and publishing auth through the built CLI against the emulator:
 * apply all three, plan again (no changes); import round trip (no changes, byte-identical); changes
 * behind docplane's back (a redirect's destination, a customization field) planned exactly and
 * restored by apply; the site's private key in no plan file, output, import or emulator log.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { demoState, sandbox, type Sandbox } from '../apply/cli-helpers.js';
import { api, readTree } from '../import/helpers.js';

const SITE = '/v1/orgs/org_acme/sites/site_docs';

let box: Sandbox;
let logged: RunningEmulator;
let logFile: string;

async function get(url: string, path: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, { headers: { authorization: 'Bearer dev-token' } });
  return (await res.json()) as Record<string, unknown>;
}

interface JsonStep {
  address: string;
  action: string;
  changes: Array<{ path: string; kind: string; before?: unknown; after?: unknown }>;
}

beforeAll(async () => {
  box = await sandbox();
  // The example's site_docs, with visitor authentication as well.
  const config = readFileSync(box.config, 'utf8').replace('    visibility: public\n', '    visibility: visitor-auth\n').replace('    customization:\n', '    publishingAuth: { backend: custom, fallbackURL: https://login.acme.com/docs }\n    customization:\n');
  writeFileSync(box.config, config);
  logFile = join(box.dir, 'emulator.log');
  logged = await startEmulator({ port: 0, state: demoState(), seed: 3, logFile });
});

afterAll(async () => {
  await logged?.close();
  await box?.close();
});

describe('redirects, customization and publishing auth (built CLI, emulator)', () => {
  let privateKey: string;

  it('apply makes all three, and a second plan has no changes', async () => {
    const plan = await box.cli(['plan', '--format', 'json']);
    expect(plan.code, plan.stderr).toBe(0);
    const steps = (JSON.parse(plan.stdout) as { steps: JsonStep[] }).steps.filter((s) => /redirects|customization|publishingAuth/.test(s.address));
    expect(steps.map((s) => `${s.action} ${s.address}`)).toEqual([
      'create sites["site_docs"].redirects["/old-guides/*"]',
      'update sites["site_docs"].customization',
      'update sites["site_docs"].publishingAuth',
    ]);
    expect(steps[1].changes.map((c) => c.path)).toEqual(['footer.copyright', 'styling.corners', 'styling.font', 'styling.primaryColor.dark', 'styling.primaryColor.light', 'styling.theme', 'title']);

    const apply = await box.cli(['apply', '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    const again = await box.cli(['plan', '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);

    const doc = await get(box.emulator.url, `${SITE}/customization`);
    // What the config does not set is kept as it was (the demo world's default title, the PUT's fields).
    expect(doc).toMatchObject({ title: 'Acme Docs', styling: { theme: 'muted', corners: 'straight', font: { custom: true, fontFamily: 'Acme Sans' }, primaryColor: { light: '#0B5FFF', dark: '#6EA0FF' } } });
    expect(doc.pagination).toEqual({ enabled: true });
    const auth = await get(box.emulator.url, `${SITE}/publishing/auth`);
    expect(auth).toMatchObject({ backend: 'custom', fallbackURL: 'https://login.acme.com/docs' });
    privateKey = String(auth.privateKey);
    expect(privateKey.length).toBeGreaterThan(16);
  });

  it('the private key is in no plan file, plan output (text, JSON, --verbose) or import', async () => {
    // A change to plan, so that the publishing auth has a step.
    expect(await api(box.emulator.url, 'PATCH', `${SITE}/publishing/auth`, { backend: 'integration' })).toBe(200);
    const saved = await box.cli(['plan', '--out', 'plan.json', '--verbose']);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toContain('sites["site_docs"].publishingAuth');
    const json = await box.cli(['plan', '--format', 'json', '--verbose']);
    const imported = await box.cli(['import', '--org', 'org_acme', '--site', 'site_docs', '--out', '-']);
    expect(imported.code, imported.stderr).toBe(0);
    for (const text of [readFileSync(join(box.dir, 'plan.json'), 'utf8'), saved.stdout, saved.stderr, json.stdout, json.stderr, imported.stdout, imported.stderr]) {
      expect(text).not.toContain(privateKey);
    }
    expect(imported.stdout).toContain('publishingAuth:');
    expect((await box.cli(['apply', '--auto-approve'])).code).toBe(0);
  });

  it('the emulator log masks the private key', async () => {
    const auth = await get(logged.url, `${SITE}/publishing/auth`);
    await logged.close();
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain('"privateKey"');
    expect(log).not.toContain(String(auth.privateKey));
  });

  it('import round trip: plan shows no changes, a second import is byte-identical', async () => {
    const args = ['import', '--org', 'org_acme', '--site', 'site_docs', '--site', 'site_internal', '--force'];
    const first = await box.cli([...args, '--out', 'first']);
    expect(first.code, first.stderr).toBe(0);
    const yaml = readFileSync(join(box.dir, 'first/org_acme.yaml'), 'utf8');
    expect(yaml).toContain('- { source: /old-guides/*, destination: https://docs.acme.com/guides, permanent: true, captureWildcard: true }');
    expect(yaml).toContain('primaryColor: { light: "#0B5FFF", dark: "#6EA0FF" }');
    // The installation's token is imported as ${env:…}: the plan reads it from the environment, as a user's would.
    const plan = await box.cli(['plan', '-c', 'first', '--format', 'json'], { GLOBEX_HELPDESK_API_TOKEN: 'demo-helpdesk-token', SITE_DOCS_MCP_ACME_STATUS_AUTHORIZATION: 'Bearer demo-mcp-token', SITE_DOCS_CONTEXT_SUPPORT_TICKETS_API_TOKEN: 'demo-zendesk-token' });
    expect(plan.code, plan.stderr).toBe(0);
    expect((JSON.parse(plan.stdout) as { steps: unknown[] }).steps).toEqual([]);
    const second = await box.cli([...args, '--out', 'second']);
    expect(second.code, second.stderr).toBe(0);
    expect(readTree(join(box.dir, 'second'))).toEqual(readTree(join(box.dir, 'first')));
  });

  it('changes behind docplane\'s back are planned exactly and restored by apply', async () => {
    const list = (await get(box.emulator.url, `${SITE}/redirects`)) as { items: Array<{ id: string; source: string }> };
    const id = list.items.find((r) => r.source === '/old-guides/*')?.id;
    expect(await api(box.emulator.url, 'PATCH', `${SITE}/redirects/${id}`, { destination: { kind: 'external', url: 'https://elsewhere.test/' } })).toBe(200);
    const doc = await get(box.emulator.url, `${SITE}/customization`);
    delete doc.updatedAt;
    const styling = doc.styling as Record<string, unknown>;
    expect(await api(box.emulator.url, 'PUT', `${SITE}/customization`, { ...doc, styling: { ...styling, corners: 'circular' } })).toBe(200);

    const plan = await box.cli(['plan', '--format', 'json']);
    expect(plan.code, plan.stderr).toBe(0);
    const steps = (JSON.parse(plan.stdout) as { steps: JsonStep[] }).steps.map((s) => ({ address: s.address, action: s.action, changes: s.changes }));
    expect(steps).toEqual([
      {
        address: 'sites["site_docs"].redirects["/old-guides/*"]',
        action: 'update',
        changes: [{ path: 'destination.url', kind: 'change', before: 'https://elsewhere.test/', after: 'https://docs.acme.com/guides' }],
      },
      { address: 'sites["site_docs"].customization', action: 'update', changes: [{ path: 'styling.corners', kind: 'change', before: 'circular', after: 'straight' }] },
    ]);
    expect((await box.cli(['apply', '--auto-approve'])).code).toBe(0);
    const again = await box.cli(['plan', '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
  });

});
