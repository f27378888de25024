/**
 * What the generated guarantees test (test/kinds/guarantees.test.ts) shares with the files of rows
 * (one file per area): the row's shape and the worlds' common pieces.
 */
import type { ApiClient } from '../../../src/api/types.js';

export type Guarantee = 'twins' | 'twice' | 'rename' | 'prune' | 'import' | 'resume' | 'preempt';
export const GUARANTEES: readonly Guarantee[] = ['twins', 'twice', 'rename', 'prune', 'import', 'resume', 'preempt'];

/** The organization's seed (emulator state file fields) and the config's lines after `organization`. */
export interface World {
  seed?: Record<string, unknown>;
  yaml: string;
  /** The organization entry's fields after its id (`title: Acme`), where the world sets them. */
  organization?: string;
}

export interface Scenarios {
  /** The remote twin's address (`KEY#ID`, the id given in the seed), or its start (`KEY#`) where the seed cannot give ids. */
  twins?: World & { twin: string };
  /** `config`: the loader refuses it at both lines; `plan`: a plan problem names both addresses. */
  twice?: World & ({ at: 'config'; lines: [number, number] } | { at: 'plan'; addresses: [string, string] });
  /** The entry's address: an update there, no create, no delete. */
  rename?: World & { address: string };
  /** The addresses pruned (deleted); nothing else is deleted. */
  prune?: World & { deletes: string[] };
  /** A config whose plan creates and updates: applied up to each step, then resumed from the file. */
  resume?: World;
  /** A config whose plan creates an object that `other` then creates with another `field`. */
  preempt?: World & { other(client: ApiClient): Promise<void>; address: string; field: string };
}

/** A guarantee's scenario, or why it does not apply (or where it is proven). */
export type Row = { [G in Guarantee]: NonNullable<Scenarios[G & keyof Scenarios]> | string };

export const ORG = 'org_acme';
export const HEAD = `version: 1\norganization: { id: ${ORG} }\n`;
/** The config's first lines for a world. */
export const headOf = (w: World) => (w.organization === undefined ? HEAD : `version: 1\norganization: { id: ${ORG}, ${w.organization} }\n`);
/**
 * A row's import, generated: its resume world (else its prune or rename world) applied, imported and
 * planned again gives no change and nothing of the kind unmanaged. A row gives a reason instead only
 * where import cannot write the kind.
 */
export const IMPORT = 'generated from the row\'s world';
export const NOT_YET = 'not yet planned through the shared analyser (src/kinds/common/analyse.ts); its own table tests cover it';
export const SINGLETON = 'one object per organization (or per site): nothing to twin, name twice, rename or prune';
export const NO_CREATE = 'the API cannot create it: there is no create to pre-empt';
export const ORG_PATH = `/v1/orgs/${ORG}`;

export const SITE = (parts: string) => `sites:\n  - id: site_a\n${parts}`;
export const siteSeed = (extra: Record<string, unknown>) => ({ sites: [{ id: 'site_a', title: 'Docs', ...extra }] });
