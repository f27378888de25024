/**
 * What a targeted plan reads (`plan --target`, the staleness check of `apply PLANFILE` and the
 * convergence check after an apply): the units (src/kinds/index.ts) the targets' addresses belong
 * to, and within a list unit only the entries they name, then, until nothing more is needed, the
 * units and entries that the chosen steps' dependencies (`needs`) point at.
 *
 * Narrowing works on the config, not in the kinds: a kind reads "only what the config needs"
 * (src/kinds/kind.ts), so a read given fewer entries of its own unit sends fewer requests (one
 * membership list per named team, three lists per named site). The plan itself is still made from
 * the whole config; whatever it says under an entry that was not read (a step, a problem, a
 * fingerprint) is dropped, since it rests on a read that did not happen.
 *
 * A check of known steps (the staleness check of `apply PLANFILE`, the convergence check) narrows
 * further: it names the kinds of its steps, and only those kinds of the targets' units are read (a
 * section's check reads its site's structure, not the site's share links or grants); what the steps
 * depend on is not read, since the check compares the steps themselves, not their order.
 *
 * An entry is named by the values of its own string fields: `teams["Eng"]` names the team whose
 * title (or renamedFrom) is "Eng". A unit is read whole when a target's address has a glob in it
 * past the unit's name, or when the config prunes one of its kinds (every remote resource of the kind
 * is then in play).
 */
import type { OrgConfig } from '../config/types.js';
import type { DraftStep, KindSpec, KindUnit } from '../kinds/kind.js';
import type { Kind } from '../model/step.js';
import { UNITS } from '../kinds/index.js';
import { addressPart, ancestors, entryOf, key, parseAddress, parsePattern, patternMatches, topName, withoutAction, type AddressPattern } from '../model/address.js';
import { entryAddresses } from './base.js';

/** Per unit read: every entry ('all') or the indexes of the entries read. */
export type Scope = Map<KindUnit, 'all' | Set<number>>;

/** The unit an address (or a pattern without globs in its first name) belongs to. */
export function unitOfAddress(address: string): KindUnit | undefined {
  const name = topName(address);
  if (name === undefined || name.includes('*')) return undefined;
  return UNITS.find((u) => u.addressNames.top.includes(name));
}

/** The unit whose kinds include a module (modules outside the registry, in tests, have none). */
export function unitOfModule(module: KindSpec): KindUnit | undefined {
  return UNITS.find((u) => u.kinds.includes(module));
}

/** The targets that concern one organization, parsed. */
export function patternsFor(targets: readonly string[], org: string): Array<{ source: string; parsed: AddressPattern }> {
  return targets.map((t) => ({ source: t, parsed: parsePattern(t) })).filter((p) => !p.parsed.org || p.parsed.org.test(org));
}

export interface Narrowing {
  scope: Scope;
  /** The kinds a check names: only they are read where their units are (undefined: every kind). */
  kinds: ReadonlySet<Kind> | undefined;
  /**
   * The kinds read of a unit: a check's, or those of the parts inside its entries the targets name
   * (a site's section); undefined: every kind.
   */
  kindsOf(unit: KindUnit | undefined): ReadonlySet<Kind> | undefined;
  /** The config as a unit's read sees it: only its read entries. */
  readView(unit: KindUnit): OrgConfig;
  /** Whether what the plan says at `address` rests on reads that were made. */
  isRead(address: string): boolean;
  /**
   * Makes the scope larger by what the selected drafts need and was not read; false when nothing
   * was added (the plan is complete for its targets).
   */
  widenForNeeds(drafts: readonly DraftStep[]): boolean;
  /** The config's entries (a list unit's items, the organization's settings) that were not read. */
  unread(): number;
}

interface UnitIndex {
  entries: readonly unknown[];
  byKey: Map<string, number[]>;
  /** Whether the keys of the addresses the loader claims are in byKey too (indexClaims). */
  claims?: boolean;
}

/**
 * A list unit's config entries, and the indexes of the entries each first key names: every string
 * field of an entry names it (`teams["Eng"]` names the team titled "Eng"). Undefined for a unit that
 * is not a list or that the config does not give.
 */
function indexUnit(desired: OrgConfig, unit: KindUnit): UnitIndex | undefined {
  if (!unit.list) return undefined;
  const value = (desired as unknown as Record<string, unknown>)[unit.configKey];
  if (!Array.isArray(value)) return undefined;
  const byKey = new Map<string, number[]>();
  value.forEach((entry, i) => {
    if (!entry || typeof entry !== 'object') return;
    for (const v of Object.values(entry as Record<string, unknown>)) {
      if (typeof v !== 'string') continue;
      for (const top of unit.addressNames.top) {
        const k = `${top}${key(v)}`;
        const list = byKey.get(k);
        // Entries come in order, so a repeat can only be this entry's (two fields of one value):
        // a value many entries share (a role) is not searched once per entry.
        if (list === undefined) byKey.set(k, [i]);
        else if (list[list.length - 1] !== i) list.push(i);
      }
    }
  });
  return { entries: value, byKey };
}

/**
 * The first keys of the addresses a unit's loader check claims for each entry, beyond those its
 * string fields give (a nested collection's `collections["A/B"]` is its top entry's): made when a key
 * names no entry by its fields, once per unit.
 */
function indexClaims(desired: OrgConfig, unit: KindUnit, ix: UnitIndex): void {
  ix.entries.forEach((entry, i) => {
    for (const address of entryAddresses(unit, desired.organization.id, entry)) {
      const k = entryOf(address);
      if (k === undefined) continue;
      const list = ix.byKey.get(k);
      if (list === undefined) ix.byKey.set(k, [i]);
      else if (!list.includes(i)) list.push(i);
    }
  });
}

/**
 * The kinds of a unit whose steps lie at or under an address inside an entry, by the part it names
 * after its first key (`sites["a"].sections["b"]`: the section and its site spaces, `KindUnit.parts`);
 * undefined for an address that names an entry itself or a part the unit does not list (every kind
 * of the unit is read).
 */
function innerKinds(unit: KindUnit, address: string): readonly Kind[] | undefined {
  const parsed = parseAddress(address);
  if (parsed === undefined || parsed.org !== undefined) return undefined;
  const [, entry, part, item] = parsed.segments;
  if (entry === undefined || !('key' in entry) || part === undefined || !('name' in part) || item === undefined || !('key' in item)) return undefined;
  const kinds = unit.parts?.[part.name]?.kinds;
  if (kinds === undefined || !kinds.every((kind) => unit.kinds.some((m) => m.kind === kind))) return undefined;
  return kinds;
}

/**
 * The narrowing of one organization's reads to what `targets` need; with `checkKinds`, to those
 * kinds of the targets' units and not what their steps depend on (a check of known steps).
 */
export function createNarrowing(desired: OrgConfig, targets: readonly string[], checkKinds?: readonly Kind[]): Narrowing {
  const kinds = checkKinds === undefined ? undefined : new Set<Kind>(checkKinds);
  const org = desired.organization.id;
  const patterns = patternsFor(targets, org);
  const scope: Scope = new Map();
  /** Per list unit its index, made when first asked (a check of one unit indexes only that one). */
  const indexes = new Map<KindUnit, UnitIndex | undefined>();
  const indexOf = (unit: KindUnit) => {
    if (!indexes.has(unit)) indexes.set(unit, indexUnit(desired, unit));
    return indexes.get(unit);
  };
  const prunes = (unit: KindUnit) => unit.kinds.some((k) => desired.prune.includes(k.kind));
  /** The entries a first key names: by their fields, else by what the loader claims for them. */
  const namedBy = (unit: KindUnit, k: string): number[] | undefined => {
    const ix = indexOf(unit);
    if (ix === undefined) return undefined;
    if (!ix.byKey.has(k) && !ix.claims && unit.resolve !== undefined) {
      indexClaims(desired, unit, ix);
      ix.claims = true;
    }
    return ix.byKey.get(k);
  };
  /** Per unit whose targets all lie inside its entries (a site's sections), the kinds read there. */
  const unitKinds = new Map<KindUnit, 'all' | Set<Kind>>();
  /** Adds the kinds `address` needs read in `unit`; whether any was added. */
  const widenKinds = (unit: KindUnit, address: string): boolean => {
    const had = unitKinds.get(unit);
    if (had === 'all') return false;
    const inner = address.includes('*') ? undefined : innerKinds(unit, address);
    if (inner === undefined) {
      unitKinds.set(unit, 'all');
      return had !== undefined;
    }
    const set = had ?? new Set<Kind>();
    let added = false;
    for (const kind of inner) {
      if (!set.has(kind)) {
        set.add(kind);
        added = had !== undefined;
      }
    }
    unitKinds.set(unit, set);
    return added;
  };

  /** Adds what `address` needs read in `unit`: the entries it names, or the whole unit when it cannot say which. */
  const widen = (unit: KindUnit, address: string): boolean => {
    const had = scope.get(unit);
    if (had === 'all') return false;
    const ix = indexOf(unit);
    const k = entryOf(address);
    if (ix === undefined || k === undefined || address.includes('*') || prunes(unit)) {
      scope.set(unit, 'all');
      unitKinds.set(unit, 'all');
      return true;
    }
    const named = namedBy(unit, k);
    if (named === undefined) {
      // No entry is named by that key: read the whole unit.
      scope.set(unit, 'all');
      unitKinds.set(unit, 'all');
      return true;
    }
    const grewKinds = widenKinds(unit, address);
    const set = had ?? new Set<number>();
    let added = had === undefined;
    for (const i of named) {
      if (!set.has(i)) {
        set.add(i);
        added = true;
      }
    }
    scope.set(unit, set);
    return added || grewKinds;
  };

  for (const { source } of patterns) {
    const address = addressPart(source);
    const unit = unitOfAddress(address);
    const first = topName(address) ?? '';
    if (unit === undefined || first.includes('*')) {
      // `*`, `**` or a glob in the first name: anything may match.
      for (const u of UNITS) scope.set(u, 'all');
      break;
    }
    widen(unit, address);
  }

  const isRead = (address: string): boolean => {
    const unit = unitOfAddress(address);
    if (unit === undefined) return true;
    const read = scope.get(unit);
    if (read === undefined) return false;
    if (read === 'all') return true;
    const k = entryOf(address);
    if (k === undefined) return true;
    const named = namedBy(unit, k);
    // An address under no entry (a remote resource the config does not name) rests on the unit's lists.
    if (named !== undefined && !named.some((i) => read.has(i))) return false;
    // Inside an entry whose parts were read, not its whole: only at those parts.
    const kindsRead = unitKinds.get(unit);
    if (kindsRead === undefined || kindsRead === 'all') return true;
    const inner = innerKinds(unit, address);
    return inner !== undefined && inner.every((kind) => kindsRead.has(kind));
  };

  const kindsOf = (unit: KindUnit | undefined): ReadonlySet<Kind> | undefined => {
    if (kinds !== undefined || unit === undefined) return kinds;
    const read = unitKinds.get(unit);
    return read === undefined || read === 'all' ? undefined : read;
  };

  return {
    scope,
    kinds,
    kindsOf,
    readView(unit) {
      const read = scope.get(unit);
      const ix = indexOf(unit);
      if (read === undefined || read === 'all' || ix === undefined) return desired;
      return { ...desired, [unit.configKey]: ix.entries.filter((_, i) => read.has(i)) } as OrgConfig;
    },
    isRead,
    unread() {
      let n = 0;
      for (const unit of UNITS) {
        const read = scope.get(unit);
        if (read === 'all') continue;
        if (!unit.list) {
          if (read === undefined && (desired as unknown as Record<string, unknown>)[unit.configKey] !== undefined) n++;
          continue;
        }
        const entries = indexOf(unit)?.entries.length ?? 0;
        n += entries - (read?.size ?? 0);
      }
      return n;
    },
    widenForNeeds(drafts) {
      if (kinds !== undefined) return false;
      const byPrefix = new Map<string, DraftStep[]>();
      for (const d of drafts) {
        for (const a of ancestors(d.address)) {
          const list = byPrefix.get(a);
          if (list) list.push(d);
          else byPrefix.set(a, [d]);
        }
      }
      const seen = new Set<DraftStep>();
      const stack = drafts.filter((d) => patterns.some((p) => patternMatches(p.parsed, org, d.address)));
      let grew = false;
      while (stack.length > 0) {
        const d = stack.pop() as DraftStep;
        if (seen.has(d)) continue;
        seen.add(d);
        for (const need of d.needs) {
          const address = withoutAction(need);
          if (!isRead(address)) {
            const unit = unitOfAddress(address);
            if (unit && widen(unit, address)) grew = true;
          }
          stack.push(...(byPrefix.get(address) ?? []));
        }
      }
      return grew;
    },
  };
}
