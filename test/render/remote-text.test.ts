/**
 * Remote text is data in the whole rendering (#42): the titles, put in a plan's access table,
 * a site picture and a step, make no heading, link, image, HTML or mention in the markdown (read by a
 * CommonMark parser), no Mermaid directive, and no control character on the terminal.
 */
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import type { Action, JsonObject, Kind, Plan, Step } from '../../src/plan/types.js';
import { renderPlan } from '../../src/render/index.js';
import { emptyPlan } from './fixtures/big-plan.js';

interface Token {
  type: string;
  info: string;
  content: string;
  children: Token[] | null;
  attrGet(name: string): string | null;
}

// GitHub's autolinks (GFM): `www.` and `http(s)://` links, as markdown-it's linkify finds them without
// bare domains; e-mail addresses in ASCII, checked on the text below (linkify would also take
// Unicode domains, which GFM does not).
const md = new MarkdownIt({ html: true, linkify: true });
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
const GFM_EMAIL = /[A-Za-z0-9._+-]+@[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+/;
const flat = (tokens: Token[]): Token[] => tokens.flatMap((t) => [t, ...flat(t.children ?? [])]);

const EVIL = 'Ops\r```\r## HEADING [ok](https://e.x/) ![i](https://e.x/i.png) @victim <img src=x> %%{init: {"theme":"dark"}}%%\u001b[2J\u0007';
const SITE = 'sites["site_docs"]';

function step(address: string, kind: Kind, action: Action, before: JsonObject | null, after: JsonObject | null): Step {
  return { id: `org_acme/${address}:${action}`, org: 'org_acme', address, kind, action, before, after, changes: [], requests: [], dependsOn: [], notes: [`note: ${EVIL}`] };
}

const PLAN: Plan = emptyPlan({
  steps: [
    step(`collections["Product"].access.teams[${JSON.stringify(EVIL)}]`, 'collectionAccess', 'create', null, { role: 'read' }),
    step(`${SITE}.sectionGroups[${JSON.stringify(EVIL)}]`, 'sectionGroups', 'create', null, { title: EVIL, sections: ['api'] }),
    step(`${SITE}.sections["api"]`, 'sections', 'create', null, { title: EVIL, path: 'api' }),
  ],
  notes: [EVIL],
});

describe('the issue\'s title in a whole plan', () => {
  it('markdown: the only headings are docplane\'s, no link, image, HTML or mention, the Mermaid fence whole and without directives', () => {
    const text = renderPlan(PLAN, { format: 'markdown', color: false, secrets: [] });
    const tokens = flat(md.parse(text, {}) as Token[]);
    const headings = tokens.filter((t) => t.type === 'inline' && /HEADING/.test(t.content) && tokens[tokens.indexOf(t) - 1]?.type === 'heading_open');
    expect(headings).toEqual([]);
    expect(tokens.filter((t) => t.type === 'link_open' || t.type === 'image').map((t) => t.attrGet('href') ?? t.attrGet('src'))).toEqual([]);
    expect(tokens.filter((t) => t.type.startsWith('html') && /img|script/.test(t.content))).toEqual([]);
    expect(tokens.filter((t) => t.type === 'text' && /(^|[^\w`])@victim/.test(t.content))).toEqual([]);
    expect(tokens.filter((t) => t.type === 'text' && GFM_EMAIL.test(t.content))).toEqual([]);
    const mermaid = tokens.filter((t) => t.type === 'fence' && t.info === 'mermaid');
    expect(mermaid).toHaveLength(1);
    expect(mermaid[0].content).toMatch(/^flowchart LR\n/);
    expect(mermaid[0].content).not.toMatch(/%%|\r/);
    // The diff blocks hold every step line: no title closes them early.
    for (const fence of tokens.filter((t) => t.type === 'fence' && t.info === 'diff')) expect(fence.content).toMatch(/# {3}\(no requests\)\n$/);
  });

  it('text: no control character reaches the terminal', () => {
    const text = renderPlan(PLAN, { format: 'text', color: false, secrets: [] });
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain('\\x1b[2J\\x07');
  });
});
