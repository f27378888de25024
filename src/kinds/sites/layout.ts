/**
 * A site's structure as the planner simulates it: the top level and the children of each group
 * (sections, nested groups, external links), in order, by item key. The operations mirror what the
 * API does (and what the emulator does), so that the plan knows the order apply will leave before
 * the sort step runs.
 */
import type { RemoteSite, TopItem } from './remote.js';

/** `s:ID` for a section, `g:ID` for a group, `l:ID` for an external link; ID may be a `{{ref:…}}` token for a created item. */
export type ItemKey = string;

export const sectionKey = (id: string): ItemKey => `s:${id}`;
export const groupKey = (id: string): ItemKey => `g:${id}`;
export const linkKey = (id: string): ItemKey => `l:${id}`;
export const isGroupKey = (k: ItemKey): boolean => k.startsWith('g:');
export const isLinkKey = (k: ItemKey): boolean => k.startsWith('l:');
export const idOfKey = (k: ItemKey): string => k.slice(2);

/** The `type` of an item in `PATCH SITE/structure/sort`. */
export function pointerType(k: ItemKey): 'site-section' | 'site-section-group' | 'site-external-link' {
  return isGroupKey(k) ? 'site-section-group' : isLinkKey(k) ? 'site-external-link' : 'site-section';
}

export interface Layout {
  top: ItemKey[];
  /** Group key → its children's keys, in order. */
  groups: Map<ItemKey, ItemKey[]>;
}

const keyOf = (t: TopItem): ItemKey => (t.type === 'group' ? groupKey(t.id) : t.type === 'link' ? linkKey(t.id) : sectionKey(t.id));

export function layoutOf(site: RemoteSite): Layout {
  return {
    top: site.top.map(keyOf),
    groups: new Map(site.groups.map((g) => [groupKey(g.id), g.children.map(keyOf)])),
  };
}

export function cloneLayout(l: Layout): Layout {
  return { top: [...l.top], groups: new Map([...l.groups].map(([k, v]) => [k, [...v]])) };
}

/** The list holding `key` (the top level or a group's children), or undefined. */
export function containerOf(l: Layout, key: ItemKey): ItemKey[] | undefined {
  if (l.top.includes(key)) return l.top;
  for (const list of l.groups.values()) if (list.includes(key)) return list;
  return undefined;
}

/** The group holding an item, or undefined at the top level (or nowhere). */
export function groupHolding(l: Layout, key: ItemKey): ItemKey | undefined {
  for (const [g, list] of l.groups) if (list.includes(key)) return g;
  return undefined;
}

/** The top-level item that holds `key` (itself when it is at the top level), or undefined. */
export function topAncestor(l: Layout, key: ItemKey): ItemKey | undefined {
  const seen = new Set<ItemKey>();
  let k: ItemKey | undefined = key;
  while (k !== undefined && !l.top.includes(k)) {
    if (seen.has(k)) return undefined;
    seen.add(k);
    k = groupHolding(l, k);
  }
  return k;
}

export function removeItem(l: Layout, key: ItemKey): void {
  const list = containerOf(l, key);
  if (list) list.splice(list.indexOf(key), 1);
}

/** A section or an external link deleted: it leaves its list. */
export function deleteSection(l: Layout, key: ItemKey): void {
  removeItem(l, key);
}

/** An item created at the top level: appended. */
export function appendTop(l: Layout, key: ItemKey): void {
  removeItem(l, key);
  l.top.push(key);
}

/**
 * An item's update that moves it to the root (`siteSectionGroupId`, `parentSectionGroupId` or
 * `parent` null): it lands at the top level just after the top-level group that held it.
 */
export function leaveGroup(l: Layout, group: ItemKey, key: ItemKey): void {
  const anchor = topAncestor(l, group) ?? group;
  removeItem(l, key);
  const at = l.top.indexOf(anchor);
  l.top.splice(at < 0 ? l.top.length : at + 1, 0, key);
}

/** Deleting a group puts its children back where the group stood (the top level or its parent). */
export function deleteGroup(l: Layout, key: ItemKey): void {
  const members = l.groups.get(key) ?? [];
  const list = containerOf(l, key) ?? l.top;
  const at = list.indexOf(key);
  if (at >= 0) list.splice(at, 1, ...members);
  else list.push(...members);
  l.groups.delete(key);
}

/**
 * A group created with sections: they leave where they were, in the given order; the group goes
 * last in its parent (or at the top level).
 */
export function createGroup(l: Layout, key: ItemKey, sections: readonly ItemKey[], parent?: ItemKey): void {
  for (const s of sections) removeItem(l, s);
  l.groups.set(key, [...sections]);
  const list = parent !== undefined ? l.groups.get(parent) : l.top;
  if (!list) throw new Error(`createGroup: no group ${parent}`);
  list.push(key);
}

/** An item created in a group (an external link with `parent`): appended to it. */
export function createInGroup(l: Layout, group: ItemKey, key: ItemKey): void {
  appendToGroup(l, group, key);
}

/** An item's update into a group (`siteSectionGroupId`, `parentSectionGroupId`, `parent`): it leaves where it was and is appended to the group. */
export function appendToGroup(l: Layout, group: ItemKey, item: ItemKey): void {
  removeItem(l, item);
  const list = l.groups.get(group);
  if (!list) throw new Error(`appendToGroup: no group ${group}`);
  list.push(item);
}
