/** Translations (`translations:` in the config): a source space and language into another language. */
import { key } from '../../model/address.js';
import { child, type Item } from '../../source/origin.js';
import { referSpace } from '../shared/spaces.js';
import { instructions, sortBy, unique, type Draft } from '../common/import.js';
import type { Importer, KindUnit } from '../kind.js';
import { Translation, type TranslationT } from './schema.js';
import { readTranslations, translationsModule, type RemoteTranslation } from './translations.js';

const importTranslations: Importer<RemoteTranslation[]> = {
  read: readTranslations,
  write(remote, sink) {
    const state = { translations: remote };
    const warn = (m: string) => sink.warn(m);
    const tKey = (t: RemoteTranslation) => `${t.source?.space}/${t.language}`;
    const translations = unique(
      sortBy(state.translations, (t) => String(t.source?.space), (t) => String(t.language), (t) => t.id),
      tKey,
      (t, kept) => warn(`translations${key(tKey(t))}: translations ${kept.id} and ${t.id} have the same source space and language; only ${kept.id} is written`),
    ).map(
      (t): Draft => ({
        id: t.id,
        source: { space: t.source?.space, language: t.source?.language },
        language: t.language,
        instructions: instructions(t.instructions),
      }),
    );

    sink.count(translationsModule.label, translations.length);
    return translations;
  },
};

export const translationsUnit: KindUnit = {
  configKey: 'translations',
  audit: {
    targets: { translation: { by: 'unit' } },
    paths: { translations: 'translation' },
  },
  list: true,
  schema: Translation,
  kinds: [translationsModule],
  addressNames: { top: ['translations'] },
  flowMaps: ['translations.*.source'],
  references: [{ field: 'source.space', target: 'spaces' }],
  resolve(entries, ctx) {
    for (const { value, origin } of entries as readonly Item<TranslationT>[]) {
      const id = `${value.source.space}/${value.language}`;
      if (!ctx.claim(`translation:${id}`, `translations${key(id)}`, origin)) continue;
      referSpace(ctx, value.source.space, `translations${key(id)}`, 'source.space', child(origin, 'source', 'space'));
    }
  },
  importer: importTranslations,
};
