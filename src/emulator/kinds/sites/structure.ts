/**
 * A site's structure: an ordered top level of sections and section groups, each group an ordered
 * list of sections, each section an ordered list of site spaces. Every list the API returns follows
 * this order; every change (create, delete, group membership, sort) goes through these functions so
 * that the order and the back-references (`section.group`, `siteSpace.section`) stay consistent.
 */
import { invalid } from '../../errors.js';
import type { GroupRec, SectionRec, SiteRec, SiteSpaceRec } from './records.js';

/** Sections depth-first: top-level sections at their place, a group's sections at the group's place. */
export function sectionsInOrder(site: SiteRec): SectionRec[] {
  const out: SectionRec[] = [];
  for (const item of site.top) {
    if (item.type === 'section') out.push(site.sections.get(item.id)!);
    else for (const sid of site.groups.get(item.id)!.sections) out.push(site.sections.get(sid)!);
  }
  return out;
}

export function groupsInOrder(site: SiteRec): GroupRec[] {
  return site.top.filter((t) => t.type === 'group').map((t) => site.groups.get(t.id)!);
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

/** Takes a section out of wherever it stands (the top level or its group). */
export function detachSection(site: SiteRec, section: SectionRec): void {
  if (section.group) {
    const group = site.groups.get(section.group);
    if (group) removeFrom(group.sections, (id) => id === section.id);
    section.group = undefined;
  } else {
    removeFrom(site.top, (t) => t.type === 'section' && t.id === section.id);
  }
}

/** A new section at the end of the top level. */
export function appendSection(site: SiteRec, section: SectionRec): void {
  site.sections.set(section.id, section);
  site.top.push({ type: 'section', id: section.id });
}

/** Deletes a section and its site spaces, and takes it out of its group. */
export function deleteSection(site: SiteRec, section: SectionRec): void {
  detachSection(site, section);
  for (const ssid of section.siteSpaces) site.siteSpaces.delete(ssid);
  site.sections.delete(section.id);
  if (site.defaultSection === section.id) site.defaultSection = undefined;
}

/** A new group at the end of the top level, holding `sections` taken from where they were, in that order. */
export function appendGroup(site: SiteRec, group: GroupRec, sections: SectionRec[]): void {
  site.groups.set(group.id, group);
  site.top.push({ type: 'group', id: group.id });
  for (const section of sections) addSectionToGroup(site, group, section);
}

/** Appends a section to a group, taking it out of where it was. */
export function addSectionToGroup(site: SiteRec, group: GroupRec, section: SectionRec): void {
  detachSection(site, section);
  group.sections.push(section.id);
  section.group = group.id;
}

/** Puts a grouped section back at the top level, just after its group. Whether it was in the group. */
export function removeSectionFromGroup(site: SiteRec, group: GroupRec, section: SectionRec): boolean {
  if (section.group !== group.id) return false;
  detachSection(site, section);
  const at = site.top.findIndex((t) => t.type === 'group' && t.id === group.id);
  site.top.splice(at + 1, 0, { type: 'section', id: section.id });
  return true;
}

/**
 * A section's PATCH with `siteSectionGroupId`: into a group (at its end), or to the root (null: just
 * after the group it leaves). Nothing moves when it is already there.
 */
export function moveSectionToGroup(site: SiteRec, section: SectionRec, group: GroupRec | null): void {
  if (group === null) {
    if (section.group) removeSectionFromGroup(site, site.groups.get(section.group)!, section);
    return;
  }
  if (section.group !== group.id) addSectionToGroup(site, group, section);
}

/** Deletes a group; its sections return to the top level where the group stood, in order. */
export function deleteGroup(site: SiteRec, group: GroupRec): void {
  const at = site.top.findIndex((t) => t.type === 'group' && t.id === group.id);
  const freed = group.sections.map((id) => ({ type: 'section' as const, id }));
  for (const sid of group.sections) site.sections.get(sid)!.group = undefined;
  site.top.splice(at, 1, ...freed);
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

export type StructureType = 'site-space' | 'site-section' | 'site-section-group';
export interface StructureRef {
  type: StructureType;
  id: string;
}
export type Placement = 'before' | 'after';

/**
 * `PATCH SITE/structure/sort`: takes the item out of where it is and inserts it before or after a
 * sibling. Sorting changes sibling order only (docs/conformance.md): a section placed next
 * to a section of another level (the root or another group), or a site space next to one of another
 * section, is refused; it moves by its own update first. An incompatible pair or an unknown id is
 * refused as invalid.
 */
const crossLevel =
  'position: sorting changes sibling order only; move a section between the root and a group with its own update (siteSectionGroupId) first';

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
    removeFrom(siteSpaceContainer(site, moving), (id) => id === moving.id);
    const oldSection = moving.section ? site.sections.get(moving.section) : undefined;
    if (oldSection && oldSection.id !== anchor.section && oldSection.defaultSiteSpace === moving.id) oldSection.defaultSiteSpace = undefined;
    moving.section = anchor.section;
    const list = siteSpaceContainer(site, anchor);
    insert(list, list.indexOf(anchor.id), moving.id);
    return;
  }

  if (item.type === 'site-section') {
    const moving = site.sections.get(item.id);
    if (!moving) throw invalid(`item.id: no section ${item.id} in site ${site.id}`);
    if (target.type === 'site-section') {
      const anchor = site.sections.get(target.id);
      if (!anchor) throw invalid(`position: no section ${target.id} in site ${site.id}`);
      if (anchor.group !== moving.group) throw invalid(crossLevel);
      detachSection(site, moving);
      if (anchor.group) {
        const group = site.groups.get(anchor.group)!;
        insert(group.sections, group.sections.indexOf(anchor.id), moving.id);
        moving.group = group.id;
      } else {
        insert(site.top, site.top.findIndex((t) => t.type === 'section' && t.id === anchor.id), { type: 'section', id: moving.id });
      }
      return;
    }
    if (target.type === 'site-section-group') {
      if (!site.groups.has(target.id)) throw invalid(`position: no section group ${target.id} in site ${site.id}`);
      if (moving.group) throw invalid(crossLevel);
      detachSection(site, moving);
      insert(site.top, site.top.findIndex((t) => t.type === 'group' && t.id === target.id), { type: 'section', id: moving.id });
      return;
    }
    throw invalid('position: a section can only be placed next to a section or a section group, not a site space');
  }

  const group = site.groups.get(item.id);
  if (!group) throw invalid(`item.id: no section group ${item.id} in site ${site.id}`);
  if (target.type === 'site-section-group') {
    if (!site.groups.has(target.id)) throw invalid(`position: no section group ${target.id} in site ${site.id}`);
  } else if (target.type === 'site-section') {
    const anchor = site.sections.get(target.id);
    if (!anchor) throw invalid(`position: no section ${target.id} in site ${site.id}`);
    if (anchor.group) throw invalid('position: a section group cannot be placed inside a section group');
  } else {
    throw invalid('position: a section group can only be placed next to a section or a section group, not a site space');
  }
  removeFrom(site.top, (t) => t.type === 'group' && t.id === group.id);
  const targetKind = target.type === 'site-section-group' ? 'group' : 'section';
  insert(site.top, site.top.findIndex((t) => t.type === targetKind && t.id === target.id), { type: 'group', id: group.id });
}
