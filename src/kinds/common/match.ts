/** Helpers every resource module uses: matching desired to remote, and field-level diffs. */
import type { FieldChange, JsonObject, JsonValue } from '../../model/step.js';

/** A copy without undefined members: in a config, an absent field is unmanaged. */
export function compact<T extends Record<string, unknown>>(obj: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = v;
  return out as { [K in keyof T]: Exclude<T[K], undefined> };
}

/** The remote object restricted to the fields the desired one manages; a field the remote lacks reads as null. */
export function pickManaged(remote: Record<string, unknown>, desired: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(desired)) {
    if (desired[k] === undefined) continue;
    out[k] = (remote[k] === undefined ? null : remote[k]) as JsonValue;
  }
  return out;
}

type Json = JsonValue | undefined;

function isObject(v: Json): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Deep equality of JSON values; object keys in any order. */
export function sameJson(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && sameJson(a[k], b[k]));
  }
  return false;
}

/** The path of a list element: `[2]` by position, `["alice@acme.com"]` by its key. */
function elementPath(path: string, id: JsonValue): string {
  return `${path}[${typeof id === 'string' ? JSON.stringify(id) : String(id)}]`;
}

function walk(path: string, before: Json, after: Json, keyOf: string | undefined, out: FieldChange[]): void {
  if (sameJson(before, after)) return;
  if (before === undefined) {
    out.push({ path, kind: 'add', after: after as JsonValue });
    return;
  }
  if (after === undefined) {
    out.push({ path, kind: 'remove', before });
    return;
  }
  if (isObject(before) && isObject(after)) {
    for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) walk(path === '' ? k : `${path}.${k}`, before[k], after[k], undefined, out);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    // Elements pair up by their key where the field names one, else by position.
    const id = (v: JsonValue, i: number): JsonValue => (keyOf !== undefined && isObject(v) && v[keyOf] !== undefined ? v[keyOf] : i);
    const was = new Map(before.map((v, i) => [JSON.stringify(id(v, i)), { v, i }]));
    const now = new Map(after.map((v, i) => [JSON.stringify(id(v, i)), { v, i }]));
    for (const [k, { v, i }] of was) walk(elementPath(path, id(v, i)), v, now.get(k)?.v, undefined, out);
    for (const [k, { v, i }] of now) if (!was.has(k)) walk(elementPath(path, id(v, i)), undefined, v, undefined, out);
    return;
  }
  out.push({ path, kind: 'change', before, after });
}

/**
 * Field-level differences from `before` to `after`, sorted by path. `embeddedKeys` names, per list
 * field, the member key that identifies its elements (`{members: 'user'}`), so a list is compared by
 * identity and not by position.
 */
export function diffFields(before: JsonObject, after: JsonObject, embeddedKeys: Record<string, string> = {}): FieldChange[] {
  const out: FieldChange[] = [];
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) walk(k, before[k], after[k], embeddedKeys[k], out);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export interface MatchOptions<D, R> {
  /** Natural key of a desired resource. */
  desiredKey(d: D): string;
  /** Natural key of a remote resource (compared with desiredKey and renamedFrom). */
  remoteKey(r: R): string;
  remoteId(r: R): string;
  desiredId?(d: D): string | undefined;
  renamedFrom?(d: D): string | undefined;
}

export interface MatchResult<D, R> {
  pairs: Array<{ desired: D; remote?: R; matchedBy?: 'id' | 'renamedFrom' | 'key' }>;
  /** Remote resources no desired one matched: unmanaged, or deleted when the kind is pruned. */
  unmatched: R[];
}

/**
 * Matches desired resources to remote ones: by `id` where given, else by `renamedFrom` when it names
 * a remote resource, else by natural key. A remote resource matches at most one desired resource.
 */
export function matchResources<D, R>(desired: readonly D[], remote: readonly R[], o: MatchOptions<D, R>): MatchResult<D, R> {
  const taken = new Set<R>();
  const byId = new Map<string, R>();
  const byKey = new Map<string, R>();
  for (const r of remote) {
    byId.set(o.remoteId(r), r);
    if (!byKey.has(o.remoteKey(r))) byKey.set(o.remoteKey(r), r);
  }
  const result: Array<{ desired: D; remote?: R; matchedBy?: 'id' | 'renamedFrom' | 'key' }> = desired.map((d) => ({ desired: d }));
  const passes: Array<['id' | 'renamedFrom' | 'key', (d: D) => R | undefined]> = [
    ['id', (d) => { const id = o.desiredId?.(d); return id === undefined ? undefined : byId.get(id); }],
    ['renamedFrom', (d) => { const k = o.renamedFrom?.(d); return k === undefined ? undefined : byKey.get(k); }],
    ['key', (d) => byKey.get(o.desiredKey(d))],
  ];
  for (const [how, find] of passes) {
    for (const entry of result) {
      if (entry.remote) continue;
      const r = find(entry.desired);
      if (r && !taken.has(r)) {
        taken.add(r);
        entry.remote = r;
        entry.matchedBy = how;
      }
    }
  }
  return { pairs: result, unmatched: remote.filter((r) => !taken.has(r)) };
}

/**
 * Desired resources matched by id or `renamedFrom` whose natural key is held by a remote resource
 * nothing matched. Renaming onto that key would leave two resources with one key, and the config's
 * key would no longer name one resource. Only a problem while the holder is kept, that is when the
 * kind is not pruned (a pruned holder is deleted before the rename).
 */
export function keyCollisions<D, R>(
  match: MatchResult<D, R>,
  o: Pick<MatchOptions<D, R>, 'desiredKey' | 'remoteKey'>,
): Array<{ desired: D; holder: R }> {
  const holders = new Map<string, R>();
  for (const r of match.unmatched) if (!holders.has(o.remoteKey(r))) holders.set(o.remoteKey(r), r);
  const out: Array<{ desired: D; holder: R }> = [];
  for (const p of match.pairs) {
    if (!p.remote || p.matchedBy === 'key') continue;
    const holder = holders.get(o.desiredKey(p.desired));
    if (holder) out.push({ desired: p.desired, holder });
  }
  return out;
}

/** The plan problem of a key collision (see keyCollisions). */
export function collisionMessage(what: string, key: string, kind: string): string {
  return `renaming to ${JSON.stringify(key)} would leave two ${what} with that name: an unmanaged one already has it; rename or remove that one first, or prune ${kind}`;
}
