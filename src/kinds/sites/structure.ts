/** The order of a site's structure: one sort step holding the fewest moves. */
import { key } from '../../model/address.js';
import type { JsonObject, RequestSpec } from '../../model/step.js';
import { structureAddress } from './addresses.js';
import { groupKey, idOfKey, isGroupKey, isLinkKey, type ItemKey, type Layout } from './layout.js';
import { sortMoves } from './order.js';
import { sortRequest, type GroupEntry, type SiteContext } from './steps.js';
import { siteKey } from './schema.js';
import { step } from '../common/step.js';

/** The inputs of the structure sort: the order the earlier steps leave, and the order wanted. */
export interface StructureInput {
  /** The structure as the earlier steps of the plan leave it. */
  layout: Layout;
  /** The wanted position of every managed item. */
  rank: ReadonlyMap<ItemKey, number>;
  labelOf: ReadonlyMap<ItemKey, string>;
  groupByKey: ReadonlyMap<ItemKey, GroupEntry>;
  /** Addresses of the steps that change the structure (the sort waits for them). */
  touched: readonly string[];
}

/** The fewest `structure/sort` moves from the order the earlier steps leave to the wanted one, in one step. */
export function planStructure(ctx: SiteContext, input: StructureInput): void {
  const { site, remote, base, out, push } = ctx;
  const { layout, rank, labelOf, groupByKey } = input;
  if (rank.size === 0) return;
  const byRank = (a: ItemKey, b: ItemKey) => (rank.get(a) as number) - (rank.get(b) as number);
  // The top level, then every group's children, depth-first (a group before the groups it holds).
  const containers: Array<{ group?: ItemKey; items: ItemKey[] }> = [{ items: layout.top }];
  const visit = (items: readonly ItemKey[]) => {
    for (const g of items.filter(isGroupKey)) {
      if (containers.some((c) => c.group === g)) continue;
      const children = layout.groups.get(g) ?? [];
      containers.push({ group: g, items: children });
      visit(children);
    }
  };
  visit(layout.top);
  const requests: RequestSpec[] = [];
  const before: JsonObject = { order: [] };
  const after: JsonObject = { order: [] };
  const labelItem = (k: ItemKey): string => {
    const g = groupByKey.get(k);
    if (g) return `sectionGroups${key(g.cfg.title)}`;
    if (isGroupKey(k)) return `sectionGroups${key(titleOfGroup(k))}`;
    if (isLinkKey(k)) return `externalLinks${key(labelOf.get(k) ?? idOfKey(k))}`;
    return `sections${key(labelOf.get(k) ?? idOfKey(k))}`;
  };
  /** In a group's list: a section by its path (as a group's `sections`), anything else by its kind and key. */
  const labelChild = (k: ItemKey): string => (isGroupKey(k) || isLinkKey(k) ? labelItem(k) : (labelOf.get(k) ?? idOfKey(k)));
  const titleOfGroup = (k: ItemKey) => groupByKey.get(k)?.cfg.title ?? remote.groups.find((r) => groupKey(r.id) === k)?.title ?? idOfKey(k);
  for (const c of containers) {
    const current = c.items.filter((k) => rank.has(k));
    const desired = [...current].sort(byRank);
    if (!c.group) {
      before.order = current.map(labelItem);
      after.order = desired.map(labelItem);
    } else if (current.length > 0) {
      ((before.groups ??= {}) as JsonObject)[titleOfGroup(c.group)] = current.map(labelChild);
      ((after.groups ??= {}) as JsonObject)[titleOfGroup(c.group)] = desired.map(labelChild);
    }
    for (const m of sortMoves(current, desired)) {
      requests.push(m.after !== undefined ? sortRequest(base, m.item, 'after', m.after) : sortRequest(base, m.item, 'before', m.before as ItemKey));
    }
  }
  if (requests.length === 0) return;
  const touched = input.touched;
  push(
    step({
      address: structureAddress(siteKey(site)),
      kind: 'sections',
      action: 'sort',
      before,
      after,
      requests,
      needs: [...new Set(touched)],
      notes:
        touched.length > 0 && out.sections.steps.length + out.sectionGroups.steps.length > 0
          ? ['before: the order as the earlier steps of this plan leave it (created sections, groups and links come last in their level)']
          : undefined }),
    {
      top: remote.top.map((t) => `${t.type}:${t.id}`),
      groups: Object.fromEntries(
        remote.groups.map((g) => [g.id, g.children.every((c) => c.type === 'section') ? g.sections : g.children.map((c) => `${c.type}:${c.id}`)]),
      ) },
  );
}
