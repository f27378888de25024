// Exchanges that match the pinned description (node_modules/@gitbook/api/spec/openapi.json):
// the emulator's answers from the demo flow (docs/conformance.md), trimmed to one item per list.
// Tests take a copy and break one thing at a time.
import type { Exchange } from './validator.js';

export function correctExchanges(): Exchange[] {
  return [
    {
      method: 'PUT',
      path: '/v1/orgs/org_acme/teams',
      requestBody: { title: 'Engineering', members: ['u_alice', 'u_bob'] },
      status: 201,
      responseHeaders: { location: 'http://127.0.0.1:1/v1/orgs/org_acme/teams/team_1' },
      responseBody: {
        object: 'team',
        id: 'team_1',
        title: 'Engineering',
        members: 2,
        spaces: 0,
        createdAt: '2026-11-23T11:26:53.290Z',
        permissions: { admin: true, view: true },
        urls: { location: 'http://127.0.0.1:1/v1/orgs/org_acme/teams/team_1' },
      },
    },
    {
      method: 'PATCH',
      path: '/v1/collections/col_1',
      requestBody: { description: 'Everything product', defaultLevel: 'read' },
      status: 200,
      responseBody: {
        object: 'collection',
        id: 'col_1',
        title: 'Product',
        description: 'Everything product',
        organization: 'org_acme',
        defaultLevel: 'read',
        urls: { location: 'http://127.0.0.1:1/v1/collections/col_1', app: 'https://app.docplane.test/o/org_acme/c/col_1' },
        permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
      },
    },
    {
      method: 'GET',
      path: '/v1/orgs/org_acme/sites/site_docs/share-links?limit=1000&page=abc',
      status: 200,
      responseBody: {
        items: [
          {
            object: 'share-link',
            id: 'link_1',
            createdAt: '2026-10-24T11:50:51.793Z',
            name: 'old-link',
            active: true,
            urls: { published: 'https://org-acme.docs.test/site_docs?share=link_1' },
          },
        ],
        count: 1,
        next: { page: 'p2' },
      },
    },
    { method: 'DELETE', path: '/v1/orgs/org_acme/sites/site_docs/share-links/link_1', status: 205 },
    { method: 'DELETE', path: '/v1/orgs/org_acme/sites/site_docs/share-links/link_1', status: 204, responseBody: null },
    { method: 'PUT', path: '/v1/orgs/org_acme/teams/team_1/members', requestBody: { memberships: { u_alice: { role: 'owner' } } }, status: 204 },
    // Without the /v1 prefix, a boolean query parameter, an empty list.
    { method: 'GET', path: '/orgs/org_acme/sites/site_docs/site-spaces?limit=1000&default=true', status: 200, responseBody: { items: [] } },
  ];
}
