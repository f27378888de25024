/** Organizations, agent instructions, members, teams and team members (API 4.5, 4.6). */
import { describe, expect, it } from 'vitest';
import { sameDocument, textToDocument } from '../../src/core/richtext.js';
import { ORG, demoState, useEmulator } from './helpers.js';
import { refusedRequestsExpected } from '../conformance/session.js';

// Bad requests on purpose: their refusals are not checked (docs/conformance.md).
refusedRequestsExpected('the emulator\'s own tests send bad requests on purpose');

const start = useEmulator();

describe('organizations', () => {
  it('lists, gets and patches an organization', async () => {
    const api = await start();
    const list = await api.get('/v1/orgs?limit=1000');
    expect(list.body.items.map((o: any) => o.id)).toEqual(['org_acme', 'org_globex']);
    const org = (await api.get(ORG)).body;
    expect(org).toMatchObject({
      object: 'organization',
      id: 'org_acme',
      title: 'Acme',
      emailDomains: ['acme.com'],
      defaultRole: 'read',
      inviteLinks: true,
      ai: false,
      type: 'business',
      plan: 'pro_2024',
      urls: { location: `${api.emu.url}${ORG}` },
    });
    expect(typeof org.createdAt).toBe('string');
    const patched = await api.patch(ORG, { ai: true, defaultRole: null, emailDomains: ['acme.com', 'acme.org'], logo: 'https://acme.test/logo.png' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ ai: true, defaultRole: null, emailDomains: ['acme.com', 'acme.org'], urls: { logo: 'https://acme.test/logo.png' } });
    expect((await api.get(ORG)).body.ai).toBe(true);
  });

  it('enforces the limits of organization fields, naming the field', async () => {
    const api = await start();
    const cases: [unknown, string][] = [
      [{ title: 'A' }, 'title: at least 2 characters'],
      [{ title: 'x'.repeat(256) }, 'title: at most 255 characters'],
      [{ hostname: 'ab' }, 'hostname: at least 3 characters'],
      [{ hostname: 'x'.repeat(33) }, 'hostname: at most 32 characters'],
      [{ logo: 'not a url' }, 'logo: must be a valid URI'],
      [{ logo: `https://x.test/${'a'.repeat(2048)}` }, 'logo: at most 2048 characters'],
      [{ defaultRole: 'owner' }, 'defaultRole: must be one of'],
      [{ ai: 'yes' }, 'ai: must be a boolean'],
      [{ defaultContent: { type: 'site', site: 'site_nope' } }, 'defaultContent.site: no site site_nope'],
    ];
    for (const [body, message] of cases) {
      const r = await api.patch(ORG, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toContain(message);
    }
  });

  it('finds organizations by email domain', async () => {
    const api = await start();
    const r = await api.get('/v1/email-domains/globex.com/orgs');
    expect(r.body.organizations.map((o: any) => o.id)).toEqual(['org_globex']);
  });
});

describe('agent instructions', () => {
  it('stores a document, adds a key to each block, and requires instructions', async () => {
    const api = await start();
    const empty = await api.get(`${ORG}/agent-instructions`);
    expect(empty.body).toMatchObject({ object: 'agent-instructions', instructions: { object: 'document', nodes: [] } });
    const doc = textToDocument('Answer kindly.\n\nBe brief.');
    const put = await api.put(`${ORG}/agent-instructions`, { instructions: doc });
    expect(put.status).toBe(200);
    expect(put.body.updatedBy).toBe('u_alice');
    const got = (await api.get(`${ORG}/agent-instructions`)).body.instructions;
    expect(got.nodes.every((b: any) => typeof b.key === 'string' && b.key.length > 0)).toBe(true);
    expect(sameDocument(got, doc)).toBe(true);
    expect(sameDocument(got, 'Answer kindly.\n\nBe brief.')).toBe(true);
    const missing = await api.put(`${ORG}/agent-instructions`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('instructions: required');
  });
});

describe('members', () => {
  it('lists members with their user, role and the live service’s extra fields', async () => {
    const api = await start();
    const members = await api.all(`${ORG}/members`);
    expect(members).toHaveLength(12);
    const alice = members.find((m) => m.id === 'u_alice');
    expect(alice).toMatchObject({
      object: 'member',
      id: 'u_alice',
      role: 'admin',
      user: { object: 'user', id: 'u_alice', email: 'alice@acme.com', displayName: 'Alice Admin' },
      sso: false,
      disabled: false,
      sites: 0,
      teams: 1,
    });
    expect(members.find((m) => m.id === 'u_oscar').role).toBeNull();
    expect(members.find((m) => m.id === 'u_mallory').sso).toBe(true);
  });

  it('counts each member’s teams the same in the list (one pass over the teams) as in the member’s own view', async () => {
    const api = await start();
    const members = await api.all(`${ORG}/members`);
    const counts = await Promise.all(members.map(async (m) => (await api.get(`${ORG}/members/${m.id}`)).body.teams));
    expect(members.map((m) => m.teams)).toEqual(counts);
    expect(counts.some((n) => n > 0)).toBe(true);
    expect(counts.some((n) => n === 0)).toBe(true);
  });

  it('filters by role and search, and sorts by joinedAt in either order', async () => {
    const api = await start();
    const admins = await api.all(`${ORG}/members?role=admin`);
    expect(admins.map((m) => m.id).sort()).toEqual(['u_alice', 'u_bob']);
    const search = await api.all(`${ORG}/members?search=ALICE`);
    expect(search.map((m) => m.id)).toEqual(['u_alice']);
    const byMail = await api.all(`${ORG}/members?search=judy%40acme`);
    expect(byMail.map((m) => m.id)).toEqual(['u_judy']);
    const desc = await api.all(`${ORG}/members`);
    expect(desc[0].id).toBe('u_oscar');
    const asc = await api.all(`${ORG}/members?order=asc&sort=joinedAt`);
    expect(asc.map((m) => m.id)).toEqual(desc.map((m) => m.id).reverse());
    expect((await api.all(`${ORG}/members?sort=lastSeenAt`)).length).toBe(0);
    expect((await api.get(`${ORG}/members?sort=colour`)).status).toBe(400);
    expect((await api.get(`${ORG}/members?role=owner`)).body.error.message).toMatch(/^role: /);
  });

  it('gets a member, patches the role, sets sso, and keeps at least one admin', async () => {
    const api = await start();
    expect((await api.get(`${ORG}/members/u_frank`)).body.role).toBe('review');
    expect((await api.get(`${ORG}/members/u_nobody`)).status).toBe(404);
    const r = await api.patch(`${ORG}/members/u_frank`, { role: 'edit' });
    expect(r.body.role).toBe('edit');
    expect((await api.patch(`${ORG}/members/u_frank`, { role: 'boss' })).body.error.message).toMatch(/^role: must be one of/);
    expect((await api.patch(`${ORG}/members/u_frank`, {})).body.error.message).toBe('role: required');
    expect((await api.post(`${ORG}/members/u_frank/sso`)).body.sso).toBe(true);
    expect((await api.patch(`${ORG}/members/u_bob`, { role: 'read' })).status).toBe(200);
    const last = await api.patch(`${ORG}/members/u_alice`, { role: 'read' });
    expect(last.status).toBe(400);
    expect(last.body.error.message).toMatch(/at least one admin/);
  });

  it('removes a member (205, then 204) and takes them out of their teams', async () => {
    const api = await start();
    expect((await api.del(`${ORG}/members/u_heidi`)).status).toBe(205);
    expect((await api.del(`${ORG}/members/u_heidi`)).status).toBe(204);
    const legacy = [...api.emu.world.orgs.get('org_acme')!.teams.values()][0];
    expect([...legacy.members.keys()]).toEqual(['u_alice']);
  });

  it('answers 202 to a removal that is only a request to the admins (memberRemoval / removal in the state file), leaving the member', async () => {
    const state = demoState();
    const acme = state.organizations![0] as any;
    acme.memberRemoval = 'request';
    acme.members.find((m: any) => m.user === 'u_bob').removal = 'immediate';
    const api = await start({ state });
    const r = await api.del(`${ORG}/members/u_heidi`);
    expect(r.status).toBe(202);
    expect(r.body).toBeUndefined();
    expect(api.emu.world.orgs.get('org_acme')!.members.has('u_heidi')).toBe(true);
    expect((await api.del(`${ORG}/members/u_heidi`)).status).toBe(202);
    expect((await api.del(`${ORG}/members/u_bob`)).status).toBe(205);
    expect((await api.del(`${ORG}/members/u_bob`)).status).toBe(204);
  });

  it('lists a member’s teams and spaces', async () => {
    const api = await start();
    const teams = await api.all(`${ORG}/members/u_heidi/teams`);
    expect(teams).toEqual([{ team: expect.objectContaining({ title: 'Legacy' }), member: { role: 'member' } }]);
    const spaces = await api.all(`${ORG}/members/u_heidi/spaces?order=asc`);
    expect(spaces[0]).toMatchObject({ permission: 'read', space: { id: 'space_guides' } });
  });
});

describe('teams', () => {
  it('creates, gets, renames, filters and deletes teams', async () => {
    const api = await start();
    const created = await api.put(`${ORG}/teams`, { title: 'Engineering', members: ['u_bob', 'carol@acme.com'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'team', title: 'Engineering', members: 2, spaces: 0, permissions: { admin: true, view: true } });
    const id = created.body.id;
    expect((await api.get(`${ORG}/teams/${id}`)).body.title).toBe('Engineering');
    expect((await api.patch(`${ORG}/teams/${id}`, { title: 'Eng' })).body.title).toBe('Eng');
    expect((await api.all(`${ORG}/teams?title=ENG`)).map((t) => t.id)).toEqual([id]);
    expect((await api.del(`${ORG}/teams/${id}`)).status).toBe(205);
    expect((await api.del(`${ORG}/teams/${id}`)).status).toBe(204);
    expect((await api.get(`${ORG}/teams/${id}`)).status).toBe(404);
  });

  it('filters teams by the member who can manage them', async () => {
    const api = await start();
    const t = (await api.put(`${ORG}/teams`, { title: 'Support' })).body;
    await api.put(`${ORG}/teams/${t.id}/members`, { memberships: { u_erin: { role: 'owner' } } });
    expect((await api.all(`${ORG}/teams?owner=u_erin`)).map((x) => x.title)).toEqual(['Support']);
    expect((await api.all(`${ORG}/teams?owner=u_alice`)).map((x) => x.title)).toEqual(['Legacy', 'Support']);
    expect(await api.all(`${ORG}/teams?owner=u_frank`)).toEqual([]);
  });

  it('enforces the team title limits and the members being members', async () => {
    const api = await start();
    expect((await api.put(`${ORG}/teams`, {})).body.error.message).toBe('title: required');
    expect((await api.put(`${ORG}/teams`, { title: '' })).body.error.message).toBe('title: must not be empty');
    expect((await api.put(`${ORG}/teams`, { title: 'x'.repeat(65) })).body.error.message).toBe('title: at most 64 characters');
    expect((await api.put(`${ORG}/teams`, { title: 'x'.repeat(64) })).status).toBe(201);
    const team = [...api.emu.world.orgs.get('org_acme')!.teams.values()][0];
    expect((await api.patch(`${ORG}/teams/${team.id}`, {})).body.error.message).toBe('title: required');
    const r = await api.put(`${ORG}/teams`, { title: 'Ghosts', members: ['u_ghost'] });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('members[0]: u_ghost is not a member of organization org_acme');
  });

  it('changes team membership by add, remove and memberships; a user in add and remove is removed', async () => {
    const api = await start();
    const t = (await api.put(`${ORG}/teams`, { title: 'Eng' })).body;
    const path = `${ORG}/teams/${t.id}/members`;
    const r = await api.put(path, { add: ['u_bob', 'carol@acme.com', 'u_dave'], memberships: { u_bob: { role: 'owner' } }, remove: ['u_dave'] });
    expect(r.status).toBe(204);
    let members = await api.all(path);
    expect(members.map((m) => [m.organization.id, m.team.role])).toEqual([
      ['u_bob', 'owner'],
      ['u_carol', 'member'],
    ]);
    expect(members[0]).toMatchObject({ organization: { object: 'member', user: { email: 'bob@acme.com' } }, permissions: { view: true } });
    expect((await api.put(`${path}/u_erin`, { role: 'owner' })).status).toBe(204);
    expect((await api.put(`${path}/u_carol`, {})).status).toBe(204);
    expect((await api.del(`${path}/u_bob`)).status).toBe(205);
    expect((await api.del(`${path}/u_bob`)).status).toBe(204);
    members = await api.all(path);
    expect(members.map((m) => [m.organization.id, m.team.role])).toEqual([
      ['u_carol', 'member'],
      ['u_erin', 'owner'],
    ]);
    const bad = await api.put(path, { add: ['u_ghost'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^add\[0\]: u_ghost is not a member/);
    expect((await api.put(path, { memberships: { u_bob: { role: 'boss' } } })).body.error.message).toMatch(/^memberships\.u_bob\.role: must be one of/);
    expect((await api.get(`${ORG}/teams/team_nope/members`)).status).toBe(404);
  });

  it('clears a deleted team from the SAML provider that had it as default team', async () => {
    const api = await start();
    const team = (await api.put(`${ORG}/teams`, { title: 'Eng' })).body;
    const saml = (await api.post(`${ORG}/saml`, { label: 'Okta', defaultTeam: team.id })).body;
    expect(saml.defaultTeam).toMatchObject({ object: 'team', id: team.id, title: 'Eng' });
    await api.del(`${ORG}/teams/${team.id}`);
    expect((await api.get(`${ORG}/saml/${saml.id}`)).body).not.toHaveProperty('defaultTeam');
  });

  it('keeps each organization apart', async () => {
    const state = demoState();
    const api = await start({ state });
    expect((await api.all('/v1/orgs/org_globex/members')).map((m) => m.id)).toEqual(['u_alice']);
    expect(await api.all('/v1/orgs/org_globex/teams')).toEqual([]);
  });
});
