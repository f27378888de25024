/**
 * Every Mermaid picture the markdown plan draws goes through mermaid's own parser (the `mermaid`
 * package in a happy-dom document): the pictures of the golden files, and pictures of titles drawn
 * by a fuzzer. A parse error fails the test; so does a label that mermaid would show other than as
 * the title reads (an entity it decodes, a `;` it drops, `&amp;` shown as `&`). The whole check runs
 * in this one file, so mermaid loads in one worker.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { Window } from 'happy-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action, JsonObject, Kind, Step } from '../../src/plan/types.js';
import { renderPlan } from '../../src/render/index.js';
import { mermaidLabel } from '../../src/render/mermaid-label.js';
import { emptyPlan } from './fixtures/big-plan.js';

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), 'golden');

interface Vertex {
  id: string;
  text: string;
}
interface Mermaid {
  initialize(config: object): void;
  parse(text: string): Promise<unknown>;
  mermaidAPI: { getDiagramFromText(text: string): Promise<{ db: { getVertices?: () => Map<string, Vertex> } }> };
}

let mermaid: Mermaid;
let window: Window;
const saved = { window: (globalThis as Record<string, unknown>).window, document: (globalThis as Record<string, unknown>).document };
let checked = 0;

beforeAll(async () => {
  window = new Window();
  Object.assign(globalThis, { window, document: window.document });
  mermaid = (await import('mermaid')).default as unknown as Mermaid;
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
});

afterAll(async () => {
  Object.assign(globalThis, saved);
  await window.happyDOM.close();
  console.log(`mermaid-parse: ${checked} diagrams parsed by mermaid`);
});

/** The ```mermaid fences of a markdown text. */
function diagramsOf(markdown: string): string[] {
  return [...markdown.matchAll(/^```mermaid\n([\s\S]*?)\n```$/gm)].map((m) => m[1]);
}

/**
 * What mermaid shows of a vertex's text: its parser holds `#…;` entities in its own markers, which it
 * turns into HTML entities, and the label is shown as HTML.
 */
function shown(text: string): string {
  const html = text.replace(/\uFB02\u00B0\u00B0/g, '&#').replace(/\uFB02\u00B0/g, '&').replace(/\u00B6\u00DF/g, ';');
  const el = window.document.createElement('div');
  el.innerHTML = html;
  return el.textContent;
}

/** Parses one diagram (failing on an error) and returns what each vertex shows, by id. */
async function parse(diagram: string): Promise<Map<string, string>> {
  checked++;
  await mermaid.parse(diagram);
  // Mermaid's render rewrites any line where `style` or `classDef` is followed by `:`, `#` and `;`.
  for (const line of diagram.split('\n')) {
    expect(line, 'a line mermaid would rewrite before parsing').not.toMatch(/style.*:\S*#.*;|classDef.*:\S*#.*;/);
  }
  expect(diagram, 'a %% that mermaid reads as a comment or directive').not.toContain('%%');
  const d = await mermaid.mermaidAPI.getDiagramFromText(diagram);
  const vertices = d.db.getVertices?.() ?? new Map<string, Vertex>();
  return new Map([...vertices.values()].map((v) => [v.id, shown(v.text)]));
}

function step(address: string, kind: Kind, action: Action, before: JsonObject | null, after: JsonObject | null): Step {
  return { id: `org_acme/${address}:${action}`, org: 'org_acme', address, kind, action, before, after, changes: [], requests: [], dependsOn: [] };
}

/** A plan that draws `title` as a group, a section path, a site space and a link of a site titled `title`. */
function titledPlan(title: string) {
  const site = `sites[${JSON.stringify(title)}]`;
  return emptyPlan({
    steps: [
      step(`${site}.sectionGroups[${JSON.stringify(title)}]`, 'sectionGroups', 'create', null, { title, sections: [title] }),
      step(`${site}.sections[${JSON.stringify(title)}]`, 'sections', 'create', null, { title, path: 'p' }),
      step(`${site}.sections[${JSON.stringify(title)}].siteSpaces[${JSON.stringify(title)}]`, 'siteSpaces', 'create', null, { spaceId: title }),
      step(`${site}.externalLinks[${JSON.stringify(title)}]`, 'externalLinks', 'update', { group: null }, { group: title }),
    ],
  });
}

/** What a reader is meant to see of a title: white space as a space, hidden and reordering characters as U+FFFD. */
function visible(title: string): string {
  return title.replace(/[\t\n\v\f\r\u0085\u2028\u2029]/g, ' ').replace(/[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu, '\uFFFD');
}

const AWKWARD = [
  '`Beta` portal',
  'style:#1 classDef x:#f00;',
  'a literal &amp; here',
  'say "hi" & \'bye\'',
  'pipes | and [brackets] {braces} (parens)',
  '%%{init: {"theme": "dark"}}%% directive',
  '%% a comment',
  'line one\nline two\r\nthree',
  '<b>bold</b> <script>alert(1)</script>',
  '#quot; #35; #lt; #9829;',
  'ﬂ°°35¶ß markers',
  '🚀 Launch 👩‍💻',
  '开发者文档',
  'مرحبا بالعالم',
  'abc\u202Eevil\u202C',
  'x'.repeat(100),
  'end; click n1 call alert()',
  'n1 --> n2',
  ':::moved',
  '\\ back\\slash',
];

describe('every Mermaid picture parses with mermaid and shows its titles as they read', () => {
  it('the golden files\' pictures', async () => {
    const files = readdirSync(GOLDEN).filter((f) => f.endsWith('.md'));
    let n = 0;
    for (const file of files) {
      for (const diagram of diagramsOf(readFileSync(join(GOLDEN, file), 'utf8'))) {
        try {
          await parse(diagram);
        } catch (e) {
          throw new Error(`${file}: ${(e as Error).message}`, { cause: e });
        }
        n++;
      }
    }
    expect(n).toBeGreaterThanOrEqual(5);
  });

  it('awkward titles', async () => {
    for (const title of AWKWARD) {
      const md = renderPlan(titledPlan(title), { format: 'markdown', color: false, secrets: [] });
      const [diagram] = diagramsOf(md);
      expect(diagram, title).toBeDefined();
      const labels = [...(await parse(diagram)).values()];
      expect(labels, title).toContain(visible(title).trim());
      expect(labels.filter((l) => l.includes(visible(title))).length, title).toBeGreaterThanOrEqual(4);
    }
  });

  it('fuzzer-drawn titles', async () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 20 }),
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.constantFrom('`', '#', ';', ':', '&', '%%', '"', '<', '>', '[', ']', '|', '\n', 'style', 'classDef', '#35;', '&amp;', '\u202E', 'ﬂ°', '¶ß'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 6 }), async (pieces) => {
        const title = pieces.join('');
        fc.pre(title.trim() !== '');
        const [diagram] = diagramsOf(renderPlan(titledPlan(title), { format: 'markdown', color: false, secrets: [] }));
        const labels = [...(await parse(diagram)).values()];
        // Mermaid trims a label: the site's root, labelled with the title alone, loses its outer spaces.
        expect(labels).toContain(visible(title).trim());
      }),
      { numRuns: 60 },
    );
  });

  it('mermaidLabel writes only letters, digits, plain punctuation, entities and non-ASCII text', () => {
    expect(mermaidLabel('`Beta` portal')).toBe('#96;Beta#96; portal');
    expect(mermaidLabel('a &amp; b')).toBe('a #38;amp#59; b');
    expect(mermaidLabel('x\ny')).toBe('x y');
    expect(mermaidLabel('a\u202Eb')).toBe('a#65533;b');
    expect(mermaidLabel('开发 🚀')).toBe('开发 🚀');
  });
});
