/**
 * Request paths that hold a concealed id (an invite link's id: whoever holds it joins the
 * organization) are masked in every output of a plan — the JSON plan, the markdown "Requests", the
 * saved plan (a placeholder apply restores) — whatever the id's length, and in the percent-encoded
 * form the path holds an id with URL-special characters in.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { fromSecretPlaceholders } from '../../src/core/secrets.js';
import { buildPlan } from '../../src/plan/build.js';
import { readPlanFile, writePlanFile } from '../../src/plan/file.js';
import { runSecrets } from '../../src/plan/run.js';
import type { Plan } from '../../src/plan/types.js';
import { renderPlan } from '../../src/render/index.js';

/** A plan that deletes the invite link of id `id` (its path holds the id as `encodeURIComponent` writes it). */
function planDeleting(id: string): Plan {
  return buildPlan({
    toolVersion: '0.1.0',
    createdAt: '2025-01-01T00:00:00.000Z',
    configHash: 'abc',
    configPaths: ['/c/docplane.yaml'],
    orgs: [
      {
        org: 'org_acme',
        safety: { maxDeletes: 10, maxDeletePercent: 100 },
        protect: [],
        kinds: {
          inviteLinks: {
            steps: [
              {
                address: 'inviteLinks["space:s1#1"]',
                kind: 'inviteLinks',
                action: 'delete',
                before: { id },
                after: null,
                changes: [],
                requests: [{ method: 'DELETE', path: `/v1/orgs/org_acme/invite-links/${encodeURIComponent(id)}` }],
                needs: [],
              },
            ],
            unmanaged: [],
            remoteCount: 1,
            problems: [],
            fingerprints: {},
          },
        },
      },
    ],
  } as Parameters<typeof buildPlan>[0]);
}

/** The secrets of a run whose read concealed `id`, as plan and apply take them. */
function secretsConcealing(id: string) {
  const client = createClient({ baseUrl: 'http://127.0.0.1:9', token: 'tok-0123456789' });
  client.conceal?.({ name: 'invite-link:org_acme/space:s1#1', value: id });
  return runSecrets({ secrets: [] }, client);
}

describe('a concealed id in a request path', () => {
  it.each([
    ['a short id', 'ab1', '/v1/orgs/org_acme/invite-links/ab1'],
    ['an id with URL-special characters', 'k/9 x+y?z', `/v1/orgs/org_acme/invite-links/${encodeURIComponent('k/9 x+y?z')}`],
    ['a short id with URL-special characters', 'a/b', '/v1/orgs/org_acme/invite-links/a%2Fb'],
  ])('%s is masked in the JSON plan and the markdown requests', (_what, id, path) => {
    const plan = planDeleting(id);
    const secrets = secretsConcealing(id);
    const json = renderPlan(plan, { format: 'json', color: false, secrets });
    const markdown = renderPlan(plan, { format: 'markdown', color: false, secrets });
    for (const out of [json, markdown]) {
      expect(out).not.toContain(path);
      expect(out).toContain('/v1/orgs/org_acme/invite-links/(sensitive)');
    }
    // Titles and words that merely hold the id's letters stay as they are.
    expect(json).toContain('org_acme');
  });

  it.each([
    ['a short id', 'ab1'],
    ['an id with URL-special characters', 'k/9 x+y?z'],
  ])('%s stands as a placeholder in the saved plan, and apply gets the path back', (_what, id) => {
    const plan = planDeleting(id);
    const secrets = secretsConcealing(id);
    const file = join(mkdtempSync(join(tmpdir(), 'docplane-secret-paths-')), 'plan.json');
    writePlanFile(plan, secrets, file);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(`/invite-links/${encodeURIComponent(id)}`);
    expect(text).toContain('/invite-links/{{secret');
    const saved = readPlanFile(file);
    // `show` renders the file as it is: the placeholder, never the id.
    expect(renderPlan(saved, { format: 'markdown', color: false, secrets: [] })).not.toContain(`/invite-links/${encodeURIComponent(id)}`);
    const restored = fromSecretPlaceholders(saved, secrets);
    expect(restored.steps[0].requests[0].path).toBe(`/v1/orgs/org_acme/invite-links/${encodeURIComponent(id)}`);
  });
});
