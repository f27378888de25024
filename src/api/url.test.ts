import { describe, expect, it } from 'vitest';
import { DocplaneError } from '../core/errors.js';
import { isLoopbackHost, resolveApiUrl } from './url.js';

describe('resolveApiUrl', () => {
  it.each([
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/'],
    ['http://127.0.0.1:4010/', 'http://127.0.0.1:4010/'],
    ['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/'],
    ['http://127.0.0.1:4010/v1/', 'http://127.0.0.1:4010/'],
    ['  http://127.0.0.1:4010  ', 'http://127.0.0.1:4010/'],
    ['http://127.5.6.7:80', 'http://127.5.6.7/'],
    ['http://localhost:4010', 'http://localhost:4010/'],
    ['http://LOCALHOST:4010/v1', 'http://localhost:4010/'],
    ['http://[::1]:4010', 'http://[::1]:4010/'],
    ['https://api.example.com', 'https://api.example.com/'],
    ['https://api.example.com/v1', 'https://api.example.com/'],
    ['https://example.com/gateway/v1/', 'https://example.com/gateway'],
    ['https://example.com/gateway', 'https://example.com/gateway'],
  ])('accepts %j as %s', (input, expected) => {
    expect(resolveApiUrl(input).href).toBe(expected);
  });

  it.each([
    ['http://api.example.com', 'API_URL_INSECURE'],
    ['http://10.0.0.1:4010', 'API_URL_INSECURE'],
    ['http://127.0.0.1.example.com', 'API_URL_INSECURE'],
    ['http://localhost.example.com', 'API_URL_INSECURE'],
    ['http://[::2]', 'API_URL_INSECURE'],
    ['', 'API_URL_INVALID'],
    ['127.0.0.1:4010', 'API_URL_INVALID'],
    ['not a url', 'API_URL_INVALID'],
    ['ftp://127.0.0.1', 'API_URL_INVALID'],
    ['https://api.example.com/?x=1', 'API_URL_INVALID'],
    ['https://user:hunter2@api.example.com', 'API_URL_INVALID'],
  ])('refuses %j (%s)', (input, code) => {
    let caught: unknown;
    try {
      resolveApiUrl(input);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(DocplaneError);
    expect((caught as DocplaneError).code).toBe(code);
    expect((caught as DocplaneError).hint).toBeTruthy();
  });

  it('explains why plain http is refused', () => {
    expect(() => resolveApiUrl('http://api.example.com')).toThrow('plain http is refused for http://api.example.com');
  });

  it('does not echo a password in the URL', () => {
    expect(() => resolveApiUrl('https://user:hunter2@api.example.com')).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['localhost', true],
    ['localhost.', true],
    ['[::1]', true],
    ['128.0.0.1', false],
    ['127.0.0.1.nip.io', false],
    ['example.com', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});
