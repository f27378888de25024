import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'docplane-atomic-'));
  dirs.push(d);
  return d;
}

describe('writeFileAtomic', () => {
  it('replaces a file whole, leaving no temporary file', () => {
    const d = dir();
    const file = join(d, 'a.yaml');
    writeFileSync(file, 'old\n');
    writeFileAtomic(file, 'new ☃\n');
    expect(readFileSync(file, 'utf8')).toBe('new ☃\n');
    expect(readdirSync(d)).toEqual(['a.yaml']);
  });

  it('says nothing was written when the folder does not exist', () => {
    const file = join(dir(), 'missing', 'p.json');
    expect(() => writeFileAtomic(file, '{}', 'the plan file ')).toThrow(`cannot write the plan file ${file}: its folder does not exist; nothing was written there`);
  });

  it('keeps the old file when the target cannot be replaced (a folder in its place)', () => {
    const d = dir();
    const file = join(d, 'taken');
    // A folder where the file should go: the rename fails after the temporary file was written.
    const sub = join(d, 'taken');
    mkdirSync(sub);
    writeFileSync(join(sub, 'keep'), 'kept');
    expect(() => writeFileAtomic(file, 'new')).toThrow(/^cannot write .*taken: .*; the old file is intact$/);
    expect(readFileSync(join(sub, 'keep'), 'utf8')).toBe('kept');
    expect(readdirSync(d)).toEqual(['taken']);
  });
});
