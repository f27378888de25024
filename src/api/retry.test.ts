import { describe, expect, it } from 'vitest';
import { backoffDelay, describeNetworkError, exhaustedFor, isRetryableStatus, parseRateLimitReset, parseRetryAfter, requestedWait } from './retry.js';

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);

describe('isRetryableStatus', () => {
  it.each([
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [404, false],
    [409, false],
  ])('%i → %s', (status, expected) => expect(isRetryableStatus(status)).toBe(expected));
});

describe('backoffDelay', () => {
  it('grows exponentially with the attempt, full jitter below the ceiling', () => {
    const top = () => 0.999999;
    expect(backoffDelay(1, 200, 60_000, top)).toBe(199);
    expect(backoffDelay(2, 200, 60_000, top)).toBe(399);
    expect(backoffDelay(4, 200, 60_000, top)).toBe(1599);
    expect(backoffDelay(3, 200, 60_000, () => 0)).toBe(0);
    expect(backoffDelay(3, 200, 60_000, () => 0.5)).toBe(400);
  });

  it('never exceeds maxWaitMs', () => {
    expect(backoffDelay(30, 200, 1000, () => 0.999999)).toBe(999);
  });
});

describe('parseRetryAfter', () => {
  it.each([
    ['1', 1000],
    ['0', 0],
    [' 2 ', 2000],
    ['1.5', 1500],
    [new Date(NOW + 3000).toUTCString(), 3000],
    [new Date(NOW - 3000).toUTCString(), 0],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%j → %j', (value, expected) => expect(parseRetryAfter(value, NOW)).toBe(expected));
});

describe('parseRateLimitReset', () => {
  it.each([
    ['1', 1000],
    ['30', 30_000],
    [String(NOW / 1000 + 5), 5000],
    [String(NOW / 1000 - 5), 0],
    [String(NOW + 7000), 7000],
    ['x', undefined],
    [undefined, undefined],
  ])('%j → %j', (value, expected) => expect(parseRateLimitReset(value, NOW)).toBe(expected));
});

describe('requestedWait', () => {
  it('prefers Retry-After, then X-RateLimit-Reset on a 429', () => {
    expect(requestedWait(429, { 'retry-after': '2', 'x-ratelimit-reset': '9' }, NOW)).toBe(2000);
    expect(requestedWait(429, { 'x-ratelimit-reset': '9' }, NOW)).toBe(9000);
    expect(requestedWait(429, {}, NOW)).toBeUndefined();
  });

  it('honours Retry-After on a 503 but not the rate-limit reset', () => {
    expect(requestedWait(503, { 'retry-after': '3' }, NOW)).toBe(3000);
    expect(requestedWait(503, { 'x-ratelimit-reset': '9' }, NOW)).toBeUndefined();
  });

  it('asks nothing of other statuses', () => {
    expect(requestedWait(500, { 'retry-after': '3' }, NOW)).toBeUndefined();
  });
});

describe('exhaustedFor', () => {
  it('waits for the reset only when nothing remains', () => {
    expect(exhaustedFor({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2' }, NOW)).toBe(2000);
    expect(exhaustedFor({ 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '2' }, NOW)).toBeUndefined();
    expect(exhaustedFor({ 'x-ratelimit-remaining': '0' }, NOW)).toBeUndefined();
    expect(exhaustedFor({ 'x-ratelimit-reset': '2' }, NOW)).toBeUndefined();
  });
});

describe('describeNetworkError', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  it.each([
    [withCode('ECONNRESET'), 'connection reset', true],
    [withCode('UND_ERR_SOCKET', 'other side closed'), 'connection closed by the server', true],
    [withCode('ECONNREFUSED'), 'connection refused', true],
    [withCode('UND_ERR_HEADERS_TIMEOUT'), 'timed out after 250 ms', true],
    [withCode('UND_ERR_BODY_TIMEOUT'), 'timed out after 250 ms', true],
    [withCode('UND_ERR_CONNECT_TIMEOUT'), 'timed out connecting', true],
    [withCode('ENOTFOUND'), 'host not found', false],
    [withCode('UND_ERR_CLOSED'), 'the client was closed', false],
    [withCode('CERT_HAS_EXPIRED'), 'TLS failure (CERT_HAS_EXPIRED)', false],
    [Object.assign(new Error('fetch failed'), { cause: withCode('ECONNRESET') }), 'connection reset', true],
    [new Error('Bearer secret'), 'network error', true],
  ])('%s', (err, description, retryable) => {
    const failure = describeNetworkError(err, 250);
    expect({ description: failure.description, retryable: failure.retryable }).toEqual({ description, retryable });
    // Timeouts, and only they, count towards the breaker.
    expect(failure.timedOut === true).toBe(/timed out/.test(description));
  });
});
