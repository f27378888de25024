import { describe, expect, it } from 'vitest';
import { parseErrorLine } from './base.js';

describe('parseErrorLine', () => {
  it('keeps what matters of an oclif parse error', () => {
    expect(parseErrorLine('The following error occurred:\n  Missing required flag org\nSee more help with --help')).toBe('Missing required flag org');
    expect(parseErrorLine('The following errors occurred:\n  Missing required flag a\n  Missing required flag b\nSee more help with --help')).toBe(
      'Missing required flag a; Missing required flag b',
    );
    expect(parseErrorLine('Nonexistent flag: --bogus\nSee more help with --help')).toBe('Nonexistent flag: --bogus');
  });
});
