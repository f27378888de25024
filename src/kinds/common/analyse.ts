/**
 * The one resource analyser every kind plans through: desired entries matched to remote objects (by
 * id, then `renamedFrom`, then the natural key as the kind normalises it), an object the config names
 * twice, twins (two remote objects with one key: `KEY#ID`), creates, updates, deletes or unmanaged, and
 * fingerprints. A kind supplies its keys, its normalisation and its requests; it never loops over its
 * resources itself.
 */
import { fingerprintEntries } from '../../model/fingerprint.js';
import type { FieldChange, JsonObject, Kind, PlanProblem, RequestSpec } from '../../model/step.js';
import type { DraftStep, KindPlan } from '../kind.js';
import { collisionMessage } from './match.js';
import { deleteAddresses, duplicateNote } from './skeleton.js';
import { step } from './step.js';

export type MatchedBy = 'id' | 'renamedFrom' | 'key';

export interface Pair<D, R> {
  desired: D;
  /** The entry's address (the kind's `address` of its addressKey, else of its natural key). */
  address: string;
  remote?: R;
  matchedBy?: MatchedBy;
}

/** What an entry gives: its steps, or the problems that stop it. */
export type Outcome = DraftStep[] | { problems: PlanProblem[] };

export interface ResourceSpec<D, R> {
  kind: Kind;
  /** Plural noun for messages (`teams`, `spaces`). */
  what: string;
  /** The address of a natural key (`teams["Ops"]`). */
  address(natural: string): string;
  /**
   * The key in the entry's address, where it is not its natural key (a space's id, else its collection
   * path and title); its twins are named by it too (`KEY#ID`).
   */
  addressKey?(d: D): string;
  /** Natural key of an entry and of a remote object, as written (addresses show it so). */
  desiredKey(d: D): string;
  remoteKey(r: R): string;
  /**
   * The kind's normalisation of a natural key: two keys that normalise the same name one object
   * (a case-insensitive email, a title within its collection). Identity when absent.
   */
  normalize?(natural: string): string;
  remoteId(r: R): string;
  desiredId?(d: D): string | undefined;
  /**
   * Whether an entry with an id is matched by that id only (a space, a site: an id the organization
   * lacks is a problem); else an id that names nothing falls back to the key (import writes ids, and
   * what a plan re-creates after someone deleted it has a new id).
   */
  idOnly?: boolean;
  renamedFrom?(d: D): string | undefined;
  /**
   * Whether the natural key of an entry may match this remote object (a space without id matches
   * only within its collection); every remote object when absent. `d` undefined: any entry.
   */
  keyMatches?(d: D, r: R): boolean;
  /** Remote objects the kind counts and may delete or leave unmanaged (all when absent). */
  owned?(r: R): boolean;
  /** Whether the config prunes the kind. */
  prune: boolean;
  /** A remote object a prune leaves alone all the same (an SSO member while safety keeps them): unmanaged. */
  keep?(r: R): boolean;
  /** The remote object as fingerprinted. */
  fingerprint(r: R): unknown;
  /**
   * The remote object in the vocabulary of a create's `after`: what a saved plan's done create is
   * held against (every field the create sets must be there at its value).
   */
  observe?(r: R): JsonObject;
  /** The steps of an entry nothing matches (usually one create), or its problems. */
  create(d: D, address: string): Outcome;
  /** The steps of a matched entry (none when it is as the config says), or its problems. */
  update(d: D, r: R, address: string, matchedBy: MatchedBy): Outcome;
  /**
   * A pruned remote object's delete; `changes` where the kind shows each field it removes (a site's
   * structure kinds), else none (the renderings show `before`).
   */
  remove(r: R, address: string): { before: JsonObject; requests: RequestSpec[]; needs?: string[]; notes?: string[]; keptAs?: string; changes?: FieldChange[] };
  /**
   * The note on a twin, where the usual one (pin the managed object by its id) does not fit: a kind
   * whose ids are secrets. `managed` and `twin` are addresses.
   */
  twinNote?(managed: string, twin: string): string;
  /** Address key of a remote object no entry matched, when not its natural key (spaces are named by id). */
  unmatchedKey?(r: R): string;
  /**
   * Which entries' objects have twins: any matched one (default), or only those matched by key (a
   * space named by id is told apart from others of its title by that id).
   */
  twinsOf?: 'any' | 'key';
}

/** The kind's plan, and the pairs for kinds that plan more from them (a team's members). */
export interface Analysis<D, R> {
  plan: KindPlan;
  pairs: Pair<D, R>[];
  unmatched: R[];
}

/**
 * Matches entries to remote objects: ids first, then `renamedFrom`, then natural keys (normalised);
 * a remote object matches at most one entry. An entry whose rename or key names a remote object that
 * another entry already names by id (or by rename) names it twice: that is a plan problem, since
 * only the organization tells that both entries are one object.
 */
export function matchPairs<D, R>(
  desired: readonly D[],
  remote: readonly R[],
  o: Pick<ResourceSpec<D, R>, 'address' | 'addressKey' | 'desiredKey' | 'remoteKey' | 'normalize' | 'remoteId' | 'desiredId' | 'idOnly' | 'renamedFrom' | 'keyMatches'>,
): { pairs: Pair<D, R>[]; unmatched: R[]; twice: Array<{ entry: Pair<D, R>; other: Pair<D, R> }> } {
  const norm = o.normalize ?? ((k: string) => k);
  const byId = new Map<string, R>();
  const byKey = new Map<string, R[]>();
  for (const r of remote) {
    byId.set(o.remoteId(r), r);
    const k = norm(o.remoteKey(r));
    byKey.set(k, [...(byKey.get(k) ?? []), r]);
  }
  const takenBy = new Map<R, Pair<D, R>>();
  const pairs = entryPairs(desired, o);
  const twice: Array<{ entry: Pair<D, R>; other: Pair<D, R> }> = [];
  const take = (p: Pair<D, R>, r: R, how: MatchedBy) => {
    takenBy.set(r, p);
    p.remote = r;
    p.matchedBy = how;
  };
  for (const p of pairs) {
    const id = o.desiredId?.(p.desired);
    if (id === undefined) continue;
    const r = byId.get(id);
    if (r && !takenBy.has(r)) take(p, r, 'id');
  }
  const byName = (d: D, k: string | undefined): R[] => (k === undefined ? [] : (byKey.get(norm(k)) ?? []).filter((r) => o.keyMatches?.(d, r) ?? true));
  for (const [how, keyOf] of [['renamedFrom', (d: D) => o.renamedFrom?.(d)], ['key', (d: D) => o.desiredKey(d)]] as const) {
    for (const p of pairs) {
      if (p.remote || (o.idOnly && o.desiredId?.(p.desired) !== undefined)) continue;
      const found = byName(p.desired, keyOf(p.desired));
      const free = found.find((r) => !takenBy.has(r));
      if (free) {
        take(p, free, how);
        continue;
      }
      // Every object of that name is held by an entry that names it by id or by rename, and keeps
      // that name (one that renames it frees the name for this entry's create).
      const keeps = (h: Pair<D, R>, r: R) => o.desiredKey(h.desired) === '' || norm(o.desiredKey(h.desired)) === norm(o.remoteKey(r));
      const holder = found.flatMap((r) => { const h = takenBy.get(r); return h && h.matchedBy !== 'key' && h !== p && keeps(h, r) ? [h] : []; })[0];
      if (holder && how === 'key') twice.push({ entry: p, other: holder });
    }
  }
  return { pairs, unmatched: remote.filter((r) => !takenBy.has(r)), twice };
}

/** What matchPairs gives: the pairs, the remote objects no entry matched, the entries naming one object twice. */
export type Matched<D, R> = ReturnType<typeof matchPairs<D, R>>;

/** Each entry with its address (the kind's `address` of its addressKey, else of its natural key), unmatched. */
function entryPairs<D, R>(desired: readonly D[], o: Pick<ResourceSpec<D, R>, 'address' | 'addressKey' | 'desiredKey'>): Pair<D, R>[] {
  return desired.map((d) => ({ desired: d, address: o.address(o.addressKey?.(d) ?? o.desiredKey(d)) }));
}

/**
 * The match of a kind whose matching depends on structure (a tree: a child is matched among the
 * children of its parent's match), from its own match of each entry, for `analyse`'s `matched`: ids,
 * renames and keys are not looked at, and a remote object goes to the first entry that claims it.
 */
export function ownPairs<D, R>(
  desired: readonly D[],
  remote: readonly R[],
  o: Pick<ResourceSpec<D, R>, 'address' | 'addressKey' | 'desiredKey'>,
  match: (d: D) => { remote: R; by: MatchedBy } | undefined,
): Matched<D, R> {
  const taken = new Set<R>();
  const pairs = entryPairs<D, R>(desired, o);
  for (const p of pairs) {
    const m = match(p.desired);
    if (!m || taken.has(m.remote)) continue;
    taken.add(m.remote);
    p.remote = m.remote;
    p.matchedBy = m.by;
  }
  return { pairs, unmatched: remote.filter((r) => !taken.has(r)), twice: [] };
}

/**
 * Plans one kind's resources: matching, the named-twice and collision problems, steps, twins, fingerprints.
 * `matched`: the kind's own earlier matchPairs of these lists, where it needs the pairs before its steps
 * (a site's structure orders every kind's items before any step is written).
 */
export function analyse<D, R>(org: string, desired: readonly D[], remote: readonly R[], o: ResourceSpec<D, R>, matched?: Matched<D, R>): Analysis<D, R> {
  const owned = o.owned ?? (() => true);
  const norm = o.normalize ?? ((k: string) => k);
  const { pairs, unmatched, twice } = matched ?? matchPairs(desired, remote, o);
  const kp: KindPlan = { steps: [], unmanaged: [], remoteCount: remote.filter(owned).length, problems: [], fingerprints: {}, observed: {} };
  const prints: Array<[string, unknown]> = [];
  const twiceEntries = new Set(twice.map((t) => t.entry));
  for (const { entry, other } of twice) {
    kp.problems.push({
      org,
      address: entry.address,
      message: `${entry.address} and ${other.address} name one object (${o.remoteId(other.remote as R)}, by ${other.matchedBy === 'id' ? 'id' : 'renamedFrom'} and by its key): keep one entry, or the plan would create a second object`,
    });
  }
  // Two entries whose keys differ but normalise the same would name one object (the loader's claims
  // catch keys written alike).
  const firstOfKey = new Map<string, Pair<D, R>>();
  for (const p of pairs) {
    if (o.normalize === undefined || o.desiredId?.(p.desired) !== undefined) continue;
    const k = norm(o.addressKey?.(p.desired) ?? o.desiredKey(p.desired));
    const earlier = firstOfKey.get(k);
    if (earlier && earlier.address !== p.address) {
      kp.problems.push({ org, address: p.address, message: `${p.address} and ${earlier.address} name one object: ${o.what} keys that differ only so are one key` });
      twiceEntries.add(p);
    } else if (!earlier) firstOfKey.set(k, p);
  }
  // A rename onto a key that an unmanaged object holds would leave two objects with that key.
  if (!o.prune) {
    const holders = new Set(unmatched.filter(owned).map((r) => norm(o.remoteKey(r))));
    for (const p of pairs) {
      if (!p.remote || p.matchedBy === 'key' || twiceEntries.has(p)) continue;
      const k = o.desiredKey(p.desired);
      if (holders.has(norm(k)) && norm(o.remoteKey(p.remote)) !== norm(k)) kp.problems.push({ org, address: p.address, message: collisionMessage(o.what, k, o.kind) });
    }
  }
  for (const p of pairs) {
    if (twiceEntries.has(p)) continue;
    const out = p.remote ? o.update(p.desired, p.remote, p.address, p.matchedBy as MatchedBy) : o.create(p.desired, p.address);
    if (!Array.isArray(out)) {
      for (const problem of out.problems) kp.problems.push(problem);
      continue;
    }
    for (const s of out) kp.steps.push(s);
    if (p.remote && o.observe) kp.observed![p.address] = o.observe(p.remote);
    if (out.length > 0) prints.push([p.address, p.remote ? o.fingerprint(p.remote) : null]);
  }
  // Twins: a remote object no entry matched, with the (normalised) key of one an entry manages.
  // The old occupant of a key the plan renames an object onto keeps that key's address: its delete
  // comes first there, and a protect entry naming the key protects it.
  const addressOf = deleteAddresses(o.address);
  for (const r of unmatched.filter(owned)) {
    // (A managed object that the plan renames away from this key is not its twin: this one is the
    // key's old occupant, deleted first or a collision problem.)
    const twin = pairs.find(
      (p) => p.remote && (o.twinsOf === 'key' ? p.matchedBy === 'key' : true) && norm(o.remoteKey(p.remote)) === norm(o.remoteKey(r)) && norm(o.desiredKey(p.desired)) === norm(o.remoteKey(r)) && (o.keyMatches?.(p.desired, r) ?? true),
    );
    let address: string;
    if (twin) {
      address = o.address(`${o.addressKey?.(twin.desired) ?? o.desiredKey(twin.desired)}#${o.remoteId(r)}`);
      (kp.duplicates ??= []).push(address);
      (kp.notes ??= []).push(o.twinNote ? o.twinNote(twin.address, address) : duplicateNote(o.kind, twin.address, o.remoteId(twin.remote as R), address, o.remoteId(r), o.prune));
    } else {
      address = addressOf(o.unmatchedKey?.(r) ?? o.remoteKey(r), o.remoteId(r));
    }
    if (!o.prune || o.keep?.(r)) {
      kp.unmanaged.push(address);
      continue;
    }
    const gone = o.remove(r, address);
    kp.steps.push(step({ address, kind: o.kind, action: 'delete', before: gone.before, after: null, changes: gone.changes ?? [], requests: gone.requests, needs: gone.needs ?? [], remoteId: o.remoteId(r), ...(gone.notes ? { notes: gone.notes } : {}), ...(gone.keptAs ? { keptAs: gone.keptAs } : {}) }));
    prints.push([address, o.fingerprint(r)]);
  }
  kp.fingerprints = fingerprintEntries(prints);
  if (Object.keys(kp.observed!).length === 0) delete kp.observed;
  return { plan: kp, pairs, unmatched };
}

/** Adds a kind's plan to another of the same kind (a unit planning several objects' parts at once). */
export function mergeKindPlan(into: KindPlan, kp: KindPlan): void {
  for (const s of kp.steps) into.steps.push(s);
  for (const u of kp.unmanaged) into.unmanaged.push(u);
  into.remoteCount += kp.remoteCount;
  for (const p of kp.problems) into.problems.push(p);
  for (const [address, hash] of Object.entries(kp.fingerprints)) if (!(address in into.fingerprints)) into.fingerprints[address] = hash;
  if (kp.notes) (into.notes ??= []).push(...kp.notes);
  if (kp.duplicates) (into.duplicates ??= []).push(...kp.duplicates);
  // Into the one record, address by address: copying the whole record at each merge is quadratic in
  // a site's items (tens of seconds and hundreds of megabytes of garbage at scale).
  if (kp.observed) {
    const observed = (into.observed ??= {});
    for (const [address, fields] of Object.entries(kp.observed)) observed[address] = fields;
  }
}
