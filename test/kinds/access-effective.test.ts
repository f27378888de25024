/**
 * `docplane access`: direct grants beside every user's effective role from the API's aggregate, a
 * space's collection grants shown as inherited; three lists per object and nothing else when
 * narrowed; the built CLI's text and JSON; an unknown object is one error line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import { parseEmulatorState, startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { readOrgAccess } from '../../src/kinds/access/effective.js';
import { sharedReads } from '../../src/kinds/kind.js';
import { sandbox, type Sandbox } from '../apply/cli-helpers.js';
import { createRecorder } from '../conformance/recorder.js';

const STATE = {
  tokens: [{ token: 'dev-token', access: 'write', user: 'u_alice' }],
  users: [
    { id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice' },
    { id: 'u_bob', email: 'bob@acme.com', displayName: 'Bob' },
    { id: 'u_carol', email: 'carol@acme.com', displayName: 'Carol' },
    { id: 'u_zoe', email: 'zoe@acme.com', displayName: 'Zoe' },
  ],
  organizations: [
    {
      id: 'org_acme',
      title: 'Acme',
      members: [{ user: 'u_alice', role: 'admin' }, { user: 'u_bob', role: 'read' }, { user: 'u_carol', role: 'read' }, { user: 'u_zoe', role: 'read' }],
      // Zoe's direct grant on the space is read; Engineering gives her edit there.
      teams: [{ id: 't_eng', title: 'Engineering', members: ['u_bob', 'u_zoe'] }],
      collections: [{ id: 'c_prod', title: 'Product' }],
      spaces: [{ id: 'space_api', title: 'API', collection: 'Product' }, { id: 'space_free', title: 'Free' }],
      sites: [{ id: 'site_docs', title: 'Docs' }],
      access: [
        { site: 'site_docs', users: { u_bob: 'edit' } },
        { collection: 'c_prod', users: { u_alice: 'admin' } },
        { space: 'space_api', teams: { Engineering: 'edit' }, users: { u_carol: 'read', u_zoe: 'read' } },
      ],
    },
  ],
};

describe('docplane access', () => {
  let emulator: RunningEmulator;
  let client: ApiClient;
  const recorder = createRecorder();
  const paths: string[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({
      port: 0,
      state: parseEmulatorState(STATE),
      onExchange: (x) => {
        paths.push(`${x.method} ${x.path.split('?')[0]}`);
        recorder.record(x);
      },
    });
    client = createClient({ baseUrl: emulator.url, token: 'dev-token' });
  });
  afterAll(async () => {
    await client.close();
    await emulator.close();
  });

  it('shows direct grants and effective roles, inherited ones marked, with three lists for one object', async () => {
    paths.length = 0;
    const [api] = await readOrgAccess({ org: 'org_acme', client, shared: sharedReads() }, { spaces: ['space_api'] });
    expect(api).toMatchObject({ target: 'space', id: 'space_api', name: 'API', teams: { Engineering: 'edit' }, users: { 'carol@acme.com': 'read', 'zoe@acme.com': 'read' } });
    expect(api.effective).toEqual([
      { user: 'alice@acme.com', role: 'admin', origin: { type: 'team-or-inherited' } },
      { user: 'bob@acme.com', role: 'edit', origin: { type: 'team-or-inherited' } },
      { user: 'carol@acme.com', role: 'read', origin: { type: 'direct' } },
      // "direct" only when the direct grant is the role shown.
      { user: 'zoe@acme.com', role: 'edit', origin: { type: 'team-or-inherited', direct: 'read' } },
    ]);
    expect(paths.sort()).toEqual([
      'GET /v1/orgs/org_acme/spaces',
      'GET /v1/spaces/space_api/permissions/aggregate',
      'GET /v1/spaces/space_api/permissions/teams',
      'GET /v1/spaces/space_api/permissions/users',
    ]);
  });

  it('without a selection shows every collection, space and site; a site says where each role comes from', async () => {
    const all = await readOrgAccess({ org: 'org_acme', client, shared: sharedReads() }, {});
    expect(all.map((o) => `${o.target} ${o.name}`)).toEqual(['collection Product', 'space API', 'space Free', 'site Docs']);
    expect(all.find((o) => o.id === 'site_docs')).toMatchObject({ users: { 'bob@acme.com': 'edit' }, effective: [{ user: 'bob@acme.com', role: 'edit', origin: { type: 'direct' } }] });
  });

  it('shows each object selected, of several kinds, one with nobody', async () => {
    const all = await readOrgAccess({ org: 'org_acme', client, shared: sharedReads() }, { collections: ['c_prod'], spaces: ['space_api', 'space_free'] });
    expect(all.map((o) => `${o.target} ${o.name}`)).toEqual(['collection Product', 'space API', 'space Free']);
    expect(all.find((o) => o.id === 'space_free')?.effective).toEqual([]);
  });

  describe('the built CLI', () => {
    let box: Sandbox;
    beforeAll(async () => {
      box = await sandbox({ state: parseEmulatorState(STATE) });
    });
    afterAll(async () => box.close());

    it('prints text and json', async () => {
      const text = await box.cli(['access', '--org', 'org_acme', '--space', 'space_api']);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain('space "API" (space_api)');
      expect(text.stdout).toContain('direct teams: Engineering edit');
      expect(text.stdout).toContain('bob@acme.com edit (through a team, or inherited)');
      expect(text.stdout).toContain('carol@acme.com read (direct)');
      expect(text.stdout).toContain('zoe@acme.com edit (through a team, or inherited (direct grant: read))');
      const json = await box.cli(['access', '--org', 'org_acme', '--collection', 'c_prod', '--format', 'json']);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout).objects).toEqual([
        { target: 'collection', id: 'c_prod', name: 'Product', teams: {}, users: { 'alice@acme.com': 'admin' }, effective: [{ user: 'alice@acme.com', role: 'admin', origin: { type: 'direct' } }] },
      ]);
    });

    it('names an object the organization does not have in one line, exit 1', async () => {
      const r = await box.cli(['access', '--org', 'org_acme', '--space', 'space_nope']);
      expect(r.code).toBe(1);
      expect(r.stderr.split('\n')[0]).toBe('error: organization org_acme has no space space_nope');
      expect(r.stderr).not.toContain('    at ');
    });
  });
});
