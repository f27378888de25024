import { describe, expect, it } from 'vitest';
import { parseErrorLine, withFlagSuggestion } from './base.js';

describe('parseErrorLine', () => {
  it('keeps what matters of an oclif parse error', () => {
    expect(parseErrorLine('The following error occurred:\n  Missing required flag org\nSee more help with --help')).toBe('Missing required flag org');
    expect(parseErrorLine('The following errors occurred:\n  Missing required flag a\n  Missing required flag b\nSee more help with --help')).toBe(
      'Missing required flag a; Missing required flag b',
    );
    expect(parseErrorLine('Nonexistent flag: --bogus\nSee more help with --help')).toBe('Nonexistent flag: --bogus');
  });
});

describe('withFlagSuggestion', () => {
  it('names the closest flag of the command beside a mistyped one', () => {
    expect(withFlagSuggestion('Nonexistent flag: --fromat', ['format', 'config', 'out'])).toBe('Nonexistent flag: --fromat — did you mean "--format"?');
    expect(withFlagSuggestion('Nonexistent flags: --fromat, --cnofig', ['format', 'config'])).toBe(
      'Nonexistent flags: --fromat, --cnofig — did you mean "--format" for "--fromat"?; did you mean "--config" for "--cnofig"?',
    );
  });

  it('leaves the line alone when nothing is close, and other errors untouched', () => {
    expect(withFlagSuggestion('Nonexistent flag: --zzzzzz', ['format'])).toBe('Nonexistent flag: --zzzzzz');
    expect(withFlagSuggestion('Missing required flag org', ['org'])).toBe('Missing required flag org');
  });
});
