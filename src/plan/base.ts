/**
 * `plan --base BASE`: the difference between two desired states (the config as the base branch has
 * it, and as it is now), as the targets a plan reads (src/plan/narrow.ts). The plan then reads what
 * the entries the difference touches need, and nothing of the entries it leaves alone.
 *
 * An entry is one item of a unit's list (a team, a site with all its parts, a top collection with
 * its nested ones) or the organization's settings. An entry is touched when the other config has no
 * entry equal to it: added, changed, renamed (a new title with `renamedFrom`, or an id given to
 * another title) or removed. Its targets are the addresses its unit's loader check claims for it
 * (src/kinds/kind.ts, `resolve`), so that every step a whole plan gives under the entry is selected.
 *
 * A removed entry has a step only where the config prunes its unit (the remote resource is then
 * deleted); elsewhere it becomes unmanaged, and nothing is read for it. A renamed entry is read under
 * its new address, which names it; its old address is kept as a target only where it still names an
 * entry (`renamedFrom`) or the unit is pruned (read whole anyway).
 *
 * What decides for the whole config (`prune`, `safety`, `protect`, the API URL, an organization
 * that BASE does not have, and any other setting beside the units' lists) cannot be narrowed to
 * entries: a change there asks for a whole plan, and says which.
 */
import type { PolicySet } from '../policy/compile.js';
import type { LoadedConfig, OrgConfig } from '../config/types.js';
import { stableStringify } from '../core/json.js';
import { UNITS } from '../kinds/index.js';
import type { KindUnit, ResolveContext } from '../kinds/kind.js';
import { compareAddresses, isUnder, key, parseAddress } from '../model/address.js';
import type { Origin, Problems } from '../source/origin.js';

export interface BaseDifference {
  /** `ORG/ADDRESS` targets of the touched entries, sorted (empty: nothing changed). */
  targets: string[];
  /** Why the plan must be whole (a setting of the whole config changed); undefined when it need not. */
  whole?: string;
}

/** LoadedConfig fields that describe the files read, not what is desired. */
const FILE_FIELDS = new Set(['orgs', 'secrets', 'hash', 'files', 'warnings']);
/** OrgConfig fields the loader derives from the entries (positions, references left to the planner). */
const DERIVED_FIELDS = new Set(['locations', 'deferred']);

/** What a setting is called in the reason for a whole plan. */
function settingName(field: string): string {
  return field === 'apiUrl' ? 'api.url' : field;
}

/** The entries of a list unit in a desired state (undefined: the config does not have the key). */
function entriesOf(desired: OrgConfig, unit: KindUnit): readonly unknown[] | undefined {
  const value = (desired as unknown as Record<string, unknown>)[unit.configKey];
  return Array.isArray(value) ? value : undefined;
}

/** Addresses that are not under another of them (`sites["a"]` keeps `sites["a"].sections["b"]` out). */
function topMost(addresses: readonly string[]): string[] {
  const kept: string[] = [];
  for (const a of [...new Set(addresses)].sort((x, y) => x.length - y.length || (x < y ? -1 : 1))) {
    const under = kept.some((k) => a.startsWith(k) && (a[k.length] === '.' || a[k.length] === '['));
    if (!under) kept.push(a);
  }
  return kept;
}

const NO_ORIGIN = { source: undefined, path: [] } as unknown as Origin;
const SILENT = { issues: [], at() {}, atPath() {} } as unknown as Problems;

/**
 * The addresses a unit's loader check claims for one entry (its own, and those of the resources
 * inside it), top-most only; the unit's name alone when the unit claims nothing for it (every step of
 * the unit is then selected, which is more than needed, never less).
 */
export function entryAddresses(unit: KindUnit, org: string, entry: unknown): string[] {
  const claimed = claimedAddresses(unit, org, entry);
  return claimed === undefined ? [unit.addressNames.top[0]] : claimed.length > 0 ? topMost(claimed) : [unit.addressNames.top[0]];
}

/** Every address a unit's loader check claims for one entry, in order; undefined when the check needs more than the entry. */
function claimedAddresses(unit: KindUnit, org: string, entry: unknown): string[] | undefined {
  const claimed: string[] = [];
  const ctx: ResolveContext = {
    org,
    problems: SILENT,
    check: false,
    claim(_identity, address) {
      claimed.push(address);
      return true;
    },
    locate() {},
    identities: () => ({ add() {} }),
    defer() {},
    reference() {},
    secret() {},
    entries: () => undefined,
    fieldOrigin: () => undefined,
    organizationOrigin: NO_ORIGIN,
    prunes: () => false,
  };
  try {
    unit.resolve?.([{ value: entry, origin: NO_ORIGIN }], ctx);
  } catch {
    // A check that needs more than one entry gives (a position, another unit's entries): the unit whole.
    return undefined;
  }
  return claimed;
}

/**
 * The addresses of the parts of an entry that changed, when only parts of its inner lists changed
 * and every part keeps its address and place (so nothing else of the entry is planned differently);
 * undefined otherwise (the entry is touched whole).
 */
function innerTargets(unit: KindUnit, org: string, before: unknown, after: unknown): string[] | undefined {
  if (!before || !after || typeof before !== 'object' || typeof after !== 'object') return undefined;
  const was = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(was), ...Object.keys(now)])].filter((f) => stableStringify(was[f]) !== stableStringify(now[f]));
  if (fields.length === 0) return undefined;
  if (!fields.every((f) => unit.parts?.[f] !== undefined && unit.addressNames.inner?.includes(f) === true && Array.isArray(was[f]) && Array.isArray(now[f]))) return undefined;
  const claimsBefore = claimedAddresses(unit, org, before);
  const claimsAfter = claimedAddresses(unit, org, after);
  if (claimsBefore === undefined || claimsAfter === undefined || claimsAfter.length === 0) return undefined;
  if (claimsBefore.length !== claimsAfter.length || claimsBefore.some((a, i) => a !== claimsAfter[i])) return undefined;
  const [entry] = topMost(claimsAfter);
  if (topMost(claimsAfter).length !== 1) return undefined;
  const out: string[] = [];
  for (const f of fields) {
    const a = was[f] as unknown[];
    const b = now[f] as unknown[];
    // The parts' own addresses, in the list's order: the claims one level under the entry.
    const depth = (parseAddress(entry)?.segments.length ?? 0) + 2;
    const own = claimsAfter.filter((c) => {
      const segments = parseAddress(c)?.segments;
      return segments !== undefined && segments.length === depth && 'key' in segments[depth - 1] && isUnder(c, `${entry}.${f}`);
    });
    if (a.length !== b.length || own.length !== b.length) return undefined;
    for (let i = 0; i < b.length; i++) {
      if (stableStringify(a[i]) === stableStringify(b[i])) continue;
      const x = (a[i] ?? {}) as Record<string, unknown>;
      const y = (b[i] ?? {}) as Record<string, unknown>;
      if ((unit.parts?.[f]?.moves ?? []).some((moving) => stableStringify(x[moving]) !== stableStringify(y[moving]))) return undefined;
      out.push(own[i]);
    }
  }
  return out;
}

/** The addresses that the entries' own string fields name, as the narrowing names entries (src/plan/narrow.ts). */
function namedBy(unit: KindUnit, entries: readonly unknown[]): Set<string> {
  const named = new Set<string>();
  for (const entry of entries) {
    if (!entry || typeof entry !== 'object') continue;
    for (const v of Object.values(entry as Record<string, unknown>)) {
      if (typeof v === 'string') for (const top of unit.addressNames.top) named.add(`${top}${key(v)}`);
    }
  }
  return named;
}

function prunesUnit(desired: OrgConfig, unit: KindUnit): boolean {
  return unit.kinds.some((k) => desired.prune.includes(k.kind));
}

/** The org-relative targets of one organization's touched entries. */
function orgTargets(base: OrgConfig, head: OrgConfig): string[] {
  const org = head.organization.id;
  const out: string[] = [];
  for (const unit of UNITS) {
    if (!unit.list) {
      const before = (base as unknown as Record<string, unknown>)[unit.configKey];
      const after = (head as unknown as Record<string, unknown>)[unit.configKey];
      if (stableStringify(before) !== stableStringify(after)) out.push(unit.addressNames.top[0]);
      continue;
    }
    const was = entriesOf(base, unit) ?? [];
    const now = entriesOf(head, unit);
    const wasText = new Set(was.map(stableStringify));
    const nowList = now ?? [];
    const nowText = new Set(nowList.map(stableStringify));
    const headAddresses = new Set<string>();
    /** The base's entries by their addresses, made when a changed entry looks for its base. */
    let wasByAddress: Map<string, unknown> | undefined;
    const changedInside = new Set<unknown>();
    for (const entry of nowList) {
      const addresses = entryAddresses(unit, org, entry);
      for (const a of addresses) headAddresses.add(a);
      if (wasText.has(stableStringify(entry))) continue;
      wasByAddress ??= new Map(was.map((w) => [entryAddresses(unit, org, w).join('\n'), w]));
      const before = wasByAddress.get(addresses.join('\n'));
      // A change inside the entry's parts only: the plan reads and selects those parts.
      const inner = before === undefined ? undefined : innerTargets(unit, org, before, entry);
      out.push(...(inner ?? addresses));
      // The base's entry is the same entry changed inside: it is not removed.
      if (inner !== undefined) changedInside.add(before);
    }
    const gone = was.filter((entry) => !nowText.has(stableStringify(entry)) && !changedInside.has(entry));
    if (gone.length === 0) continue;
    const named = namedBy(unit, nowList);
    // A pruned unit deletes what the config no longer names (an absent list manages nothing).
    const pruned = now !== undefined && prunesUnit(head, unit);
    for (const entry of gone) {
      for (const a of entryAddresses(unit, org, entry)) {
        if (pruned || headAddresses.has(a) || named.has(a)) out.push(a);
      }
    }
  }
  return topMost(out);
}

/** A whole-config setting as it is written: the policies by their definitions, not their compiled rules and places. */
function settingValue(field: string, value: unknown): unknown {
  if (field !== 'policies' || value === undefined) return value;
  return (value as PolicySet).policies.map(({ name, resource, rule, message, severity }) => ({ name, resource, rule, message, severity }));
}

/**
 * What a plan from `head` reads when `base` is the config the pull request started from: the touched
 * entries' targets, or why it must read everything.
 */
export function baseDifference(base: LoadedConfig, head: LoadedConfig): BaseDifference {
  const fields = new Set([...Object.keys(base), ...Object.keys(head)].filter((f) => !FILE_FIELDS.has(f)));
  for (const field of [...fields].sort()) {
    const before = settingValue(field, (base as unknown as Record<string, unknown>)[field]);
    const after = settingValue(field, (head as unknown as Record<string, unknown>)[field]);
    if (stableStringify(before) !== stableStringify(after)) return { targets: [], whole: `${settingName(field)} changed` };
  }
  const baseOrgs = new Map(base.orgs.map((o) => [o.organization.id, o]));
  const unitKeys = new Set(UNITS.map((u) => u.configKey));
  const targets: string[] = [];
  for (const head0 of head.orgs) {
    const org = head0.organization.id;
    const base0 = baseOrgs.get(org);
    if (base0 === undefined) return { targets: [], whole: `organization ${org} was added` };
    const settings = new Set([...Object.keys(base0), ...Object.keys(head0)].filter((f) => !unitKeys.has(f) && !DERIVED_FIELDS.has(f)));
    for (const field of [...settings].sort()) {
      const before = (base0 as unknown as Record<string, unknown>)[field];
      const after = (head0 as unknown as Record<string, unknown>)[field];
      if (stableStringify(before) !== stableStringify(after)) return { targets: [], whole: `${field} of organization ${org} changed` };
    }
    for (const address of orgTargets(base0, head0)) targets.push(`${org}/${address}`);
  }
  return { targets: targets.sort(compareAddresses) };
}
