/** SAML providers and SSO (API 4.3), translations (4.4), integrations (4.13). */
import { describe, expect, it } from 'vitest';
import { sameDocument, textToDocument } from '../../src/core/richtext.js';
import { ORG, useEmulator } from './helpers.js';
import { refusedRequestsExpected } from '../conformance/session.js';

// Bad requests on purpose: their refusals are not checked (docs/conformance.md).
refusedRequestsExpected('the emulator\'s own tests send bad requests on purpose');

const start = useEmulator();

describe('SAML providers', () => {
  it('lists the seeded provider, creates, gets, patches and deletes one', async () => {
    const api = await start();
    const list = await api.all(`${ORG}/saml`);
    expect(list).toEqual([
      expect.objectContaining({ object: 'saml-provider', label: 'Old IdP', entityID: 'urn:old', ssoURL: 'https://idp.example/sso', certificate: '', status: 'active' }),
    ]);
    // defaultTeam is a team object or absent, never null (OrganizationSAMLProvider).
    expect(list[0]).not.toHaveProperty('defaultTeam');
    const team = (await api.put(`${ORG}/teams`, { title: 'Engineering' })).body;
    const created = await api.post(`${ORG}/saml`, {
      label: 'Okta',
      entityID: 'http://www.okta.com/exk123',
      ssoURL: 'https://acme.okta.com/app/sso/saml',
      certificate: 'MIIC...',
      defaultTeam: team.id,
      defaultRole: 'read',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ label: 'Okta', defaultTeam: { object: 'team', id: team.id, title: 'Engineering' }, defaultRole: 'read', service: { acsURL: expect.any(String) } });
    const id = created.body.id;
    expect((await api.get(`${ORG}/saml/${id}`)).body.label).toBe('Okta');
    expect(created.body.status).toBe('active');
    // `defaultTeam: null` is refused, as the live service does (a string, not nullable).
    const nullTeam = await api.patch(`${ORG}/saml/${id}`, { defaultTeam: null });
    expect(nullTeam.status).toBe(400);
    expect(nullTeam.body.error.message).toMatch(/^defaultTeam: /);
    const patched = await api.patch(`${ORG}/saml/${id}`, { defaultRole: null, label: 'Okta 2' });
    expect(patched.body).toMatchObject({ label: 'Okta 2', defaultTeam: { id: team.id }, defaultRole: null, entityID: 'http://www.okta.com/exk123' });
    // A provider made with a label only is pending, with the required fields present.
    const bare = await api.post(`${ORG}/saml`, { label: 'Bare' });
    expect(bare.body).toMatchObject({ status: 'pending', entityID: '', certificate: '', ssoURL: expect.stringMatching(/^https:\/\/idp\.invalid\//) });
    await api.del(`${ORG}/saml/${bare.body.id}`);
    const sso = await api.get(`${ORG}/sso`);
    expect(sso.body).toEqual({ items: [expect.objectContaining({ label: 'Old IdP', startURL: expect.any(String) }), expect.objectContaining({ id, label: 'Okta 2' })] });
    expect((await api.del(`${ORG}/saml/${id}`)).status).toBe(205);
    expect((await api.del(`${ORG}/saml/${id}`)).status).toBe(204);
    expect((await api.get(`${ORG}/saml/${id}`)).status).toBe(404);
  });

  it('enforces the SAML limits of the API description, naming the field', async () => {
    const api = await start();
    const cases: [unknown, string][] = [
      [{}, 'label: required'],
      [{ label: '' }, 'label: must not be empty'],
      [{ label: 'x'.repeat(31) }, 'label: at most 30 characters'],
      [{ label: 'L', entityID: 'x'.repeat(1025) }, 'entityID: at most 1024 characters'],
      [{ label: 'L', certificate: 'x'.repeat(10001) }, 'certificate: at most 10000 characters'],
      [{ label: 'L', ssoURL: 'not a uri' }, 'ssoURL: must be a valid URI'],
      [{ label: 'L', ssoURL: `https://x.test/${'a'.repeat(2040)}` }, 'ssoURL: at most 2048 characters'],
      [{ label: 'L', defaultTeam: 'team_nope' }, 'defaultTeam: no team team_nope in organization org_acme'],
      [{ label: 'L', defaultRole: 'owner' }, 'defaultRole: must be one of'],
    ];
    for (const [body, message] of cases) {
      const r = await api.post(`${ORG}/saml`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toContain(message);
    }
    expect((await api.post(`${ORG}/saml`, { label: 'x'.repeat(30), certificate: 'x'.repeat(10000) })).status).toBe(201);
  });
});

describe('translations', () => {
  it('creates, gets, updates instructions, runs and deletes a translation', async () => {
    const api = await start();
    const doc = textToDocument('Keep product names in English.');
    const r = await api.post(`${ORG}/translations`, { language: 'fr', source: { space: 'space_guides', language: 'en' }, instructions: doc });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ object: 'translation', status: 'pending', language: 'fr', source: { space: 'space_guides', language: 'en' }, stats: { runs: 0 } });
    expect(r.body.instructions.nodes[0].key).toEqual(expect.any(String));
    expect(sameDocument(r.body.instructions, doc)).toBe(true);
    const id = r.body.id;
    const put = await api.put(`${ORG}/translations/${id}`, { instructions: textToDocument('Formal tone.') });
    expect(sameDocument(put.body.instructions, 'Formal tone.')).toBe(true);
    expect((await api.post(`${ORG}/translations/${id}/run`)).status).toBe(204);
    expect((await api.get(`${ORG}/translations/${id}`)).body.stats.runs).toBe(1);
    expect((await api.all(`${ORG}/translations`)).map((t) => t.id)).toEqual([id]);
    expect((await api.del(`${ORG}/translations/${id}`)).status).toBe(205);
    expect((await api.del(`${ORG}/translations/${id}`)).status).toBe(204);
    expect((await api.post(`${ORG}/translations/${id}/run`)).status).toBe(404);
  });

  it('requires language and source on create and instructions on PUT', async () => {
    const api = await start();
    expect((await api.post(`${ORG}/translations`, { source: { space: 'space_guides', language: 'en' } })).body.error.message).toBe('language: required');
    expect((await api.post(`${ORG}/translations`, { language: 'fr' })).body.error.message).toBe('source: required');
    expect((await api.post(`${ORG}/translations`, { language: 'fr', source: { language: 'en' } })).body.error.message).toBe('source.space: required');
    expect((await api.post(`${ORG}/translations`, { language: 'fr', source: { space: 'space_nope', language: 'en' } })).body.error.message).toBe(
      'source.space: no space space_nope in organization org_acme',
    );
    expect((await api.post(`${ORG}/translations`, { language: 'fr', source: { space: 'space_guides', language: 'en' }, instructions: 'text' })).body.error.message).toBe(
      'instructions: must be an object',
    );
    const t = (await api.post(`${ORG}/translations`, { language: 'de', source: { space: 'space_guides', language: 'en' } })).body;
    expect((await api.put(`${ORG}/translations/${t.id}`, {})).body.error.message).toBe('instructions: required');
  });
});

describe('integrations', () => {
  const publish = (name: string, extra: Record<string, unknown> = {}) => ({
    title: 'Acme Analytics',
    description: 'Page analytics',
    script: 'export default {}',
    organization: 'org_acme',
    scopes: ['space:content:read'],
    secrets: { API_KEY: 'top-secret-value' },
    ...extra,
  });

  it('publishes (version 1, then 2), never returns script or secrets, and gets by name', async () => {
    const api = await start();
    const first = await api.post('/v1/integrations/acme-analytics', publish('acme-analytics', { categories: ['analytics'] }));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'integration', name: 'acme-analytics', version: 1, title: 'Acme Analytics', scopes: ['space:content:read'], owner: { id: 'org_acme' }, target: 'all' });
    expect(first.body).not.toHaveProperty('script');
    expect(first.body).not.toHaveProperty('secrets');
    expect(JSON.stringify(first.body)).not.toContain('top-secret-value');
    const second = await api.post('/v1/integrations/acme-analytics', publish('acme-analytics', { description: 'v2' }));
    expect(second.body).toMatchObject({ version: 2, description: 'v2', categories: [] });
    expect((await api.get('/v1/integrations/acme-analytics')).body.version).toBe(2);
    expect((await api.get('/v1/integrations/nope')).status).toBe(404);
    expect(api.emu.world.integrations.get('acme-analytics')!.secrets).toEqual({ API_KEY: 'top-secret-value' });
  });

  it('lists with the filters owner, search, category, scope and target', async () => {
    const api = await start();
    await api.post('/v1/integrations/acme-analytics', publish('a', { categories: ['analytics'] }));
    await api.post('/v1/integrations/acme-chat', publish('b', { title: 'Acme Chat', scopes: ['site:views:read'], target: 'site' }));
    await api.post('/v1/integrations/globex-x', publish('c', { title: 'Globex X', organization: 'org_globex' }));
    const names = async (q: string) => (await api.all(`/v1/integrations?${q}`)).map((i) => i.name).sort();
    expect(await names('owner=org_acme')).toEqual(['acme-analytics', 'acme-chat']);
    expect(await names('owner=org_globex')).toEqual(['globex-helpdesk', 'globex-x']);
    expect(await names('search=chat')).toEqual(['acme-chat']);
    expect(await names('category=analytics')).toEqual(['acme-analytics']);
    expect(await names('scope=site%3Aviews%3Aread')).toEqual(['acme-chat']);
    expect(await names('target=site')).toEqual(['acme-chat']);
    expect(await names('owner=org_acme&search=analytics')).toEqual(['acme-analytics']);
  });

  it('requires title, description, script, organization and scopes, with the limits of the API description', async () => {
    const api = await start();
    const full = publish('x');
    for (const field of ['title', 'description', 'script', 'organization', 'scopes']) {
      const body: Record<string, unknown> = { ...full };
      delete body[field];
      const r = await api.post('/v1/integrations/x', body);
      expect(r.status, field).toBe(400);
      expect(r.body.error.message).toBe(`${field}: required`);
    }
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 'A' }, 'title: at least 2 characters'],
      [{ title: 'x'.repeat(31) }, 'title: at most 30 characters'],
      [{ description: 'x'.repeat(101) }, 'description: at most 100 characters'],
      [{ summary: 'x'.repeat(2049) }, 'summary: at most 2048 characters'],
      [{ previewImages: ['a', 'b', 'c', 'd'] }, 'previewImages: at most 3 items'],
      [{ organization: 'org_nope' }, 'organization: no organization org_nope'],
    ];
    for (const [extra, message] of cases) {
      const r = await api.post('/v1/integrations/x', { ...full, ...extra });
      expect(r.status, message).toBe(400);
      expect(r.body.error.message).toBe(message);
    }
    const longName = await api.post(`/v1/integrations/${'n'.repeat(101)}`, full);
    expect(longName.body.error.message).toBe('integrationName: at most 100 characters');
    const badName = await api.post('/v1/integrations/bad%20name', full);
    expect(badName.body.error.message).toMatch(/^integrationName: /);
  });

  it('refuses to replace an integration another organization published', async () => {
    const api = await start();
    await api.post('/v1/integrations/shared', publish('s'));
    const r = await api.post('/v1/integrations/shared', publish('s', { organization: 'org_globex' }));
    expect(r.status).toBe(403);
  });
});
