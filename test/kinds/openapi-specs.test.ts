import { describe, expect, it } from 'vitest';
import { orgConfig, planKind, type OrgConfigInput } from '../plan/fixtures.js';
import { openapiSpecsModule, type RemoteSpecs } from '../../src/kinds/openapi-specs/openapi-specs.js';

const remote: RemoteSpecs = {
  specs: [
    { id: 'oas_1', slug: 'petstore', sourceURL: 'https://pets.example/openapi.json', visibility: 'public', lastVersion: 'v1' },
    { id: 'oas_2', slug: 'billing', visibility: 'private', lastVersion: 'v2' },
    { id: 'oas_3', slug: 'draft', visibility: 'private', lastVersion: 'v3', lastProcessErrorCode: 'PARSE_ERROR' },
  ],
  texts: { billing: 'openapi: 3.1.0\n', draft: null },
};

const rows = (config: OrgConfigInput, replace?: string[]) =>
  planKind(openapiSpecsModule, orgConfig(config), remote, replace ? { replace } : {}).steps.map((s) => [
    s.address,
    s.action,
    ...s.requests.map((r) => `${r.method} ${r.path}${r.body === undefined ? '' : ` ${JSON.stringify(r.body)}`}`),
  ]);

describe('openapiSpecs', () => {
  it.each<{ name: string; config: OrgConfigInput; steps: string[][] }>([
    {
      name: 'plans nothing when the URL, the text and the visibility say the same',
      config: { openapiSpecs: [{ slug: 'petstore', source: { url: 'https://pets.example/openapi.json' }, visibility: 'public' }, { slug: 'billing', source: { text: 'openapi: 3.1.0\n' } }] },
      steps: [],
    },
    {
      name: 'a text that differs by one character is a new source: PUT',
      config: { openapiSpecs: [{ slug: 'billing', source: { text: 'openapi: 3.1.0' } }] },
      steps: [['openapiSpecs["billing"]', 'update', 'PUT /v1/orgs/org_acme/openapi/billing {"source":{"text":"openapi: 3.1.0"}}']],
    },
    {
      name: 'a spec with no readable text yet is sent again',
      config: { openapiSpecs: [{ slug: 'draft', source: { text: 'openapi: 3.1.0\n' } }] },
      steps: [['openapiSpecs["draft"]', 'update', 'PUT /v1/orgs/org_acme/openapi/draft {"source":{"text":"openapi: 3.1.0\\n"}}']],
    },
    {
      name: 'a URL source given to a text spec, and a visibility: PUT then PATCH',
      config: { openapiSpecs: [{ slug: 'billing', source: { url: 'https://x.example/b.json' }, visibility: 'public' }] },
      steps: [
        [
          'openapiSpecs["billing"]',
          'update',
          'PUT /v1/orgs/org_acme/openapi/billing {"source":{"url":"https://x.example/b.json"}}',
          'PATCH /v1/orgs/org_acme/openapi/billing {"visibility":"public"}',
        ],
      ],
    },
    {
      name: 'a new spec: PUT by slug, and PATCH only when a visibility is given',
      config: { openapiSpecs: [{ slug: 'new-api', source: { url: 'https://x.example/n.json' } }, { slug: 'other', source: { text: 'x' }, visibility: 'private' }] },
      steps: [
        ['openapiSpecs["new-api"]', 'create', 'PUT /v1/orgs/org_acme/openapi/new-api {"source":{"url":"https://x.example/n.json"}}'],
        ['openapiSpecs["other"]', 'create', 'PUT /v1/orgs/org_acme/openapi/other {"source":{"text":"x"}}', 'PATCH /v1/orgs/org_acme/openapi/other {"visibility":"private"}'],
      ],
    },
    {
      name: 'deletes what the config leaves out only when pruned',
      config: { openapiSpecs: [{ slug: 'petstore', source: { url: 'https://pets.example/openapi.json' } }], prune: ['openapiSpecs'] },
      steps: [
        ['openapiSpecs["billing"]', 'delete', 'DELETE /v1/orgs/org_acme/openapi/billing'],
        ['openapiSpecs["draft"]', 'delete', 'DELETE /v1/orgs/org_acme/openapi/draft'],
      ],
    },
  ])('$name', ({ config, steps }) => {
    expect(rows(config)).toEqual(steps);
  });

  it('leaves the others unmanaged without prune, shows texts by digest, and notes a version the API could not process', () => {
    const kp = planKind(openapiSpecsModule, orgConfig({ openapiSpecs: [{ slug: 'draft', source: { text: 'openapi: 3.1.0\n' } }] }), remote);
    expect(kp.unmanaged).toEqual(['openapiSpecs["petstore"]', 'openapiSpecs["billing"]']);
    expect(kp.steps[0].changes).toEqual([{ path: 'source.text', kind: 'change', before: null, after: expect.stringMatching(/^sha256:[0-9a-f]{12} \(15 bytes\)$/) }]);
    expect(kp.notes).toEqual(['openapiSpecs["draft"]: the API could not process its latest version (PARSE_ERROR); see it in the app']);
  });

  it('--replace sends a URL spec again, which the API then fetches anew', () => {
    expect(rows({ openapiSpecs: [{ slug: 'petstore', source: { url: 'https://pets.example/openapi.json' } }] }, ['openapiSpecs["petstore"]'])).toEqual([
      ['openapiSpecs["petstore"]', 'update', 'PUT /v1/orgs/org_acme/openapi/petstore {"source":{"url":"https://pets.example/openapi.json"}}'],
    ]);
  });
});
