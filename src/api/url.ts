/**
 * The API base URL: `--api-url`, env DOCPLANE_API_URL or the config's `api.url`. The
 * client appends the API's `/v1/...` paths, so a trailing `/` or `/v1` is taken off here. Plain
 * http would send the bearer token in clear text, so it is allowed only to this machine.
 */
import { isIP } from 'node:net';
import { DocplaneError } from '../core/errors.js';

const HINT = 'Pass a base URL such as https://api.example.com or, for the emulator, http://127.0.0.1:4010.';

/** Whether a URL hostname (as `new URL()` gives it) names this machine: 127.0.0.0/8, localhost, [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost') return true;
  if (host === '[::1]') return true;
  // Only a literal IPv4 address counts: `127.0.0.1.example.com` is a remote name.
  return isIP(host) === 4 && host.startsWith('127.');
}

/** The base URL to which the client appends `/v1/...` paths; its pathname is `/` or a prefix without a trailing `/`. */
export function resolveApiUrl(value: string): URL {
  const text = value.trim();
  if (!text) throw new DocplaneError('API_URL_INVALID', 'the API URL is empty', { hint: HINT });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new DocplaneError('API_URL_INVALID', `the API URL ${JSON.stringify(shorten(text))} is not a URL`, { hint: HINT });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new DocplaneError('API_URL_INVALID', `the API URL must start with https:// (got ${url.protocol}//)`, { hint: HINT });
  }
  if (url.username || url.password) {
    // Never echo the URL here: what is in it may be a password.
    throw new DocplaneError('API_URL_INVALID', 'the API URL must not hold a user name or password', {
      hint: 'Give the token through env DOCPLANE_TOKEN or --token-file instead.',
    });
  }
  if (url.search || url.hash) {
    throw new DocplaneError('API_URL_INVALID', `the API URL ${url.origin}${url.pathname} must not have a query string or fragment`, {
      hint: HINT,
    });
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new DocplaneError('API_URL_INSECURE', `plain http is refused for ${url.origin}: the token would travel unencrypted`, {
      hint: 'Use https://, or plain http only to a loopback address (127.0.0.1, localhost, [::1]) such as the emulator.',
    });
  }
  url.pathname = stripApiSuffix(url.pathname);
  return url;
}

/** `/`, `/v1`, `/v1/`, `/prefix/v1/` → `` or `/prefix`. */
function stripApiSuffix(pathname: string): string {
  let path = pathname.replace(/\/+$/, '');
  if (path.endsWith('/v1')) path = path.slice(0, -'/v1'.length);
  return path.replace(/\/+$/, '');
}

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
