/**
 * The remote state of one organization for `docplane import`: every unit's importer reads all of its
 * kind (sharing reads between units: teams, members and collections are read once). The unit marked
 * `first` (the organization itself) is read before the others, so that a wrong organization id is
 * one clear error and not a burst of failed lists.
 */
import type { ApiClient } from '../api/types.js';
import { ApiError, DocplaneError } from '../core/errors.js';
import { UNITS } from '../kinds/index.js';
import { sharedReads, type ImportReadContext } from '../kinds/kind.js';
import { readOnce } from '../plan/reads.js';

/** What import read of one organization: each unit's state, by config key. */
export interface RemoteOrgState {
  org: string;
  states: ReadonlyMap<string, unknown>;
  /** Ids asked for (`--site`) that the organization does not have. */
  notFound: string[];
}

export async function readOrgState(client: ApiClient, org: string, sites: readonly string[]): Promise<RemoteOrgState> {
  // Every GET of the import is sent once (src/plan/reads.ts), whichever unit asks for it.
  const ctx: ImportReadContext = { org, client: readOnce(client).client, shared: sharedReads(), sites };
  const states = new Map<string, unknown>();
  const first = UNITS.filter((u) => u.importer.first);
  try {
    for (const unit of first) states.set(unit.configKey, await unit.importer.read(ctx));
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 403)) {
      throw new DocplaneError('ORG_NOT_FOUND', `organization ${org} was not found, or the token cannot reach it (GET ${err.path} → ${err.status})`, {
        hint: 'Check the --org id, and that the token belongs to a member of that organization.',
      });
    }
    throw err;
  }
  const rest = UNITS.filter((u) => !u.importer.first);
  const read = await Promise.all(rest.map((u) => u.importer.read(ctx)));
  rest.forEach((u, i) => states.set(u.configKey, read[i]));
  const notFound = UNITS.flatMap((u) => u.importer.notFound?.(states.get(u.configKey) as never) ?? []);
  return { org, states, notFound };
}
