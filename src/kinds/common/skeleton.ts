/**
 * What the analyser gives the remote objects nothing matched: addresses of their own (`KEY#ID` for a
 * second one with a key), and the note on a twin of a managed object.
 */
import type { Kind } from '../../model/step.js';

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
