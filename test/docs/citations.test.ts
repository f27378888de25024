/**
 * The sections of README.md and docs/ that the source cites (a comment's `docs/plans.md "Retries and
 * rate limits"`, a hint's `(docs/config.md, "Addresses")`) exist: a section that moves breaks this
 * test, not the reader's way to it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The places a section name can lead in a markdown file: its headings (without their #s) and its list items. */
function leads(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/^(?:#{1,6}|[-*]) +(.+?) *$/gm)].map((m) => m[1]);
}

/** Whether a heading or list item of the file starts with the section's name (`Custom fonts (\`fonts:\`)`). */
function has(file: string, section: string): boolean {
  return leads(file).some((l) => l === section || l.startsWith(`${section} `) || l.startsWith(`${section}:`));
}

/** Every `FILE.md "Section"` (or `FILE.md, "Section"`, `README: "Section"`) a source file cites, its comment lines joined. */
function citations(): Array<{ from: string; file: string; section: string }> {
  return sources('src').flatMap((from) => {
    const text = readFileSync(join(ROOT, from), 'utf8').replace(/\n\s*(\*|\/\/)\s*/g, ' ');
    return [...text.matchAll(/\b(README|docs\/[\w-]+\.md)(?:\.md)?[,:]? "([^"]+)"/g)].map((m) => ({
      from,
      file: m[1] === 'README' ? 'README.md' : m[1],
      section: m[2],
    }));
  });
}

describe('sections the source cites', () => {
  const found = citations();

  it('finds the citations it checks', () => {
    expect(found.map((c) => `${c.from}: ${c.file} "${c.section}"`)).toEqual(
      expect.arrayContaining(['src/api/client.ts: docs/plans.md "Retries and rate limits"', 'src/plan/run.ts: docs/config.md "Addresses"']),
    );
  });

  it('each names a heading (or a list item) of the file it names', () => {
    const missing = found.filter((c) => !has(c.file, c.section)).map((c) => `${c.from}: ${c.file} "${c.section}"`);
    expect(missing).toEqual([]);
  });
});
