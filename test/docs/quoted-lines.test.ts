/**
 * Docs that quote the program are checked against it: every error line docs/troubleshooting.md
 * quotes is in the source (its fixed parts, between the placeholders in CAPITALS and `…`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const abs = join(dir, e.name);
    if (e.isDirectory()) return sources(abs);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [readFileSync(abs, 'utf8')] : [];
  });
}

/** docplane's source, its action's, and oclif's flag parser (whose own lines users see for flag errors). */
const SOURCE = [
  ...sources(join(ROOT, 'src')),
  readFileSync(join(ROOT, 'action/docplane-action.mjs'), 'utf8'),
  readFileSync(join(ROOT, 'node_modules/@oclif/core/lib/parser/validate.js'), 'utf8'),
]
  .join('\n')
  .replace(/\\(["'`])/g, '$1');

/** The first cell of each table row of a markdown file: the quoted error lines. */
function quotedLines(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .flatMap((l) => [...l.split(' | ')[0].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}

/**
 * The fixed parts of a quoted line: the runs of words between placeholders (CAPITALS, …, N, a
 * status, a flag and its value, which oclif's lines fill in) and the punctuation that source code builds around its values (quotes, brackets, colons).
 */
function fixedParts(line: string): string[] {
  return line
    .split(/…|\.\.\.|\$\{[^}]*\}|(?<!\S)--[a-z][a-z-]*(?:=\S*)?|\b[A-Z][A-Z0-9_]*\b|\b[NKM]\b|\d{3}\b|5xx|→|["'()[\]#;]|: /)
    .map((p) => p.trim().replace(/^[.,:]\s*|\s*[.,:]$/g, ''))
    .filter((p) => p.length >= 12 && /[a-z]{3}\S* \S*[a-z]{2}/.test(p));
}

/** The source's words in order, values and line joins left out: what a message is assembled from. */
const WORDS = ` ${SOURCE.replace(/\$\{\w*|[{}`'"+?():;,]|\\n/g, ' ').replace(/\s+/g, ' ')} `;

/**
 * A fixed part is in the source when it is there whole, or, for a message assembled from pieces,
 * when every pair of its neighbouring words is.
 */
function inSource(part: string): boolean {
  if (SOURCE.includes(part)) return true;
  const words = part.replace(/[():;,]/g, ' ').trim().split(/\s+/);
  if (words.length < 2) return false;
  for (let i = 0; i + 2 <= words.length; i++) if (!WORDS.includes(` ${words.slice(i, i + 2).join(" ")} `)) return false;
  return true;
}

describe('docs/troubleshooting.md', () => {
  const lines = quotedLines(readFileSync(join(ROOT, 'docs/troubleshooting.md'), 'utf8'));

  it('quotes error lines (the check below has something to check)', () => {
    expect(lines.length).toBeGreaterThan(40);
  });

  it('quotes only lines the program prints: each fixed part is in the source', () => {
    const missing = lines.flatMap((line) => fixedParts(line).filter((part) => !inSource(part)).map((part) => `${line}  →  "${part}"`));
    expect(missing).toEqual([]);
  });
});
