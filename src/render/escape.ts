/**
 * Remote text (titles, names, messages) is data in every output: one escaping per output format, so a
 * title can neither start a heading, link, image, mention or HTML tag in markdown, nor move the cursor
 * or clear the screen of a terminal. Mermaid labels have theirs in src/render/mermaid-label.ts.
 */

export { terminalText } from '../core/text.js';

/** CommonMark ends a line at LF, CR and CR LF; Unicode's line and paragraph separators break lines elsewhere. */
const LINE_BREAKS = /\r\n|[\r\n\u2028\u2029]/g;

/** A zero-width space: after `@` or `#` it keeps GitHub from reading a mention or an issue reference. */
const ZWSP = '\u200b';

/** Text on one line: every line ending as a space. */
export function oneLine(text: string): string {
  return text.replace(LINE_BREAKS, ' ');
}

/**
 * Inline markdown text that reads as itself: HTML as entities, every markdown punctuation
 * backslash-escaped (emphasis, code, links, images, tables, headings), `@name`, `#123` and bare URLs
 * (`https://…`, `www.…`) broken with a zero-width space (GitHub finds mentions, references and autolinks
 * in text after parsing, so a backslash alone does not stop them), on one line.
 */
export function markdownText(text: string): string {
  return breakReferences(
    oneLine(text)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/([\\`*_[\]()|!#~])/g, '\\$1'),
  )
    // Leading blanks (a title's line breaks, made spaces) would indent it into a code block in a list
    // item: each is written as the space's entity.
    .replace(/^[ \t]+/, (m) => '&#32;'.repeat(m.length));
}

/**
 * Text inside raw HTML (a `<summary>`, an attribute), where markdown is not read: `&`, `<`, `>` and
 * quotes as entities, `@`, `#` and URLs broken as in markdownText (GitHub still finds mentions,
 * references and autolinks in the HTML's text), on one line.
 */
export function htmlText(text: string): string {
  return breakReferences(oneLine(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'));
}

/** `@name`, `#123` and bare URLs (`https://…`, `www.…`) broken with a zero-width space. */
function breakReferences(text: string): string {
  return text
    .replace(/([@#])/g, `$1${ZWSP}`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/www\./gi, (m) => `${m.slice(0, 3)}${ZWSP}.`);
}

/**
 * An inline code span: a fence longer than any run of backticks inside, on one line. `|` is escaped
 * (GitHub's tables split cells at it even inside a code span, and show `\|` there as `|`); pass
 * `table: false` outside a table.
 */
export function markdownCode(text: string, options: { table?: boolean } = {}): string {
  const flat = oneLine(text);
  const body = options.table === false ? flat : flat.replace(/\|/g, '\\|');
  const runs = body.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = fence.length > 1 || body.startsWith('`') || body.endsWith('`') || body.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

/** A fence (of backticks) longer than any run of backticks in the lines it encloses, at least three. */
export function markdownFence(lines: readonly string[]): string {
  let longest = 0;
  for (const line of lines) for (const run of line.match(/`{3,}/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** A line inside a fenced block: a CR would end the line there and could close the fence. */
export function fencedLine(text: string): string {
  return oneLine(text);
}

