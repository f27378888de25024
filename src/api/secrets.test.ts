/**
 * Secrets at the edges of the client: the run's registry (the config's secrets and the ids the API
 * answered that are credentials) masks what the client shows of a request — its log lines, and an
 * API error's text however the API quoted the secret: as sent, percent-encoded, in another case, or
 * base64-encoded. The action copies an apply's ✗ lines (these errors) into a pull request's comment.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/errors.js';
import { createSecretRegistry, maskSecrets, type SecretRegistry } from '../core/secrets.js';
import { clientTests, sendJson } from './test-server.js';

const TOKEN = 'tok-secret-123456';
const { setup } = clientTests({ token: TOKEN });

const SECRET = 'Sup3r-Secret/Value+1';

/** The error a request ends with when the API answers 400 with `message`. */
async function errorQuoting(message: string, secrets: SecretRegistry | undefined = createSecretRegistry([{ name: 'env:KEY', value: SECRET }])): Promise<{ error: ApiError; lines: string[] }> {
  const { client, lines } = await setup((_req, res) => sendJson(res, 400, { error: { code: 400, message } }), { ...(secrets ? { secrets } : {}), maxAttempts: 1 });
  const error = await client.request('POST', '/v1/orgs/o/things', { body: { value: SECRET } }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return { error: error as ApiError, lines };
}

describe("the API's error text is masked in every form of every secret", () => {
  const forms: Array<[string, string]> = [
    ['raw', SECRET],
    ['percent-encoded', encodeURIComponent(SECRET)],
    ['upper-cased', SECRET.toUpperCase()],
    ['lower-cased', SECRET.toLowerCase()],
    ['base64', Buffer.from(SECRET).toString('base64')],
    ['base64 without padding', Buffer.from(SECRET).toString('base64').replace(/=+$/, '')],
    ['base64url', Buffer.from(SECRET).toString('base64url')],
  ];
  it.each(forms)('a config secret quoted %s', async (_form, quoted) => {
    const { error } = await errorQuoting(`invalid value "${quoted}" for field value`);
    expect(error.message).not.toContain(quoted);
    expect(error.message).toContain('(sensitive)');
    expect(error.message).toContain('for field value');
  });

  it.each([
    ['upper-cased', TOKEN.toUpperCase()],
    ['base64', Buffer.from(TOKEN).toString('base64')],
    ['base64url', Buffer.from(TOKEN).toString('base64url')],
  ])('the token quoted %s (a client with no registry of the run)', async (_form, quoted) => {
    const { error } = await errorQuoting(`the credential ${quoted} is not allowed`, undefined);
    expect(error.message.toLowerCase()).not.toContain(TOKEN.toLowerCase());
    expect(error.message).not.toContain(quoted);
  });

  it('an id the client concealed during the run, however short, in the error and the log lines', async () => {
    const secrets = createSecretRegistry();
    const { client, lines } = await setup((_req, res) => sendJson(res, 404, { error: { code: 404, message: 'no invite link AB1 (ab1)' } }), { secrets, maxAttempts: 1 });
    client.conceal?.({ name: 'invite-link:o/space:s#1', value: 'ab1' });
    const error = (await client.request('DELETE', '/v1/orgs/o/invite-links/ab1').catch((e: unknown) => e)) as ApiError;
    expect(error.message).not.toMatch(/ab1/i);
    expect(error.message).toContain('/v1/orgs/o/invite-links/(sensitive)');
    expect(lines.join('\n')).not.toMatch(/invite-links\/ab1/i);
    // The registry is the run's: what the client concealed is there for the renderings and the plan file.
    expect(maskSecrets({ path: '/v1/orgs/o/invite-links/ab1' }, secrets.list())).toEqual({ path: '/v1/orgs/o/invite-links/(sensitive)' });
  });
});
