import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocplaneError } from '../core/errors.js';
import { fromSecretPlaceholders, type Secret } from '../core/secrets.js';
import { buildPlan } from './build.js';
import { readPlanFile, writePlanFile } from './file.js';
import type { Plan } from './types.js';

const secrets: Secret[] = [
  { name: 'env:ANALYTICS_KEY', value: 'sk-live-0123456789' },
  { name: 'file:certs/okta.pem', value: '-----BEGIN CERTIFICATE-----\nMIIBszCCAV2gAwIBAgIU\n-----END CERTIFICATE-----' },
];

function planWithSecrets(): Plan {
  return buildPlan({
    toolVersion: '0.1.0',
    createdAt: '2025-01-01T00:00:00.000Z',
    configHash: 'abc',
    configPaths: ['/c/docplane.yaml'],
    orgs: [
      {
        org: 'org_acme',
        safety: { maxDeletes: 10, maxDeletePercent: 25 },
        protect: [],
        kinds: {
          integrations: {
            steps: [
              {
                address: 'integrations["a"]',
                kind: 'integrations',
                action: 'publish',
                before: null,
                after: { secrets: { API_KEY: secrets[0].value } },
                changes: [],
                requests: [{ method: 'POST', path: '/v1/integrations/a', body: { secrets: { API_KEY: secrets[0].value }, note: `key=${secrets[0].value}` } }],
                needs: [],
              },
            ],
            unmanaged: [],
            remoteCount: 0,
            problems: [],
            fingerprints: { 'integrations["a"]': 'f' },
          },
          saml: {
            steps: [
              {
                address: 'saml["Okta"]',
                kind: 'saml',
                action: 'create',
                before: null,
                after: { certificate: secrets[1].value },
                changes: [{ path: 'certificate', kind: 'add', after: secrets[1].value }],
                requests: [{ method: 'POST', path: '/v1/orgs/org_acme/saml', body: { certificate: secrets[1].value } }],
                needs: [],
              },
            ],
            unmanaged: [],
            remoteCount: 0,
            problems: [],
            fingerprints: { 'saml["Okta"]': 'g' },
          },
        },
      },
    ],
  });
}

const dir = () => mkdtempSync(join(tmpdir(), 'docplane-plan-'));

describe('plan files', () => {
  it('hold no secret value, and read back to the same plan once the placeholders are filled', () => {
    const path = join(dir(), 'plan.json');
    const plan = planWithSecrets();
    writePlanFile(plan, secrets, path);
    const text = readFileSync(path, 'utf8');
    for (const s of secrets) expect(text).not.toContain(s.value);
    expect(text).not.toContain('MIIBszCCAV2gAwIBAgIU');
    expect(text).toContain('{{secret:env:ANALYTICS_KEY}}');
    expect(text.startsWith('{\n  "formatVersion": 1,')).toBe(true);
    const back = readPlanFile(path);
    expect(fromSecretPlaceholders(back, secrets)).toEqual(plan);
  });

  const head = {
    formatVersion: 1,
    toolVersion: '0.1.0',
    createdAt: '2025-01-01T00:00:00.000Z',
    configHash: 'x',
    configPaths: [],
    orgs: ['org_a'],
    steps: [],
    unmanaged: {},
    violations: [],
    problems: [],
    fingerprints: {},
    summary: { create: 0, update: 0, delete: 0, other: 0, unmanaged: 0 },
  };
  const step = { id: 'org_a/teams["A"]:create', org: 'org_a', address: 'teams["A"]', kind: 'teams', action: 'create', before: null, after: {}, changes: [], requests: [], dependsOn: [] };
  const bad: Array<[string, string, RegExp]> = [
    ['not JSON', '{ nope', /is not a docplane plan file: it is not JSON/],
    ['no version', '{"steps": []}', /is not a docplane plan file: it has no formatVersion/],
    ['array', '[1,2]', /it has no formatVersion/],
    ['other version', '{"formatVersion": 2}', /has plan formatVersion 2; this docplane reads formatVersion 1/],
    ['without steps', JSON.stringify({ ...head, steps: undefined }), /plan\.json is not a docplane plan file: steps: .*expected array/],
    ['with a bad request', JSON.stringify({ ...head, steps: [{ ...step, requests: [{ method: 'FETCH', path: '/x' }] }] }), /plan\.json is not a docplane plan file: steps\[0\]\.requests\[0\]\.method: /],
    ['with a bad fingerprint', JSON.stringify({ ...head, fingerprints: { 'org_a/teams["A"]': 1 } }), /plan\.json is not a docplane plan file: fingerprints\["org_a\/teams\[\\"A\\"\]"\]: .*expected string/],
  ];
  it.each(bad)('refuses a file that is %s with a clear error', (_name, content, message) => {
    const path = join(dir(), 'plan.json');
    writeFileSync(path, content);
    expect(() => readPlanFile(path)).toThrow(DocplaneError);
    expect(() => readPlanFile(path)).toThrow(message);
  });

  it('reads a well-formed file, and keeps the fields a later docplane may add', () => {
    const path = join(dir(), 'plan.json');
    writeFileSync(path, JSON.stringify({ ...head, steps: [step], extra: { kept: true } }));
    expect(readPlanFile(path)).toEqual({ ...head, steps: [step], extra: { kept: true } });
  });

  it('says that a folder is not a plan file, and what to pass instead', () => {
    const folder = dir();
    expect(() => readPlanFile(folder)).toThrow(DocplaneError);
    expect(() => readPlanFile(folder)).toThrow(`${folder} is a folder; pass a plan file written by \`docplane plan --out\`, or -c ${folder} to plan from a config folder`);
  });

  it('says when the file cannot be read or written', () => {
    expect(() => readPlanFile(join(dir(), 'missing.json'))).toThrow(/cannot read the plan file .*missing\.json: no such file/);
    expect(() => writePlanFile(planWithSecrets(), [], join(dir(), 'no', 'such', 'dir', 'p.json'))).toThrow(/cannot write the plan file/);
  });
});
