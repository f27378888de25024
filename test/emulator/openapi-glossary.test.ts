/** The emulator's OpenAPI specs and translation glossary routes, as the live description answers. */
import { describe, expect, it } from 'vitest';
import { refusedRequestsExpected } from '../conformance/session.js';
import { ORG, useEmulator } from './helpers.js';

refusedRequestsExpected('the emulator\'s own tests send bad requests on purpose');
const start = useEmulator();

describe('OpenAPI specs (emulator)', () => {
  it('PUT by slug creates (201) then makes a new version (200); the raw text is the text sent; PATCH sets the visibility', async () => {
    const api = await start();
    const made = await api.put(`${ORG}/openapi/billing`, { source: { text: 'openapi: 3.1.0\n' } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ object: 'openapi-spec', slug: 'billing', visibility: 'private', processingState: 'complete', lastProcessedErrorCount: 0 });
    expect(made.body.sourceURL).toBeUndefined();
    const again = await api.put(`${ORG}/openapi/billing`, { source: { text: '{"openapi": "3.1.0"}' } });
    expect(again.status).toBe(200);
    expect(again.body.lastVersion).not.toBe(made.body.lastVersion);
    expect((await api.get(`${ORG}/openapi/billing/versions/latest/content/raw`)).body).toEqual({ text: '{"openapi": "3.1.0"}', format: 'json' });
    expect((await api.all(`${ORG}/openapi/billing/versions`)).map((v) => v.id)).toEqual([again.body.lastVersion, made.body.lastVersion]);
    const patched = await api.patch(`${ORG}/openapi/billing`, { visibility: 'public' });
    expect(patched.body).toMatchObject({ visibility: 'public', urls: { published: expect.any(String) } });
    // The demo world's spec from a URL: never fetched, so it has no raw text.
    expect((await api.get(`${ORG}/openapi/legacy-api`)).body.sourceURL).toBe('https://legacy.acme.example/openapi.json');
    expect((await api.get(`${ORG}/openapi/legacy-api/versions/latest/content/raw`)).status).toBe(404);
  });

  it('refuses a bad slug, an unknown source, a second POST of a slug; 404 for a missing spec; DELETE 205 then 204', async () => {
    const api = await start();
    expect((await api.put(`${ORG}/openapi/Bad_Slug`, { source: { url: 'https://x.example/a.json' } })).status).toBe(400);
    expect((await api.put(`${ORG}/openapi/ok`, { source: { file: 'a.yaml' } })).status).toBe(400);
    expect((await api.post(`${ORG}/openapi`, { slug: 'legacy-api', source: { text: 'x: 1' } })).status).toBe(400);
    expect((await api.patch(`${ORG}/openapi/nope`, { visibility: 'public' })).status).toBe(404);
    expect((await api.del(`${ORG}/openapi/legacy-api`)).status).toBe(205);
    expect((await api.del(`${ORG}/openapi/legacy-api`)).status).toBe(204);
  });

  it('a text that does not parse is processed with PARSE_ERROR', async () => {
    const api = await start();
    const made = await api.put(`${ORG}/openapi/broken`, { source: { text: '{ "openapi": ' } });
    expect(made.body).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrorCount: 1 });
  });
});

describe('translation glossary (emulator)', () => {
  it('lists the entries, applies a batch (204), and refuses a batch naming an unknown id without changing anything', async () => {
    const api = await start();
    const path = `${ORG}/translations-glossary`;
    expect((await api.all(path)).map((e) => e.translations)).toEqual([{ en: 'Workspace', fr: 'Espace' }]);
    const batch = await api.put(path, { operations: [{ type: 'insert', translations: { en: 'API', de: 'API' } }, { type: 'delete', id: 'gle_acme_workspace' }] });
    expect(batch.status).toBe(204);
    const entries = await api.all(path);
    expect(entries).toEqual([expect.objectContaining({ object: 'glossary-entry', translations: { en: 'API', de: 'API' } })]);
    expect((await api.get(`${path}/${entries[0].id}`)).body.id).toBe(entries[0].id);
    const refused = await api.put(path, { operations: [{ type: 'insert', translations: { en: 'Kept' } }, { type: 'update', id: 'gle_none', translations: { en: 'X' } }] });
    expect(refused.status).toBe(400);
    expect(await api.all(path)).toHaveLength(1);
    expect((await api.put(path, { operations: [{ type: 'insert', translations: { en: 'two\nlines' } }] })).status).toBe(400);
    expect((await api.get(`${path}/gle_none`)).status).toBe(404);
  });

  it('orders by a language\'s term with orderBy; a read-only token cannot write', async () => {
    const api = await start();
    const path = `${ORG}/translations-glossary`;
    await api.put(path, { operations: [{ type: 'insert', translations: { en: 'Alpha', fr: 'Zèbre' } }] });
    expect((await api.all(`${path}?orderBy=fr`)).map((e) => e.translations.fr)).toEqual(['Espace', 'Zèbre']);
    expect((await api.get(`${path}?orderBy=xx`)).status).toBe(400);
    const read = await start(undefined, 'read-token');
    expect((await read.put(path, { operations: [] })).status).toBe(403);
  });
});
