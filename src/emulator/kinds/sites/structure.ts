/**
 * A site's structure: an ordered top level of sections, section groups and external links, each
 * group an ordered list of children of the same three kinds (groups nest), each section an ordered
 * list of site spaces; or, for a site without sections, an ordered list of site spaces at its root.
 * Every list the API returns follows this order; every change (create, delete, a move between
 * levels, sort) goes through these functions so that the order and the back-references
 * (`section.group`, `group.parent`, `link.parent`, `siteSpace.section`) stay consistent.
 */
import { invalid } from '../../errors.js';
import type { GroupRec, LinkRec, SectionRec, SiteRec, SiteSpaceRec, TopItem } from './records.js';

type ItemType = TopItem['type'];

/** Every item depth-first: an item, then (for a group) its children. */
function walk(site: SiteRec, items: readonly TopItem[], out: TopItem[] = []): TopItem[] {
  for (const item of items) {
    out.push(item);
    if (item.type === 'group') walk(site, site.groups.get(item.id)!.children, out);
  }
  return out;
}

/** Sections depth-first: top-level sections at their place, a group's sections at the group's place. */
export function sectionsInOrder(site: SiteRec): SectionRec[] {
  return walk(site, site.top).filter((t) => t.type === 'section').map((t) => site.sections.get(t.id)!);
}

/** Groups depth-first: a group before the groups it holds. */
export function groupsInOrder(site: SiteRec): GroupRec[] {
  return walk(site, site.top).filter((t) => t.type === 'group').map((t) => site.groups.get(t.id)!);
}

/** Root site spaces first (a site without sections), then each section's in structure order. */
export function siteSpacesInOrder(site: SiteRec): SiteSpaceRec[] {
  const ids = [...site.rootSiteSpaces];
  for (const section of sectionsInOrder(site)) ids.push(...section.siteSpaces);
  return ids.map((id) => site.siteSpaces.get(id)!);
}

export function defaultSectionId(site: SiteRec): string | undefined {
  if (site.defaultSection && site.sections.has(site.defaultSection)) return site.defaultSection;
  return sectionsInOrder(site)[0]?.id;
}

export function defaultSiteSpaceId(site: SiteRec, section: SectionRec | undefined): string | undefined {
  const list = section ? section.siteSpaces : site.rootSiteSpaces;
  if (section?.defaultSiteSpace && list.includes(section.defaultSiteSpace)) return section.defaultSiteSpace;
  return list[0];
}

function removeFrom<T>(list: T[], pred: (x: T) => boolean): number {
  const at = list.findIndex(pred);
  if (at >= 0) list.splice(at, 1);
  return at;
}

/** The group holding an item (undefined at the top level). */
function parentOf(site: SiteRec, item: TopItem): string | undefined {
  if (item.type === 'section') return site.sections.get(item.id)?.group;
  if (item.type === 'group') return site.groups.get(item.id)?.parent;
  return site.links.get(item.id)?.parent;
}

function setParent(site: SiteRec, item: TopItem, group: string | undefined): void {
  if (item.type === 'section') site.sections.get(item.id)!.group = group;
  else if (item.type === 'group') site.groups.get(item.id)!.parent = group;
  else site.links.get(item.id)!.parent = group;
}

/** The list holding an item: its group's children, or the top level. */
function containerOf(site: SiteRec, item: TopItem): TopItem[] {
  const parent = parentOf(site, item);
  return parent ? site.groups.get(parent)!.children : site.top;
}

const same = (a: TopItem) => (b: TopItem) => a.type === b.type && a.id === b.id;

/** Takes an item out of wherever it stands (the top level or its group). */
function detach(site: SiteRec, item: TopItem): void {
  removeFrom(containerOf(site, item), same(item));
  setParent(site, item, undefined);
}

/** Appends an item to a group's children (or the top level), taking it out of where it was. */
function appendTo(site: SiteRec, item: TopItem, group: GroupRec | undefined): void {
  detach(site, item);
  (group ? group.children : site.top).push(item);
  setParent(site, item, group?.id);
}

/** The top-level item holding an item (itself at the top level). */
function topAncestor(site: SiteRec, item: TopItem): TopItem {
  let t = item;
  for (let p = parentOf(site, t); p; p = parentOf(site, t)) t = { type: 'group', id: p };
  return t;
}

/** A new section at the end of the top level, or of a group. */
export function appendSection(site: SiteRec, section: SectionRec, group?: GroupRec): void {
  site.sections.set(section.id, section);
  site.top.push({ type: 'section', id: section.id });
  if (group) appendTo(site, { type: 'section', id: section.id }, group);
}

/** Deletes a section and its site spaces, and takes it out of its group. */
export function deleteSection(site: SiteRec, section: SectionRec): void {
  detach(site, { type: 'section', id: section.id });
  for (const ssid of section.siteSpaces) site.siteSpaces.delete(ssid);
  site.sections.delete(section.id);
  if (site.defaultSection === section.id) site.defaultSection = undefined;
}

/**
 * A new group at the end of its parent (or of the top level), holding `sections` taken from where
 * they were, in that order.
 */
export function appendGroup(site: SiteRec, group: GroupRec, sections: SectionRec[], parent?: GroupRec): void {
  site.groups.set(group.id, group);
  site.top.push({ type: 'group', id: group.id });
  if (parent) appendTo(site, { type: 'group', id: group.id }, parent);
  for (const section of sections) appendTo(site, { type: 'section', id: section.id }, group);
}

/** A new external link at the end of its group (or of the top level). */
export function appendLink(site: SiteRec, link: LinkRec, parent?: GroupRec): void {
  site.links.set(link.id, link);
  site.top.push({ type: 'link', id: link.id });
  if (parent) appendTo(site, { type: 'link', id: link.id }, parent);
}

export function deleteLink(site: SiteRec, link: LinkRec): void {
  detach(site, { type: 'link', id: link.id });
  site.links.delete(link.id);
}

/** Whether `group` is `item` or inside it (a group cannot move into itself or its descendants). */
function within(site: SiteRec, group: GroupRec, item: TopItem): boolean {
  if (item.type !== 'group') return false;
  for (let g: string | undefined = group.id; g; g = site.groups.get(g)?.parent) if (g === item.id) return true;
  return false;
}

/**
 * An item's update that moves it between levels (`siteSectionGroupId`, `parentSectionGroupId`,
 * `parent`): into a group (at its end), or to the root (null: just after the top-level group that
 * held it). Nothing moves when it is already there.
 */
export function moveToGroup(site: SiteRec, item: TopItem, group: GroupRec | null, field: string): void {
  const current = parentOf(site, item);
  if (group === null) {
    if (!current) return;
    const anchor = topAncestor(site, item);
    detach(site, item);
    site.top.splice(site.top.findIndex(same(anchor)) + 1, 0, item);
    return;
  }
  if (current === group.id) return;
  if (within(site, group, item)) throw invalid(`${field}: a section group cannot be moved into itself or a group it holds`);
  appendTo(site, item, group);
}

/** Deletes a group; its children return where the group stood (the top level or its parent), in order. */
export function deleteGroup(site: SiteRec, group: GroupRec): void {
  const item: TopItem = { type: 'group', id: group.id };
  const list = containerOf(site, item);
  const at = list.findIndex(same(item));
  for (const c of group.children) setParent(site, c, group.parent);
  list.splice(at, 1, ...group.children);
  site.groups.delete(group.id);
}

/** The list holding a site space: its section's, or the site's root list. */
function siteSpaceContainer(site: SiteRec, siteSpace: SiteSpaceRec): string[] {
  return siteSpace.section ? site.sections.get(siteSpace.section)!.siteSpaces : site.rootSiteSpaces;
}

export function appendSiteSpace(site: SiteRec, siteSpace: SiteSpaceRec): void {
  site.siteSpaces.set(siteSpace.id, siteSpace);
  siteSpaceContainer(site, siteSpace).push(siteSpace.id);
}

export function deleteSiteSpace(site: SiteRec, siteSpace: SiteSpaceRec): void {
  removeFrom(siteSpaceContainer(site, siteSpace), (id) => id === siteSpace.id);
  const section = siteSpace.section ? site.sections.get(siteSpace.section) : undefined;
  if (section?.defaultSiteSpace === siteSpace.id) section.defaultSiteSpace = undefined;
  site.siteSpaces.delete(siteSpace.id);
}

export type StructureType = 'site-space' | 'site-section' | 'site-section-group' | 'site-external-link';
export interface StructureRef {
  type: StructureType;
  id: string;
}
export type Placement = 'before' | 'after';

const ITEM_TYPES: Record<Exclude<StructureType, 'site-space'>, ItemType> = {
  'site-section': 'section',
  'site-section-group': 'group',
  'site-external-link': 'link',
};
const NAMES: Record<ItemType, string> = { section: 'section', group: 'section group', link: 'external link' };

function exists(site: SiteRec, item: TopItem): boolean {
  return item.type === 'section' ? site.sections.has(item.id) : item.type === 'group' ? site.groups.has(item.id) : site.links.has(item.id);
}

/**
 * `PATCH SITE/structure/sort`: takes the item out of where it is and inserts it before or after a
 * sibling. Sorting changes sibling order only (docs/conformance.md): an item placed next to an item
 * of another level (the root or another group), or a site space next to one of another section, is
 * refused; it moves by its own update first. An unknown id or an incompatible pair is refused as invalid.
 */
const crossLevel =
  'position: sorting changes sibling order only; move an item between the root and a group with its own update (siteSectionGroupId, parentSectionGroupId, parent) first';

export function sortStructure(site: SiteRec, item: StructureRef, placement: Placement, target: StructureRef): void {
  if (item.type === target.type && item.id === target.id) throw invalid('position: an item cannot be placed relative to itself');
  const insert = <T>(list: T[], at: number, value: T) => list.splice(placement === 'before' ? at : at + 1, 0, value);

  if (item.type === 'site-space') {
    const moving = site.siteSpaces.get(item.id);
    if (!moving) throw invalid(`item.id: no site space ${item.id} in site ${site.id}`);
    if (target.type !== 'site-space') throw invalid(`position: a site space can only be placed next to a site space, not a ${target.type}`);
    const anchor = site.siteSpaces.get(target.id);
    if (!anchor) throw invalid(`position: no site space ${target.id} in site ${site.id}`);
    if (moving.section !== anchor.section) {
      throw invalid('position: a site space can only be placed next to a site space of the same section (sorting changes sibling order only)');
    }
    const list = siteSpaceContainer(site, anchor);
    removeFrom(list, (id) => id === moving.id);
    insert(list, list.indexOf(anchor.id), moving.id);
    return;
  }

  const moving: TopItem = { type: ITEM_TYPES[item.type], id: item.id };
  if (!exists(site, moving)) throw invalid(`item.id: no ${NAMES[moving.type]} ${item.id} in site ${site.id}`);
  if (target.type === 'site-space') throw invalid(`position: a ${NAMES[moving.type]} can only be placed next to a section, a section group or an external link, not a site space`);
  const anchor: TopItem = { type: ITEM_TYPES[target.type], id: target.id };
  if (!exists(site, anchor)) throw invalid(`position: no ${NAMES[anchor.type]} ${target.id} in site ${site.id}`);
  if (parentOf(site, moving) !== parentOf(site, anchor)) throw invalid(crossLevel);
  const list = containerOf(site, moving);
  removeFrom(list, same(moving));
  insert(list, list.findIndex(same(anchor)), moving);
}
