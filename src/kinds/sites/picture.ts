/**
 * A site's picture (src/model/picture.ts): the structure as the remote has it beside the structure
 * as the plan leaves it, item by item. The plan's steps do not draw it: a step's "before" is the state
 * the earlier steps leave, not the site as it is, so a section moved through a new group, or a space
 * moved between sections, would read as something else.
 */
import type { PictureItem, PictureStatus, SitePicture } from '../../model/picture.js';
import { siteAddress } from './addresses.js';
import { groupKey, idOfKey, isGroupKey, isLinkKey, linkKey, sectionKey, type ItemKey, type Layout } from './layout.js';
import type { RemoteSite } from './remote.js';
import type { GroupEntry, LinkEntry, SectionEntry, SitePlans } from './steps.js';

export interface PictureInput {
  site: string;
  title: string;
  created: boolean;
  remote: RemoteSite;
  /** The structure as the plan's creates, deletes and moves leave it, before the sort. */
  layout: Layout;
  /** The desired rank of each item the config places (the sort puts each level in this order). */
  rank: ReadonlyMap<ItemKey, number>;
  sections: readonly SectionEntry[];
  /** The spaces the config lists at the root of a site without sections, in order (absent: not managed). */
  rootSpaces?: readonly string[];
  groups: readonly GroupEntry[];
  links: readonly LinkEntry[];
  out: SitePlans;
}

/** Fields of an update that place an item rather than change it. */
const PLACING = new Set(['sections', 'parent', 'group', 'siteSectionGroupId', 'parentSectionGroupId', 'order']);

/** Each level's ranked items put in rank order, in the places they take among the unranked ones. */
function sorted(items: readonly ItemKey[], rank: ReadonlyMap<ItemKey, number>): ItemKey[] {
  const ranked = items.filter((k) => rank.has(k)).sort((a, b) => (rank.get(a) as number) - (rank.get(b) as number));
  let i = 0;
  return items.map((k) => (rank.has(k) ? ranked[i++] : k));
}

/** Parent and siblings of every item of a structure: key → [parent, list of its level]. */
function placesOf(top: readonly ItemKey[], groups: ReadonlyMap<ItemKey, readonly ItemKey[]>): Map<ItemKey, { parent: ItemKey | null; level: readonly ItemKey[] }> {
  const out = new Map<ItemKey, { parent: ItemKey | null; level: readonly ItemKey[] }>();
  for (const k of top) out.set(k, { parent: null, level: top });
  for (const [g, children] of groups) for (const k of children) out.set(k, { parent: g, level: children });
  return out;
}

/** The items of `after` that leave the longest run keeping their order in `before`: the fewest that moved. */
function outOfOrder(before: readonly string[], after: readonly string[]): Set<string> {
  const common = after.filter((k) => before.includes(k));
  const pos = common.map((k) => before.indexOf(k));
  // Longest increasing subsequence of positions, quadratic: one level holds at most a few hundred items.
  const len = pos.map(() => 1);
  const prev = pos.map(() => -1);
  for (let i = 0; i < pos.length; i++) {
    for (let j = 0; j < i; j++) {
      if (pos[j] < pos[i] && len[j] + 1 > len[i]) {
        len[i] = len[j] + 1;
        prev[i] = j;
      }
    }
  }
  let best = -1;
  for (let i = 0; i < pos.length; i++) if (best < 0 || len[i] > len[best]) best = i;
  const kept = new Set<string>();
  for (let i = best; i >= 0; i = prev[i]) kept.add(common[i]);
  return new Set(common.filter((k) => !kept.has(k)));
}

/** The desired spaces of a section: its own space and its listed site spaces, or the remote ones where it lists none. */
function desiredSpaces(e: SectionEntry): string[] {
  const remote = e.remote?.siteSpaces.map((s) => s.space) ?? [];
  const listed = e.cfg.siteSpaces?.map((s) => s.space);
  const spaces = listed ? [e.cfg.space, ...listed] : [...remote, e.cfg.space];
  return [...new Set(spaces)];
}

export function sitePicture(input: PictureInput): SitePicture {
  const { remote, layout, rank, out } = input;
  const sectionOf = new Map(input.sections.map((e) => [e.key, e]));
  const groupOf = new Map(input.groups.map((e) => [e.key, e]));
  const linkOf = new Map(input.links.map((e) => [e.key, e]));
  const remoteSection = new Map(remote.sections.map((s) => [sectionKey(s.id), s]));
  const remoteGroup = new Map(remote.groups.map((g) => [groupKey(g.id), g]));
  const remoteLink = new Map(remote.links.map((l) => [linkKey(l.id), l]));

  // As it is, and as it will be (each level in its desired order).
  const beforeTop = remote.top.map((t) => (t.type === 'group' ? groupKey(t.id) : t.type === 'link' ? linkKey(t.id) : sectionKey(t.id)));
  const beforeGroups = new Map(remote.groups.map((g) => [groupKey(g.id), g.children.map((c) => (c.type === 'group' ? groupKey(c.id) : c.type === 'link' ? linkKey(c.id) : sectionKey(c.id)))]));
  const afterTop = sorted(layout.top, rank);
  const afterGroups = new Map([...layout.groups].map(([g, children]) => [g, sorted(children, rank)]));
  const before = placesOf(beforeTop, beforeGroups);
  const after = placesOf(afterTop, afterGroups);

  const entryAddress = (k: ItemKey) => sectionOf.get(k)?.address ?? groupOf.get(k)?.address ?? linkOf.get(k)?.address;
  const updated = (address: string | undefined, steps: SitePlans[keyof SitePlans]['steps']) =>
    address !== undefined && steps.some((s) => s.address === address && s.action === 'update' && Object.keys(s.after ?? {}).some((f) => !PLACING.has(f)));
  const titleOf = (k: ItemKey): string =>
    sectionOf.get(k)?.cfg.title ?? groupOf.get(k)?.cfg.title ?? linkOf.get(k)?.cfg.title ?? remoteSection.get(k)?.title ?? remoteGroup.get(k)?.title ?? remoteLink.get(k)?.title ?? idOfKey(k);
  const idOf = (k: ItemKey): string => sectionOf.get(k)?.cfg.path ?? remoteSection.get(k)?.path ?? (k.includes('{{') ? (entryAddress(k) ?? k) : idOfKey(k));
  const typeOf = (k: ItemKey): PictureItem['type'] => (isGroupKey(k) ? 'group' : isLinkKey(k) ? 'link' : 'section');

  const reordered = new Set<string>();
  for (const [parent, level] of [[null, afterTop] as const, ...[...afterGroups].map(([g, l]) => [g, l] as const)]) {
    const was = parent === null ? beforeTop : (beforeGroups.get(parent) ?? []);
    const stay = level.filter((k) => before.get(k)?.parent === parent && before.has(k));
    for (const k of outOfOrder(was.filter((x) => stay.includes(x)), stay)) reordered.add(k);
  }

  const items: PictureItem[] = [];
  const spaceItems: PictureItem[] = [];
  const spacesBefore = new Map<string, ItemKey>();
  for (const s of remote.sections) for (const sp of s.siteSpaces) spacesBefore.set(sp.space, sectionKey(s.id));
  const spacesAfter = new Map<string, ItemKey>();

  const visit = (level: readonly ItemKey[]) => {
    for (const k of level) {
      const was = before.get(k);
      const is = after.get(k) as { parent: ItemKey | null };
      let status: PictureStatus = 'same';
      if (!was) status = 'added';
      else if (was.parent !== is.parent) status = 'moved';
      else if (reordered.has(k)) status = 'reordered';
      else if (updated(entryAddress(k), [...out.sections.steps, ...out.sectionGroups.steps, ...out.externalLinks.steps])) status = 'changed';
      items.push({ key: k, type: typeOf(k), title: titleOf(k), status, parent: is.parent, ...(status === 'moved' ? { from: (was as { parent: ItemKey | null }).parent } : {}) });
      const section = sectionOf.get(k);
      if (section) for (const space of desiredSpaces(section)) spacesAfter.set(space, k);
      else if (remoteSection.has(k)) for (const sp of (remoteSection.get(k) as { siteSpaces: { space: string }[] }).siteSpaces) spacesAfter.set(sp.space, k);
      if (isGroupKey(k)) visit(afterGroups.get(k) ?? []);
    }
  };
  visit(afterTop);

  // Items the plan removes: under their old parent, where that is still drawn.
  for (const [k, was] of before) {
    if (after.has(k)) continue;
    items.push({ key: k, type: typeOf(k), title: titleOf(k), status: 'removed', parent: was.parent });
  }
  for (const it of items) if (it.status === 'removed' && it.parent !== null && !items.some((x) => x.key === it.parent)) it.parent = null;

  // Site spaces, by the space they show: one that changes section is one move.
  for (const [space, section] of spacesAfter) {
    const was = spacesBefore.get(space);
    const status: PictureStatus = was === undefined ? 'added' : was !== section ? 'moved' : 'same';
    spaceItems.push({ key: `p:${space}`, type: 'space', title: space, status, parent: section, ...(status === 'moved' ? { from: was } : {}) });
  }
  for (const [space, section] of spacesBefore) {
    if (spacesAfter.has(space)) continue;
    spaceItems.push({ key: `p:${space}`, type: 'space', title: space, status: 'removed', parent: section });
  }

  // Site spaces at the root of a site without sections: added, removed, or reordered among themselves.
  const rootBefore = remote.rootSiteSpaces.map((r) => r.space);
  const rootAfter = input.rootSpaces ? [...new Set(input.rootSpaces)] : rootBefore;
  const rootMoved = outOfOrder(rootBefore, rootAfter);
  for (const space of rootAfter) {
    const status: PictureStatus = !rootBefore.includes(space) ? 'added' : rootMoved.has(space) ? 'reordered' : 'same';
    spaceItems.push({ key: `p:${space}`, type: 'space', title: space, status, parent: null });
  }
  for (const space of rootBefore) if (!rootAfter.includes(space)) spaceItems.push({ key: `p:${space}`, type: 'space', title: space, status: 'removed', parent: null });

  const all = [...items, ...spaceItems];
  const seen = new Map<string, number>();
  for (const it of all) seen.set(it.title, (seen.get(it.title) ?? 0) + 1);
  for (const it of all) if ((seen.get(it.title) as number) > 1 && it.type !== 'space') it.id = idOf(it.key);
  return { site: input.site, address: siteAddress(input.site), title: input.title, created: input.created, items: all };
}

/** Whether a picture shows any change. */
export function pictureChanges(p: SitePicture): boolean {
  return p.created || p.items.some((i) => i.status !== 'same');
}
