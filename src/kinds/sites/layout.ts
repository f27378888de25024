/**
 * A site's structure as the planner simulates it: the top level (sections and groups) and the
 * sections of each group, by item key. The operations mirror what the API does, so that the plan
 * knows the order apply will leave before the sort step runs.
 */
import type { RemoteSite } from './remote.js';

/** `s:ID` for a section, `g:ID` for a group; ID may be a `{{ref:…}}` token for a created item. */
export type ItemKey = string;

export const sectionKey = (id: string): ItemKey => `s:${id}`;
export const groupKey = (id: string): ItemKey => `g:${id}`;
export const isGroupKey = (k: ItemKey): boolean => k.startsWith('g:');
export const idOfKey = (k: ItemKey): string => k.slice(2);

export interface Layout {
  top: ItemKey[];
  /** Group key → section keys, in order. */
  groups: Map<ItemKey, ItemKey[]>;
}

export function layoutOf(site: RemoteSite): Layout {
  return {
    top: site.top.map((t) => (t.type === 'group' ? groupKey(t.id) : sectionKey(t.id))),
    groups: new Map(site.groups.map((g) => [groupKey(g.id), g.sections.map(sectionKey)])),
  };
}

export function cloneLayout(l: Layout): Layout {
  return { top: [...l.top], groups: new Map([...l.groups].map(([k, v]) => [k, [...v]])) };
}

/** The list holding `key` (the top level or a group's sections), or undefined. */
export function containerOf(l: Layout, key: ItemKey): ItemKey[] | undefined {
  if (l.top.includes(key)) return l.top;
  for (const list of l.groups.values()) if (list.includes(key)) return list;
  return undefined;
}

/** The group holding a section, or undefined at the top level (or nowhere). */
export function groupHolding(l: Layout, key: ItemKey): ItemKey | undefined {
  for (const [g, list] of l.groups) if (list.includes(key)) return g;
  return undefined;
}

export function removeItem(l: Layout, key: ItemKey): void {
  const list = containerOf(l, key);
  if (list) list.splice(list.indexOf(key), 1);
}

/** A section deleted (its group lets it go) or a section created (appended at the top level). */
export function deleteSection(l: Layout, key: ItemKey): void {
  removeItem(l, key);
}

/** A section created: appended at the top level. */
export function appendTop(l: Layout, key: ItemKey): void {
  removeItem(l, key);
  l.top.push(key);
}

/** A section's update with `siteSectionGroupId: null`: it leaves its group for the top level, just after the group. */
export function leaveGroup(l: Layout, group: ItemKey, key: ItemKey): void {
  removeItem(l, key);
  const at = l.top.indexOf(group);
  l.top.splice(at < 0 ? l.top.length : at + 1, 0, key);
}

/** Deleting a group puts its sections back at the top level where the group was. */
export function deleteGroup(l: Layout, key: ItemKey): void {
  const members = l.groups.get(key) ?? [];
  const at = l.top.indexOf(key);
  if (at >= 0) l.top.splice(at, 1, ...members);
  else l.top.push(...members);
  l.groups.delete(key);
}

/** A group created with sections: they leave where they were, in the given order; the group goes last. */
export function createGroup(l: Layout, key: ItemKey, sections: readonly ItemKey[]): void {
  for (const s of sections) removeItem(l, s);
  l.groups.set(key, [...sections]);
  l.top.push(key);
}

/** A section's update with `siteSectionGroupId`: it leaves where it was and is appended to the group. */
export function appendToGroup(l: Layout, group: ItemKey, section: ItemKey): void {
  removeItem(l, section);
  const list = l.groups.get(group);
  if (!list) throw new Error(`appendToGroup: no group ${group}`);
  list.push(section);
}
