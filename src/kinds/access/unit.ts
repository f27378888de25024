/**
 * Access is a field of three units' entries (`access` on a collection, a space, a site), so it joins
 * those units rather than having a config key of its own: `withAccess` adds the access kind after the
 * unit's own kinds (grants run after the objects they are on and, by the registry's order, after the
 * teams they name), the address names of a grant, and import of the direct grants of every object
 * the unit writes.
 */
import type { Draft } from '../common/import.js';
import type { Importer, KindSpec, KindUnit } from '../kind.js';
import { readMembers, type RemoteMember } from '../shared/members.js';
import { accessDraft, readAllGrants, type AccessTarget, type RemoteGrants } from './grants.js';

interface WithGrants {
  base: unknown;
  members: RemoteMember[];
  grants: Map<string, RemoteGrants>;
}

/** Whether a unit's import state carries grants (a state made without this read, by hand in a test, does not). */
function withGrants(state: unknown): state is WithGrants {
  return typeof state === 'object' && state !== null && 'base' in state && (state as WithGrants).grants instanceof Map;
}

export interface AccessOf {
  target: AccessTarget;
  kind: KindSpec;
  /** The ids of the objects the unit's import read (the grants of each are read). */
  ids(state: unknown): string[];
  /** The address of a written object, for warnings. */
  address(draft: Record<string, Draft | undefined>): string;
  /** Keys under which a written object holds nested objects of the same kind (`collections`). */
  nested?: string;
}

function place(list: Draft | undefined, o: AccessOf, state: WithGrants, warn: (m: string) => void, count: { n: number }): void {
  if (!Array.isArray(list)) return;
  for (const item of list) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
    const entry = item as Record<string, Draft | undefined>;
    const id = entry.id;
    if (typeof id === 'string') {
      const access = accessDraft(state.grants.get(id), state.members, warn, o.address(entry));
      if (access !== undefined) {
        entry.access = access;
        count.n += Object.keys((access as Record<string, object>).teams ?? {}).length + Object.keys((access as Record<string, object>).users ?? {}).length;
      }
    }
    if (o.nested) place(entry[o.nested], o, state, warn, count);
  }
}

/** The unit with its access kind, the grant addresses, and the grants in its import. */
export function withAccess(unit: KindUnit, o: AccessOf): KindUnit {
  const base = unit.importer;
  const importer: Importer<WithGrants> = {
    ...(base.first ? { first: base.first } : {}),
    async read(ctx) {
      const [state, members] = await Promise.all([base.read(ctx), readMembers(ctx)]);
      return { base: state, members, grants: await readAllGrants(ctx, o.target, o.ids(state)) };
    },
    ...(base.notFound ? { notFound: (state: WithGrants) => base.notFound?.(withGrants(state) ? state.base : state) ?? [] } : {}),
    write(state, sink) {
      if (!withGrants(state)) return base.write(state, sink);
      const written = base.write(state.base, sink) as Draft | undefined;
      const count = { n: 0 };
      place(written, o, state, (m) => sink.warn(m), count);
      if (count.n > 0) sink.count(o.kind.label, count.n);
      return written;
    },
  };
  return {
    ...unit,
    kinds: [...unit.kinds, o.kind],
    addressNames: { top: unit.addressNames.top, inner: [...(unit.addressNames.inner ?? []), 'access', 'teams', 'users'] },
    importer: importer as Importer,
  };
}
