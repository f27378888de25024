/**
 * From the common flags to an API client: the URL from --api-url (oclif maps env
 * DOCPLANE_API_URL into it) or the config's `api.url`; the token from env DOCPLANE_TOKEN or
 * --token-file, never from a flag value. Everything a user can get wrong here is a DocplaneError
 * with a hint that names the ways to fix it.
 */
import { readFile } from 'node:fs/promises';
import { createClient } from '../api/client.js';
import type { ApiClient } from '../api/types.js';
import { resolveApiUrl } from '../api/url.js';
import { DocplaneError } from '../core/errors.js';
import type { SecretRegistry } from '../core/secrets.js';

export interface ApiFlags {
  'api-url'?: string;
  'token-file'?: string;
  concurrency: number;
  /** Seconds. */
  timeout: number;
  /** Seconds. */
  'max-wait'?: number;
  /** MiB. */
  'max-answer-size'?: number;
  'max-list-pages'?: number;
  'max-list-items'?: number;
  'max-rps'?: number;
  verbose: boolean;
}

const TOKEN_HINT = 'Set env DOCPLANE_TOKEN to the token, or pass --token-file FILE naming a file that holds it.';

/** The client of a run; `secrets`: the run's, which the client masks its log lines and errors with. */
export async function clientFromFlags(flags: ApiFlags, configApiUrl?: string, log?: (line: string) => void, secrets?: SecretRegistry): Promise<ApiClient> {
  const url = flags['api-url'] ?? configApiUrl;
  if (url === undefined || url.trim() === '') {
    throw new DocplaneError('API_URL_MISSING', 'no API URL given', {
      hint: 'Pass --api-url, set env DOCPLANE_API_URL, or set api.url in the config (for the emulator: http://127.0.0.1:4010).',
    });
  }
  // Checked before the token is read, so that a wrong URL is reported as such.
  resolveApiUrl(url);
  const token = await readToken(flags['token-file']);
  return createClient({
    baseUrl: url,
    token,
    ...(secrets ? { secrets } : {}),
    timeoutMs: flags.timeout * 1000,
    ...(flags['max-wait'] === undefined ? {} : { maxWaitMs: flags['max-wait'] * 1000 }),
    ...(flags['max-answer-size'] === undefined ? {} : { maxAnswerBytes: flags['max-answer-size'] * 1024 * 1024 }),
    ...(flags['max-list-pages'] === undefined ? {} : { maxListPages: flags['max-list-pages'] }),
    ...(flags['max-list-items'] === undefined ? {} : { maxListItems: flags['max-list-items'] }),
    connections: flags.concurrency,
    maxRps: flags['max-rps'],
    log: flags.verbose ? (log ?? ((line) => process.stderr.write(`${line}\n`))) : undefined,
  });
}

/**
 * The token: the --token-file when given (an explicit flag beats the environment, as with --api-url),
 * else env DOCPLANE_TOKEN, trimmed.
 */
export async function readToken(tokenFile: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (tokenFile === undefined) {
    const fromEnv = env.DOCPLANE_TOKEN?.trim();
    if (fromEnv) return fromEnv;
    throw new DocplaneError('TOKEN_MISSING', 'no API token given', { hint: TOKEN_HINT });
  }
  let text: string;
  try {
    text = await readFile(tokenFile, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : (code ?? 'unreadable');
    throw new DocplaneError('TOKEN_FILE_UNREADABLE', `cannot read the token file ${tokenFile}: ${why}`, { hint: TOKEN_HINT });
  }
  const token = text.trim();
  if (token === '') {
    throw new DocplaneError('TOKEN_MISSING', `the token file ${tokenFile} is empty`, { hint: TOKEN_HINT });
  }
  return token;
}
