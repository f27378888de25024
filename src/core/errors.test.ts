import { describe, expect, it } from 'vitest';
import { ApiError, ConfigError, formatConfigIssue } from './errors.js';
import { fromSecretPlaceholders, maskSecrets, toSecretPlaceholders } from './secrets.js';

describe('errors', () => {
  it('an API error names method, path, status and message', () => {
    const e = new ApiError('PATCH', '/v1/orgs/o/teams/t', 400, 'title: too long');
    expect(e.message).toBe('PATCH /v1/orgs/o/teams/t → 400: title: too long');
    expect(e.exitCode).toBe(1);
  });
  it('a config issue reads file:line:column', () => {
    expect(formatConfigIssue({ file: 'a.yaml', line: 3, column: 5, path: 'teams[0].title', message: 'too long' })).toBe(
      'a.yaml:3:5: teams[0].title: too long',
    );
    expect(new ConfigError([{ file: 'a.yaml', line: 1, column: 1, path: '', message: 'x' }]).issues).toHaveLength(1);
  });
});

describe('secrets', () => {
  const secrets = [{ name: 'env:KEY', value: 's3cr3t-value' }];
  it('masks whole and embedded values', () => {
    expect(maskSecrets({ a: 's3cr3t-value', b: ['x s3cr3t-value y'] }, secrets)).toEqual({ a: '(sensitive)', b: ['x (sensitive) y'] });
  });
  it('round-trips placeholders', () => {
    const p = toSecretPlaceholders({ a: 's3cr3t-value' }, secrets);
    expect(p).toEqual({ a: '{{secret:env:KEY}}' });
    expect(fromSecretPlaceholders(p, secrets)).toEqual({ a: 's3cr3t-value' });
    expect(() => fromSecretPlaceholders(p, [])).toThrow(/env:KEY/);
  });
});
