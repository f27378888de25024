/**
 * Remote state → config document, for `docplane import`. Pure: the same state gives the same
 * document, whatever order the API listed things in (lists are sorted by natural key, then id),
 * except where the platform's order is the data (sections, section groups and site spaces keep the
 * site's structure order).
 *
 * What is written: every field the config can manage, with the remote value. An empty value is
 * written where the format can say "empty" (null, []), so that a later change to it shows as drift;
 * where it cannot (a space without emoji, say) the field is left out. Ids are written wherever the
 * format takes them, so that a title renamed in the app or in the config plans as an update.
 * Strings from the platform are escaped (`${` → `$${`) so that the loader reads them back as given.
 */
import { UNITS } from '../kinds/index.js';
import { finish, type Draft, type FileNamer, type ImportedFile, type ImportSink, type JsonMap } from '../kinds/common/import.js';
import type { RemoteOrgState } from './read.js';

export { fileNamer, slug, type FileNamer, type ImportedFile } from '../kinds/common/import.js';

export interface OrgImport {
  org: string;
  /** The config document: plain data, keys in the order they are written. */
  document: JsonMap;
  files: ImportedFile[];
  /** What the platform holds that the config format cannot say, and what import did about it. */
  warnings: string[];
  /** Resources written, per kind (singular and plural), in the registry's order, for the summary line. */
  counts: Array<{ one: string; many: string; n: number }>;
}

export function convertOrg(state: RemoteOrgState, files: FileNamer): OrgImport {
  const out: OrgImport = { org: state.org, document: {}, files: [], warnings: [], counts: [] };
  const sink: ImportSink = {
    warn: (message) => out.warnings.push(message),
    file: (file) => out.files.push(file),
    files,
    count: (label, n) => out.counts.push({ ...label, n }),
  };
  const document: Record<string, Draft> = { version: 1 };
  for (const unit of UNITS) {
    const value = unit.importer.write(state.states.get(unit.configKey) as never, sink) as Draft | undefined;
    if (value !== undefined) document[unit.configKey] = value;
  }
  out.document = finish(document) as JsonMap;
  return out;
}
