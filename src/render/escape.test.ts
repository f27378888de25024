import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
/** What the tests read of markdown-it's tokens. */
interface Token {
  type: string;
  content: string;
  children: Token[] | null;
}
import { describe, expect, it } from 'vitest';
import { renderApplySummary } from '../apply/summary.js';
import { renderAccessText } from './access.js';
import { fencedLine, markdownCode, markdownFence, markdownText, terminalText } from './escape.js';
import { mermaidLabel } from './mermaid-label.js';

// GitHub's autolinks (GFM): `www.` and `http(s)://` links, as markdown-it's linkify finds them without
// bare domains; e-mail addresses in ASCII, checked on the text below (linkify would also take
// Unicode domains, which GFM does not).
const md = new MarkdownIt({ html: true, linkify: true });
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
const GFM_EMAIL = /[A-Za-z0-9._+-]+@[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+/;

/** Titles built from the pieces that make markdown: line endings, fences, headings, links, mentions, HTML. */
const title = fc
  .array(
    fc.oneof(
      fc.constantFrom('\r', '\n', '\r\n', '```', '`', '#', '## ', '[ok](https://e.x/)', '![i](https://e.x/i.png)', '@victim', 'a@b.io', '#12', '<b>', '</details>', '|', '\\', 'https://e.x', 'www.e.x', '*', '_', '%%{init: {}}%%', '\u2028', ' '),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

function flat(tokens: Token[]): Token[] {
  return tokens.flatMap((t) => [t, ...flat(t.children ?? [])]);
}

/** What a title must never become: a heading, a link, an image, HTML, a mention or a reference. */
function forbidden(markdown: string): string[] {
  const found: string[] = [];
  for (const t of flat(md.parse(markdown, {}) as Token[])) {
    if (t.type === 'heading_open' || t.type === 'link_open' || t.type === 'image' || t.type.startsWith('html') || t.type === 'fence' || t.type === 'code_block') found.push(t.type);
    if (t.type === 'text' && /(^|[^\w`])@[A-Za-z0-9]/.test(t.content)) found.push(`mention in ${JSON.stringify(t.content)}`);
    if (t.type === 'text' && GFM_EMAIL.test(t.content)) found.push(`e-mail link in ${JSON.stringify(t.content)}`);
    if (t.type === 'text' && /(^|\W)#\d/.test(t.content)) found.push(`reference in ${JSON.stringify(t.content)}`);
  }
  return found;
}

describe('remote text in markdown', () => {
  it('the issue\'s title makes no heading, link or mention in a table cell', () => {
    const evil = 'Ops\r```\r## HEADING [ok](https://e.x/) @victim';
    expect(forbidden(`| who | role |\n|---|---|\n| ${markdownText(evil)} | ${markdownCode(evil)} |`)).toEqual([]);
  });

  it('no title becomes a heading, link, image, HTML, fence, mention or reference (fuzzed)', () => {
    fc.assert(
      fc.property(title, (t) => {
        const doc = [`> - ${markdownText(t)}: ${markdownCode(t, { table: false })}`, '', '| who | role |', '|---|---|', `| ${markdownText(t)} | ${markdownCode(t)} |`, ''].join('\n');
        expect(forbidden(doc)).toEqual([]);
        // The table keeps its two cells: no `|` of the title splits one.
        const cells = flat(md.parse(doc, {}) as Token[]).filter((x) => x.type === 'td_open').length;
        expect(cells).toBe(2);
      }),
      { numRuns: 400 },
    );
  });

  it('a fenced block holds every line of a title, and the fence outlasts its backticks (fuzzed)', () => {
    fc.assert(
      fc.property(title, (t) => {
        const line = fencedLine(`+ teams[${JSON.stringify(t)}] # ${t}`);
        const fence = markdownFence([line]);
        const fences = (md.parse(`${fence}diff\n${line}\n${fence}\nafter`, {}) as Token[]).filter((x) => x.type === 'fence');
        expect(fences).toHaveLength(1);
        expect(fences[0].content).toBe(`${line}\n`);
      }),
      { numRuns: 300 },
    );
  });
});

describe('remote text in Mermaid', () => {
  it('a label has no directive, comment, quote or line break (fuzzed)', () => {
    fc.assert(
      fc.property(title, (t) => {
        const l = mermaidLabel(t);
        expect(l).not.toMatch(/%%|["\r\n\u2028\u2029`<>]/);
      }),
      { numRuns: 300 },
    );
  });
});

describe('remote text on a terminal', () => {
  it('ESC, BEL and CR are shown as escapes by `docplane access`', () => {
    const out = renderAccessText('org_acme', [
      { target: 'space', id: 's1', name: 'Docs\u001b[2J\u0007', teams: { 'Ops\r\u001b]8;;https://e.x\u0007x': 'read' }, users: {}, effective: [] },
    ] as never);
    // eslint-disable-next-line no-control-regex -- control characters are what this matches
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(out).toContain('\\x1b');
    expect(out).toContain('Ops\\x0d');
  });

  it('no control character is left but the kept line feeds (fuzzed)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        // eslint-disable-next-line no-control-regex -- control characters are what this matches
        expect(terminalText(s)).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/);
      }),
      { numRuns: 300 },
    );
  });
});

describe("remote text in apply's summary", () => {
  it("an API error quoting a title with ESC, BEL and CR is shown with escapes", () => {
    const failed = { id: 'org_a/teams["B"]:create', org: 'org_a', address: 'teams["B"]', action: 'create', kind: 'teams', message: 'POST /v1/orgs/org_a/teams → 400: title Ops\r\u001b]8;;https://e.x\u0007x exists' };
    const text = renderApplySummary({ applied: [], failed: [failed], skipped: [], durationMs: 1 } as never, { format: 'text', secrets: [], color: false });
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain('title Ops\\x0d\\x1b]8;;https://e.x\\x07x exists');
  });
});
