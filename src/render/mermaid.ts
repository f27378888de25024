/**
 * Pictures for the markdown plan: each site whose structure changes as a Mermaid flowchart (GitHub
 * draws ```mermaid fences in comments), and access changes as a table per object.
 *
 * The picture is drawn from the plan alone (a saved plan draws the same): the steps on a site's
 * sections, section groups, site spaces and external links, and the orders its sort steps hold.
 * What the plan mentions without changing it (a section whose site space is added, the siblings in a
 * sort) is drawn plain, as context; added items are marked added, removed ones removed, and a moved
 * item is drawn in its new place with a dotted edge from its old one. On a large site only the
 * changed items and their parents are drawn, so that the comment stays within GitHub's limit.
 */
import { formatAddress, parseAddress } from '../model/address.js';
import type { PictureItem, PictureStatus, PlanPicture } from '../model/picture.js';
import type { Step } from '../plan/types.js';
import { mermaidLabel as label } from './mermaid-label.js';
import type { MaskedPlan } from './redact.js';

type Status = 'added' | 'removed' | 'changed' | 'moved' | 'same';
type NodeKind = 'site' | 'section' | 'group' | 'space' | 'link';

interface Node {
  id: string;
  kind: NodeKind;
  name: string;
  status: Status;
  /** Key of the node it sits under (the site's root when undefined, except for the root itself). */
  parent?: string;
  /** Where a moved node was before, when that was another parent. */
  from?: string;
  /** A group's step takes the node in (its new parent is known). */
  joined?: boolean;
}

/** A site's picture: one Mermaid flowchart, and how many changed items it leaves out. */
export interface SiteDiagram {
  org: string;
  site: string;
  mermaid: string;
  /** Items (changed or context) not drawn because the site is large. */
  omitted: number;
  /** The site's title, when the plan holds its picture. */
  title?: string;
  /** What the picture leaves out, in words (unchanged items, a large new site summarised per group). */
  caption?: string;
  /** The whole structure as it will be, as an indented list (a large new site's, drawn as counts). */
  tree?: { depth: number; text: string }[];
}

export interface DiagramOptions {
  /** Above this many items, only the changed ones and their parents are drawn. */
  contextLimit?: number;
  /** At most this many items in one picture (Mermaid and GitHub cap a diagram's size). */
  nodeLimit?: number;
}

const CONTEXT_LIMIT = 40;
const NODE_LIMIT = 150;

/** One segment of an address: `sections["guides"]` → { name: 'sections', key: 'guides' }. */
interface Segment {
  name: string;
  key?: string;
}

/** The segments of an address, each name with the key after it, or undefined when it does not read as one. */
export function segmentsOf(address: string): Segment[] | undefined {
  const parsed = parseAddress(address);
  if (!parsed || parsed.org !== undefined) return undefined;
  const out: Segment[] = [];
  for (const s of parsed.segments) {
    if ('name' in s) out.push({ name: s.name });
    else {
      const last = out[out.length - 1];
      if (last === undefined || last.key !== undefined) return undefined;
      last.key = s.key;
    }
  }
  return out;
}

const STATUS_OF: Record<Step['action'], Status> = {
  create: 'added',
  delete: 'removed',
  update: 'changed',
  move: 'moved',
  sort: 'same',
  restore: 'changed',
  publish: 'changed',
};

/** The order a sort step names: `sections["a"]`, `sectionGroups["G"]`, `externalLinks["T"]`, or a bare section path. */
function itemKey(label: string): string {
  const s = segmentsOf(label);
  if (s && s.length === 1 && s[0].key !== undefined) {
    const kind = s[0].name === 'sectionGroups' ? 'group' : s[0].name === 'externalLinks' ? 'link' : 'section';
    return `${kind}:${s[0].key}`;
  }
  return `section:${label}`;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

class SiteTree {
  readonly nodes = new Map<string, Node>();
  private next = 0;
  constructor(readonly site: string) {
    this.nodes.set('site', { id: 'n0', kind: 'site', name: site, status: 'same' });
  }

  node(key: string, kind: NodeKind, name: string): Node {
    let n = this.nodes.get(key);
    if (!n) {
      n = { id: `n${++this.next}`, kind, name, status: 'same' };
      this.nodes.set(key, n);
    }
    return n;
  }

  /** A status from a step: a change of the item itself wins over context; a move keeps an add or a remove. */
  mark(n: Node, status: Status): void {
    if (status === 'same') return;
    if (n.status === 'same' || (n.status === 'changed' && status !== 'changed') || (n.status === 'moved' && (status === 'added' || status === 'removed'))) n.status = status;
  }

  /** The node moves from one parent to another (keys; undefined is the site's root). */
  move(key: string, from: string | undefined, to: string | undefined): void {
    const n = this.nodes.get(key);
    if (!n) return;
    n.parent = to;
    if ((from ?? 'site') !== (to ?? 'site')) {
      n.from = from ?? 'site';
      this.mark(n, 'moved');
    }
  }
}

function groupKeyOf(title: unknown): string | undefined {
  return typeof title === 'string' ? `group:${title}` : undefined;
}

/** Reads one step into the tree of its site. */
function addStep(tree: SiteTree, rest: Segment[], step: Step): boolean {
  const status = STATUS_OF[step.action];
  const [first, second] = rest;
  if (first === undefined) {
    tree.mark(tree.nodes.get('site') as Node, status);
    return false;
  }
  const before = (step.before ?? {}) as Record<string, unknown>;
  const after = (step.after ?? {}) as Record<string, unknown>;
  if (first.name === 'sections' && first.key !== undefined) {
    const section = tree.node(`section:${first.key}`, 'section', first.key);
    if (second === undefined) {
      tree.mark(section, status);
      return true;
    }
    if (second.name !== 'siteSpaces') return false;
    if (second.key !== undefined) {
      const space = tree.node(`space:${first.key}/${second.key}`, 'space', second.key);
      space.parent = `section:${first.key}`;
      tree.mark(space, status);
      return true;
    }
    // The order of the section's site spaces: those whose place changes are moved.
    return sortOrder(tree, strings(before.order), strings(after.order), (id) => {
      const n = tree.node(`space:${first.key}/${id}`, 'space', id);
      n.parent = `section:${first.key}`;
      return `space:${first.key}/${id}`;
    });
  }
  if (first.name === 'siteSpaces') {
    if (first.key !== undefined) {
      tree.mark(tree.node(`space:/${first.key}`, 'space', first.key), status);
      return true;
    }
    return sortOrder(tree, strings(before.order), strings(after.order), (id) => (tree.node(`space:/${id}`, 'space', id), `space:/${id}`));
  }
  if (first.name === 'sectionGroups' && first.key !== undefined) {
    const key = `group:${first.key}`;
    const group = tree.node(key, 'group', first.key);
    tree.mark(group, status);
    if ('parent' in after || 'parent' in before) {
      if (step.action === 'create' || step.action === 'delete') group.parent = groupKeyOf(step.action === 'delete' ? before.parent : after.parent);
      else tree.move(key, groupKeyOf(before.parent), groupKeyOf(after.parent));
    }
    const was = strings(before.sections);
    const is = strings(after.sections);
    // A section that joins this group comes from the top level unless another group's step says it
    // leaves that one; a section that leaves goes to the top level unless another group takes it in.
    for (const path of is) {
      const section = tree.node(`section:${path}`, 'section', path);
      section.parent = key;
      if (step.action === 'create' || was.includes(path)) continue;
      section.from ??= 'site';
      section.joined = true;
      tree.mark(section, 'moved');
    }
    for (const path of was) {
      if (is.includes(path)) continue;
      const section = tree.node(`section:${path}`, 'section', path);
      if (step.action === 'delete') {
        section.parent = key;
        continue;
      }
      section.from = key;
      if (!section.joined) section.parent = undefined;
      tree.mark(section, 'moved');
    }
    return true;
  }
  if (first.name === 'externalLinks' && first.key !== undefined) {
    const key = `link:${first.key}`;
    const link = tree.node(key, 'link', first.key);
    tree.mark(link, status);
    if (step.action === 'create' || step.action === 'delete') link.parent = groupKeyOf(step.action === 'delete' ? before.group : after.group);
    else if ('group' in after || 'group' in before) tree.move(key, groupKeyOf(before.group), groupKeyOf(after.group));
    return true;
  }
  if (first.name === 'structure') {
    // A bare name in an order is a section's path, or a group's title when the plan names that group.
    const keyIn = (label: string) => {
      const k = itemKey(label);
      return k === `section:${label}` && tree.nodes.has(`group:${label}`) ? `group:${label}` : k;
    };
    let drawn = sortOrder(tree, strings(before.order), strings(after.order), (label) => {
      const k = keyIn(label);
      const [kind, name] = [k.slice(0, k.indexOf(':')), k.slice(k.indexOf(':') + 1)];
      tree.node(k, kind as NodeKind, name);
      return k;
    });
    const groupsBefore = (before.groups ?? {}) as Record<string, unknown>;
    const groupsAfter = (after.groups ?? {}) as Record<string, unknown>;
    for (const title of new Set([...Object.keys(groupsBefore), ...Object.keys(groupsAfter)])) {
      tree.node(`group:${title}`, 'group', title);
      drawn =
        sortOrder(tree, strings(groupsBefore[title]), strings(groupsAfter[title]), (label) => {
          const k = keyIn(label);
          const n = tree.node(k, k.startsWith('group:') ? 'group' : k.startsWith('link:') ? 'link' : 'section', k.slice(k.indexOf(':') + 1));
          n.parent = `group:${title}`;
          return k;
        }) || drawn;
    }
    return drawn;
  }
  return false;
}

/**
 * Marks as moved the items of an order whose place changes: those outside the longest run that keeps
 * its relative order (the fewest moves that sort it). Every item is drawn, the others as context.
 */
function sortOrder(tree: SiteTree, before: string[], after: string[], keyOf: (item: string) => string): boolean {
  if (before.length === 0 && after.length === 0) return false;
  const keys = after.map(keyOf);
  before.forEach(keyOf);
  const rank = new Map(after.map((item, i) => [item, i]));
  const seq = before.filter((b) => rank.has(b)).map((b) => rank.get(b) as number);
  const kept = new Set(longestIncreasing(seq));
  after.forEach((item, i) => {
    if (before.includes(item) && !kept.has(i)) tree.mark(tree.nodes.get(keys[i]) as Node, 'moved');
  });
  return true;
}

/** The values of the longest strictly increasing subsequence of `seq`. */
function longestIncreasing(seq: number[]): number[] {
  const tails: number[] = [];
  const prev: number[] = new Array<number>(seq.length).fill(-1);
  const at: number[] = [];
  seq.forEach((v, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]] < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1];
    tails[lo] = i;
    at[lo] = i;
  });
  const out: number[] = [];
  for (let i = tails.length > 0 ? tails[tails.length - 1] : -1; i >= 0; i = prev[i]) out.push(seq[i]);
  return out.reverse();
}

const KIND_WORD: Record<NodeKind, string> = { site: 'site', section: 'section', group: 'group', space: 'space', link: 'link' };
const STATUS_MARK: Record<Status, string> = { added: '+ ', removed: '- ', changed: '~ ', moved: '» ', same: '' };
const STATUS_WORD: Record<Status, string> = { added: ' (added)', removed: ' (removed)', changed: ' (changed)', moved: ' (moved)', same: '' };

const CLASSES = [
  '  classDef added fill:#dafbe1,stroke:#1a7f37,color:#116329',
  '  classDef removed fill:#ffebe9,stroke:#cf222e,color:#a40e26,stroke-dasharray:4 3',
  '  classDef moved fill:#fff8c5,stroke:#9a6700,color:#7d4e00',
  '  classDef changed fill:#ddf4ff,stroke:#0969da,color:#0550ae',
];

/** The nodes to draw: all, or on a large site the changed ones with their parents and old places. */
function visible(tree: SiteTree, options: Required<DiagramOptions>): { keys: string[]; omitted: number } {
  const all = [...tree.nodes.keys()];
  if (all.length <= options.contextLimit) return { keys: all, omitted: 0 };
  const keep = new Set<string>(['site']);
  const withParents = (key: string | undefined) => {
    for (let k = key; k !== undefined && !keep.has(k); k = tree.nodes.get(k)?.parent) keep.add(k);
  };
  for (const [key, n] of tree.nodes) {
    if (n.status === 'same') continue;
    if (keep.size >= options.nodeLimit) break;
    withParents(key);
    if (n.from) withParents(n.from);
  }
  const keys = all.filter((k) => keep.has(k));
  return { keys, omitted: all.length - keys.length };
}

function draw(tree: SiteTree, options: Required<DiagramOptions>): { mermaid: string; omitted: number } {
  const { keys, omitted } = visible(tree, options);
  const shown = new Set(keys);
  const lines = ['flowchart LR'];
  const edges: string[] = [];
  const used = new Set<Status>();
  for (const key of keys) {
    const n = tree.nodes.get(key) as Node;
    const text = n.kind === 'site' ? n.name : `${STATUS_MARK[n.status]}${KIND_WORD[n.kind]} ${n.name}${STATUS_WORD[n.status]}`;
    const shape = n.kind === 'site' ? `(["${label(text)}"])` : n.kind === 'group' ? `[/"${label(text)}"/]` : `["${label(text)}"]`;
    lines.push(`  ${n.id}${shape}${n.status === 'same' ? '' : `:::${n.status}`}`);
    if (n.status !== 'same') used.add(n.status);
    if (key === 'site') continue;
    const parent = tree.nodes.get(n.parent !== undefined && shown.has(n.parent) ? n.parent : 'site') as Node;
    edges.push(`  ${parent.id} --> ${n.id}`);
    // An added or removed item has no old place to show, whatever moves the plan makes around it.
    if (n.from !== undefined && n.from !== (n.parent ?? 'site') && shown.has(n.from) && (n.status === 'moved' || n.status === 'changed')) edges.push(`  ${(tree.nodes.get(n.from) as Node).id} -. was here .-> ${n.id}`);
  }
  const classes = CLASSES.filter((c) => used.has(c.split(' ')[3] as Status));
  return { mermaid: [...lines, ...edges, ...classes].join('\n'), omitted };
}

/** The sites whose structure the plan changes, each as a Mermaid flowchart: the plan's pictures, then (a plan saved without them) drawn from the steps. */
export function siteDiagrams(plan: MaskedPlan, options: DiagramOptions = {}): SiteDiagram[] {
  const pictures = (plan.pictures ?? []).map((p) => drawPicture(p, options.nodeLimit ?? PICTURE_LIMIT));
  const drawn = new Set(pictures.map((d) => `${d.org}\0${d.site}`));
  return [...pictures, ...stepDiagrams(plan, options).filter((d) => !drawn.has(`${d.org}\0${d.site}`))];
}

/** At most this many boxes in a picture drawn from the plan's picture: its height stays bounded. */
const PICTURE_LIMIT = 40;
/** A site this large that the plan creates (or rebuilds: nearly all added) is drawn as counts per group. */
const SUMMARY_AT = 40;

const PICTURE_MARK: Record<PictureStatus, string> = { added: '+ ', removed: '- ', changed: '~ ', moved: '» ', reordered: '↕ ', same: '' };
const PICTURE_WORD: Record<PictureStatus, string> = { added: ' (added)', removed: ' (removed)', changed: ' (changed)', moved: ' (moved)', reordered: ' (reordered)', same: '' };
const PICTURE_CLASSES: Record<Exclude<PictureStatus, 'same'>, string> = {
  added: 'fill:#dafbe1,stroke:#1a7f37,color:#116329',
  removed: 'fill:#ffebe9,stroke:#cf222e,color:#a40e26,stroke-dasharray:4 3',
  moved: 'fill:#fff8c5,stroke:#9a6700,color:#7d4e00',
  reordered: 'fill:#fbefff,stroke:#8250df,color:#6639ba',
  changed: 'fill:#ddf4ff,stroke:#0969da,color:#0550ae',
};

function itemText(it: PictureItem): string {
  return `${PICTURE_MARK[it.status]}${it.type} ${it.title}${PICTURE_WORD[it.status]}`;
}

/** A box's label: the title, and the id in small text where two items share the title. */
function boxLabel(it: PictureItem): string {
  return `${label(itemText(it))}${it.id !== undefined ? `<br><small>${label(it.id)}</small>` : ''}`;
}

function shapeOf(it: PictureItem): string {
  return it.type === 'group' ? `[/"${boxLabel(it)}"/]` : it.type === 'space' ? `(["${boxLabel(it)}"])` : `["${boxLabel(it)}"]`;
}

/** The items under each parent key (null: the top level), in the picture's order. */
function childrenOf(items: readonly PictureItem[]): Map<string | null, PictureItem[]> {
  const out = new Map<string | null, PictureItem[]>();
  for (const it of items) {
    const list = out.get(it.parent) ?? [];
    list.push(it);
    out.set(it.parent, list);
  }
  return out;
}

/** The structure as it will be (removed items left out), depth-first, as an indented list. */
function treeOf(items: readonly PictureItem[]): { depth: number; text: string }[] {
  const children = childrenOf(items.filter((i) => i.status !== 'removed'));
  const out: { depth: number; text: string }[] = [];
  const walk = (parent: string | null, depth: number, seen: Set<string>) => {
    for (const it of children.get(parent) ?? []) {
      if (seen.has(it.key)) continue;
      seen.add(it.key);
      out.push({ depth, text: `${it.type} ${it.title}${it.id !== undefined ? ` (${it.id})` : ''}` });
      walk(it.key, depth + 1, seen);
    }
  };
  walk(null, 0, new Set());
  return out;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Counts of a subtree's items by type: `12 sections, 3 spaces`. */
function countsOf(items: readonly PictureItem[]): string {
  const by = (t: PictureItem['type']) => items.filter((i) => i.type === t).length;
  const parts = [
    [by('group'), 'group'],
    [by('section'), 'section'],
    [by('space'), 'space'],
    [by('link'), 'link'],
  ] as const;
  return parts.filter(([n]) => n > 0).map(([n, w]) => plural(n, w)).join(', ');
}

function drawPicture(p: PlanPicture, limit: number): SiteDiagram {
  const lines = ['flowchart LR', `  n0(["${label(p.created ? `+ site ${p.title} (added)` : p.title)}${p.title !== p.site ? `<br><small>${label(p.site)}</small>` : ''}"])${p.created ? ':::added' : ''}`];
  const edges: string[] = [];
  const used = new Set<Exclude<PictureStatus, 'same'>>(p.created ? ['added'] : []);
  const live = p.items.filter((i) => i.status !== 'removed');
  const rebuilt = live.length > 0 && live.filter((i) => i.status === 'added').length === live.length;
  const base = { org: p.org, site: p.site, title: p.title };

  if ((p.created || rebuilt) && p.items.length > SUMMARY_AT) {
    // A large new site: one box per top-level group with the counts of what it holds, one for the rest.
    const children = childrenOf(live);
    const under = (key: string): PictureItem[] => (children.get(key) ?? []).flatMap((c) => [c, ...under(c.key)]);
    const top = children.get(null) ?? [];
    const groups = top.filter((i) => i.type === 'group');
    const shownGroups = groups.slice(0, limit - 2);
    shownGroups.forEach((g, i) => {
      lines.push(`  n${i + 1}[/"${label(`+ group ${g.title}: ${countsOf(under(g.key)) || 'empty'}`)}"/]:::added`);
      edges.push(`  n0 --> n${i + 1}`);
    });
    const rest = [...top.filter((i) => i.type !== 'group'), ...groups.slice(shownGroups.length)];
    const restItems = rest.flatMap((r) => [r, ...under(r.key)]);
    if (restItems.length > 0) {
      const n = shownGroups.length + 1;
      lines.push(`  n${n}["${label(`+ ${groups.length > shownGroups.length ? 'other items' : 'top level'}: ${countsOf(restItems)}`)}"]:::added`);
      edges.push(`  n0 --> n${n}`);
    }
    lines.push(`  classDef added ${PICTURE_CLASSES.added}`);
    const what = p.created ? 'A new site' : 'A site rebuilt whole';
    return { ...base, mermaid: [...lines, ...edges].join('\n'), omitted: 0, caption: `${what} of ${plural(live.length, 'item')}: drawn as counts per group; its whole structure is below.`, tree: treeOf(p.items) };
  }

  // The boxes to draw: every item of a small site; on a large one, what changes with its parents and
  // old parents, and per parent one box counting the unchanged items left out.
  const byKey = new Map(p.items.map((i) => [i.key, i]));
  const keep = new Set<string>();
  const withParents = (key: string | null | undefined) => {
    for (let k = key; k !== null && k !== undefined && !keep.has(k); k = byKey.get(k)?.parent) keep.add(k);
  };
  let omittedChanges = 0;
  if (p.items.length <= limit) for (const it of p.items) keep.add(it.key);
  else {
    for (const it of p.items) {
      if (it.status === 'same') continue;
      if (keep.size >= limit) {
        omittedChanges++;
        continue;
      }
      withParents(it.key);
      withParents(it.from);
    }
  }
  const ids = new Map<string, string>();
  let next = 0;
  for (const it of p.items) {
    if (!keep.has(it.key)) continue;
    const id = `n${++next}`;
    ids.set(it.key, id);
    lines.push(`  ${id}${shapeOf(it)}${it.status === 'same' ? '' : `:::${it.status}`}`);
    if (it.status !== 'same') used.add(it.status);
  }
  for (const it of p.items) {
    const id = ids.get(it.key);
    if (id === undefined) continue;
    edges.push(`  ${it.parent !== null ? (ids.get(it.parent) ?? 'n0') : 'n0'} --> ${id}`);
    if (it.status === 'moved' && it.from !== undefined) edges.push(`  ${it.from !== null ? (ids.get(it.from) ?? 'n0') : 'n0'} -. was here .-> ${id}`);
  }
  // Unchanged items left out: one box per parent saying how many.
  const hidden = new Map<string | null, number>();
  for (const it of p.items) if (!keep.has(it.key)) hidden.set(it.parent, (hidden.get(it.parent) ?? 0) + 1);
  let omitted = 0;
  for (const [parent, n] of hidden) {
    omitted += n;
    if (parent !== null && !ids.has(parent)) continue;
    const id = `n${++next}`;
    lines.push(`  ${id}["${label(`… ${plural(n, 'other item')}`)}"]:::more`);
    edges.push(`  ${parent !== null ? (ids.get(parent) as string) : 'n0'} --> ${id}`);
  }
  const classes = (Object.keys(PICTURE_CLASSES) as (keyof typeof PICTURE_CLASSES)[]).filter((c) => used.has(c)).map((c) => `  classDef ${c} ${PICTURE_CLASSES[c]}`);
  if (hidden.size > 0) classes.push('  classDef more fill:#f6f8fa,stroke:#d0d7de,color:#59636e,stroke-dasharray:2 2');
  const caption =
    omitted === 0
      ? undefined
      : `A large site: what changes is drawn with its parents; ${plural(omitted - omittedChanges, 'unchanged item')} ${omitted - omittedChanges === 1 ? 'is' : 'are'} counted, not drawn${omittedChanges > 0 ? `, and ${plural(omittedChanges, 'more change')} did not fit` : ''}.`;
  return { ...base, mermaid: [...lines, ...edges, ...classes].join('\n'), omitted, ...(caption ? { caption } : {}), ...(omitted > 0 ? { tree: treeOf(p.items) } : {}) };
}

/** The sites whose structure the plan's steps change, each as a Mermaid flowchart, in the order of the plan. */
function stepDiagrams(plan: MaskedPlan, options: DiagramOptions = {}): SiteDiagram[] {
  const opts: Required<DiagramOptions> = { contextLimit: options.contextLimit ?? CONTEXT_LIMIT, nodeLimit: options.nodeLimit ?? NODE_LIMIT };
  const trees = new Map<string, { org: string; tree: SiteTree; drawn: boolean }>();
  for (const step of plan.steps) {
    const segments = segmentsOf(step.address);
    if (!segments || segments[0].name !== 'sites' || segments[0].key === undefined) continue;
    const id = `${step.org}\0${segments[0].key}`;
    let entry = trees.get(id);
    if (!entry) {
      entry = { org: step.org, tree: new SiteTree(segments[0].key), drawn: false };
      trees.set(id, entry);
    }
    if (addStep(entry.tree, segments.slice(1), step)) entry.drawn = true;
  }
  const out: SiteDiagram[] = [];
  for (const { org, tree, drawn } of trees.values()) {
    if (!drawn) continue;
    const { mermaid, omitted } = draw(tree, opts);
    out.push({ org, site: tree.site, mermaid, omitted });
  }
  return out;
}

/** One object's access changes: who, and the role before → after (`—` for none). */
export interface AccessTable {
  org: string;
  object: string;
  rows: { who: string; before: string; after: string }[];
}

/** An access step's object, who (teams or users) and whose key: `OBJECT.access.teams["KEY"]`. */
export function accessOf(address: string): { object: string; who: 'teams' | 'users'; key: string } | undefined {
  const parsed = parseAddress(address);
  if (!parsed || parsed.segments.length < 4) return undefined;
  const n = parsed.segments.length;
  const [access, who, last] = parsed.segments.slice(n - 3);
  if (!('name' in access) || access.name !== 'access' || !('name' in who) || (who.name !== 'teams' && who.name !== 'users') || !('key' in last)) return undefined;
  return { object: formatAddress({ segments: parsed.segments.slice(0, n - 3) }), who: who.name, key: last.key };
}

/** The access changes of the plan, grouped per object (collection, space, site), in the order of the plan. */
export function accessTables(plan: MaskedPlan): AccessTable[] {
  const tables = new Map<string, AccessTable>();
  for (const step of plan.steps) {
    const m = accessOf(step.address);
    if (!m) continue;
    const id = `${step.org}\0${m.object}`;
    let table = tables.get(id);
    if (!table) {
      table = { org: step.org, object: m.object, rows: [] };
      tables.set(id, table);
    }
    const role = (v: unknown) => {
      const r = (v as { role?: unknown } | null)?.role;
      return typeof r === 'string' ? r : '—';
    };
    table.rows.push({ who: `${m.who === 'teams' ? 'team' : 'user'} ${m.key}`, before: role(step.before), after: role(step.after) });
  }
  return [...tables.values()];
}
