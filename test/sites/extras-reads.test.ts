/** What a plan reads of a site's redirects, customization and publishing auth: only the blocks its config has. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import type { OrgConfig } from '../../src/config/types.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { readContextFor } from '../../src/kinds/kind.js';
import { readSites } from '../../src/kinds/sites/remote.js';
import type { SiteT } from '../../src/kinds/sites/schema.js';
import { demoState } from '../emulator/helpers.js';

let emu: RunningEmulator;
let client: ApiClient;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, state: demoState(), seed: 2 });
  client = createClient({ baseUrl: emu.url, token: 'dev-token', backoffBaseMs: 1 });
});

afterAll(async () => {
  await client?.close();
  await emu?.close();
});

const config = (site: Omit<SiteT, 'id'>): OrgConfig =>
  ({ organization: { id: 'org_acme' }, sites: [{ id: 'site_docs', ...site }], prune: [], safety: { maxDeletes: 10, maxDeletePercent: 25, keepSsoMembers: true }, protect: [], locations: {} }) as OrgConfig;

describe('reads of a site', () => {
  const cases: Array<{ name: string; site: Omit<SiteT, 'id'>; requests: number; read: string[] }> = [
    { name: 'no block: the site list, the structure and the share links only', site: {}, requests: 3, read: [] },
    { name: 'redirects: one page of the live list', site: { redirects: [] }, requests: 4, read: ['redirects'] },
    { name: 'a draft redirect: the drafts list as well', site: { redirects: [{ source: '/d', destination: 'https://x.test/', draft: true }] }, requests: 5, read: ['redirects'] },
    { name: 'customization: one GET', site: { customization: {} }, requests: 4, read: ['customization'] },
    { name: 'publishing auth: one GET', site: { publishingAuth: { backend: 'custom' } }, requests: 4, read: ['publishingAuth'] },
    {
      name: 'all three: six requests (the site list, structure, share links and the three)',
      site: { redirects: [], customization: { title: 'Docs' }, publishingAuth: { backend: 'custom' } },
      requests: 6,
      read: ['redirects', 'customization', 'publishingAuth'],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const before = emu.requestCount();
      const remote = await readSites(readContextFor(config(c.site), client));
      expect(emu.requestCount() - before).toBe(c.requests);
      const site = remote.sites[0].site!;
      expect(['redirects', 'customization', 'publishingAuth'].filter((k) => site[k as keyof typeof site] !== undefined)).toEqual(c.read);
      // The private key is dropped by the read.
      expect(JSON.stringify(site)).not.toContain('privateKey');
    });
  }
});
