/** The translation glossary (`glossary:` in the config): its entries, the whole truth when given. */
import { child, type Item } from '../../../source/origin.js';
import { compare, sortBy, type Draft } from '../../common/import.js';
import { LANGUAGES } from '../../common/fields.js';
import type { Importer, KindUnit } from '../../kind.js';
import { GLOSSARY_ADDRESS, desiredKey, entryKey, glossaryModule, readGlossary, termsOf, type RemoteGlossaryEntry } from './glossary.js';
import { GlossaryEntry, type GlossaryEntryT } from './schema.js';

const KNOWN = new Set<string>(LANGUAGES);

const importGlossary: Importer<RemoteGlossaryEntry[]> = {
  read: readGlossary,
  write(remote, sink) {
    const written: Draft[] = [];
    for (const r of sortBy(remote, (e) => entryKey(termsOf(e.translations)), (e) => e.id)) {
      const terms = termsOf(r.translations);
      const unknown = Object.keys(terms).filter((l) => !KNOWN.has(l));
      for (const l of unknown) delete terms[l];
      if (unknown.length > 0) {
        sink.warn(`glossary entry ${r.id}: its terms in ${unknown.sort(compare).join(', ')} are in languages the config cannot hold; not written (a plan would remove them)`);
      }
      if (Object.keys(terms).length === 0) continue;
      written.push({ id: r.id, translations: terms });
    }
    sink.count({ one: 'glossary entry', many: 'glossary entries' }, written.length);
    return written;
  },
};

export const glossaryUnit: KindUnit = {
  configKey: 'glossary',
  list: true,
  schema: GlossaryEntry,
  kinds: [glossaryModule],
  addressNames: { top: [GLOSSARY_ADDRESS] },
  flowMaps: ['glossary.*', 'glossary.*.translations'],
  resolve(entries, ctx) {
    const ids = new Map<string, Item<GlossaryEntryT>>();
    for (const item of entries as readonly Item<GlossaryEntryT>[]) {
      const name = desiredKey(item.value);
      // Every entry is planned in the one glossary step: its address is the glossary's (a pull request's
      // plan reads the glossary when an entry changes).
      ctx.claim(`glossary:${name}`, GLOSSARY_ADDRESS, item.origin, `glossary entry ${name}`);
      const id = item.value.id;
      if (id === undefined) continue;
      if (ids.has(id)) ctx.problems.at(child(item.origin, 'id'), `id "${id}" is also given to glossary entry ${desiredKey(ids.get(id)!.value)}`);
      else ids.set(id, item);
    }
  },
  importer: importGlossary,
};
