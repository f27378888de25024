/**
 * What every kind does the same way after matching: remote resources nothing matched are deleted
 * when the kind is pruned (one step each, at an address of their own) or counted as unmanaged.
 */
import type { JsonObject, Kind, RequestSpec } from '../../model/step.js';
import type { KindPlan } from '../kind.js';
import { step } from './step.js';

/**
 * Addresses for deletes. The one rule for a second remote resource with the same natural key: its
 * address takes `#ID` after the key (`teams["Docs#t2"]`), so that every delete has an address of
 * its own.
 */
export function deleteAddresses(make: (natural: string) => string, taken: Iterable<string> = []): (natural: string, id: string) => string {
  const used = new Set<string>(taken);
  return (natural, id) => {
    let address = make(natural);
    if (used.has(address)) address = make(`${natural}#${id}`);
    used.add(address);
    return address;
  };
}

export interface UnmatchedOptions<R> {
  kind: Kind;
  prune: boolean;
  /** The address of a natural key (`teamAddress`). */
  address(natural: string): string;
  naturalKey(r: R): string;
  id(r: R): string;
  /** What the delete step shows of the resource. */
  before(r: R): JsonObject;
  requests(r: R): RequestSpec[];
  needs?(r: R, address: string): string[];
  /** The remote object the fingerprint is taken of. */
  normalized(r: R): unknown;
  /** The id of the managed remote resource that has the same natural key, if one does (a duplicate). */
  twinOf?(r: R): string | undefined;
}

/**
 * The note for a remote duplicate of a managed resource's key: which ids share the key, which one
 * the config manages, and how to resolve it (`pruned`: the plan deletes the other).
 */
export function duplicateNote(kind: Kind, managed: string, managedId: string, other: string, otherId: string, pruned = false): string {
  if (pruned) {
    return `${managed} matches ${managedId}, but ${otherId} has the same key (shown as ${other}, deleted by this plan since ${kind} are pruned): check that ${managedId} is the one to keep, else pin the other with \`id: ${otherId}\``;
  }
  return `${managed} matches ${managedId}, but ${otherId} has the same key (shown as ${other}, unmanaged): pin the one to manage with \`id: ${managedId}\`, and rename or delete the other in the app, or prune ${kind} to delete it`;
}

/**
 * Addresses for the remote resources no desired one matched (as deleteAddresses gives them), where a
 * twin of a managed resource — the same natural key as one the config manages, as two applies at once
 * can make — is always `KEY#ID`, is listed in `kp.duplicates`, and gets a note saying how to resolve
 * it. `managed`: natural key → the id of the remote resource the config manages that has that key
 * now (one matched by id or renamedFrom under another key is not a twin's: the one holding its new key
 * is the old occupant, deleted first or a plan problem).
 */
export function unmatchedAddresses(
  kp: Pick<KindPlan, 'notes' | 'duplicates'>,
  o: { kind: Kind; address(natural: string): string; managed: ReadonlyMap<string, string>; prune: boolean; taken?: Iterable<string> },
): (natural: string, id: string) => string {
  const addressOf = deleteAddresses(o.address, o.taken);
  return (natural, id) => {
    const twin = o.managed.get(natural);
    if (twin === undefined || twin === id) return addressOf(natural, id);
    // A key that names its id already (a kind that set it apart itself) is not suffixed twice.
    const suffix = `#${id}`;
    const base = natural.endsWith(suffix) ? natural.slice(0, -suffix.length) : natural;
    const address = o.address(`${base}${suffix}`);
    (kp.duplicates ??= []).push(address);
    (kp.notes ??= []).push(duplicateNote(o.kind, o.address(base), twin, address, id, o.prune));
    return address;
  };
}

/**
 * Remote resources no desired one matched: a delete step each when the kind is pruned, else counted
 * unmanaged. Fingerprint entries are added to `prints`.
 */
export function planUnmatched<R>(kp: KindPlan, prints: Array<[string, unknown]>, unmatched: readonly R[], o: UnmatchedOptions<R>): void {
  // A duplicate of a managed resource's key never takes that resource's address.
  const managed = new Map<string, string>();
  for (const r of unmatched) {
    const twin = o.twinOf?.(r);
    if (twin !== undefined) managed.set(o.naturalKey(r), twin);
  }
  const addressOf = unmatchedAddresses(kp, { kind: o.kind, address: o.address, managed, prune: o.prune });
  if (!o.prune) {
    for (const r of unmatched) kp.unmanaged.push(addressOf(o.naturalKey(r), o.id(r)));
    return;
  }
  for (const r of unmatched) {
    const address = addressOf(o.naturalKey(r), o.id(r));
    kp.steps.push(step({
      address,
      kind: o.kind,
      action: 'delete',
      before: o.before(r),
      after: null,
      changes: [],
      requests: o.requests(r),
      needs: o.needs?.(r, address) ?? [],
      remoteId: o.id(r),
    }));
    prints.push([address, o.normalized(r)]);
  }
}
